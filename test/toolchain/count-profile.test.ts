/**
 * bench:micro --count --profile (test/bench/count.ts): where a counted piece's instructions go, read from
 * callgrind_annotate's table of the two runs (with the piece n times, and without), per function and per piece.
 */
import { describe, expect, it } from "vitest";
import { parseAnnotate, profileDiff, strippedProfile } from "../bench/count.ts";

const TABLE = (lines: string[]) =>
  [
    "--------------------------------------------------------------------------------",
    "Ir                   file:function",
    "--------------------------------------------------------------------------------",
    ...lines,
    "",
  ].join("\n");

describe("bench:micro --count --profile", () => {
  it("reads each function's own instructions from callgrind_annotate's table, a recursive function's levels as one", () => {
    const text = TABLE([
      "457,465,847 (100.0%)  PROGRAM TOTALS",
      "45,717,180 ( 9.99%)  /src/Espruino/src/jsvar.c:jsvGetAddressOf [/tools/espruino]",
      " 1,200,000 ( 0.26%)  /src/Espruino/src/jsparse.c:jspeStatement [/tools/espruino]",
      "   300,000 ( 0.07%)  /src/Espruino/src/jsparse.c:jspeStatement'2 [/tools/espruino]",
      "       512 ( 0.00%)  ???:0x0000000000012345 [/usr/lib/libc.so.6]",
    ]);
    const m = parseAnnotate(text);
    expect(m.get("jsvGetAddressOf")).toBe(45_717_180);
    expect(m.get("jspeStatement")).toBe(1_500_000);
    expect(m.get("0x0000000000012345")).toBe(512);
    expect(m.has("TOTALS")).toBe(false);
    expect(m.size).toBe(3);
    // Inclusive, the outermost calls already hold the deeper ones.
    expect(parseAnnotate(text, true).get("jspeStatement")).toBe(1_200_000);
  });

  it("gives a piece's share per function: what the run with n pieces has more, over n, the largest first", () => {
    const without = new Map([
      ["jslGetNextToken", 1_000_000],
      ["jsvGetAddressOf", 5_000_000],
      ["jswrap_espruino_sum", 0],
    ]);
    const withPiece = new Map([
      ["jslGetNextToken", 1_400_000],
      ["jsvGetAddressOf", 9_000_000],
      ["jswrap_espruino_mapInPlace", 2_000_000],
      ["jswrap_espruino_sum", 0],
    ]);
    expect(profileDiff(without, withPiece, 40, 2)).toEqual([
      { fn: "jsvGetAddressOf", instructions: 100_000 },
      { fn: "jswrap_espruino_mapInPlace", instructions: 50_000 },
    ]);
    expect(profileDiff(without, withPiece, 40, 10).map((l) => l.fn)).toEqual([
      "jsvGetAddressOf",
      "jswrap_espruino_mapInPlace",
      "jslGetNextToken",
    ]);
  });

  it("tells a stripped interpreter's profile (its functions are addresses) from one with names", () => {
    expect(
      strippedProfile([
        { fn: "0x00000000000064e0", instructions: 9 },
        { fn: "0x0000000000011d22", instructions: 5 },
      ]),
    ).toBe(true);
    expect(
      strippedProfile([
        { fn: "jsvGetAddressOf", instructions: 9 },
        { fn: "0x0000000000011d22", instructions: 5 },
      ]),
    ).toBe(false);
    expect(strippedProfile([])).toBe(false);
  });
});
