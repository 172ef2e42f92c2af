import { describe, expect, it } from "vitest";
import { bootedBoard } from "./helpers.ts";

describe("saved state on the built bundle", () => {
  it("a match in progress survives a power cycle", () => {
    const board = bootedBoard();
    board.tap("p66"); // start a Brainiac referee match
    // Codemaker keys the secret red, green, blue, yellow on the codemaker pad and confirms.
    for (const k of ["m11", "m12", "m13", "m14", "m34"]) board.tap(k);
    // Codebreaker guesses red, red, green, green.
    for (const k of ["p11", "p11", "p12", "p12", "p66"]) board.tap(k);
    const boardBefore = board.colours("board").slice(0, 5);
    const keysBefore = board.colours("keys").slice(0, 5);
    expect(boardBefore.slice(0, 4)).toEqual(["red", "red", "green", "green"]);
    board.powerCycle();
    board.advance(100);
    expect(board.colours("board").slice(0, 5)).toEqual(boardBefore);
    expect(board.colours("keys").slice(0, 5)).toEqual(keysBefore);
    expect(board.errors).toEqual([]);
  });
});
