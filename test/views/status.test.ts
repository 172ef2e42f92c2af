/**
 * The unit's status in words (sim/views/status.ts), as the page shows it: keys in on the bundle, and what
 * the status line, the numbers and the key legends say, read from the firmware's saves and LEDs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../sim/web/server.ts";
import { bundleFor } from "../../sim/board/firmware-bundle.ts";
import { StatusReader, type StatusBoard } from "../../sim/views/status.ts";
import { segmentOffsets } from "../../hardware/profile.ts";
import { frameNames, restoredApp } from "../saves/frame.ts";
import { readSavedState } from "../saves/saved-state.ts";
import { countConsistent } from "../../firmware/core/codes.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { firmware } from "./helpers.ts";
import { SOLVER_TABLE_NAMES } from "../../firmware/tools/tables.ts";

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function start(opts: Parameters<typeof startSimulator>[0] = {}): Promise<Simulator> {
  const sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, seed: 5, ...opts });
  sims.push(sim);
  sim.command("wait 200");
  return sim;
}

const status = (sim: Simulator) => sim.state().status;
const fact = (sim: Simulator, label: string) => status(sim).facts.find((f) => f.label === label)?.value;

describe("the unit's status, for the page", () => {
  it("names the menu's settings and what OK and resume do, and labels the pad's keys with the menu's options", async () => {
    const sim = await start();
    let s = status(sim);
    expect(s.screen).toBe("menu");
    expect(s.line).toMatch(/^Menu: Brainiac, normal, roles 1: two players, the unit referees, 4 games\./);
    expect(s.line).not.toContain("resume");
    expect(s.keys.p11.label).toBe("Brainiac");
    expect(s.keys.p34.label).toBe("unit breaks first");
    expect(s.keys.p56.label).toBe("sound on");
    expect(s.keys.p66.label).toBe("OK: start");
    sim.command("tap p14");
    s = status(sim);
    expect(s.line).toMatch(/^Menu: Brain Flip, Brain Flip rules \(answers flipped\), 3 players, 6x6 cards/);
    expect(s.keys.p33.label).toBe("4 players");
    // A game in progress: the menu says resume is there (the firmware lights it cyan).
    sim.command("tap p11 ok\nwait 100\ntap menu\nwait 100");
    expect(status(sim).line).toContain("resume (row 6, column 5, cyan) goes back to the game in progress");
  });

  it("says whose move it is in a two-player game, with the game's legends on the keys, and counts a refusal", async () => {
    const sim = await start();
    sim.command("tap ok");
    const s = status(sim);
    expect(s.screen).toBe("codebreaker");
    expect(s.line).toBe(
      "Player 1 (red) makes the code: open the shield, key 4 colours on the codemaker pad, then OK. Player 2 (blue), look away.",
    );
    expect(s.keys.p11.label).toBe("1 red");
    expect(s.keys.p17).toBeUndefined();
    expect(s.keys.m34.label).toBe("OK");
    sim.command("tap maker.red maker.green maker.blue maker.yellow maker.ok");
    expect(status(sim).line).toMatch(/^Player 2 \(blue\): key 4 colours on the pad for row 1 of 12, then OK\./);
    expect(status(sim).alert).toBe("");
    sim.command("tap ok"); // an empty row: refused
    expect(status(sim).alert).toMatch(/^Refused: the row has empty holes/);
    sim.command("wait 1500");
    expect(status(sim).alert).toBe("");
    expect(fact(sim, "row")).toBe("1 of 12");
    expect(status(sim).scores).toEqual([
      { name: "player 1 (red)", value: 0, unit: "points" },
      { name: "player 2 (blue)", value: 0, unit: "points" },
    ]);
  });

  it("shows the hint's count as a number while the unit shows it, equal to the codes that fit the rows", async () => {
    const sim = await start();
    sim.command("tap p33 ok\nwait 300"); // roles 3: the unit makes the code, you break it
    expect(status(sim).line).toMatch(/^Break the unit's code: key 4 colours/);
    expect(fact(sim, "codes that still fit")).toBeUndefined();
    sim.command("tap red red green green ok\nwait 500\ntap p26\nwait 1000");
    const board = sim.board.colours("board").slice(0, 4);
    expect(board).toEqual(["red", "red", "green", "green"]);
    const n = Number(fact(sim, "codes that still fit"));
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(1296);
    const keys = sim.board.colours("keys").slice(0, 4);
    const exact = keys.filter((c) => c === "violet").length;
    const near = keys.filter((c) => c === "white").length;
    expect(n).toBe(countConsistent(rulesFor("brainiac", false), [{ guess: [0, 0, 1, 1], feedback: { exact, near } }]));
    expect(status(sim).line).toContain(`Hint: ${n} code`);
    sim.command("wait 6000"); // the hint goes after 5 s
    expect(fact(sim, "codes that still fit")).toBeUndefined();
  });

  it("asks for answers against the unit, and says when they contradict a row, with +3 to the unit in the scores", async () => {
    const sim = await start();
    sim.command("tap p34 ok\nwait 200\ntap maker.ok\nwait 2000"); // roles 4, the code kept in the head
    expect(status(sim).line).toBe("Answer the unit's guess on row 1: exact, near, then OK on the codemaker pad.");
    // Answer "nothing" to every guess: soon no code fits.
    for (let row = 1; row <= 12 && !status(sim).line.includes("contradict"); row++) sim.command("tap maker.ok\nwait 5000");
    const s = status(sim);
    expect(s.line).toMatch(/^Your answers contradict row [\d and]+: \+3 to the unit\. Press OK to replay the game\.$/);
    expect(s.scores).toEqual([
      { name: "you", value: 0, unit: "points" },
      { name: "the unit", value: 3, unit: "points" },
    ]);
    expect(s.history).toEqual([expect.stringMatching(/^Game 1: you made the code; wrong information, replayed: the unit \+3/)]);
  });

  it("tells Brain Flip's Master to pick, then whose question it is and how many are left", async () => {
    const sim = await start();
    sim.command("tap p14 ok");
    let s = status(sim);
    expect(s.screen).toBe("brainflip");
    expect(s.line).toBe("Round 1: player 1 (red) is the Brain Master: pick a card on the pad while the others look away. Nothing lights.");
    expect(s.keys.p11.label).toBe("card 1-1");
    expect(s.keys.m31.label).toBe("yes");
    sim.command("tap p22\ntap maker.yes");
    s = status(sim);
    expect(s.line).toMatch(/^Last answer: yes\. Player 3 \(green\): ask a yes\/no question aloud/);
    expect(s.line).toContain("9 questions left.");
    expect(s.facts).toContainEqual({ label: "questions left", value: "9 of 10" });
    expect(s.history).toEqual(["Question 1: player 2 (blue) asked, answer yes."]);
  });

  it("says when the unit is off", async () => {
    const sim = await start();
    sim.command("power off");
    expect(status(sim).screen).toBe("off");
    expect(status(sim).line).toMatch(/switched off/);
  });

  it("says what the self-test does while it runs (OK held at power-on), and the menu again after a power cycle", async () => {
    const sim = await start();
    sim.command("power off\npress ok\npower on\nwait 100\nrelease ok\nwait 100");
    for (let step = 0; step < 8; step++) {
      const s = status(sim);
      expect(s.screen).toBe("selftest");
      expect(s.line).toBe(
        "Self-test (OK was held at power-on): each LED segment lights white in turn (board, key pegs, secret, pad, track, status), " +
          "then all of them; press and hold any key to see it: its pad LED lights green (a codemaker-pad key: a track LED), " +
          "and the USB console prints key <n> down. Switch off or power cycle to leave.",
      );
      expect(s.board).toMatchObject({ pegs: 5, rows: 12, keyPegs: 5 });
      sim.command("wait 800");
    }
    sim.command("press p22\nwait 100");
    expect(status(sim).screen).toBe("selftest");
    expect(status(sim).keys.p22.about).toMatch(/^self-test: held, it lights its own pad LED green/);
    sim.command("release p22\npower cycle\nwait 300");
    expect(status(sim).screen).toBe("menu");
    expect(status(sim).line).toMatch(/^Menu: /);
  });

  it("says the unit is thinking while it chooses its guess", async () => {
    const sim = await start();
    // Without its tables the unit searches for its guesses after its fixed opening: its move for row 2 takes slices of
    // thought (its table has that move at once).
    for (const name of SOLVER_TABLE_NAMES) sim.board.storage.erase(name);
    sim.command("tap p34 ok\nwait 200\ntap maker.ok\nwait 2000\npress maker.ok");
    const lines: string[] = [];
    for (let t = 0; t < 60; t++) {
      const line = status(sim).line;
      if (lines[lines.length - 1] !== line) lines.push(line);
      sim.command(t === 5 ? "release maker.ok" : "wait 5");
    }
    expect(lines).toContain(
      "The unit is thinking: it is choosing its guess for row 2 of 12 (a light runs along the row while it thinks). Wait for its guess.",
    );
    expect(lines[lines.length - 1]).toBe("Answer the unit's guess on row 2: exact, near, then OK on the codemaker pad.");
  });

  it("says the unit is checking an answer (secret in the head) while the light runs along the row's key pegs", async () => {
    // The check is over within a slice or two on the virtual board: the frames of a longer one come from the
    // firmware's own ui (an App restored from the board's save, the answer's OK pressed, rendered as time passes).
    const sim = await start();
    sim.command("tap p13 p34 ok\nwait 200\ntap maker.ok\nwait 3000"); // the race, roles 4, the secret in the head
    expect(status(sim).line).toBe("Answer the unit's guess on row 1: exact, near, then OK on the codemaker pad.");
    const profile = sim.board.profile;
    const { app } = restoredApp(profile, readSavedState(sim.board), 0);
    const offsets = segmentOffsets(profile);
    let frame: string[] = [];
    const board: StatusBoard = {
      profile,
      isOn: true,
      ledsPowered: true,
      storage: sim.board.storage,
      colours: (seg) => frame.slice(offsets[seg].start, offsets[seg].start + offsets[seg].count),
    };
    const reader = new StatusReader(board);
    const maker = app.layout.maker!;
    // Keying the answer (one exact, one near) blinks the row's empty key holes: not a check.
    app.key(maker.exact, true, 100);
    app.key(maker.exact, false, 150);
    app.key(maker.near, true, 200);
    app.key(maker.near, false, 250);
    for (let t = 300; t < 1500; t += 75) {
      frame = frameNames(app, t);
      expect(reader.status().line).toBe("Answer the unit's guess on row 1: exact, near, then OK on the codemaker pad.");
    }
    app.key(maker.ok, true, 1500);
    app.key(maker.ok, false, 1550);
    const lines = new Set<string>();
    for (let t = 1500; t < 2500; t += 50) {
      frame = frameNames(app, t);
      lines.add(reader.status().line);
    }
    expect([...lines]).toEqual([
      "Answer the unit's guess on row 1: exact, near, then OK on the codemaker pad.",
      "The unit is checking your answer to row 1 against the rows so far (a light runs along the row's key pegs); it counts once no contradiction is found.",
    ]);
  });

  it("gives the part of the board the game uses: the travel unit 4 x 9, Brainiac 4 x 12, the race 5 x 12, Brain Flip a row per question", async () => {
    const sim = await start();
    const board = () => status(sim).board;
    expect(board()).toEqual({ pegs: 4, rows: 12, keyPegs: 4, about: "Brainiac: 4 holes × 12 rows (board of 5 × 12)" });
    sim.command("tap p12");
    expect(board()).toEqual({ pegs: 4, rows: 9, keyPegs: 4, about: "travel unit: 4 holes × 9 rows (board of 5 × 12)" });
    sim.command("tap p13 p22");
    expect(board()).toEqual({ pegs: 5, rows: 12, keyPegs: 5, about: "five-peg race, harder: 5 holes × 12 rows (board of 5 × 12)" });
    sim.command("tap p14 p22");
    expect(board()).toMatchObject({ pegs: 5, rows: 6, keyPegs: 1 });
    // A game in play: its own board, also while the unit is switched off.
    sim.command("tap p12 p21 ok\nwait 200");
    expect(status(sim).screen).toBe("codebreaker");
    expect(board().about).toBe("travel unit: 4 holes × 9 rows (board of 5 × 12)");
    sim.command("power off");
    expect(board().rows).toBe(9);
  });

  it("on a board with fewer rows than the game (mini-pico, 10 rows), Brainiac plays on every row: the latest ones show", async () => {
    const sim = await start({ profile: "mini-pico", firmware: (await bundleFor("mini-pico")).code });
    expect(status(sim).board).toEqual({
      pegs: 4,
      rows: 10,
      keyPegs: 4,
      about: "Brainiac: 4 holes × 12 rows, the latest 10 on the board (board of 4 × 10)",
    });
    sim.command("tap p12");
    expect(status(sim).board).toMatchObject({ pegs: 4, rows: 9 });
  });
});
