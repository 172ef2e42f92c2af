/**
 * Plays the unit's codebreaker (firmware/core/solver.ts, the very code the device runs) against
 * secrets and measures it: guesses per game, and feedback evaluations per move done on the unit. Between
 * two moves the unit ponders (it finishes the work its guess came before while the player answers): a
 * move's evaluations are those after the answer, with the pondering done (it is counted apart), or as much of it as
 * a player who answers sooner leaves it (`ponder`).
 * Used by the generator (to check a table before writing it), the bench and the tests.
 */
import { codeAt } from "../../core/codes.ts";
import { feedback } from "../../core/feedback.ts";
import { codeSpaceSize } from "../../core/presets.ts";
import { createSolver, solverGuess, solverStart, solverStep } from "../../core/solver.ts";
import { checkGuess } from "../../core/validate.ts";
import type { Code, Row, Rules } from "../../core/types.ts";
import { enumMs } from "./work.ts";

export interface PlayStats {
  games: number;
  /** Guesses summed over the games (a solve in row r counts r). */
  guesses: number;
  worst: number;
  /** Games not solved within the preset's rows. */
  unsolved: number;
  moves: number;
  /** Evaluations summed over all moves, and the most in one move (after the answer). */
  evals: number;
  maxMoveEvals: number;
  /** The most Pico ms of a move's evaluations after the answer, priced as an enumeration's with the move's rows (work.ts enumMs), and their sum. */
  maxMoveMs: number;
  moveMs: number;
  /** Evaluations pondered between two moves, summed and the most: a player who answers at once waits for them too. */
  ponderEvals: number;
  maxPonderEvals: number;
  /** Slices that did more evaluations than their budget (must stay 0). */
  budgetOverruns: number;
  /** Guess count per game, by game index, when asked for. */
  perGame?: Int8Array;
}

export interface PlayOptions {
  /** Evaluations per solverStep call (a slice). */
  slice?: number;
  /** Play these secret indexes (in forEachCode order) rather than all. */
  secrets?: ArrayLike<number>;
  keepPerGame?: boolean;
  /** Rows allowed per game; default: the preset's. */
  rows?: number;
  /** Evaluations the unit ponders between a guess and its answer at most (a player who answers sooner); default: all. */
  ponder?: number;
}

/** Plays one game against `secret`; returns the rows. Throws when the unit makes an invalid guess or gives up. */
export function playGame(rules: Rules, table: Uint8Array | undefined, secret: Code, stats: PlayStats, opts: PlayOptions = {}): Row[] {
  const slice = opts.slice ?? 100_000;
  const maxRows = opts.rows ?? rules.rows;
  const s = createSolver(rules, table);
  const rows: Row[] = [];
  while (rows.length < maxRows) {
    solverStart(s, rows);
    const moveStart = s.evals();
    for (;;) {
      const before = s.evals();
      const done = solverStep(s, slice);
      if (s.evals() - before > slice) stats.budgetOverruns++;
      if (done) break;
    }
    stats.moves++;
    const moveEvals = s.evals() - moveStart;
    stats.evals += moveEvals;
    stats.maxMoveEvals = Math.max(stats.maxMoveEvals, moveEvals);
    stats.maxMoveMs = Math.max(stats.maxMoveMs, enumMs(moveEvals, rows.length));
    stats.moveMs += enumMs(moveEvals, rows.length);
    const guess = solverGuess(s);
    const ponderStart = s.evals();
    for (;;) {
      const before = s.evals();
      const done = s.ponder(slice);
      if (s.evals() - before > slice) stats.budgetOverruns++;
      if (done || s.evals() - ponderStart >= (opts.ponder ?? Infinity)) break;
    }
    stats.ponderEvals += s.evals() - ponderStart;
    stats.maxPonderEvals = Math.max(stats.maxPonderEvals, s.evals() - ponderStart);
    if (!guess) throw new Error(`the solver found a contradiction playing against ${secret.join("")} after ${JSON.stringify(rows)}`);
    const invalid = checkGuess(rules, guess);
    if (invalid) throw new Error(`the solver played an invalid guess ${guess.join("")} (${invalid.reason})`);
    const fb = feedback(guess, secret);
    rows.push({ guess, feedback: fb });
    if (fb.exact === rules.pegs) break;
  }
  return rows;
}

export function emptyStats(): PlayStats {
  return {
    games: 0,
    guesses: 0,
    worst: 0,
    unsolved: 0,
    moves: 0,
    evals: 0,
    maxMoveEvals: 0,
    maxMoveMs: 0,
    moveMs: 0,
    ponderEvals: 0,
    maxPonderEvals: 0,
    budgetOverruns: 0,
  };
}

/** Plays every secret (or the chosen ones) and sums up. */
export function playAll(rules: Rules, table: Uint8Array | undefined, opts: PlayOptions = {}): PlayStats {
  const stats = emptyStats();
  const total = opts.secrets ? opts.secrets.length : codeSpaceSize(rules, true);
  if (opts.keepPerGame) stats.perGame = new Int8Array(total);
  for (let k = 0; k < total; k++) {
    const secret = codeAt(rules, true, opts.secrets ? opts.secrets[k] : k);
    const rows = playGame(rules, table, secret, stats, opts);
    const solved = rows.length > 0 && rows[rows.length - 1].feedback.exact === rules.pegs;
    stats.games++;
    stats.guesses += rows.length;
    stats.worst = Math.max(stats.worst, rows.length);
    if (!solved) stats.unsolved++;
    if (stats.perGame) stats.perGame[k] = rows.length;
  }
  return stats;
}

/** A uniform sample of `count` distinct secret indexes out of `size`, from a fixed seed (reproducible). */
export function sampleSecrets(size: number, count: number, seed: number): Int32Array {
  let a = seed >>> 0;
  const rand = () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, size)) chosen.add(Math.floor(rand() * size));
  return Int32Array.from([...chosen].sort((x, y) => x - y));
}
