/**
 * The unit's solver work in a Pico's time, as the generator plans it. Instruction counts are the real interpreter's
 * (`valgrind --tool=callgrind` on firmware/core/solver.ts bundled as the firmware is: `npm run bench:micro -- --count`);
 * a Pico runs about 1e8 of them a second (docs/performance.md: the Leibniz loop counted against its time on a Pico).
 */
import { POLICY_BUDGET } from "../../core/solver.ts";

/** Interpreter instructions a Pico runs in a millisecond. */
export const PICO_INSTRUCTIONS_PER_MS = 100_000;

/** Enumerating the candidates of `rows` rows: about 200,000 instructions times (rows + 1.5) per evaluation (a prefix visited). */
export function enumMs(evals: number, rows: number): number {
  return (evals * 200_000 * (rows + 1.5)) / PICO_INSTRUCTIONS_PER_MS;
}
/** A pass over n candidates with one guess: at most about 750,000 instructions a candidate, 2 million around them. */
export function passMs(n: number): number {
  return (2_000_000 + 750_000 * n) / PICO_INSTRUCTIONS_PER_MS;
}
/** The unit's own choice among n candidates: a pass over them with each guess it tries. */
export function policyMs(n: number): number {
  return n > 2 ? (Math.min(n, Math.floor(POLICY_BUDGET / n)) || 1) * passMs(n) : 0;
}
/** The most the unit's own choice may cost below a node of n candidates (any smaller set). */
const below: number[] = [0];
export function policyMsBelow(n: number): number {
  for (let m = below.length; m <= n; m++) below.push(Math.max(below[m - 1], policyMs(m - 1)));
  return below[n];
}

/**
 * The most solver work the tables plan for a move after its answer, in a Pico's ms, where the book ends: the enumeration
 * up to the guess (the 3rd candidate found where the guess is packed, else every candidate, then the unit's own choice
 * where the table leaves it to the unit). Where a takeover would take longer, the book goes deeper (where it would go
 * deeper than its variant allows, MOVE_BUDGET_MS bounds the move instead). The unit's own choice further down is held to
 * the variant's policyMsMax (this where the table's bytes allow it).
 */
export const MOVE_MS_MAX = 400;
/**
 * A takeover whose whole enumeration takes longer has its guess packed, so that the unit plays it once the enumeration
 * has found 3 candidates and finishes it while the player answers (an index's width needs the candidates' number).
 */
export const EARLY_MS = 200;
/** Where the unit's own choice plays as well as the tree, it is left to the unit if it costs at most this much. */
export const TIE_MS = 200;
