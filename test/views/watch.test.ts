/**
 * Watching the unit play itself (sim/play/watch.ts, GitHub issue 8): the watcher plays the person's side
 * through keys and LEDs only, in virtual time; the command line's --watch and the page's POST /api/watch.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { feedback } from "../../firmware/core/feedback.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import type { Code, Feedback, Rules } from "../../firmware/core/types.ts";
import { buildFirmware, DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { drawFeedback, symbolColour } from "../../firmware/ui/render.ts";
import type { VirtualBoard } from "../../sim/board/board.ts";
import { bootBoard } from "../../sim/play/script.ts";
import { startSimulator, type Simulator } from "../../sim/web/server.ts";
import { Watcher, type WatchEvent, type WatchOptions } from "../../sim/play/watch.ts";
import { firmware, ROOT } from "./helpers.ts";

type Ev<T extends WatchEvent["type"]> = Extract<WatchEvent, { type: T }>;
const ofType = <T extends WatchEvent["type"]>(events: WatchEvent[], type: T) => events.filter((e): e is Ev<T> => e.type === type);

/** What a code looks like on a board row: its palette names (a blank is an unlit hole). */
const codeLeds = (rules: Rules, code: Code) => code.map((s) => COLOUR_NAMES[symbolColour(rules, s)]);
/** What a feedback looks like on a row's key LEDs, in the preset's look. */
function keysLeds(rules: Rules, fb: Feedback, width: number): string[] {
  const frame = new Uint8Array(width);
  drawFeedback(frame, 0, rules, fb);
  return Array.from(frame, (c) => COLOUR_NAMES[c]);
}

interface Played {
  events: WatchEvent[];
  /** At every row event: that board row's pegs and key LEDs as the board showed them. */
  shown: { board: string[]; keys: string[] }[];
}

/** Plays in virtual time, noting what the LEDs show at each row (rows never scroll in these games). */
function play(board: VirtualBoard, opts: WatchOptions): Played {
  const w = new Watcher(board, opts);
  const shown: Played["shown"] = [];
  const width = board.profile.pegs;
  w.on((e) => {
    if (e.type !== "row") return;
    const at = (e.row - 1) * width;
    shown.push({ board: board.colours("board").slice(at, at + e.guess.length), keys: board.colours("keys").slice(at, at + width) });
  });
  return { events: w.run(), shown };
}

/** Player 0 (red, from the left) and the unit (blue, from the right) on R1's track. */
function trackPoints(board: VirtualBoard): { you: number; unit: number } {
  const t = board.colours("track");
  const half = (px: string[], colour: string) => px.filter((c) => c === colour).length + (px.includes("white") ? 15 : 0);
  return { you: half(t.slice(0, 15), "red"), unit: half(t.slice(15).reverse(), "blue") };
}

function expectUnitGame(played: Played, rules: Rules, width: number, maxRows: number): Ev<"game"> {
  const { events, shown } = played;
  const start = ofType(events, "game-start")[0];
  expect(start.breaker).toBe("unit");
  const secret = start.secret!;
  const rows = ofType(events, "row").filter((r) => r.game === start.game);
  const game = ofType(events, "game").find((g) => g.game === start.game)!;
  expect(game).toMatchObject({ breaker: "unit", solved: true, rows: rows.length, secret });
  expect(rows.length).toBeLessThanOrEqual(maxRows);
  expect(rows[rows.length - 1].guess).toEqual(secret);
  rows.forEach((r, i) => {
    expect(r.row).toBe(i + 1);
    // Every answer keyed is the true feedback, and the LEDs show the row as played.
    expect(r.feedback, `row ${r.row}`).toEqual(feedback(r.guess, secret));
    expect(shown[i].board, `row ${r.row} pegs`).toEqual(codeLeds(rules, r.guess));
    expect(shown[i].keys, `row ${r.row} key LEDs`).toEqual(keysLeds(rules, r.feedback, width));
  });
  // Each guess was seen on the board before it was answered.
  expect(
    ofType(events, "guess")
      .filter((g) => g.game === start.game)
      .map((g) => g.guess),
  ).toEqual(rows.map((r) => r.guess));
  return game;
}

