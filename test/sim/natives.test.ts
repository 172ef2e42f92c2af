import { describe, expect, it } from "vitest";
import { boot } from "./helpers.ts";

// The expected values were printed by the real interpreter (Espruino 2v29, $BRAINBOARD_ESPRUINO_DIR).
describe("Espruino's whole-array natives", () => {
  it("Uint24Array is a little-endian view of 3 bytes an element, and E.mapInPlace maps a frame into it through a table", () => {
    const board = boot(`var bytes = new Uint8ClampedArray(9); var view = new Uint24Array(bytes.buffer);
      E.mapInPlace(new Uint8Array([0, 1, 0]), view, new Uint32Array([0x030201, 0x0a0b0c]));`);
    expect(board.repl("bytes.join()")).toBe("1,2,3,12,11,10,1,2,3");
    expect(board.repl("view.length + ' ' + view[1]")).toBe(`3 ${0x0a0b0c}`);
  });

  it("E.sum adds the elements, after E.mapInPlace has looked each one up", () => {
    const board = boot(`var sums = new Uint16Array(3); E.mapInPlace(new Uint8Array([0, 1, 1]), sums, new Uint16Array([500, 700]));`);
    expect(board.repl("E.sum(sums)")).toBe(1900);
  });

  it("E.CRC32 is the IEEE CRC-32 of bytes and of 8-bit strings", () => {
    const board = boot(``);
    expect(board.repl("E.CRC32(new Uint8Array([1, 2, 3]))")).toBe(1438416925);
    expect(board.repl('E.CRC32("abc")')).toBe(891568578);
  });
});
