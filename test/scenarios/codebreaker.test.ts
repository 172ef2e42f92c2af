/**
 * One scenario per rule of docs/rules.md sections 1 and 2, played with keys on the virtual board running
 * dist/firmware.js and read off its LEDs. Test names are the rules.
 */
import { describe, expect, it } from "vitest";
import { BLANK_LED, LED_NAMES, UnitDriver } from "./driver.ts";

type Sym = number | "blank";
const leds = (code: Sym[]) => code.map((s) => (s === "blank" ? BLANK_LED : LED_NAMES[s]));

/** Distinct wrong guesses for a 4-peg secret with repeats allowed. */
function wrongFour(secret: Sym[], n: number): Sym[][] {
  const out: Sym[][] = [];
  for (let i = 0; out.length < n; i++) {
    const g = [i % 6, (i + 1) % 6, (i + 3) % 6, (i * 5 + 2) % 6];
    if (g.join() !== secret.join()) out.push(g);
  }
  return out;
}
/** Distinct wrong guesses of five different colours (the race's normal guesses). */
function wrongFive(secret: Sym[], n: number): Sym[][] {
  const out: Sym[][] = [];
  for (let i = 0; out.length < n; i++) {
    const g = [0, 1, 2, 3, 4].map((k) => (k + i) % 8);
    if (g.join() !== secret.join()) out.push(g);
  }
  return out;
}

function brainiacReferee(games = 2, harder = false): UnitDriver {
  const u = new UnitDriver();
  u.startMatch({ preset: "brainiac", harder, mode: "referee", games });
  return u;
}

