import { describe, expect, it } from "vitest";
import { codeAt } from "../../firmware/core/codes";
import { conflictingRowsNow } from "../../firmware/core/conflict";
import { feedback } from "../../firmware/core/feedback";
import { codeSpaceSize } from "../../firmware/core/presets";
import { createSolver } from "../../firmware/core/solver";
import type { Code, Row } from "../../firmware/core/types";
import { variantOf } from "../../firmware/tools/solver/variants.ts";
import { seededRandom, tableOf } from "./helpers";

/**
 * fits(): what the unit already knows of an answer to its guess, so that an answer that fits counts at once (the
 * conflict search runs only for the others). It must never say that an answer fits where no secret gives it.
 */
describe("the unit knows, from its candidates or its table, which answers to its guess some secret gives", () => {
  for (const key of ["brainiac", "travel+", "race+"]) {
    it(`${key}: fits() agrees with the conflict search for every answer, once the candidates are split by the guess`, () => {
      const v = variantOf(key);
      const pegs = v.rules.pegs;
      const rand = seededRandom(key.length * 7 + 3);
      let known = 0;
      let asked = 0;
      for (let g = 0; g < 12; g++) {
        const secret = codeAt(v.rules, true, Math.floor(rand() * codeSpaceSize(v.rules, true)));
        const s = createSolver(v.rules, tableOf(v));
        const rows: Row[] = [];
        while (rows.length < v.rules.rows) {
          s.start(rows);
          while (!s.step(8));
          const guess = s.guess() as Code;
          // Before the pondering is done it may not know yet, and says so.
          while (!s.ponder(8));
          for (let e = 0; e < pegs; e++)
            for (let n = 0; e + n <= pegs; n++) {
              if (e === pegs - 1 && n === 1) continue;
              const fits = s.fits(e, n);
              const consistent = conflictingRowsNow(v.rules, rows.concat([{ guess, feedback: { exact: e, near: n } }])).length === 0;
              asked++;
              if (fits) known++;
              expect(fits, `${key} rows ${JSON.stringify(rows)} guess ${guess} answer ${e},${n}`).toBe(consistent);
            }
          const fb = feedback(guess, secret);
          rows.push({ guess, feedback: fb });
          if (fb.exact === pegs) break;
        }
      }
      expect(known).toBeGreaterThan(0);
      expect(asked).toBeGreaterThan(known);
    }, 120_000);
  }

  it("an answer to another guess, or while the guess is still worked out, is not known to fit", () => {
    const v = variantOf("race+");
    const s = createSolver(v.rules, tableOf(v));
    s.start([]);
    expect(s.fits(0, 2)).toBe(false);
    while (!s.step(8));
    expect(s.fits(0, 2)).toBe(true);
    // The game's rows moved on (the answer is being applied): nothing is known until the next guess.
    s.start([{ guess: s.guess() as Code, feedback: { exact: 0, near: 2 } }]);
    expect(s.fits(0, 2)).toBe(false);
  });
});