describe("watching the unit play (sim/play/watch.ts)", () => {
  it("plays a Brainiac game on R1: keys a random secret, reads each guess off the LEDs, answers truly; solved within 6 rows", () => {
    const board = bootBoard({ firmware: firmware(), seed: 4 });
    const played = play(board, { preset: "brainiac", games: 1, seed: 21 });
    const rules = rulesFor("brainiac", false);
    const game = expectUnitGame(played, rules, 5, 6);
    expect(game.text).toMatch(/^game 1: the unit solved it in [1-6] rows? \(points: you \d+, unit 0\)$/);
    expect(game.scores).toEqual({ you: game.rows, unit: 0 });
    const secret = ofType(played.events, "game-start")[0].secret!;
    expect(ofType(played.events, "game-start")[0].kept).toBe("keyed");
    // The end as a person sees it: code broken (status LED 2 green), the secret revealed on the slot row.
    expect(board.colours("status")[1]).toBe("green");
    expect(board.colours("pad").slice(12, 16)).toEqual(codeLeds(rules, secret));
    expect(trackPoints(board)).toEqual(game.scores);
    expect(played.events[played.events.length - 1]).toMatchObject({ type: "stopped", reason: "done", games: 1 });
    expect(board.keys.filter((k) => board.isPressed(k.id))).toEqual([]);
    expect(board.errors).toEqual([]);
  });

  it("plays a match of both roles: the unit breaks a code kept in the head, then you break the unit's code with its solver", () => {
    const board = bootBoard({ firmware: firmware(), seed: 8 });
    const played = play(board, { preset: "travel", harder: true, secret: "head", seed: 3 });
    const rules = rulesFor("travel", true);
    expect(ofType(played.events, "setup")[0]).toMatchObject({ preset: "travel", harder: true });
    expect(ofType(played.events, "game-start").map((g) => [g.breaker, g.kept])).toEqual([
      ["unit", "head"],
      ["you", "unit"],
      ["unit", "head"],
      ["you", "unit"],
    ]);
    expectUnitGame(played, rules, 5, rules.rows);
    // Your games: the unit's answers fit the code it revealed at the end.
    for (const g of ofType(played.events, "game").filter((x) => x.breaker === "you")) {
      const rows = ofType(played.events, "row").filter((r) => r.game === g.game);
      expect(g.solved).toBe(true);
      for (const r of rows) expect(r.feedback).toEqual(feedback(r.guess, g.secret!));
    }
    // The default match length (4 games) is played to the end: the scores are the track's.
    const over = ofType(played.events, "match-over");
    expect(over).toHaveLength(1);
    expect(trackPoints(board)).toEqual(over[0].scores);
    const winner = { you: "red", unit: "blue", draw: "white" }[over[0].winner];
    expect(board.colours("status")[0]).toBe(winner);
    expect(played.events[played.events.length - 1]).toMatchObject({ type: "stopped", reason: "done", games: 4 });
    expect(board.errors).toEqual([]);
  });

  it("plays the five-peg race, advanced (blanks and repeats): the game ends solved within its rows", () => {
    const board = bootBoard({ firmware: firmware(), seed: 6 });
    const rules = rulesFor("race", true);
    const played = play(board, { preset: "race", harder: true, games: 1, seed: 9 });
    const game = expectUnitGame(played, rules, 5, rules.rows);
    expect(game.scores.unit).toBe(rules.raceAdvance[game.rows - 1]);
    expect(board.errors).toEqual([]);
  });

  it("takes the unit's menu choice by default, and stops cleanly when asked, releasing its keys", () => {
    const board = bootBoard({ firmware: firmware(), seed: 2 });
    board.tap("p12"); // the menu: the travel unit
    board.advance(100);
    const w = new Watcher(board, { seed: 1 });
    w.on((e) => {
      if (e.type === "guess" && e.row === 2) w.stop();
    });
    const events = w.run();
    expect(ofType(events, "setup")[0]).toMatchObject({ preset: "travel", harder: false, games: null });
    expect(events[events.length - 1]).toMatchObject({ type: "stopped", reason: "asked", games: 0 });
    expect(ofType(events, "row")).toHaveLength(1);
    expect(w.done).toBe(true);
    expect(w.wakeAt).toBe(Infinity);
    expect(board.keys.filter((k) => board.isPressed(k.id))).toEqual([]);
    // Stopped for good: time goes on and nothing more happens.
    const n = w.events.length;
    board.advance(10_000);
    w.poll();
    expect(w.events.length).toBe(n);
  });

  it("says why it stops when the unit cannot go on (switched off)", () => {
    const board = bootBoard({ firmware: firmware() });
    const w = new Watcher(board, { games: 1 });
    w.on((e) => {
      if (e.type === "guess") board.powerOff();
    });
    const last = w.run().at(-1)!;
    expect(last).toMatchObject({ type: "stopped", reason: "error" });
    expect(last.text).toMatch(/switched off/);
  });
});

