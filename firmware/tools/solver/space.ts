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

/**
 * Feedback classes by table lookups, for spaces too big for the matrix (race+): a code splits into
 * its first holes, its last holes and its multiset of symbols, and the class of a guess and a secret
 * is the exact matches of each part (times pegs) plus the symbols in common of the multisets.
 */
export class FastClass {
  private readonly hiSize: number;
  private readonly loSize: number;
  private readonly msSize: number;
  private readonly exHi: Uint8Array;
  private readonly exLo: Uint8Array;
  private readonly common: Uint8Array;
  /** Per secret index: its parts' indexes. */
  private readonly sHi: Int32Array;
  private readonly sLo: Int32Array;
  private readonly sMs: Int32Array;
  /** Per guess index: its parts' indexes times the table widths. */
  private readonly gHi: Int32Array;
  private readonly gLo: Int32Array;
  private readonly gMs: Int32Array;

  constructor(space: Omit<Space, "matrix">) {
    const { pegs, symbols } = space;
    const hiPegs = Math.floor(pegs / 2);
    const loPegs = pegs - hiPegs;
    this.hiSize = Math.pow(symbols, hiPegs);
    this.loSize = Math.pow(symbols, loPegs);
    const exact = (a: number, b: number, holes: number): number => {
      let e = 0;
      for (let i = 0; i < holes; i++, a = Math.floor(a / symbols), b = Math.floor(b / symbols)) if (a % symbols === b % symbols) e++;
      return e * pegs;
    };
    this.exHi = new Uint8Array(this.hiSize * this.hiSize);
    for (let a = 0; a < this.hiSize; a++) for (let b = 0; b < this.hiSize; b++) this.exHi[a * this.hiSize + b] = exact(a, b, hiPegs);
    this.exLo = new Uint8Array(this.loSize * this.loSize);
    for (let a = 0; a < this.loSize; a++) for (let b = 0; b < this.loSize; b++) this.exLo[a * this.loSize + b] = exact(a, b, loPegs);
    // Multisets: symbol counts as base-(pegs + 1) digits.
    const msIndex = new Map<number, number>();
    const msCounts: number[][] = [];
    const msOf = (v: number): number => {
      const counts = new Array<number>(symbols).fill(0);
      for (let i = 0; i < pegs; i++, v = Math.floor(v / symbols)) counts[v % symbols]++;
      const key = counts.reduce((k, c) => k * (pegs + 1) + c, 0);
      let m = msIndex.get(key);
      if (m === undefined) {
        msIndex.set(key, (m = msCounts.length));
        msCounts.push(counts);
      }
      return m;
    };
    const parts = (codes: Int32Array, scale: boolean) => {
      const hi = new Int32Array(codes.length);
      const lo = new Int32Array(codes.length);
      const ms = new Int32Array(codes.length);
      codes.forEach((v, i) => {
        hi[i] = Math.floor(v / this.loSize);
        lo[i] = v % this.loSize;
        ms[i] = msOf(v);
      });
      if (scale) {
        for (let i = 0; i < codes.length; i++) {
          hi[i] *= this.hiSize;
          lo[i] *= this.loSize;
        }
      }
      return [hi, lo, ms];
    };
    [this.sHi, this.sLo, this.sMs] = parts(space.secrets, false);
    [this.gHi, this.gLo, this.gMs] = parts(space.guesses, true);
    this.msSize = msCounts.length;
    this.common = new Uint8Array(this.msSize * this.msSize);
    for (let a = 0; a < this.msSize; a++) {
      for (let b = 0; b < this.msSize; b++) {
        let c = 0;
        for (let k = 0; k < symbols; k++) c += Math.min(msCounts[a][k], msCounts[b][k]);
        this.common[a * this.msSize + b] = c;
      }
    }
    for (let i = 0; i < this.gMs.length; i++) this.gMs[i] *= this.msSize;
  }

  /** Fills out[i] with the class of guess gi against secret set[i]. */
  classes(gi: number, set: ArrayLike<number>, out: Uint8Array): void {
    const exHi = this.exHi;
    const exLo = this.exLo;
    const common = this.common;
    const sHi = this.sHi;
    const sLo = this.sLo;
    const sMs = this.sMs;
    const h = this.gHi[gi];
    const l = this.gLo[gi];
    const m = this.gMs[gi];
    for (let i = 0; i < set.length; i++) {
      const s = set[i];
      out[i] = exHi[h + sHi[s]] + exLo[l + sLo[s]] + common[m + sMs[s]];
    }
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