describe("docs/rules.md 1: what every codebreaker preset shares", () => {
  it("feedback gives one exact mark per right colour in the right place and one near mark per right colour in the wrong place", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 2, 4, 5]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 1, look: "pegs" });
  });

  it("seed 000 example B: two reds played against one red in the code give a single black key peg", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 0, 4, 4]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 0 });
  });

  it("seed 000 example D: two yellows give one black and one white, and the blue one more white", () => {
    const u = brainiacReferee();
    u.makerSecret([3, 0, 3, 2]);
    u.guess([3, 3, 2, 4]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 2 });
  });

  it("key marks show all exact first, then all near, never in peg order", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    // The exact peg is the third hole; the near ones the first two.
    u.guess([1, 0, 2, 5]);
    expect(u.feedbackRow(0).pixels).toEqual(["violet", "white", "white", "off", "off"]);
  });

  it("the row where exact equals the pegs ends the game and reveals the secret", () => {
    const u = brainiacReferee();
    u.makerSecret([5, 4, 3, 2]);
    u.guess([0, 1, 2, 3]);
    u.guess([5, 4, 3, 2]);
    expect(u.feedbackRow(1)).toMatchObject({ exact: 4, near: 0 });
    expect(u.status()[1]).toBe("green");
    expect(u.revealed()).toEqual(leds([5, 4, 3, 2]));
    // No third row can be started: the colour keys are no longer offered.
    u.tap("p11");
    expect(u.boardRow(2)).toEqual(["off", "off", "off", "off"]);
  });

  it("when the last row is used without breaking the code, the game ends and the secret is revealed", () => {
    const u = brainiacReferee();
    const secret = [1, 1, 2, 2];
    u.makerSecret(secret);
    for (const g of wrongFour(secret, 12)) u.guess(g);
    expect(u.status()[1]).toBe("orange");
    expect(u.revealed()).toEqual(leds(secret));
  });

  it("after each game the players switch roles", () => {
    const u = brainiacReferee();
    // Game 1: player 0 (red) makes the code: the status LED shows red while the secret is awaited.
    expect(u.status()[0]).toBe("red");
    u.makerSecret([0, 0, 0, 0]);
    expect(u.status()[0]).toBe("blue"); // now the codebreaker, player 1, moves
    u.guess([0, 0, 0, 0]);
    u.tap("p66"); // next game
    expect(u.status()[0]).toBe("blue"); // player 1 makes the code now
  });

  it("a match is the agreed even number of games, and the most points win", () => {
    const u = brainiacReferee(2);
    u.makerSecret([0, 1, 2, 3]); // player 0 makes; player 1 solves in row 2 -> player 0 scores 2
    u.guess([5, 5, 5, 5]);
    u.guess([0, 1, 2, 3]);
    u.tap("p66");
    u.makerSecret([3, 2, 1, 0]); // player 1 makes; player 0 solves in row 3 -> player 1 scores 3
    u.guess([5, 5, 5, 5]);
    u.guess([4, 4, 4, 4]);
    u.guess([3, 2, 1, 0]);
    expect(u.pointScores()).toEqual([2, 3]);
    // The match is over after two games: the winner's colour (player 1, blue) shows.
    expect(u.status()[0]).toBe("blue");
    u.tap("p66");
    // Back to the menu: the preset row offers its options again.
    expect(u.padAt(0)).toBe("white");
  });

  it("an empty hole counts as one more colour in the variants that allow it", () => {
    const u = brainiacReferee(2, true);
    u.makerSecret(["blank", 0, "blank", 1]);
    u.guess(["blank", "blank", 0, 0]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 2 });
    expect(u.boardRow(0)).toEqual(["off", "off", "red", "red"]);
  });

  it("a guess is always complete: an incomplete row is refused, flashes, and costs no row", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    u.tap("p11", "p12", "p13", "p66"); // three pegs only
    expect(u.refusedJustNow("incomplete")).toBe(true); // status LED 2 orange: holes left empty
    expect(u.feedbackRow(0).pixels.every((p) => p === "off")).toBe(true);
    u.tap("p14", "p66"); // the fourth peg, then OK: row 1 is still the row played
    expect(u.feedbackRow(0)).toMatchObject({ exact: 4 });
  });

  it("undo takes back the last peg and clear empties the row", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    u.tap("p11", "p12", "p64"); // red, green, undo
    expect(u.boardRow(0).slice(0, 2)).toEqual(["red", "hole"]);
    u.tap("p15", "p65"); // white, clear
    expect(u.boardRow(0)).toEqual(["hole", "hole", "hole", "hole"]);
  });
});

describe("docs/rules.md 2: Brainiac (seed 000)", () => {
  it("Brainiac: four pegs from six colours, repeats allowed, twelve rows", () => {
    const u = brainiacReferee();
    u.makerSecret([2, 2, 2, 2]); // repeats are allowed in the secret
    const pad = u.board.colours("pad");
    expect(pad.slice(0, 8)).toEqual(["red", "green", "blue", "yellow", "white", "orange", "off", "off"]);
    u.guess([2, 2, 0, 0]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 2, near: 0 });
  });

  it("Brainiac: the codemaker scores one point per row the codebreaker played", () => {
    const u = brainiacReferee();
    u.makerSecret([0, 1, 2, 3]);
    for (const g of wrongFour([0, 1, 2, 3], 4)) u.guess(g);
    u.guess([0, 1, 2, 3]);
    expect(u.pointScores()).toEqual([5, 0]);
  });

  it("Brainiac: the codemaker scores 13 when row 12 fails", () => {
    const u = brainiacReferee();
    const secret = [4, 4, 5, 5];
    u.makerSecret(secret);
    for (const g of wrongFour(secret, 12)) u.guess(g);
    expect(u.pointScores()).toEqual([13, 0]);
  });

  it("Brainiac: a blank is refused in the normal game", () => {
    const u = brainiacReferee();
    u.tap("m31");
    expect(u.refusedJustNow("blank")).toBe(true); // status LED 2 cyan: no blanks in this game
    expect(u.secretPixels().slice(0, 4)).toEqual(["hole", "hole", "hole", "hole"]);
  });

  it("Brainiac extra challenge: the codemaker may leave holes empty, and repeats stay allowed", () => {
    const u = brainiacReferee(2, true);
    u.makerSecret(["blank", "blank", 3, 3]);
    u.guess(["blank", "blank", 3, 3]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 4 });
    expect(u.revealed()).toEqual(["off", "off", "yellow", "yellow"]);
  });

  it("Brainiac: wrong information replays the game and gives the codebreaker 3 points", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "manual", games: 2 });
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 1, 4, 4]);
    u.answer({ exact: 1, near: 0 }); // the truth is 2 exact
    expect(u.pointScores()).toEqual([0, 3]);
    // The row at fault alternates between the answer given and the true one.
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const fb = u.feedbackRow(0);
      seen.add(`${fb.exact}/${fb.near}`);
      u.board.advance(100);
    }
    expect(seen).toEqual(new Set(["1/0", "2/0"]));
    u.tap("p66");
    // Replayed: the same codemaker (player 0, red) sets a new secret, and it does not count as a game.
    expect(u.status()[0]).toBe("red");
    expect(u.boardRow(0)).toEqual(["off", "off", "off", "off"]);
  });
});

