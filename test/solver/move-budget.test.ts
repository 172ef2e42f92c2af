import { describe, expect, it } from "vitest";
import { codeAt } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import { codeSpaceSize } from "../../firmware/core/presets";
import { createSolver, MOVE_BUDGET_MS, POLICY_BUDGET } from "../../firmware/core/solver";
import type { Code, Row } from "../../firmware/core/types";
import { sampleSecrets } from "../../firmware/tools/solver/play.ts";
import { variantOf } from "../../firmware/tools/solver/variants.ts";
import { SOLVER_SLICE } from "../../firmware/ui/codebreaker";
import { tableOf } from "./helpers";

/** A code fits a row when, as the secret, it would have given the row's feedback. */
function fits(code: Code, rows: Row[]): boolean {
  return rows.every((r) => {
    const fb = feedback(r.guess, code);
    return fb.exact === r.feedback.exact && fb.near === r.feedback.near;
  });
}

/** A Pico's ms of a move's enumeration as MOVE_BUDGET_MS counts it: evaluations times (2 rows + 3). */
const work = (evals: number, rows: number) => evals * (2 * rows + 3);

describe("a move's budget: where the table's enumeration outlasts it, the unit plays a code found so far", () => {
  for (const key of ["race", "race+"]) {
    it(`${key}: every move within the budget (and the little work around it), the guess of one that ran out fitting every row, every game solved within its rows`, () => {
      const v = variantOf(key);
      const size = codeSpaceSize(v.rules, true);
      // The race advanced game of bench:micro's longest counted move (its 5th: 6.2 s of a Pico before the budget), and a sample.
      const secrets = [...(key === "race+" ? [38024] : []), ...sampleSecrets(size, 150, 29)];
      let longest = 0;
      let cut = 0;
      for (const index of secrets) {
        const secret = codeAt(v.rules, true, index);
        const s = createSolver(v.rules, tableOf(v));
        const rows: Row[] = [];
        while (rows.length < v.rules.rows) {
          s.start(rows);
          const before = s.evals();
          while (!s.step(SOLVER_SLICE));
          const g = s.guess() as Code;
          const w = work(s.evals() - before, rows.length);
          longest = Math.max(longest, s.evals() - before);
          // A move that ran out of its budget played a code found that fits every row (the table's own guesses need not).
          if (w >= MOVE_BUDGET_MS) {
            expect(fits(g, rows)).toBe(true);
            cut++;
          }
          // Pondering finishes the enumeration; the guess in hand stays.
          while (!s.ponder(SOLVER_SLICE));
          expect(s.guess()).toEqual(g);
          const fb = feedback(g, secret);
          rows.push({ guess: g, feedback: fb });
          if (fb.exact === v.rules.pegs) break;
        }
        expect(rows[rows.length - 1].feedback.exact).toBe(v.rules.pegs);
      }
      // The longest moves are now the unit's own choice where the table ends (POLICY_BUDGET evaluations of passes, which
      // cost half an enumeration's) and an enumeration the table has no guess for; before the budget, race advanced had
      // moves of 550-750 evaluations (6-8 s of a Pico).
      expect(longest).toBeLessThanOrEqual(POLICY_BUDGET + 50);
      // The race's book ends where every takeover's guess comes within MOVE_MS_MAX (work.ts), under the budget; race
      // advanced's book stops at its 4th level, where some enumerations are longer.
      if (key === "race+") expect(cut).toBeGreaterThan(0);
      else expect(cut).toBe(0);
    });
  }
});
