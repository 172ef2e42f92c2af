/**
 * GitHub issue 8 on the unit: the unit breaks codes from its decision tables (role 4 of docs/rules.md 3),
 * thinks in slices with a light running along its row, checks a player's answers for contradictions
 * in slices, and gives a human codebreaker hints. Played with keys on the bundle in the virtual
 * board, which is flashed with the tables as `npm run flash` does; answers are read off the LEDs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { gridKey, LED_NAMES, UnitDriver } from "./driver.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import { codeAt, conflictingRows, countConsistent, isConsistent } from "../../firmware/core/codes.ts";
import { codeSpaceSize, rulesFor } from "../../firmware/core/presets.ts";
import { createSolver, solverTableName } from "../../firmware/core/solver.ts";
import { CHASE_MS } from "../../firmware/ui/codebreaker-picture.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import type { Code, Row, Rules } from "../../firmware/core/types.ts";

const symbolOf = (name: string, colours: number) => (name === "off" ? colours : LED_NAMES.indexOf(name));
/** The hint key (grid position 11: the end of the pad's second row). */
const HINT_KEY = gridKey(11);

function tableOf(rules: Rules): Uint8Array {
  return solverTablesFor(5).find((t) => t.name === solverTableName(rules))!.bytes;
}

/** n secrets spread evenly over the variant's space (the core enumerates it in a fixed order). */
function secretsOf(rules: Rules, n: number): Code[] {
  const size = codeSpaceSize(rules, true);
  return Array.from({ length: n }, (_, i) => codeAt(rules, true, Math.floor(((i + 0.5) * size) / n)));
}

/**
 * Plays one game against the unit in unit-breaks mode with the secret kept in the head, answering
 * every guess truthfully on the codemaker pad; returns the unit's guesses as read off the board.
 */
function unitBreaks(u: UnitDriver, rules: Rules, secret: Code): Code[] {
  u.startMatch({ preset: rules.preset, harder: rules.harder, mode: "unit-breaks" });
  u.tap("m34"); // OK on an empty secret: the code is kept in the head
  const guesses: Code[] = [];
  for (let r = 0; r < rules.rows; r++) {
    const guess = playedRow(u, r, rules);
    guesses.push(guess);
    // A player who takes a while to answer: the unit finishes its pondering meanwhile (one who answers at once: below).
    u.board.advance(2000);
    u.answer(feedback(guess, secret));
    if (guess.join() === secret.join()) break;
  }
  return guesses;
}

/**
 * Board row r once the unit has played it: not empty, and the same for longer than a step of the thinking
 * light (which stands still for CHASE_MS at a time).
 */
function playedRow(u: UnitDriver, r: number, rules: Rules): Code {
  const P = u.board.profile.pegs;
  let previous = "";
  let since = 0;
  for (let i = 0; i < 4000; i++) {
    u.board.advance(25);
    const row = u.board.colours("board").slice(r * P, r * P + rules.pegs);
    if (row.join() !== previous) since = u.board.now;
    else if (u.board.now - since > CHASE_MS + 25 && row.some((c) => c !== "off" && c !== "hole"))
      return row.map((c) => symbolOf(c, rules.colours));
    previous = row.join();
  }
  throw new Error(`the unit never played row ${r + 1}`);
}

/**
 * Waits (in virtual time, at most `ms`) until `leds()` show exactly one white light among unlit ones: the
 * thinking light, which shows once the work has lasted CHASE_MS. Returns whether it showed.
 */
function waitForLight(u: UnitDriver, leds: () => string[], ms = 1000): boolean {
  for (let t = 0; t <= ms; t += 10) {
    const lit = leds().filter((c) => c !== "off");
    if (lit.length === 1 && lit[0] === "white") return true;
    u.board.advance(10);
  }
  return false;
}