describe("docs/rules.md 2: the Mastermind travel unit (seeds 001, 004)", () => {
  const travel = (mode: "referee" | "manual" = "referee", harder = false) => {
    const u = new UnitDriver();
    u.startMatch({ preset: "travel", harder, mode, games: 2 });
    return u;
  };

  it("travel unit: four pegs from eight colours over nine rows", () => {
    const u = travel();
    u.makerSecret([0, 1, 2, 3]);
    expect(u.board.colours("pad").slice(0, 9)).toEqual([...LED_NAMES, "off"]);
    for (const g of wrongFour([0, 1, 2, 3], 9)) u.guess(g);
    expect(u.status()[1]).toBe("orange");
  });

  it("travel unit: a secret with a repeated colour is refused", () => {
    const u = travel();
    u.makerSecret([0, 0, 1, 2]);
    expect(u.refusedJustNow("repeat")).toBe(true); // status LED 2 violet: a colour twice
    expect(u.status()[0]).toBe("red"); // still the codemaker's move
    u.tap("m33", "m33", "m33", "m33"); // undo the four pegs
    u.makerSecret([0, 7, 1, 2]);
    expect(u.status()[0]).toBe("blue");
  });

  it("travel unit: guesses may repeat colours", () => {
    const u = travel();
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 0, 0, 0]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 0 });
  });

  it("travel unit: the red arm shows the exact count and the white arm the near count", () => {
    const u = travel();
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 2, 1, 7]);
    const fb = u.feedbackRow(0);
    expect(fb).toMatchObject({ exact: 1, near: 2, look: "arms" });
    // Over the preset's four holes: the fifth key LED stays dark.
    expect(fb.pixels).toEqual(["red", "off", "white", "white", "off"]);
  });

  it("travel unit: the codemaker scores one point per row the decoder played", () => {
    const u = travel();
    u.makerSecret([7, 6, 5, 4]);
    u.guess([0, 0, 0, 0]);
    u.guess([7, 6, 5, 4]);
    expect(u.pointScores()).toEqual([2, 0]);
  });

  it("travel unit: the codemaker scores 9 when row 9 fails", () => {
    const u = travel();
    u.makerSecret([7, 6, 5, 4]);
    for (const g of wrongFour([7, 6, 5, 4], 9)) u.guess(g);
    expect(u.pointScores()).toEqual([9, 0]);
  });

  it("travel expert: the blank may repeat in the secret but no colour may", () => {
    const u = travel("referee", true);
    u.makerSecret(["blank", 1, 1, "blank"]);
    expect(u.refusedJustNow("repeat")).toBe(true);
    u.tap("m33", "m33", "m33", "m33");
    u.makerSecret(["blank", 1, "blank", 2]);
    expect(u.status()[0]).toBe("blue");
    u.guess(["blank", 1, "blank", 2]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 4 });
  });

  it("travel unit: wrong information gives the decoder 3 points and the game is replayed", () => {
    const u = travel("manual");
    u.makerSecret([0, 1, 2, 3]);
    u.guess([3, 2, 1, 0]);
    u.answer({ exact: 0, near: 3 }); // the truth is 0 exact, 4 near
    expect(u.pointScores()).toEqual([0, 3]);
    u.tap("p66");
    expect(u.status()[0]).toBe("red");
  });
});