describe("watching on the mini build (no codemaker pad)", () => {
  let mini = "";
  beforeAll(async () => {
    mini = (await buildFirmware({ profile: "mini-pico", out: join(mkdtempSync(join(tmpdir(), "bb-watch-mini-")), "firmware.js") })).code;
  });

  it("keys the secret and the feedback on the grid, and breaks the unit's code too", () => {
    const board = bootBoard({ profile: "mini-pico", firmware: mini, seed: 5 });
    const rules = rulesFor("brainiac", false);
    const played = play(board, { preset: "brainiac", games: 2, seed: 13 });
    expectUnitGame(played, rules, 4, 6);
    const games = ofType(played.events, "game");
    expect(games.map((g) => [g.breaker, g.solved])).toEqual([
      ["unit", true],
      ["you", true],
    ]);
    expect(board.errors).toEqual([]);
  });

  it("refuses the five-peg race, which the mini build cannot play", () => {
    const board = bootBoard({ profile: "mini-pico", firmware: mini });
    const last = new Watcher(board, { preset: "race" }).run().at(-1)!;
    expect(last).toMatchObject({ type: "stopped", reason: "error" });
    expect(last.text).toMatch(/cannot play the five-peg race/);
  });
});

/** Runs the command line as a child process with the bundle vitest built. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "sim/cli.ts", "--firmware", DEFAULT_OUT, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run sim -- --watch", () => {
  it("prints each row and the game's result", async () => {
    const r = await cli("--watch", "--games", "1", "--seed", "3");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/watching Brainiac on Brainboard R1/);
    expect(r.stdout).toMatch(/game 1: you make the code (\w+ ){3}\w+; the unit breaks it/);
    expect(r.stdout).toMatch(/game 1, row 1: the unit guesses (\w+ ){3}\w+ → \d exact, \d near/);
    expect(r.stdout).toMatch(/game 1: the unit solved it in \d rows?/);
    expect(r.stdout).toMatch(/done: 1 game played\n$/);
  });

  it("--json prints one event a line", async () => {
    const r = await cli("--watch", "--preset", "race", "--games", "1", "--json");
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as WatchEvent);
    expect(events[0]).toMatchObject({ type: "setup", preset: "race", harder: false });
    const game = ofType(events, "game")[0];
    expect(game).toMatchObject({ breaker: "unit", solved: true });
    expect(ofType(events, "row")).toHaveLength(game.rows);
    expect(events.at(-1)).toMatchObject({ type: "stopped", reason: "done" });
  });

  it("refuses a bad preset", async () => {
    const r = await cli("--watch", "--preset", "chess");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--preset needs one of brainiac, travel, race/);
  });
});

describe("POST /api/watch", () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it("watches on the page's board as its clock runs, reports it in the state, and stops when asked", async () => {
    sim = await startSimulator({ firmware: firmware(), port: 0, seed: 4, realtime: false });
    const post = async (body: unknown) => {
      const res = await fetch(new URL("api/watch", sim!.url), { method: "POST", body: JSON.stringify(body), headers: sim!.headers });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    expect((await post({ action: "start", preset: "chess" })).status).toBe(400);
    expect(sim.state().watch).toBeNull();
    const started = await post({ action: "start", games: 1 });
    expect(started.status).toBe(200);
    expect(started.json.watch).toMatchObject({ running: true });
    // The clock runs (a wait, as the page's real-time loop would): the watcher acts on time.
    sim.command("wait 200");
    sim.advance(9000);
    const watching = sim.state().watch!;
    expect(watching.running).toBe(true);
    expect(watching.log.join("\n")).toMatch(/game 1, row 1: the unit guesses .* → \d exact, \d near/);
    const stopped = await post({ action: "stop" });
    expect(stopped.json.watch).toMatchObject({ running: false });
    expect(sim.state().watch?.line).toMatch(/^stopped after 0 games/);
    expect(sim.board.keys.filter((k) => sim!.board.isPressed(k.id))).toEqual([]);
    // A key pressed by hand on the page takes over from a watch.
    await post({ action: "start" });
    sim.advance(1000);
    expect(sim.state().watch?.running).toBe(true);
    await fetch(new URL("api/command", sim.url), { method: "POST", body: "tap menu", headers: sim.headers });
    expect(sim.state().watch).toMatchObject({ running: false, line: "stopped: a key was pressed by hand (after 0 games)" });
    expect(sim.board.errors).toEqual([]);
  });
});
