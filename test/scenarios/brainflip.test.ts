/**
 * docs/rules.md 4: Brain Flip, played with keys on the virtual board running dist/firmware.js and read off
 * its LEDs. Cards are grid keys; the Master's keys are on the codemaker pad (m31 yes, m32 no,
 * m33 correct the last answer, m24 "made it impossible", m34 OK, m11 menu).
 */
import { describe, expect, it } from "vitest";
import { gridKey, UnitDriver } from "./driver.ts";

const PLAYERS = ["red", "blue", "green", "yellow", "orange", "pink"];
const TRACK_POINTS = 12;

interface FlipSetup {
  mode?: "flip" | "straight";
  players?: number;
  grid?: number;
  unitFlips?: boolean;
}

class FlipDriver extends UnitDriver {
  grid = 6;
  start(s: FlipSetup = {}): void {
    this.grid = s.grid ?? 6;
    this.tap(gridKey(3)); // Brain Flip on the menu's first row
    this.tap(gridKey(s.mode === "straight" ? 7 : 6));
    this.tap(gridKey(12 + (s.players ?? 3) - 2));
    this.tap(gridKey(18 + this.grid - 2));
    if (s.unitFlips) this.tap(gridKey(23));
    this.tap("p66");
  }
  cardKey(card: number): string {
    return gridKey(Math.floor(card / this.grid) * 6 + (card % this.grid));
  }
  pick(card: number): void {
    this.tap(this.cardKey(card));
  }
  guessCard(card: number): void {
    this.tap(this.cardKey(card));
  }
  yes(): void {
    this.tap("m31");
  }
  no(): void {
    this.tap("m32");
  }
  /** Whose move: the colour name of the player on status LED 0. */
  mover(): string {
    this.settle();
    return this.status()[0];
  }
  questionsLeft(): number {
    this.settle();
    return this.board
      .colours("track")
      .slice(0, TRACK_POINTS)
      .filter((c) => c === "white").length;
  }
  points(player: number): number {
    const t = this.board.colours("track").slice(TRACK_POINTS + player * 3, TRACK_POINTS + player * 3 + 3);
    return t.filter((c) => c === PLAYERS[player]).length;
  }
  /** The answer bar of question q on the board (green yes, red no, orange wrong guess, white right guess). */
  bar(q: number): string {
    this.settle();
    return this.board.colours("board")[q * this.board.profile.pegs];
  }
  card(card: number): string {
    this.settle();
    const g = Math.floor(card / this.grid) * 6 + (card % this.grid);
    return this.board.colours("pad")[g];
  }
}

function flip(s: FlipSetup = {}): FlipDriver {
  const u = new FlipDriver();
  u.start(s);
  return u;
}