describe("docs/rules.md 2: the five-peg race (seed 002)", () => {
  const race = (mode: "referee" | "manual" = "referee", harder = false) => {
    const u = new UnitDriver();
    u.startMatch({ preset: "race", harder, mode });
    return u;
  };
  const secret: Sym[] = [0, 1, 2, 3, 4];

  it("race: a secret of five different colours from eight, over twelve rows", () => {
    const u = race();
    u.makerSecret([0, 0, 1, 2, 3]);
    expect(u.refusedJustNow("repeat")).toBe(true);
    for (let i = 0; i < 5; i++) u.tap("m33");
    u.makerSecret([7, 6, 5, 4, 3]);
    for (const g of wrongFive([7, 6, 5, 4, 3], 12)) u.guess(g);
    expect(u.status()[1]).toBe("orange");
  });

  it("race: normal guesses must use five different colours and no blank", () => {
    const u = race();
    u.makerSecret(secret);
    u.guess([0, 0, 1, 2, 3]);
    expect(u.refusedJustNow("repeat")).toBe(true);
    u.tap("p65"); // clear
    u.tap("p23"); // blank is not offered
    expect(u.refusedJustNow("blank")).toBe(true);
    expect(u.feedbackRow(0).pixels.every((p) => p === "off")).toBe(true);
  });

  it.each([
    [1, 12],
    [4, 12],
    [5, 10],
    [6, 10],
    [7, 8],
    [8, 8],
    [9, 6],
    [10, 6],
    [11, 4],
    [12, 4],
  ])("race: a solve in row %i advances %i holes", (row, holes) => {
    const u = race();
    u.makerSecret(secret);
    for (const g of wrongFive(secret, row - 1)) u.guess(g);
    u.guess(secret);
    // Player 0 made the code: player 1 (blue) broke it and advances.
    expect(u.raceHoles()).toEqual([0, holes]);
  });

  it("race: an unsolved code advances nothing", () => {
    const u = race();
    u.makerSecret(secret);
    for (const g of wrongFive(secret, 12)) u.guess(g);
    expect(u.raceHoles()).toEqual([0, 0]);
  });

  it("race: the first to reach hole 30 wins", () => {
    const u = race();
    // Every code is broken in row 1 (+12): player 1 reaches 36 in game 5, first past 30.
    for (let game = 0; game < 5; game++) {
      u.makerSecret(secret);
      u.guess(secret);
      if (game < 4) u.tap("p66");
    }
    expect(u.status()[0]).toBe("blue");
    expect(u.raceHoles()).toEqual([24, 30]);
  });

  it("race advanced: secret and guesses may repeat colours and leave holes empty", () => {
    const u = race("referee", true);
    u.makerSecret([0, 0, "blank", "blank", 1]);
    u.guess([0, "blank", 0, "blank", 5]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 2, near: 2 });
  });

  it("race: wrong information replays the game and the codebreaker advances 3 holes", () => {
    const u = race("manual");
    u.makerSecret(secret);
    u.guess([1, 0, 2, 3, 4]);
    u.answer({ exact: 3, near: 0 }); // the truth is 3 exact, 2 near
    expect(u.raceHoles()).toEqual([0, 3]);
    u.tap("p66");
    expect(u.status()[0]).toBe("red");
  });
});
