/**
 * The unit's solver (solver.ts) from outside: its interface, the functions over it, its constants, the Storage name and
 * format of its tables, and codes as the tables pack them and as the unit holds them.
 *
 * The table packs codes as digits in base `symbols` (hole 0 most significant: 9^5 = 59,049 codes fit
 * 16 bits). The unit holds them 4 bits a hole (hole 0 most significant), so that a feedback class
 * takes no loop over the holes: the holes that differ are the nonzero 4-bit fields of code ^ guess,
 * and the symbols in common come from the symbol counts (3-bit fields, two holes at a time from a
 * 256-entry table), per k the symbols both hold at least k times; both counted by a multiplication.
 * A feedback class is exact * (pegs + 1) + near.
 *
 * Table format 3 (bits, most significant first; see also firmware/tools/solver/README.md):
 *   header: byte 0 = TABLE_VERSION, byte 1 = pegs * 16 + symbols; the root (a book node) follows.
 *   book node (the unit does not hold the candidates): guess (packed, ceil(log2(symbols^pegs)) bits);
 *     one bit per class id below the winning one (pegs * (pegs + 1)), set for the classes with a
 *     child; per child a book flag (1 bit); the length of every child's subtree but the last; then
 *     the subtrees. A book node's candidate child (where the unit enumerates the candidates from the
 *     rows so far) is a flag bit, clear when the unit chooses itself from there on, then when set
 *     a candidate node.
 *   candidate node (the unit holds the node's candidates S, in enumeration order: lexicographic since
 *     format 3, by multiset before): nothing when |S| <= 2 (the guess is S[0]); else 0 + index into
 *     S (ceil(log2 |S|) bits) or 1 + packed guess; then, per child with 3 or more candidates in class
 *     order, a flag bit, clear when the unit chooses itself from there on (no subtree); the lengths
 *     of the flagged children's subtrees but the last; then those subtrees.
 *   A length is the Elias gamma code of (bits + 1). Where the unit chooses itself, it plays the
 *   candidate (of its first POLICY_BUDGET / |S|) that splits S into the most classes. The unit reads
 *   the table 16 bits at a time from a 3-byte window (no call per bit).
 *
 */
import type { Code, Row, Rules } from "./types";

/** First byte of a table: the format it was written in. */
export const TABLE_VERSION = 3;
/** Most candidates held at once (2 KB); beyond this they are counted, and re-enumerated rather than filtered. */
export const CANDIDATE_CAP = 1024;
/**
 * Most candidates the hints hold (1 KB): beyond this the next row enumerates again rather than filtering. A hint state is
 * a player's only one (and the candidates ~1/3 of its JsVars on a Pico), so it holds fewer than the unit as codebreaker.
 */
export const HINT_CAP = 256;
/** Evaluations the unit spends choosing among candidates when the table has no guess for them. */
export const POLICY_BUDGET = 350;
/**
 * A Pico's ms a move may take before the unit plays what it has. An evaluation of an enumeration with r rows is about
 * 200,000 x (r + 1.5) interpreter instructions (`bench:micro -- --count`), 2r + 3 ms of a Pico (1e8 instructions a second).
 * Where an enumeration for all the rows goes on longer (the generator plans its guess within 0.5 s of the answer, but
 * a book has a deepest level), the first code found that fits them all is the guess (the table's would have needed the
 * whole list, or more of it), and the rest of the enumeration goes on while the player answers.
 */
export const MOVE_BUDGET_MS = 500;
/**
 * A Pico's ms a move goes on with an enumeration for the earlier rows (the player answered before pondering ended it)
 * before the unit drops the table for the rest of the game and enumerates from all the rows instead, held to
 * MOVE_BUDGET_MS from the move's start. A Pico ponders a few hundred evaluations while a player answers, and some of
 * the tables' enumerations where the book ends take thousands (race: 20 s of a Pico).
 */
export const PENDING_MS = 250;

/**
 * A codebreaker (or a hint computation) for one game, whose rows only grow: use its methods, or the
 * functions below. A new game needs a new one.
 */
