import { describe, expect, it } from "vitest";
import { codeAt, conflictingRows, countConsistent, firstConsistent, forEachCode, isConsistent } from "../../firmware/core/codes";
import { codeSpaceSize, rulesFor } from "../../firmware/core/presets";
import type { Code, Row } from "../../firmware/core/types";
import { plainValidCodes, VARIANTS } from "./helpers";

const brainiac = rulesFor("brainiac", false);

function row(guess: Code, exact: number, near: number): Row {
  return { guess: guess, feedback: { exact: exact, near: near } };
}

describe("forEachCode and codeAt", () => {
  for (const variant of VARIANTS) {
    it(`${variant.name}: forEachCode visits every valid secret and every valid guess once, in lexicographic order`, () => {
      const rules = rulesFor(variant.preset, variant.harder);
      for (const forSecret of [true, false]) {
        const expected = plainValidCodes(variant.preset, variant.harder, forSecret);
        const visited: string[] = [];
        forEachCode(rules, forSecret, (code) => {
          visited.push(code.join());
        });
        expect(visited.length).toBe(expected.length);
        expect(visited).toEqual(expected.map((c) => c.join()));
      }
    });

    it(`${variant.name}: codeAt(i) is the i-th code of forEachCode`, () => {
      const rules = rulesFor(variant.preset, variant.harder);
      for (const forSecret of [true, false]) {
        let index = 0;
        let firstWrong = -1;
        forEachCode(rules, forSecret, (code) => {
          if (firstWrong < 0 && codeAt(rules, forSecret, index).join() !== code.join()) firstWrong = index;
          index++;
        });
        expect(firstWrong).toBe(-1);
        expect(index).toBe(codeSpaceSize(rules, forSecret));
      }
    });
  }

  it("forEachCode hands the callee one reused array, so a callee keeps a code by copying it", () => {
    const seen = new Set<Code>();
    const copies: Code[] = [];
    forEachCode(brainiac, true, (code) => {
      seen.add(code);
      copies.push(code.slice());
    });
    expect(seen.size).toBe(1);
    expect(copies[0]).toEqual([0, 0, 0, 0]);
    expect(copies[1295]).toEqual([5, 5, 5, 5]);
  });

  it("forEachCode stops as soon as the callee returns true", () => {
    let calls = 0;
    forEachCode(brainiac, true, (code) => {
      calls++;
      return code[3] === 2;
    });
    expect(calls).toBe(3);
  });
});

describe("consistency", () => {
  const secret = [0, 1, 2, 3];
  const rows = [row([0, 0, 1, 1], 1, 1), row([2, 3, 4, 5], 0, 2)];

  it("isConsistent: a code is consistent when it gives the recorded feedback for every row", () => {
    expect(isConsistent(secret, rows)).toBe(true);
    expect(isConsistent([0, 1, 3, 2], rows)).toBe(true);
    expect(isConsistent([0, 0, 0, 0], rows)).toBe(false);
    expect(isConsistent([0, 1, 2, 2], rows)).toBe(false);
    expect(isConsistent([5, 5, 5, 5], [])).toBe(true);
  });

  it("countConsistent counts the valid secrets consistent with the rows, and stops at the limit", () => {
    let expected = 0;
    for (const code of plainValidCodes("brainiac", false, true)) if (isConsistent(code, rows)) expected++;
    expect(countConsistent(brainiac, rows)).toBe(expected);
    expect(expected).toBeGreaterThan(2);
    expect(countConsistent(brainiac, rows, 2)).toBe(2);
    expect(countConsistent(brainiac, [])).toBe(1296);
  });

  it("countConsistent only counts valid secrets (travel: no repeated colour)", () => {
    expect(countConsistent(rulesFor("travel", false), [row([0, 0, 0, 0], 0, 0)])).toBe(7 * 6 * 5 * 4);
  });

  it("firstConsistent returns the first consistent secret at or after the start index, wrapping around", () => {
    const consistent: string[] = [];
    for (const code of plainValidCodes("brainiac", false, true)) if (isConsistent(code, rows)) consistent.push(code.join());
    expect(firstConsistent(brainiac, rows)?.join()).toBe(consistent[0]);
    const last = plainValidCodes("brainiac", false, true).findIndex((c) => c.join() === consistent[consistent.length - 1]);
    expect(firstConsistent(brainiac, rows, last)?.join()).toBe(consistent[consistent.length - 1]);
    expect(firstConsistent(brainiac, rows, last + 1)?.join()).toBe(consistent[0]);
    expect(firstConsistent(brainiac, [row([0, 0, 0, 0], 3, 1)])).toBeNull();
  });

  it("firstConsistent returns a copy the caller may keep", () => {
    const a = firstConsistent(brainiac, []);
    const b = firstConsistent(brainiac, [], 5);
    expect(a).toEqual([0, 0, 0, 0]);
    expect(b).toEqual([0, 0, 0, 5]);
  });
});

describe("conflictingRows", () => {
  it("is empty when some valid secret fits every row", () => {
    expect(conflictingRows(brainiac, [row([0, 0, 1, 1], 1, 1), row([2, 3, 4, 5], 0, 2)])).toEqual([]);
    expect(conflictingRows(brainiac, [])).toEqual([]);
  });

  it("names a minimal set of rows that no valid secret fits", () => {
    const rows = [
      row([0, 0, 1, 1], 0, 0), // no 0 and no 1
      row([2, 2, 3, 3], 1, 0), // fits with either other row
      row([0, 1, 4, 4], 3, 0), // needs 0 or 1 in place: contradicts row 0
    ];
    const conflict = conflictingRows(brainiac, rows);
    expect(conflict).toEqual([0, 2]);
    expect(
      countConsistent(
        brainiac,
        conflict.map((i) => rows[i]),
      ),
    ).toBe(0);
    for (const left of conflict) {
      expect(
        countConsistent(
          brainiac,
          conflict.filter((i) => i !== left).map((i) => rows[i]),
        ),
      ).toBeGreaterThan(0);
    }
  });

  it("counts only valid secrets: rows that only a repeated colour could satisfy conflict in the travel unit", () => {
    const rows = [row([0, 0, 1, 1], 4, 0)];
    expect(conflictingRows(brainiac, rows)).toEqual([]);
    expect(conflictingRows(rulesFor("travel", false), rows)).toEqual([0]);
  });
});
