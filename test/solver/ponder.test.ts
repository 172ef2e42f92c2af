import { describe, expect, it } from "vitest";
import { codeAt } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import { codeSpaceSize } from "../../firmware/core/presets";
import { createHintState, createSolver, hintExample, hintStep, POLICY_BUDGET } from "../../firmware/core/solver";
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
    it(`${key}: the same games whether the player answers at once, after some pondering or after all of it`, () => {
      const v = variantOf(key);
      const rand = seededRandom(key.length * 101);
      let early = 0;
      for (let g = 0; g < 60; g++) {
        const secret = codeAt(v.rules, true, Math.floor(rand() * codeSpaceSize(v.rules, true)));
        const full = play(key, secret, Infinity);
        const none = play(key, secret, 0);
        const some = play(key, secret, 5);
        expect(none.guesses).toEqual(full.guesses);
        expect(some.guesses).toEqual(full.guesses);
        // No pondering: the work is the same, the next move does what was left (after the last guess, none is needed).
        const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
        expect(sum(none.moves)).toBe(sum(full.moves) + sum(full.pondered.slice(0, -1)));
        for (let m = 0; m < full.moves.length; m++)
          if (full.pondered[m] > 0 && m + 1 < full.moves.length) {
            early++;
            // The guess came before the enumeration's end: with it done, the next move is a pass over what it found.
            expect(none.moves[m + 1]).toBe(full.pondered[m] + full.moves[m + 1]);
          }
      }
      // Long enumerations where the book ends are common in these variants: the guess comes early in some games.
      expect(early).toBeGreaterThan(0);
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
