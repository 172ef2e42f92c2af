/**
 * The unit's status in words (sim/status.ts), as the page shows it: keys in on the bundle, and what
 * the status line, the numbers and the key legends say, read from the firmware's saves and LEDs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../sim/server.ts";
import { countConsistent } from "../../firmware/core/codes.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { firmware } from "./helpers.ts";

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
    expect(s.keys.p34.label).toBe("4: vs unit, it breaks");
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
});
