import { describe, expect, it } from "vitest";
import { feedback } from "../../firmware/core/feedback";
import type { Code } from "../../firmware/core/types";
import { plainValidCodes, seededRandom } from "./helpers";

// Brainiac's six colours, named for the seed's examples (symbol numbers are arbitrary).
const RED = 0;
const BLUE = 1;
const YELLOW = 2;
const GREEN = 3;
const ORANGE = 4;
const PURPLE = 5;

describe("seed 000's examples (Brainiac leaflet, figures 1-4)", () => {
  const secret: Code = [RED, BLUE, YELLOW, GREEN];

  it("example A: one right colour in the right place, one in the wrong place, two missing", () => {
    expect(feedback([RED, GREEN, ORANGE, PURPLE], secret)).toEqual({ exact: 1, near: 1 });
  });

  it("example B: two reds played with one red in the code give one black only", () => {
    expect(feedback([RED, RED, ORANGE, PURPLE], secret)).toEqual({ exact: 1, near: 0 });
  });

  it("example C: only one white for the blue, though two blues were played", () => {
    expect(feedback([BLUE, ORANGE, BLUE, PURPLE], [RED, YELLOW, GREEN, BLUE])).toEqual({ exact: 0, near: 1 });
  });

  it("example D: the yellow pair gives one black and one white, plus a white for the blue", () => {
    expect(feedback([YELLOW, YELLOW, BLUE, ORANGE], [YELLOW, BLUE, RED, YELLOW])).toEqual({ exact: 1, near: 2 });
  });
});

describe("feedback (docs/rules.md 1)", () => {
  it("a secret peg is matched at most once and an exact match is preferred over a near one", () => {
    // Red at hole 0 of both: the exact match takes the only red, the second red played gets nothing.
    expect(feedback([RED, ORANGE, RED, ORANGE], [RED, BLUE, BLUE, BLUE])).toEqual({ exact: 1, near: 0 });
    // Two reds in the code, one played in place and one out of place.
    expect(feedback([RED, RED, ORANGE, ORANGE], [RED, BLUE, RED, BLUE])).toEqual({ exact: 1, near: 1 });
  });

  it("feedback lists exact before near and never says which peg", () => {
    const fb = feedback([RED, GREEN, ORANGE, PURPLE], [RED, BLUE, YELLOW, GREEN]);
    expect(Object.keys(fb)).toEqual(["exact", "near"]);
    // Moving the same holes of guess and secret around never changes the feedback: it holds counts only.
    const codes = plainValidCodes("brainiac", false, true);
    const rand = seededRandom(7);
    for (let n = 0; n < 500; n++) {
      const guess = codes[Math.floor(rand() * codes.length)];
      const secret = codes[Math.floor(rand() * codes.length)];
      const order = [0, 1, 2, 3].sort(() => rand() - 0.5);
      const moved = feedback(
        order.map((i) => guess[i]),
        order.map((i) => secret[i]),
      );
      expect(moved).toEqual(feedback(guess, secret));
    }
  });

  it("the blank is treated exactly as one more colour", () => {
    const BLANK = 6;
    expect(feedback([BLANK, RED, BLANK, GREEN], [BLANK, BLANK, RED, BLUE])).toEqual({ exact: 1, near: 2 });
    expect(feedback([BLANK, BLANK, BLANK, BLANK], [BLANK, BLANK, BLANK, BLANK])).toEqual({ exact: 4, near: 0 });
  });

  it("works for five pegs and for the blank of an eight-colour preset", () => {
    expect(feedback([0, 1, 2, 3, 4], [4, 3, 2, 1, 0])).toEqual({ exact: 1, near: 4 });
    expect(feedback([8, 8, 7, 7, 0], [7, 8, 8, 8, 1])).toEqual({ exact: 1, near: 2 });
  });

  it("does not change its arguments", () => {
    const guess = [RED, RED, BLUE, GREEN];
    const secret = [GREEN, RED, RED, BLUE];
    feedback(guess, secret);
    expect(guess).toEqual([RED, RED, BLUE, GREEN]);
    expect(secret).toEqual([GREEN, RED, RED, BLUE]);
  });
});
