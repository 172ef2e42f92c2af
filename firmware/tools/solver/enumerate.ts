/**
 * Node side: the candidates of some rows in the order the unit enumerates them, and what the unit's
 * enumeration costs. The unit (firmware/core/solver.ts) finds them in lexicographic order (hole 0
 * first), which is the order of their packed codes and forEachCode's; this runs the unit's own code
 * for the cost and checks the count.
 */
import { forEachCode, isConsistent } from "../../core/codes.ts";
import { ASK_EVERY, CANDIDATE_CAP, createSolver } from "../../core/solver.ts";
import type { Code, Row, Rules } from "../../core/types.ts";

function packed(code: ArrayLike<number>, symbols: number): number {
  let v = 0;
  for (let i = 0; i < code.length; i++) v = v * symbols + code[i];
  return v;
}

/** The unit's enumeration order of a code: its packed value. */
export function enumerationKey(code: Code, symbols: number): number {
  return packed(code, symbols);
}

/**
 * Every valid secret consistent with `rows` (at least one row), packed, in the unit's enumeration
 * order; the evaluations the unit spends enumerating them, and those until it has found the first and 3 (where a packed
 * guess is played: it asks after every ASK_EVERY), or all of them where there are fewer.
 */
export function enumerateCandidates(
  rules: Rules,
  rows: Row[],
): { candidates: number[]; evals: number; evalsToFirst: number; evalsToThird: number } {
  const symbols = rules.colours + (rules.blanks ? 1 : 0);
  const found: { key: number; v: number }[] = [];
  forEachCode(rules, true, (code) => {
    if (isConsistent(code, rows)) found.push({ key: enumerationKey(code, symbols), v: packed(code, symbols) });
  });
  found.sort((a, b) => a.key - b.key);
  // (Counting as the codebreaker does: room for its candidates, so that no symbols are counted together.)
  const h = createSolver(rules, undefined, true, CANDIDATE_CAP);
  h.start(rows);
  let evalsToFirst = -1;
  let evalsToThird = -1;
  while (!h.ponder(ASK_EVERY)) {
    if (evalsToFirst < 0 && h.total() >= 1) evalsToFirst = h.evals();
    if (evalsToThird < 0 && h.total() >= 3) evalsToThird = h.evals();
  }
  if (h.total() !== found.length) throw new Error(`the unit enumerates ${h.total()} candidates where there are ${found.length}`);
  return {
    candidates: found.map((f) => f.v),
    evals: h.evals(),
    evalsToFirst: evalsToFirst < 0 ? h.evals() : evalsToFirst,
    evalsToThird: evalsToThird < 0 ? h.evals() : evalsToThird,
  };
}