/** The codemaker's answer with a quick OK (a tap holds keys 60 ms and waits 60 more: slices would pass unseen). */
function answerQuickly(u: UnitDriver, fb: { exact: number; near: number }): void {
  for (let i = 0; i < fb.exact; i++) u.tap("m31");
  for (let i = 0; i < fb.near; i++) u.tap("m32");
  u.board.press("m34");
  u.board.advance(20);
  u.board.release("m34");
}

/** The guesses the core solver makes for a secret with the same table, pondering while the player answers (what the unit must play). */
function coreGuesses(rules: Rules, table: Uint8Array | undefined, secret: Code): Code[] {
  const s = createSolver(rules, table);
  const rows: Row[] = [];
  const out: Code[] = [];
  for (let r = 0; r < rules.rows; r++) {
    s.start(rows);
    while (!s.step(180));
    const guess = s.guess()!;
    while (!s.ponder(180));
    out.push(guess);
    if (guess.join() === secret.join()) break;
    rows.push({ guess, feedback: feedback(guess, secret) });
  }
  return out;
}

describe("issue 8: the unit breaks codes from its tables (docs/rules.md 3, role 4)", () => {
  const cases: [string, Rules, number, number][] = [
    ["Brainiac", rulesFor("brainiac", false), 6, 4],
    ["Brainiac with blanks", rulesFor("brainiac", true), 6, 3],
    ["travel unit", rulesFor("travel", false), 6, 3],
    ["travel unit, expert", rulesFor("travel", true), 7, 3],
    ["race", rulesFor("race", false), 7, 3],
    ["race, advanced", rulesFor("race", true), 9, 3],
  ];
  for (const [name, rules, worst, games] of cases)
    it(`${name}: the unit plays its table's guesses and breaks the code within ${worst} rows`, () => {
      const table = tableOf(rules);
      for (const secret of secretsOf(rules, games)) {
        const u = new UnitDriver({ seed: 11 });
        const played = unitBreaks(u, rules, secret);
        expect(played, `secret ${secret.join()}`).toEqual(coreGuesses(rules, table, secret));
        expect(played.at(-1)).toEqual(secret);
        expect(played.length).toBeLessThanOrEqual(worst);
        expect(u.status()[1]).toBe("green");
        expect(u.board.errors).toEqual([]);
      }
    });

  it("flashed without tables, the unit still breaks the code, choosing every guess itself", () => {
    const rules = rulesFor("brainiac", false);
    const secret = [5, 1, 1, 3];
    const u = new UnitDriver({ seed: 4, tables: false });
    expect(u.board.storage.read("bb.t.brainiac")).toBeUndefined();
    const played = unitBreaks(u, rules, secret);
    expect(played).toEqual(coreGuesses(rules, undefined, secret));
    expect(played.at(-1)).toEqual(secret);
  });

  it("a move that outlasts a step of the light shows a light running along the unit's row, and keys stay live", () => {
    // Race advanced without its table: the unit enumerates thousands of candidates after the first answer.
    const rules = rulesFor("race", true);
    const secret = [8, 2, 2, 7, 0];
    const u = new UnitDriver({ seed: 6, tables: false });
    u.startMatch({ preset: "race", harder: true, mode: "unit-breaks" });
    u.tap("m34");
    u.board.advance(50);
    const first = u.boardRow(0, 5).map((c) => symbolOf(c, rules.colours));
    answerQuickly(u, feedback(first, secret));
    // While the unit thinks (slices 10 ms apart here), row 2 shows one white light once the move has lasted
    // CHASE_MS, a step along the row every CHASE_MS.
    const row2 = () => u.board.colours("board").slice(5, 10);
    expect(row2().every((c) => c === "off")).toBe(true); // the first step: nothing yet
    expect(waitForLight(u, row2)).toBe(true);
    const seen: number[] = [];
    while (row2().filter((c) => c === "white").length === 1 && row2().filter((c) => c !== "off").length === 1 && seen.length < 400) {
      seen.push(row2().indexOf("white"));
      u.board.advance(10);
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(new Set(seen)).toEqual(new Set([0, 1, 2, 3, 4]));
    const core = coreGuesses(rules, undefined, secret);
    const second = u.boardRow(1, 5).map((c) => symbolOf(c, rules.colours));
    expect(second).toEqual(core[1]);
    // Keys answer while the unit thinks (its slices leave room for key scans): the menu, then back to the game.
    u.answer(feedback(second, secret));
    u.tap("p61");
    expect(u.padAt(2)).toBe("white"); // the menu, with the race chosen
    u.tap(gridKey(34)); // resume
    expect(playedRow(u, 2, rules)).toEqual(core[2]);
    expect(u.board.errors).toEqual([]);
  });

  it("while you work out your answer the unit ponders: the move after a long enumeration comes sooner the longer you take", () => {
    const rules = rulesFor("race", true);
    const table = tableOf(rules);
    // A game where the table's guess comes before a long enumeration, which the unit then finishes in the background.
    let secret: Code = [];
    let early = -1;
    for (let i = 0; early < 0; i++) {
      secret = codeAt(rules, true, (i * 7919) % codeSpaceSize(rules, true));
      const s = createSolver(rules, table);
      const rows: Row[] = [];
      for (let r = 0; r < rules.rows && early < 0; r++) {
        s.start(rows);
        while (!s.step(180));
        const guess = s.guess()!;
        const before = s.evals();
        while (!s.ponder(180));
        const fb = feedback(guess, secret);
        // (An answer of OK alone: on the simulator, whose work takes no time, each key's time leaves it time to finish.)
        // (The enumeration's rest, beyond the split of its candidates by the guess: total() of them.)
        if (s.evals() - before - s.total() > 1500 && fb.exact + fb.near === 0) early = r;
        rows.push({ guess, feedback: fb });
      }
    }
    const core = coreGuesses(rules, table, secret);
    /** Plays to the early guess, answers it `wait` ms after it shows (keys held 20 ms, 20 ms apart), and times the next move from the OK. */
    const nextMoveAfter = (wait: number): { guesses: Code[]; ms: number } => {
      const u = new UnitDriver({ seed: 3 });
      u.startMatch({ preset: "race", harder: true, mode: "unit-breaks" });
      u.tap("m34");
      const guesses: Code[] = [];
      for (let r = 0; r < early; r++) {
        guesses.push(playedRow(u, r, rules));
        u.answer(feedback(guesses[r], secret));
      }
      const P = u.board.profile.pegs;
      const row = (r: number) => u.board.colours("board").slice(r * P, r * P + rules.pegs);
      while (row(early).every((c) => c === "off" || c === "hole")) u.board.advance(5);
      guesses.push(row(early).map((c) => symbolOf(c, rules.colours)));
      u.board.advance(wait);
      const fb = feedback(guesses[early], secret);
      for (const k of [...Array(fb.exact).fill("m31"), ...Array(fb.near).fill("m32")]) {
        u.board.press(k);
        u.board.advance(20);
        u.board.release(k);
        u.board.advance(20);
      }
      // The OK, held until the move shows (its answer counts once the press is seen).
      const from = u.board.now;
      u.board.press("m34");
      while (row(early + 1).every((c) => c === "off" || c === "hole") && u.board.now - from < 5000) u.board.advance(1);
      const ms = u.board.now - from;
      u.board.release("m34");
      guesses.push(playedRow(u, early + 1, rules));
      expect(u.board.errors).toEqual([]);
      return { guesses, ms };
    };
    const atOnce = nextMoveAfter(0);
    const afterThought = nextMoveAfter(2000);
    // Given the time, the unit finishes the enumeration and plays on from its table.
    expect(afterThought.guesses).toEqual(core.slice(0, early + 2));
    // Answered at once, it goes on with the rest for PENDING_MS at most, then sets the table aside and plays a code it
    // finds from all the rows: one that fits them.
    expect(atOnce.guesses.slice(0, early + 1)).toEqual(core.slice(0, early + 1));
    const rows = atOnce.guesses.slice(0, early + 1).map((g) => ({ guess: g, feedback: feedback(g, secret) }));
    expect(isConsistent(atOnce.guesses[early + 1], rows)).toBe(true);
    expect(afterThought.ms).toBeLessThan(atOnce.ms);
  });

  it("a power cut while the unit thinks: at power-on it thinks again and plays the same guess", () => {
    const rules = rulesFor("race", true);
    const secret = [1, 1, 4, 8, 3];
    const u = new UnitDriver({ seed: 8, tables: false });
    u.startMatch({ preset: "race", harder: true, mode: "unit-breaks" });
    u.tap("m34");
    u.board.advance(50);
    const first = u.boardRow(0, 5).map((c) => symbolOf(c, rules.colours));
    answerQuickly(u, feedback(first, secret));
    const row2 = () => u.board.colours("board").slice(5, 10);
    expect(waitForLight(u, row2, CHASE_MS + 50)).toBe(true); // still thinking
    u.board.powerCycle();
    expect(row2().every((c) => c === "off")).toBe(true);
    expect(waitForLight(u, row2, CHASE_MS + 100)).toBe(true); // thinking again
    expect(playedRow(u, 1, rules)).toEqual(coreGuesses(rules, undefined, secret)[1]);
    expect(u.boardRow(0, 5).map((c) => symbolOf(c, rules.colours))).toEqual(first);
    expect(u.board.errors).toEqual([]);
  });

  it("race advanced: a contradictory answer is checked in slices, then the rows in conflict are named", () => {
    const rules = rulesFor("race", true);
    const secret = [3, 3, 0, 6, 8];
    const u = new UnitDriver({ seed: 9 });
    u.startMatch({ preset: "race", harder: true, mode: "unit-breaks" });
    u.tap("m34");
    const rows: Row[] = [];
    for (let r = 0; r < 2; r++) {
      const guess = playedRow(u, r, rules);
      const fb = feedback(guess, secret);
      rows.push({ guess, feedback: fb });
      u.answer(fb);
    }
    const guess = playedRow(u, 2, rules);
    // An answer that no secret fits together with the first two rows.
    let clash: Row | undefined;
    for (let marks = 0; marks <= 5 && !clash; marks++)
      for (let e = 0; e <= marks && !clash; e++) {
        const row = { guess, feedback: { exact: e, near: marks - e } };
        if (!(e === 4 && marks === 5) && countConsistent(rules, [...rows, row], 1) === 0) clash = row;
      }
    expect(clash).toBeDefined();
    answerQuickly(u, clash!.feedback);
    // Checking, in slices 10 ms apart: meanwhile the row's key pegs show the answer as given (a check that
    // lasts longer shows a light running along them: the next test).
    const keysOfRow = () => u.board.colours("keys").slice(10, 15).join();
    const given = [
      ...Array(clash!.feedback.exact).fill("violet"),
      ...Array(clash!.feedback.near).fill("white"),
      ...Array(5 - clash!.feedback.exact - clash!.feedback.near).fill("off"),
    ].join();
    const seen: string[] = [];
    while (u.status()[1] !== "red" && seen.length < 1000) {
      seen.push(keysOfRow());
      u.board.advance(5);
    }
    expect(seen.length).toBeGreaterThan(3);
    expect(new Set(seen)).toEqual(new Set([given]));
    u.board.advance(100);
    expect(u.status()[1]).toBe("red");
    const named = conflictingRows(rules, [...rows, clash!]);
    expect(named).toContain(2);
    // The rows named blink; the others are steady.
    for (let r = 0; r < 3; r++) {
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        u.board.advance(100);
        seen.add(
          u.board
            .colours("keys")
            .slice(r * 5, r * 5 + 5)
            .join(),
        );
      }
      const marks = [...rows, clash!][r].feedback.exact + [...rows, clash!][r].feedback.near;
      if (named.includes(r) && marks > 0) expect(seen.size, `row ${r + 1} blinks`).toBe(2);
      else expect(seen.size, `row ${r + 1} is steady`).toBe(1);
    }
    expect(u.board.errors).toEqual([]);
  });

  it("a check that outlasts a step of the light shows a light running along the row's key pegs", () => {
    // Race advanced without its table, a contradiction in row 3: the check probes the whole space several times.
    const rules = rulesFor("race", true);
    const secret = [8, 7, 6, 5, 4];
    const u = new UnitDriver({ seed: 9, tables: false });
    u.startMatch({ preset: "race", harder: true, mode: "unit-breaks" });
    u.tap("m34");
    const rows: Row[] = [];
    for (let r = 0; r < 2; r++) {
      const guess = playedRow(u, r, rules);
      rows.push({ guess, feedback: feedback(guess, secret) });
      u.answer(feedback(guess, secret));
    }
    const guess = playedRow(u, 2, rules);
    let clash: Row | undefined;
    for (let marks = 0; marks <= 5 && !clash; marks++)
      for (let e = 0; e <= marks && !clash; e++) {
        const row = { guess, feedback: { exact: e, near: marks - e } };
        if (!(e === 4 && marks === 5) && countConsistent(rules, [...rows, row], 1) === 0) clash = row;
      }
    answerQuickly(u, clash!.feedback);
    const keysOfRow = () => u.board.colours("keys").slice(10, 15);
    const seen = new Set<string>();
    let samples = 0;
    while (u.status()[1] !== "red" && samples < 2000) {
      seen.add(keysOfRow().join());
      samples++;
      u.board.advance(10);
    }
    // The answer as given, then with the light (a white light, or a gap over a white peg) at several places.
    expect(samples * 10).toBeGreaterThan(3 * CHASE_MS);
    expect(seen.size).toBeGreaterThan(3);
    expect(u.status()[1]).toBe("red");
    expect(u.board.errors).toEqual([]);
  });
});

