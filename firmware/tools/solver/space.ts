/**
 * Node side of the solver generator: a preset's secret and guess spaces as packed codes, and the
 * feedback between them as small class ids, precomputed into one matrix when it fits in memory.
 *
 * Packed code: the symbols read as digits in base `symbols` (hole 0 most significant), the same
 * packing firmware/core/solver.ts uses; ascending packed order is forEachCode's order.
 * Feedback class: exact * (pegs + 1) + near.
 */
import { forEachCode } from "../../core/codes.ts";
import type { Code, Rules } from "../../core/types.ts";

export interface Space {
  rules: Rules;
  pegs: number;
  symbols: number;
  /** Valid secrets, packed, ascending. */
  secrets: Int32Array;
  /** Valid guesses, packed, ascending. */
  guesses: Int32Array;
  /** Class ids run 0..classCount-1 (some unused); winClass is exact = pegs. */
  classCount: number;
  winClass: number;
  /** guess index -> secret index in `secrets`, or -1 when that guess is not a valid secret. */
  guessAsSecret: Int32Array;
  /** Feedback class of guess gi against secret si at [gi * secrets.length + si]; null when too big to hold. */
  matrix: Uint8Array | null;
}

/** A code packed as base-`symbols` digits. */
export function pack(code: Code, symbols: number): number {
  let v = 0;
  for (let i = 0; i < code.length; i++) v = v * symbols + code[i];
  return v;
}

/** The code of a packed value. */
export function unpack(v: number, pegs: number, symbols: number): Code {
  const code: Code = [];
  for (let i = pegs - 1; i >= 0; i--) {
    code[i] = v % symbols;
    v = Math.floor(v / symbols);
  }
  return code;
}

function packedSpace(rules: Rules, forSecret: boolean, symbols: number): Int32Array {
  const out: number[] = [];
  forEachCode(rules, forSecret, (code) => {
    out.push(pack(code, symbols));
  });
  return Int32Array.from(out);
}

/**
 * Feedback class computer for one guess against many secrets: the guess's digits and symbol counts
 * are taken once, so each secret costs a few array reads.
 */
export class ClassOf {
  private readonly pegs: number;
  private readonly symbols: number;
  private readonly digits: Int32Array;
  private readonly counts: Int32Array;
  private readonly secretCounts: Int32Array;

  constructor(pegs: number, symbols: number) {
    this.pegs = pegs;
    this.symbols = symbols;
    this.digits = new Int32Array(pegs);
    this.counts = new Int32Array(symbols);
    this.secretCounts = new Int32Array(symbols);
  }

  setGuess(g: number): void {
    this.counts.fill(0);
    for (let i = this.pegs - 1; i >= 0; i--) {
      const d = g % this.symbols;
      this.digits[i] = d;
      this.counts[d]++;
      g = (g - d) / this.symbols;
    }
  }

  of(s: number): number {
    const pegs = this.pegs;
    const sc = this.secretCounts;
    sc.fill(0);
    let exact = 0;
    for (let i = pegs - 1; i >= 0; i--) {
      const d = s % this.symbols;
      if (d === this.digits[i]) exact++;
      sc[d]++;
      s = (s - d) / this.symbols;
    }
    let common = 0;
    for (let c = 0; c < this.symbols; c++) common += Math.min(sc[c], this.counts[c]);
    return exact * (pegs + 1) + common - exact;
  }
}

/** Largest matrix (guesses x secrets) built in memory; race+ (59,049 squared) computes on the fly. */
const MATRIX_MAX = 64_000_000;

export function buildSpace(rules: Rules): Space {
  const symbols = rules.colours + (rules.blanks ? 1 : 0);
  const pegs = rules.pegs;
  const secrets = packedSpace(rules, true, symbols);
  const guesses = packedSpace(rules, false, symbols);
  const index = new Map<number, number>();
  secrets.forEach((s, i) => index.set(s, i));
  const guessAsSecret = new Int32Array(guesses.length);
  guesses.forEach((g, i) => (guessAsSecret[i] = index.get(g) ?? -1));
  let matrix: Uint8Array | null = null;
  if (guesses.length * secrets.length <= MATRIX_MAX) {
    matrix = new Uint8Array(guesses.length * secrets.length);
    const cls = new ClassOf(pegs, symbols);
    const n = secrets.length;
    for (let gi = 0; gi < guesses.length; gi++) {
      cls.setGuess(guesses[gi]);
      const base = gi * n;
      for (let si = 0; si < n; si++) matrix[base + si] = cls.of(secrets[si]);
    }
  }
  return {
    rules,
    pegs,
    symbols,
    secrets,
    guesses,
    classCount: (pegs + 1) * (pegs + 1),
    winClass: pegs * (pegs + 1),
    guessAsSecret,
    matrix,
  };
}
