import { describe, expect, it } from "vitest";
import { feedback } from "../../firmware/core/feedback";
import { codeAt } from "../../firmware/core/codes";
import { createHintState, createSolver, hintCount, hintStep, solverGuess, solverStart, solverStep } from "../../firmware/core/solver";
import type { Code, Row } from "../../firmware/core/types";
import { variantOf } from "../../firmware/tools/solver/variants.ts";
import { randomRows, seededRandom, tableOf } from "./helpers";

/** Plays a game in slices of `slice` evaluations; returns the guesses and the largest slice seen. */
function sliced(key: string, secretIndex: number, slice: number, table: boolean): { guesses: string[]; largest: number } {
  const v = variantOf(key);
  const secret = codeAt(v.rules, true, secretIndex);
  const s = createSolver(v.rules, table ? tableOf(v) : undefined);
  const rows: Row[] = [];
  const guesses: string[] = [];
  let largest = 0;
  while (rows.length < v.rules.rows) {
    solverStart(s, rows);
    for (;;) {
      const before = s.evals();
      const done = solverStep(s, slice);
      largest = Math.max(largest, s.evals() - before);
      if (done) break;
    }
    const g = solverGuess(s) as Code;
    guesses.push(g.join(""));
    const fb = feedback(g, secret);
    rows.push({ guess: g, feedback: fb });
    if (fb.exact === v.rules.pegs) break;
  }
  return { guesses, largest };
}

describe("the solver works in slices", () => {
  for (const [key, secret, table] of [
    ["brainiac", 1000, true],
    ["travel+", 2000, true],
    ["race", 4321, true],
    ["race+", 31000, true],
    ["brainiac+", 77, false],
    ["travel", 1500, false],
  ] as const) {
    it(`${key}${table ? "" : " without its table"}: no slice does more evaluations than its budget, and slicing changes no guess`, () => {
      const whole = sliced(key, secret, 1e9, table);
      for (const slice of [1, 7, 180]) {
        const r = sliced(key, secret, slice, table);
        expect(r.largest).toBeLessThanOrEqual(slice);
        expect(r.guesses).toEqual(whole.guesses);
      }
    });
  }

  it("hints work in slices too, and a repeated call with the same rows goes on where it stopped", () => {
    const v = variantOf("race+");
    const rows = randomRows(v.rules, 2, seededRandom(5));
    const h = createHintState(v.rules);
    let calls = 0;
    for (;;) {
      const before = h.evals();
      const done = hintStep(h, rows, 50);
      expect(h.evals() - before).toBeLessThanOrEqual(50);
      calls++;
      if (done) break;
    }
    const whole = createHintState(v.rules);
    expect(hintStep(whole, rows, Infinity)).toBe(true);
    expect(hintCount(h)).toBe(hintCount(whole));
    // Work was shared between the calls: about as many evaluations in slices as at once.
    expect(h.evals()).toBe(whole.evals());
    expect(calls).toBeGreaterThan(1);
  });
});