describe("issue 8: hints for a human codebreaker", () => {
  /** The count the hint shows on the track: green LEDs one per code up to 30, else orange LEDs, each doubling; one red: none. */
  function shownCount(track: string[]): { colour: string; leds: number } {
    const lit = track.filter((c) => c !== "off");
    return { colour: lit[0] ?? "off", leds: lit.length };
  }
  function expectedLeds(n: number, len: number): { colour: string; leds: number } {
    if (n === 0) return { colour: "red", leds: 1 };
    if (n <= len) return { colour: "green", leds: n };
    return { colour: "orange", leds: Math.min(len, Math.ceil(Math.log2(n))) };
  }

  it("the hint key shows how many codes still fit, and fills the empty row with one of them", () => {
    const rules = rulesFor("brainiac", false);
    const u = new UnitDriver({ seed: 21 });
    u.startMatch({ preset: "brainiac", mode: "unit-makes" });
    expect(u.padAt(11)).toBe("white"); // the hint key is lit while a guess is keyed
    const rows: Row[] = [];
    for (let r = 0; r < 3; r++) {
      u.tap(HINT_KEY);
      u.board.advance(50);
      const n = countConsistent(rules, rows);
      expect(shownCount(u.board.colours("track")), `after ${r} rows: ${n} codes`).toEqual(expectedLeds(n, 30));
      const example = u.boardRow(r).map((c) => symbolOf(c, rules.colours));
      expect(isConsistent(example, rows)).toBe(true);
      u.tap("p66"); // play the example
      u.board.advance(50);
      const fb = u.feedbackRow(r);
      rows.push({ guess: example, feedback: { exact: fb.exact, near: fb.near } });
      if (fb.exact === 4) break;
    }
    // After the hint's 5 s the track shows the scores again.
    u.board.advance(6000);
    expect(u.board.colours("track").filter((c) => c === "green" || c === "orange")).toEqual([]);
  });

  it("a row already begun keeps its pegs; the hint then only counts", () => {
    const rules = rulesFor("travel", false);
    const u = new UnitDriver({ seed: 22 });
    u.startMatch({ preset: "travel", mode: "unit-makes" });
    u.guess([0, 1, 2, 3]);
    u.board.advance(50);
    u.tap(gridKey(4)); // one peg of the next row
    u.tap(HINT_KEY);
    u.board.advance(50);
    expect(u.boardRow(1)[0]).toBe("white");
    expect(
      u
        .boardRow(1)
        .slice(1)
        .every((c) => c !== "white" && LED_NAMES.indexOf(c) < 0),
    ).toBe(true);
    const fb = u.feedbackRow(0);
    const n = countConsistent(rules, [{ guess: [0, 1, 2, 3], feedback: { exact: fb.exact, near: fb.near } }]);
    expect(shownCount(u.board.colours("track"))).toEqual(expectedLeds(n, 30));
  });

  it("race advanced: the hint's code comes at once, and its count grows on the track until it is final", () => {
    const rules = rulesFor("race", true);
    const u = new UnitDriver({ seed: 24 });
    u.startMatch({ preset: "race", harder: true, mode: "unit-makes" });
    // Two rows that hold every colour and leave hundreds of codes or more. The hint key is pressed while the second is keyed
    // (it shows for HINT_MS): the hint for both rows shows from the answer on.
    const guesses = [
      [0, 1, 2, 3, 4],
      [5, 6, 7, 0, 0],
    ];
    u.guess(guesses[0]);
    for (const s of guesses[1]) u.tap(gridKey(s));
    u.tap(HINT_KEY);
    u.board.tap("p66", 40, 0);
    // Every 10 ms: the orange LEDs on the track, and whether the empty row holds a code.
    const bars: number[] = [];
    const filled: boolean[] = [];
    for (let t = 0; t < 2000; t += 10) {
      bars.push(u.board.colours("track").filter((c) => c === "orange").length);
      filled.push(
        u.board
          .colours("board")
          .slice(10, 15)
          .every((c) => c !== "off" && c !== "hole"),
      );
      u.board.advance(10);
    }
    const rows: Row[] = guesses.map((guess, r) => {
      const fb = u.feedbackRow(r);
      return { guess, feedback: { exact: fb.exact, near: fb.near } };
    });
    const n = countConsistent(rules, rows);
    const final = expectedLeds(n, 30);
    expect(final.colour).toBe("orange");
    // A code that fits fills the empty row before the count is final; meanwhile the count found so far shows (orange, about
    // log2 of it) and only grows, until it is the count of every code that fits.
    expect(
      isConsistent(
        u.boardRow(2, 5).map((c) => symbolOf(c, rules.colours)),
        rows,
      ),
    ).toBe(true);
    const finalAt = bars.indexOf(final.leds);
    expect(filled.indexOf(true)).toBeGreaterThanOrEqual(0);
    expect(filled.indexOf(true)).toBeLessThan(finalAt);
    expect(bars.slice(0, finalAt).some((b) => b > 0)).toBe(true);
    for (let i = 1; i < bars.length; i++) expect(bars[i]).toBeGreaterThanOrEqual(bars[i - 1]);
    expect(shownCount(u.board.colours("track"))).toEqual(final);
    expect(u.board.errors).toEqual([]);
  });

  let miniCode = "";
  beforeAll(async () => {
    miniCode = (await buildFirmware({ profile: "mini-pico", out: join(mkdtempSync(join(tmpdir(), "bb-mini-hint-")), "firmware.js") })).code;
  });

  it("the mini build, without a track, shows the count on the pad's free rows", () => {
    const rules = rulesFor("brainiac", false);
    const u = new UnitDriver({ seed: 23, profile: "mini-pico", firmware: miniCode });
    u.tap(gridKey(0), gridKey(6), gridKey(12 + 2), gridKey(18), "p66"); // Brainiac, unit makes, 2 games
    u.tap(HINT_KEY);
    u.board.advance(50);
    const bar = u.board.colours("pad").slice(18, 30);
    expect(shownCount(bar)).toEqual(expectedLeds(codeSpaceSize(rules, true), 12));
  });
});
