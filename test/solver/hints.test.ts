import { describe, expect, it } from "vitest";
import { conflictingRows, countConsistent, isConsistent } from "../../firmware/core/codes";
import { codeSpaceSize } from "../../firmware/core/presets";
import { conflictingRowsNow } from "../../firmware/core/conflict";
import { createHintState, hintCount, hintExample, hintStep, packCode } from "../../firmware/core/solver";
import type { Row } from "../../firmware/core/types";
import { checkSecret } from "../../firmware/core/validate";
import { enumerateCandidates } from "../../firmware/tools/solver/enumerate.ts";
import { VARIANTS } from "../../firmware/tools/solver/variants.ts";
import { randomRows, seededRandom } from "./helpers";

describe("hints for a human codebreaker", () => {
  for (const v of VARIANTS) {
    it(`${v.key}: the count equals countConsistent and the example fits, row after row`, () => {
      const rand = seededRandom(v.key.length * 31 + 7);
      const games = v.key === "race+" ? 2 : 5;
      const symbols = v.rules.colours + (v.rules.blanks ? 1 : 0);
      for (let game = 0; game < games; game++) {
        const rows = randomRows(v.rules, 4, rand);
        const h = createHintState(v.rules);
        expect(hintStep(h, [], 1)).toBe(true);
        expect(hintCount(h)).toBe(codeSpaceSize(v.rules, true));
        for (let k = 1; k <= rows.length; k++) {
          const sofar = rows.slice(0, k);
          while (!hintStep(h, sofar, 180));
          expect(hintCount(h)).toBe(countConsistent(v.rules, sofar));
          const example = hintExample(h);
          expect(example).not.toBeNull();
          expect(checkSecret(v.rules, example!)).toBeNull();
          expect(isConsistent(example!, sofar)).toBe(true);
          // The enumeration skips codes but keeps its order: the example is the first candidate the generator expects.
          expect(packCode(example!, symbols)).toBe(enumerateCandidates(v.rules, sofar).candidates[0]);
        }
      }
    });
  }

  it("no code fits contradictory rows: the count is 0 and there is no example", () => {
    const rules = VARIANTS[0].rules;
    const rows: Row[] = [
      { guess: [0, 0, 0, 0], feedback: { exact: 0, near: 0 } },
      { guess: [0, 1, 1, 1], feedback: { exact: 1, near: 0 } },
      { guess: [1, 1, 1, 1], feedback: { exact: 0, near: 0 } },
    ];
    const h = createHintState(rules);
    while (!hintStep(h, rows, 100));
    expect(hintCount(h)).toBe(0);
    expect(hintExample(h)).toBeNull();
  });
});

describe("contradiction detection on the same machinery", () => {
  for (const v of VARIANTS.filter((x) => x.key !== "race+")) {
    it(`${v.key}: the conflict search names the same rows as conflictingRows`, () => {
      const rand = seededRandom(99 + v.key.length);
      for (let t = 0; t < 12; t++) {
        const rows = randomRows(v.rules, 4, rand);
        // Break one or two answers, as a codemaker might.
        for (let k = 0; k < 1 + (t % 2); k++) {
          const r = rows[Math.floor(rand() * rows.length)];
          const exact = Math.min(v.rules.pegs - 2, (r.feedback.exact + 1) % v.rules.pegs);
          r.feedback = { exact, near: Math.floor(rand() * (v.rules.pegs - exact - 1)) };
        }
        expect(conflictingRowsNow(v.rules, rows)).toEqual(conflictingRows(v.rules, rows));
      }
    });
  }
});
