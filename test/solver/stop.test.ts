import { describe, expect, it } from "vitest";
import { ASK_EVERY, createSolver, solverTableName } from "../../firmware/core/solver.ts";
import { createConflictSearch } from "../../firmware/core/conflict.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import type { Code, Row } from "../../firmware/core/types.ts";

/** A stop that ends every slice after `n` evaluations' worth of asking (as a clock would, at its own pace). */
function stopAfter(n: number): { stop: () => boolean; reset: () => void } {
  let asked = 0;
  return {
    stop: () => asked++ >= n,
    reset: () => {
      asked = 0;
    },
  };
}

describe("work sliced by a stop (the device's clock) as well as by a budget", () => {
  it("a slice ends when the stop says so, and slices that short play the same guesses as whole moves", () => {
    const rules = rulesFor("race", true);
    const table = solverTablesFor(5).find((t) => t.name === solverTableName(rules))!.bytes;
    const secret: Code = [3, 8, 8, 1, 0];
    const sliced = createSolver(rules, table);
    const whole = createSolver(rules, table);
    const rows: Row[] = [];
    const s = stopAfter(3);
    let slices = 0;
    for (let n = 0; n < rules.rows; n++) {
      sliced.start(rows);
      whole.start(rows);
      for (;;) {
        s.reset();
        const before = sliced.evals();
        const done = sliced.step(180, s.stop);
        // Asked every ASK_EVERY evaluations: three answers of "go on", then "stop".
        expect(sliced.evals() - before).toBeLessThanOrEqual(3 * ASK_EVERY);
        slices++;
        if (done) break;
      }
      expect(whole.step(Infinity)).toBe(true);
      expect(sliced.guess()).toEqual(whole.guess());
      const guess = whole.guess()!;
      const fb = feedback(guess, secret);
      rows.push({ guess, feedback: fb });
      if (fb.exact === rules.pegs) break;
    }
    expect(rows[rows.length - 1].feedback.exact).toBe(rules.pegs);
    expect(sliced.evals()).toBe(whole.evals());
    // Some move took more than one slice.
    expect(slices).toBeGreaterThan(rows.length);
  });

  it("the conflict search passes the stop on, and names the same rows", () => {
    const rules = rulesFor("brainiac", false);
    const rows: Row[] = [
      { guess: [0, 0, 1, 1], feedback: { exact: 4, near: 0 } },
      { guess: [2, 2, 3, 3], feedback: { exact: 1, near: 0 } },
      { guess: [4, 4, 5, 5], feedback: { exact: 0, near: 0 } },
    ];
    const whole = createConflictSearch(rules, rows);
    while (!whole.step(Infinity));
    const sliced = createConflictSearch(rules, rows);
    const s = stopAfter(1);
    let slices = 0;
    for (;;) {
      s.reset();
      slices++;
      if (sliced.step(1000, s.stop)) break;
    }
    expect(whole.rows()).toEqual([0, 1]);
    expect(sliced.rows()).toEqual(whole.rows());
    expect(slices).toBeGreaterThan(2);
  });
});
