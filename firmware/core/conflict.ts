/**
 * The rows to name when a codemaker's answers (secret kept in the head) admit no valid secret,
 * worked out in slices on the solver's candidate enumeration: on race advanced a contradiction can
 * take tens of thousands of evaluations, far more than one callback may block the unit.
 */
import { createSolver } from "./solver";
import type { SolverState } from "./solver";
import { Row, Rules } from "./types";

export interface ConflictSearch {
  /** Works for about `budget` evaluations, or until `stop` says the time slice is over; true when rows() is final. */
  step(budget: number, stop?: () => boolean): boolean;
  /**
   * [] when some valid secret fits every row; otherwise a minimal set of row indexes (ascending)
   * that no valid secret fits together: each row in turn is dropped if the others still conflict.
   */
  rows(): number[];
}

export function createConflictSearch(rules: Rules, rows: Row[]): ConflictSearch {
  // Rows still in the set, the row being tried without (-1: first, all rows together), and the probe.
  let kept = rows;
  let trying = -1;
  let without = rows;
  // (Declared before its first call: Espruino does not hoist.)
  function startProbe(subset: Row[]): SolverState {
    // Room for one candidate: the first found answers the question.
    const p = createSolver(rules, undefined, true, 1);
    p.start(subset);
    return p;
  }
  let probe = startProbe(rows);
  let result: number[] | null = null;

  return {
    step: function (budget: number, stop?: () => boolean): boolean {
      if (result) return true;
      const done = probe.step(budget, stop);
      const fits = probe.total() > 0;
      if (!done && !fits) return false;
      if (trying < 0 && fits) result = [];
      else {
        // Without row `trying` the others still conflict: it is not needed.
        if (trying >= 0 && !fits) kept = without;
        if (++trying < rows.length) {
          const dropped = rows[trying];
          without = kept.filter(function (row) {
            return row !== dropped;
          });
          probe = startProbe(without);
        } else
          result = kept.map(function (row) {
            return rows.indexOf(row);
          });
      }
      return result !== null;
    },
    rows: function (): number[] {
      return result || [];
    },
  };
}

/** The same, run to the end at once (tests and tools; the unit uses the slices). */
export function conflictingRowsNow(rules: Rules, rows: Row[]): number[] {
  const search = createConflictSearch(rules, rows);
  while (!search.step(1000));
  return search.rows();
}