export interface SolverState {
  /** Begins a move (or a hint computation) after `rows`, the game's rows so far; the same rows again go on with the work (solverStart). */
  start(rows: Row[]): void;
  /**
   * Works for at most `budget` evaluations, and stops sooner once `stop` (asked before the first
   * evaluation and then every ASK_EVERY: one takes 0.1 to 0.3 ms on the interpreter's Linux build)
   * says the time slice is over; true when the guess is ready (the hints: once one code that fits is found, or none does).
   */
  step(budget: number, stop?: () => boolean): boolean;
  /**
   * While the player answers: goes on with the work the next move needs (the enumeration an early
   * guess came before, then the candidates split by the guess played), for at most `budget`
   * evaluations or until `stop`; true when none is left (the hints: when the count is final).
   */
  ponder(budget: number, stop?: () => boolean): boolean;
  /** The guess once ready; null on contradictory rows (or while working). */
  guess(): Code | null;
  /**
   * Is it known already that some secret fits the rows with the guess in hand answered `exact`, `near` (the candidates
   * split by the guess while the player answered, or the table's node for it)? False when that is not known.
   */
  fits(exact: number, near: number): boolean;
  /** Evaluations done since creation (the bench reads it). */
  evals(): number;
  /** Hints: how many secrets fit, and the first one (null when none); while the work goes on, those found so far. */
  total(): number;
  example(): Code | null;
}

/** The Storage file holding a variant's table (28 characters at most): "bb.t.brainiac", "bb.t.race+"... */
export function solverTableName(rules: Rules): string {
  return "bb.t." + rules.preset + (rules.harder ? "+" : "");
}

/** Packs digits as the tables do (base `symbols`, hole 0 most significant). */
export function packCode(digits: ArrayLike<number>, symbols: number): number {
  let v = 0;
  for (let i = 0; i < digits.length; i++) v = v * symbols + digits[i];
  return v;
}

/**
 * Per byte of a code (two holes, 4 bits each), the symbol counts of its holes (3-bit fields), made as the firmware loads
 * (not in a move). A 10 stands for no hole: its bit (30) is outside every count the solver reads. The bytes read are at
 * most 0xaa (symbols 0-8, and 10 above the holes): the table stops there (~30 JsVars less on a Pico than 256 entries).
 */
export const byteCounts = new Int32Array(0xab);
for (let i = 0; i < 0xab; i++) byteCounts[i] = (1 << (3 * (i & 15))) + (1 << (3 * (i >> 4)));

/** The bits set in v (31 at most). */
export function ones(v: number): number {
  v -= (v >> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >> 2) & 0x33333333);
  return (((v + (v >> 4)) & 0xf0f0f0f) * 0x1010101) >> 24;
}

/** A code as the unit holds it, 4 bits a hole (5 holes at most); the bits above may hold a feedback class (pondering). */
export const CODE_BITS = 0xfffff;

/** Evaluations between two questions to the stop callback (each question is a call and a clock read). */
export const ASK_EVERY = 4;

/**
 * Begins choosing the next guess after `rows` (the game's rows so far). Rows that continue the
 * previous call's rows reuse its work; anything else starts again from the first row.
 */
export function solverStart(s: SolverState, rows: Row[]): void {
  s.start(rows);
}

/** Works for at most `budget` feedback evaluations; true once the guess (or a contradiction) is ready. */
export function solverStep(s: SolverState, budget: number): boolean {
  return s.step(budget);
}

/** The guess once solverStep returned true: a valid guess, or null when no secret fits the rows (contradiction). */
export function solverGuess(s: SolverState): Code | null {
  return s.guess();
}

/** A hint computation for a human codebreaker: how many codes are still possible, and one of them. */
export type HintState = SolverState;

/**
 * Works on the hints for `rows` for at most `budget` evaluations; true when hintCount and
 * hintExample are final. Call it again with the same rows to go on; rows that continue the last
 * finished rows by one filter the kept candidates rather than enumerating again.
 */
export function hintStep(h: HintState, rows: Row[], budget: number): boolean {
  h.start(rows);
  return h.ponder(budget);
}

/** How many valid secrets fit the rows of the last hintStep (final once it returned true). */
export function hintCount(h: HintState): number {
  return h.total();
}

/** One valid secret that fits the rows (the first in enumeration order), or null when none does. */
export function hintExample(h: HintState): Code | null {
  return h.example();
}
