/**
 * Node side: the candidates of some rows in the order the unit enumerates them, and what the unit's
 * enumeration costs. The unit (firmware/core/solver.ts) finds them in lexicographic order (hole 0
 * first), which is the order of their packed codes and forEachCode's; this runs the unit's own code
 * for the cost and checks the count.
 */
import { forEachCode, isConsistent } from "../../core/codes.ts";
import { createHintState } from "../../core/solver.ts";
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
 * order, and the evaluations the unit spends enumerating them.
 */
export function enumerateCandidates(rules: Rules, rows: Row[]): { candidates: number[]; evals: number } {
  const symbols = rules.colours + (rules.blanks ? 1 : 0);
  const found: { key: number; v: number }[] = [];
  forEachCode(rules, true, (code) => {
    if (isConsistent(code, rows)) found.push({ key: enumerationKey(code, symbols), v: packed(code, symbols) });
  });
  found.sort((a, b) => a.key - b.key);
  const h = createHintState(rules);
  h.start(rows);
  h.ponder(Infinity);
  if (h.total() !== found.length) throw new Error(`the unit enumerates ${h.total()} candidates where there are ${found.length}`);
  return { candidates: found.map((f) => f.v), evals: h.evals() };
}
