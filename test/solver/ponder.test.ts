import { describe, expect, it } from "vitest";
import { codeAt } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import { codeSpaceSize } from "../../firmware/core/presets";
import { createHintState, createSolver, hintExample, hintStep, PENDING_MS, POLICY_BUDGET } from "../../firmware/core/solver";
import type { Code, Row } from "../../firmware/core/types";
import { variantOf } from "../../firmware/tools/solver/variants.ts";
import { seededRandom, tableOf } from "./helpers";

/**
 * One game in slices of 7 evaluations. `ponder`: how many slices of ponder() run between a guess and its answer
 * (Infinity: until done; 0: the player answers at once). Per move: the guess, the evaluations from the answer to the
 * guess, and those pondered after it.
 */
function play(key: string, secret: Code, ponder: number): { guesses: string[]; moves: number[]; pondered: number[] } {
  const v = variantOf(key);
  const s = createSolver(v.rules, tableOf(v));
  const rows: Row[] = [];
  const out = { guesses: [] as string[], moves: [] as number[], pondered: [] as number[] };
  while (rows.length < v.rules.rows) {
    s.start(rows);
    const before = s.evals();
    while (!s.step(7));
    out.moves.push(s.evals() - before);
    const g = s.guess() as Code;
    const after = s.evals();
    for (let k = 0; k < ponder && !s.ponder(7); k++);
    out.pondered.push(s.evals() - after);
    // Pondering never changes the guess in hand.
    expect(s.guess()).toEqual(g);
    out.guesses.push(g.join(""));
    const fb = feedback(g, secret);
    rows.push({ guess: g, feedback: fb });
    if (fb.exact === v.rules.pegs) break;
  }
  return out;
}

describe("the unit's early guess and its pondering while the player answers", () => {
  for (const key of ["race", "race+", "travel+"]) {
    it(`${key}: the same moves while pondering ends before the answer: it changes when the work is done, not the guesses`, () => {
      const v = variantOf(key);
      const rand = seededRandom(key.length * 101);
      let cut = 0;
      for (let g = 0; g < 60; g++) {
        const secret = codeAt(v.rules, true, Math.floor(rand() * codeSpaceSize(v.rules, true)));
        const full = play(key, secret, Infinity);
        const some = play(key, secret, 5);
        let m = 0;
        while (m < full.moves.length - 1 && some.pondered[m] === full.pondered[m]) m++;
        expect(some.guesses.slice(0, m + 1)).toEqual(full.guesses.slice(0, m + 1));
        expect(some.moves.slice(0, m + 1)).toEqual(full.moves.slice(0, m + 1));
        if (m + 1 < full.moves.length) cut++;
      }
      // Long enumerations where the book ends are common in these variants: the answer comes first in some games.
      expect(cut).toBeGreaterThan(0);
    });

    it(`${key}: a player who answers at once waits for at most PENDING_MS of the rest of its pondering; then the unit plays on from all the rows, codes that fit them, and solves every game`, () => {
      const v = variantOf(key);
      const rand = seededRandom(key.length * 103);
      let dropped = 0;
      let worstSaved = 0;
      for (let g = 0; g < 60; g++) {
        const secret = codeAt(v.rules, true, Math.floor(rand() * codeSpaceSize(v.rules, true)));
        const full = play(key, secret, Infinity);
        const none = play(key, secret, 0);
        expect(none.guesses[none.guesses.length - 1]).toBe(secret.join(""));
        // Until a move resumes a rest of pondering over PENDING_MS, the games are the same and a move does what
        // pondering would have done, then the move's own work.
        const first = none.moves.findIndex((n, m) => m > 0 && n !== full.pondered[m - 1] + full.moves[m]);
        if (first < 0) {
          expect(none.guesses).toEqual(full.guesses);
          continue;
        }
        dropped++;
        expect(none.guesses.slice(0, first)).toEqual(full.guesses.slice(0, first));
        // A move up to that one resumed a rest over PENDING_MS (pondered after move m: an enumeration for at most m rows, an
        // evaluation 2 x rows + 3 ms of a Pico at most).
        expect(full.pondered.slice(0, first).some((p, m) => p * (2 * m + 3) > PENDING_MS)).toBe(true);
        for (let m = 1; m <= first; m++) worstSaved = Math.max(worstSaved, full.pondered[m - 1] + full.moves[m] - none.moves[m]);
        // The table went there: from then on, every guess is a code that fits the rows before it (the table's need not).
        const rows: Row[] = none.guesses.map((x) => {
          const code = [...x].map(Number);
          return { guess: code, feedback: feedback(code, secret) };
        });
        for (let m = first; m < rows.length; m++)
          for (const r of rows.slice(0, m)) expect(feedback(r.guess, rows[m].guess)).toEqual(r.feedback);
      }
      if (key !== "travel+") expect(dropped).toBeGreaterThan(0);
      // Where the table went, the move was shorter than waiting for the rest: by hundreds of evaluations at worst.
      if (dropped) expect(worstSaved).toBeGreaterThan(100);
    });
  }

  it("without a table, the unit's own choice waits for every candidate (they may not fit the list): no early guess", () => {
    const v = variantOf("race+");
    const rows: Row[] = [{ guess: [0, 1, 2, 3, 4], feedback: { exact: 0, near: 1 } }];
    const s = createSolver(v.rules, undefined);
    s.start(rows);
    while (!s.step(7));
    const evals = s.evals();
    expect(s.ponder(7)).toBe(true);
    expect(s.evals()).toBe(evals);
    const h = createHintState(v.rules);
    while (!hintStep(h, rows, 1000));
    expect(h.total()).toBeGreaterThan(POLICY_BUDGET);
    // Over POLICY_BUDGET candidates it tries one guess: the first (no pass to choose it).
    expect(s.guess()).toEqual(hintExample(h));
  });

  it("a hint computation never stops early: its count is final when step says so", () => {
    const v = variantOf("race+");
    const rows: Row[] = [{ guess: [0, 1, 2, 3, 4], feedback: { exact: 0, near: 1 } }];
    const h = createHintState(v.rules);
    const whole = createHintState(v.rules);
    while (!hintStep(whole, rows, 1e9));
    while (!hintStep(h, rows, 7));
    expect(h.total()).toBe(whole.total());
    expect(h.ponder(7)).toBe(true);
  });
});
