/**
 * Node side: the candidates of some rows in the order the unit enumerates them, and what the unit's
 * enumeration costs. The unit (firmware/core/solver.ts) visits the multisets of symbols in
 * lexicographic order of their sorted tuples, and each multiset's arrangements in lexicographic
 * order; this sorts the consistent secrets the same way, and runs the unit's own code for the count.
 */
import { forEachCode, isConsistent } from "../../core/codes.ts";
import { createHintState } from "../../core/solver.ts";
import type { Code, Row, Rules } from "../../core/types.ts";

function packed(code: ArrayLike<number>, symbols: number): number {
  let v = 0;
  for (let i = 0; i < code.length; i++) v = v * symbols + code[i];
  return v;
}

/** The unit's enumeration order of a code: its sorted tuple first, then the code itself. */
export function enumerationKey(code: Code, symbols: number): number {
  const sorted = [...code].sort((a, b) => a - b);
  return packed(sorted, symbols) * Math.pow(symbols, code.length) + packed(code, symbols);
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
  h.step(Infinity);
  if (h.total() !== found.length) throw new Error(`the unit enumerates ${h.total()} candidates where there are ${found.length}`);
  return { candidates: found.map((f) => f.v), evals: h.evals() };
}