describe("docs/rules.md 4: Brain Flip", () => {
  it("the Master picks a card on the pad and nothing lights to give it away", () => {
    const u = flip();
    const before = u.board.colours("pad");
    expect(before.slice(0, 6)).toEqual(Array(6).fill("cyan"));
    u.pick(14);
    expect(u.board.colours("pad")).toEqual(before);
    expect(u.board.colours("secret").every((c) => c === "off")).toBe(true);
  });

  it("turns go clockwise, starting with the player on the Master's left", () => {
    const u = flip({ players: 3 });
    expect(u.mover()).toBe("red"); // player 1 is the Master and picks
    u.pick(0);
    expect(u.mover()).toBe("blue");
    u.yes();
    expect(u.mover()).toBe("green");
    u.no();
    expect(u.mover()).toBe("blue"); // the Master never asks
  });

  it("Brain Flip rules: players have 10 questions in all", () => {
    const u = flip({ players: 2 });
    u.pick(5);
    expect(u.questionsLeft()).toBe(10);
    for (let i = 0; i < 9; i++) u.no();
    expect(u.questionsLeft()).toBe(1);
  });

  it("play it straight: players have 6 questions in all", () => {
    const u = flip({ players: 2, mode: "straight" });
    u.pick(5);
    expect(u.questionsLeft()).toBe(6);
  });

  it("if nobody finds the card within the limit, the Master scores 1 point", () => {
    const u = flip({ players: 2, mode: "straight" });
    u.pick(5);
    for (let i = 0; i < 6; i++) u.yes();
    expect(u.points(0)).toBe(1);
    expect(u.points(1)).toBe(0);
    // The round is over: the picked card blinks green.
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      seen.add(u.card(5));
      u.board.advance(100);
    }
    expect(seen).toEqual(new Set(["green", "off"]));
  });

  it("a guess counts as one question", () => {
    const u = flip({ players: 3 });
    u.pick(7);
    u.guessCard(8);
    expect(u.questionsLeft()).toBe(9);
    expect(u.bar(0)).toBe("orange");
  });

  it("a guess is always answered truthfully, even under the Brain Flip rules", () => {
    const u = flip({ players: 3, mode: "flip" });
    u.pick(7);
    u.guessCard(7);
    expect(u.bar(0)).toBe("white");
    expect(u.points(1)).toBe(1);
  });

  it("a right guess scores 1 point and ends the round", () => {
    const u = flip({ players: 3 });
    u.pick(20);
    u.no();
    u.guessCard(20); // player 3 (green) finds it
    expect(u.points(2)).toBe(1);
    expect(u.points(1)).toBe(0);
    u.tap("m31"); // no more answers once the round is over
    expect(u.refusedJustNow()).toBe(true);
  });

  it("a wrong guesser can no longer score this round, and the card goes dark", () => {
    const u = flip({ players: 3 });
    u.pick(2);
    u.guessCard(3); // player 2 (blue) guesses wrong
    expect(u.card(3)).toBe("off");
    expect(u.mover()).toBe("green");
    u.no();
    expect(u.mover()).toBe("green"); // blue is barred and skipped
    u.guessCard(3); // a card already guessed wrong is refused and costs nothing
    expect(u.refusedJustNow()).toBe(true);
    expect(u.questionsLeft()).toBe(8);
  });

  it("when every other player has guessed wrong, the round ends and the Master scores", () => {
    const u = flip({ players: 3 });
    u.pick(2);
    u.guessCard(3);
    u.guessCard(4);
    expect(u.points(0)).toBe(1);
  });

  it("the Master role moves clockwise after every round", () => {
    const u = flip({ players: 3 });
    u.pick(0);
    u.guessCard(0);
    u.tap("m34"); // next round
    expect(u.mover()).toBe("blue"); // player 2 is the Master now, picking
    u.pick(1);
    expect(u.mover()).toBe("green"); // the player on the new Master's left asks first
  });

  it("the game ends when a player reaches 3 points", () => {
    const u = flip({ players: 2 });
    // Each round the player who is not the Master finds the card at once: 1, 0, 1, 0, 1 for player 2.
    for (let round = 0; round < 5; round++) {
      u.pick(round);
      u.guessCard(round);
      if (round < 4) u.tap("m34");
    }
    expect(u.points(1)).toBe(3);
    expect(u.mover()).toBe("blue"); // the winner's colour
    u.tap("m34");
    expect(u.padAt(3)).toBe("white"); // back on the menu, Brain Flip chosen
  });

  it("a Master mistake corrected at once, before the next question, has no consequence", () => {
    const u = flip({ players: 2 });
    u.pick(9);
    u.yes();
    expect(u.status()[1]).toBe("green");
    u.tap("m33"); // correct it
    expect(u.status()[1]).toBe("red");
    expect(u.bar(0)).toBe("red");
    expect(u.questionsLeft()).toBe(9);
    expect(u.points(0)).toBe(0);
  });

  it("a Master mistake that made the card impossible to find costs the Master a point and starts a new round with the next Master", () => {
    const u = flip({ players: 2, mode: "straight" });
    u.pick(1);
    for (let i = 0; i < 6; i++) u.no(); // unfound: player 1, the Master, scores
    expect(u.points(0)).toBe(1);
    u.tap("m34");
    u.pick(2); // player 2 is Master
    u.guessCard(2); // player 1 finds it: 2 points
    u.tap("m34");
    u.pick(3); // player 1 is Master again, with 2 points
    u.no();
    u.tap("m24"); // made it impossible
    expect(u.points(0)).toBe(1);
    u.tap("m34");
    expect(u.mover()).toBe("blue"); // the next Master picks
  });

  it("a Master mistake at 0 points stays at 0", () => {
    const u = flip({ players: 2 });
    u.pick(1);
    u.tap("m24");
    expect(u.points(0)).toBe(0);
  });

  it("by default the Master keys the answer as spoken", () => {
    const u = flip({ players: 2, mode: "flip" });
    u.pick(1);
    u.yes();
    expect(u.bar(0)).toBe("green");
  });

  it("with the unit flipping, the Master keys the true answer and the unit shows the opposite", () => {
    const u = flip({ players: 2, mode: "flip", unitFlips: true });
    u.pick(1);
    u.yes();
    expect(u.bar(0)).toBe("red");
    expect(u.status()[1]).toBe("red");
  });

  it("young players: a 3x3 grid uses only nine cards of the pad", () => {
    const u = flip({ players: 2, grid: 3 });
    const pad = u.board.colours("pad");
    const lit = pad.map((c, g) => (c === "cyan" ? g : -1)).filter((g) => g >= 0);
    expect(lit).toEqual([0, 1, 2, 6, 7, 8, 12, 13, 14]);
    u.tap(gridKey(4)); // outside the grid: not a card
    expect(u.refusedJustNow()).toBe(true);
  });

  it("up to 6 players take their turns in seat order", () => {
    const u = flip({ players: 6 });
    u.pick(0);
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      order.push(u.mover());
      u.no();
    }
    expect(order).toEqual(["blue", "green", "yellow", "orange", "pink", "blue"]);
  });
});
