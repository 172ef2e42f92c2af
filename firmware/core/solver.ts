/**
 * The unit as codebreaker: follows a precomputed decision table where one is given, and searches
 * the candidates itself where the table stops, in slices of at most `budget` feedback evaluations so
 * the unit stays responsive. Also the candidate machinery behind the hints for a human codebreaker
 * and behind contradiction detection.
 *
 * Pure: the table comes in as bytes (a Uint8Array, or the 8-bit string Storage.read returns).
 *
 * Codes are packed as digits in base `symbols` (hole 0 most significant), so every code of every
 * preset fits a Uint16Array entry (9^5 = 59,049). A feedback class is exact * (pegs + 1) + near.
 *
 * Candidates (the secrets consistent with some rows) are enumerated without visiting every code:
 * first every multiset of symbols (a sorted tuple) whose overlap with each row's guess equals that
 * row's exact + near, then the distinct arrangements of each surviving multiset whose exact count
 * matches every row, both in lexicographic order. Each overlap or exact check against one row counts
 * as one evaluation, like a feedback() call; a check that fails also finds the shortest prefix of
 * the multiset (or arrangement) that no code can complete to the row's count, and every code that
 * starts with it is skipped unchecked.
 *
 * Table format 2 (bits, most significant first; see also firmware/tools/solver/README.md):
 *   header: byte 0 = TABLE_VERSION, byte 1 = pegs * 16 + symbols; the root (a book node) follows.
 *   book node (the unit does not hold the candidates): guess (packed, ceil(log2(symbols^pegs)) bits);
 *     one bit per class id below the winning one (pegs * (pegs + 1)), set for the classes with a
 *     child; per child a book flag (1 bit); the length of every child's subtree but the last; then
 *     the subtrees. A book node's candidate child (where the unit enumerates the candidates from the
 *     rows so far) is a flag bit, clear when the unit chooses itself from there on, then when set
 *     a candidate node.
 *   candidate node (the unit holds the node's candidates S, in enumeration order): nothing when
 *     |S| <= 2 (the guess is S[0]); else 0 + index into S (ceil(log2 |S|) bits) or 1 + packed guess;
 *     then, per child with 3 or more candidates in class order, a flag bit, clear when the unit
 *     chooses itself from there on (no subtree); the lengths of the flagged children's subtrees but
 *     the last; then those subtrees.
 *   A length is the Elias gamma code of (bits + 1). Where the unit chooses itself, it plays the
 *   candidate (of its first POLICY_BUDGET / |S|) that splits S into the most classes.
 *
 * The state is a closure (created once per game), so that its many fields minify to short names.
 */
import { codeAt } from "./codes";
import { codeSpaceSize } from "./presets";
import { Code, Row, Rules } from "./types";

/** First byte of a table: the format it was written in. */
export const TABLE_VERSION = 2;
/** Most candidates held at once (4 KB); beyond this they are counted, and re-enumerated rather than filtered. */
export const CANDIDATE_CAP = 2048;
/** Evaluations the unit spends choosing among candidates when the table has no guess for them. */
export const POLICY_BUDGET = 1500;

/**
 * A codebreaker (or a hint computation) for one game, whose rows only grow: use its methods, or the
 * functions below. A new game needs a new one.
 */
export interface SolverState {
  /** Begins a move (or a hint computation) after `rows`, the game's rows so far; the same rows again go on with the work (solverStart). */
  start(rows: Row[]): void;
  /**
   * Works for at most `budget` evaluations, and stops sooner once `stop` (asked before every
   * evaluation: one takes about 0.3 ms on the interpreter) says the time slice is over; true when done.
   */
  step(budget: number, stop?: () => boolean): boolean;
  /** The guess once ready; null on contradictory rows (or while working). */
  guess(): Code | null;
  /** Evaluations still expected in this move (rough). */
  estimate(): number;
  /** Evaluations done since creation (the bench reads it). */
  evals(): number;
  /** Hints: how many secrets fit, and the first one (null when none). */
  total(): number;
  example(): Code | null;
}

/** The Storage file holding a variant's table (28 characters at most): "bb.t.brainiac", "bb.t.race+"... */
export function solverTableName(rules: Rules): string {
  return "bb.t." + rules.preset + (rules.harder ? "+" : "");
}

/** Packs digits (hole 0 most significant). */
export function packCode(digits: ArrayLike<number>, symbols: number): number {
  let v = 0;
  for (let i = 0; i < digits.length; i++) v = v * symbols + digits[i];
  return v;
}

/** The code of a packed value. */
export function unpackCode(v: number, pegs: number, symbols: number): Code {
  const code: Code = [];
  for (let i = 0; i < pegs; i++, v = Math.floor(v / symbols)) code.unshift(v % symbols);
  return code;
}

// What the machine works on next.
const JOB_ADVANCE = 0;
const JOB_ENUMERATE = 1;
const JOB_PASS = 2;
const JOB_READY = 3;

/**
 * A new codebreaker for one game under `rules`; `table` is the variant's table, or undefined to
 * search only. With `hinting` it only counts the candidates (createHintState), keeping at most
 * `capacity` of them (default CANDIDATE_CAP).
 */
export function createSolver(rules: Rules, table: Uint8Array | string | undefined, hinting?: boolean, capacity?: number): SolverState {
  const pegs = rules.pegs;
  const symbols = rules.colours + (rules.blanks ? 1 : 0);
  const blank = rules.blanks ? rules.colours : -1;
  const winClass = pegs * (pegs + 1);
  let packBits = 0;
  while (1 << packBits < Math.pow(symbols, pegs)) packBits++;
  /** Bit p of the table (0 past its end). */
  function bit(p: number): number {
    return ((typeof table === "string" ? table.charCodeAt(p >> 3) : (table as Uint8Array)[p >> 3]) >> (7 - (p & 7))) & 1;
  }
  function readBits(p: number, bits: number): number {
    let v = 0;
    while (bits--) v = v * 2 + bit(p++);
    return v;
  }
  if (table && readBits(0, 16) !== TABLE_VERSION * 256 + pegs * 16 + symbols) table = undefined;

  // Rows: per row the guess (packed, and digits at rowDigits[r * pegs + i]), its symbol counts in 3-bit fields, exact, exact + near.
  const most = rules.rows + 1;
  const rowGuess = new Int32Array(most);
  const rowDigits = new Int8Array(most * pegs);
  const rowCounts = new Int32Array(most);
  const rowExact = new Int8Array(most);
  const rowCommon = new Int8Array(most);
  let rowCount = 0;
  // Position: rows applied, bit position of the table node (-1: no table here), is it a book node?
  let applied = 0;
  let at = table ? 16 : -1;
  let book = at >= 0;
  // Candidates of the position once `known` (all of them unless `overflow`), and how many fit in all.
  let known = false;
  let overflow = false;
  const cap = capacity || CANDIDATE_CAP;
  const list = new Uint16Array(cap);
  let count = 0;
  let total = 0;
  let job = JOB_ADVANCE;
  // Enumeration: rows checked, current multiset and arrangement, the row being checked.
  let enumRows = 0;
  const multiset = new Int8Array(pegs);
  const arrangement = new Int8Array(pegs);
  let checkRow = 0;
  let arranging = false;
  // Symbol counts (3-bit fields) of the multiset being arranged.
  let whole = 0;
  // A pass over the candidates with one guess: class counts, position, kept so far, the class kept (-1: none).
  const classCounts = new Uint16Array(winClass + 1);
  let cursor = 0;
  let kept = 0;
  let keepClass = -1;
  const guessDigits = new Int8Array(pegs);
  let guessCounts = 0;
  // The unit's own choice: the candidate tried, how many to try, the best so far and its parts.
  let trying = 0;
  let tries = 0;
  let best = 0;
  let bestParts = 0;
  let afterGuess = 0;
  let guess = -1;
  let evals = 0;

  /** A subtree length at `cursor` (a bit position; Elias gamma code of length + 1), moving past it. */
  function readLength(): number {
    let zeros = 0;
    // (A damaged table reads as zeros past its end: stop there rather than loop for ever.)
    while (!bit(cursor++) && zeros < 24) zeros++;
    const v = readBits(cursor, zeros);
    cursor += zeros;
    return (1 << zeros) + v - 1;
  }

  /**
   * At `cursor`, the lengths of `children` subtrees but the last, then the subtrees: the table node
   * becomes the start of subtree `index`.
   */
  function skipTo(children: number, index: number): void {
    let skip = 0;
    for (let k = 0; k < children - 1; k++) {
      const length = readLength();
      if (k < index) skip += length;
    }
    at = cursor + skip;
  }

  /** Symbol counts of packed v in 3-bit fields; its digits go to `digits`. */
  function countsOf(v: number, digits: Int8Array): number {
    let counts = 0;
    for (let i = pegs; i--; v = (v - (v % symbols)) / symbols) {
      digits[i] = v % symbols;
      counts += 1 << (3 * (v % symbols));
    }
    return counts;
  }

  /** Fills multiset[from..] with the smallest valid sorted symbols from `symbol` on; false if they run out. */
  function fillSorted(from: number, symbol: number): boolean {
    for (; from < pegs; from++) {
      if (symbol >= symbols) return false;
      multiset[from] = symbol;
      if (!rules.secretRepeats && symbol !== blank) symbol++;
    }
    return true;
  }

  function startEnumeration(rows: number): void {
    enumRows = rows;
    count = total = checkRow = 0;
    overflow = known = arranging = false;
    fillSorted(0, 0);
    job = JOB_ENUMERATE;
  }

  /** Ends an enumeration or a filter: the candidates are known. */
  function finished(): void {
    known = true;
    job = JOB_ADVANCE;
    if (!overflow) total = count;
  }

  function enumerate(budget: number): number {
    while (budget > 0 && job === JOB_ENUMERATE) {
      let ok = true;
      // The shortest prefix of the multiset (or arrangement) that fails the row: whatever follows it fails too, and is skipped.
      let p = pegs;
      if (checkRow < enumRows) {
        budget--;
        evals++;
        const target = arranging ? rowExact[checkRow] : rowCommon[checkRow];
        let theirs = rowCounts[checkRow];
        // Kept up to date one peg at a time (no loops over symbols: each statement costs on the interpreter).
        // Arranging: exact so far, and at most the symbols in common of what is left on both sides to
        // come (the multiset passed this row, so with nothing placed that is the row's exact + near).
        // Else: in common so far, and at most the row's symbols not matched yet from this (sorted) symbol on.
        let value = 0;
        let more = rowCommon[checkRow];
        let mine = arranging ? whole : 0;
        for (p = 0; ok && p < pegs; p++) {
          const k = 3 * (arranging ? arrangement : multiset)[p];
          if (arranging) {
            const e = 3 * rowDigits[checkRow * pegs + p];
            if (k === e) value++;
            // Taking one symbol from a side lowers the overlap when that side had no more of it than the other.
            if (((mine >> k) & 7) <= ((theirs >> k) & 7)) more--;
            mine -= 1 << k;
            if (((theirs >> e) & 7) <= ((mine >> e) & 7)) more--;
            theirs -= 1 << e;
          } else {
            const t = (theirs >> k) & 7;
            const m = ((mine >> k) & 7) + 1;
            mine += 1 << k;
            if (m <= t) value++;
            // (The row's pegs of this symbol or a later one: its counts from this field on, summed.)
            more = m < t ? -m : -t;
            for (let x = theirs >> k; x; x >>= 3) more += x & 7;
            if (more > pegs - p - 1) more = pegs - p - 1;
          }
          ok = value <= target && value + more >= target;
        }
        if (ok && ++checkRow < enumRows) continue;
      }
      checkRow = 0;
      if (arranging) {
        if (ok) {
          if (count < cap) list[count++] = packCode(arrangement, symbols);
          else overflow = true;
          total++;
        }
        // The next arrangement past every one that starts with the failing prefix (lexicographic order):
        // the rest in descending order is the last of them; then the usual next permutation.
        arrangement.subarray(p).sort().reverse();
        let i = pegs - 1;
        while (i-- && arrangement[i] >= arrangement[i + 1]);
        if (i >= 0) {
          p = pegs;
          while (arrangement[--p] <= arrangement[i]);
          const t = arrangement[i];
          arrangement[i] = arrangement[p];
          arrangement[p] = t;
          arrangement.subarray(i + 1).sort();
          continue;
        }
        arranging = ok = false;
        p = pegs;
      }
      if (ok) {
        arrangement.set(multiset);
        arranging = true;
        // (Writing the multiset's digits back to it changes nothing.)
        whole = countsOf(packCode(multiset, symbols), multiset);
      } else {
        // The next multiset past the failing prefix, or the end.
        while (p-- && !fillSorted(p, multiset[p] + 1));
        if (p < 0) finished();
      }
    }
    return budget;
  }

  /** Starts a pass over the candidates with packed guess g, keeping those of class `keep` (-1: counting only). */
  function startPass(g: number, keep: number): void {
    guessCounts = countsOf(g, guessDigits);
    keepClass = keep;
    cursor = kept = 0;
    classCounts.fill(0);
    job = JOB_PASS;
  }

  function pass(budget: number): number {
    for (; budget > 0 && cursor < count; budget--) {
      const secret = list[cursor++];
      // The class exact * pegs + in common, in one pass over the secret's digits: its n-th peg of a
      // symbol is in common when the guess has at least n of it.
      let v = secret;
      let seen = 0;
      let c = 0;
      for (let i = pegs; i--;) {
        const d = v % symbols;
        v = (v - d) / symbols;
        const k = 3 * d;
        if (((seen >> k) & 7) < ((guessCounts >> k) & 7)) c++;
        seen += 1 << k;
        if (d === guessDigits[i]) c += pegs;
      }
      evals++;
      classCounts[c]++;
      if (c === keepClass) list[kept++] = secret;
    }
    if (cursor < count) return budget;
    if (keepClass >= 0) {
      count = kept;
      applied++;
      finished();
      if (at >= 0) {
        // Move to the kept class's subtree: children with 3 or more candidates have a flag, set when the table goes on below.
        let children = 0;
        let index = 0;
        cursor = afterGuess;
        for (let c = 0; c < winClass; c++) {
          if (classCounts[c] > 2 && bit(cursor++)) {
            children++;
            if (c < keepClass) index++;
            // (Counted: a kept class still over 2 below has no table.)
            classCounts[c] = 0;
          }
        }
        skipTo(children, index);
        if (classCounts[keepClass] > 2) at = -1;
      }
      return budget;
    }
    // A pass of the unit's own choice: the guess that splits the candidates into the most classes wins (the first on ties).
    let parts = 0;
    for (let c = 0; c <= winClass; c++) if (classCounts[c]) parts++;
    if (parts > bestParts) {
      bestParts = parts;
      best = trying;
    }
    if (++trying < tries) startPass(list[trying], -1);
    else {
      guess = list[best];
      job = JOB_READY;
    }
    return budget;
  }

  /** The guess of the candidate node at `at`. */
  function candidateNodeGuess(): number {
    let p = at;
    let g = list[0];
    if (count > 2) {
      if (bit(p++)) {
        g = readBits(p, packBits);
        p += packBits;
      } else {
        let bits = 0;
        while (1 << bits < count) bits++;
        g = list[readBits(p, bits)];
        p += bits;
      }
    }
    afterGuess = p;
    return g;
  }

  /** Applies the next row to the position (no evaluations itself), or decides the guess after the last. */
  function advance(): void {
    const r = applied;
    if (r >= rowCount) {
      job = JOB_READY;
      if (book) guess = readBits(at, packBits);
      else if (hinting && !r) {
        // Every valid secret fits: no need to count them.
        list[0] = packCode(codeAt(rules, true, 0), symbols);
        count = 1;
        total = codeSpaceSize(rules, true);
      } else if (!known) {
        at = -1;
        // No table and no rows: a fixed opening, 0011 / 00011 where repeats are allowed, else 01234.
        if (r) startEnumeration(r);
        else guess = packCode(codeAt(rules, false, rules.guessRepeats ? symbols + 1 : 0), symbols);
      } else if (!hinting) {
        guess = count ? (at >= 0 ? candidateNodeGuess() : -1) : -2;
        if (guess === -1) {
          at = -1;
          tries = Math.min(count, Math.floor(POLICY_BUDGET / count)) || 1;
          trying = bestParts = 0;
          startPass(list[0], -1);
        }
      }
      return;
    }
    const playedClass = rowExact[r] * pegs + rowCommon[r];
    if (book) {
      book = false;
      applied = rowCount;
      // A row's guess that is not the table's: the table no longer applies.
      if (readBits(at, packBits) !== rowGuess[r]) return;
      let p = at + packBits;
      let index = -1;
      let children = 0;
      for (let c = 0; c < winClass; c++) {
        if (bit(p + c)) {
          if (c === playedClass) index = children;
          children++;
        }
      }
      // No child for this feedback: no secret gives it, a contradiction.
      known = index < 0;
      count = 0;
      if (known) return;
      p += winClass;
      book = bit(p + index) > 0;
      applied = r + 1;
      cursor = p + children;
      skipTo(children, index);
      if (!book) {
        // A candidate child: its first bit is set when the table goes on below.
        if (!bit(at++)) at = -1;
        startEnumeration(applied);
      }
    } else if (known && !overflow) {
      if (at >= 0 && candidateNodeGuess() !== rowGuess[r]) at = -1;
      startPass(rowGuess[r], playedClass);
    } else {
      // Candidates not held (or not all of them): enumerate them from every row instead.
      known = false;
      applied = rowCount;
    }
  }

  /** Begins a move (or a hint) for `rows`: the rows of the game so far, which only grow from call to call. */
  function start(rows: Row[]): void {
    // The same rows again: go on with the work, or keep what it found.
    if (rows.length === rowCount) return;
    // Fewer rows (a mistake: a new game needs a new state), or a move cut short: start again from the first row.
    if (rows.length < rowCount || job !== JOB_READY) {
      applied = 0;
      known = overflow = false;
      at = table ? 16 : -1;
      book = at >= 0;
    }
    rowCount = rows.length;
    for (let r = 0; r < rowCount; r++) {
      const fb = rows[r].feedback;
      rowGuess[r] = packCode(rows[r].guess, symbols);
      rowCounts[r] = countsOf(rowGuess[r], rowDigits.subarray(r * pegs));
      rowExact[r] = fb.exact;
      rowCommon[r] = fb.exact + fb.near;
    }
    guess = -1;
    job = JOB_ADVANCE;
  }

  return {
    start: start,
    step: function (budget: number, stop?: () => boolean): boolean {
      while (job !== JOB_READY) {
        if (job === JOB_ADVANCE) advance();
        else if (budget <= 0 || (stop && stop())) return false;
        // One evaluation at a time: the work is a resumable state machine, so this does exactly what
        // one call with the whole budget would.
        else budget += (job === JOB_ENUMERATE ? enumerate(1) : pass(1)) - 1;
      }
      return true;
    },
    guess: function (): Code | null {
      return guess < 0 ? null : unpackCode(guess, pegs, symbols);
    },
    estimate: function (): number {
      return job === JOB_READY ? 0 : job === JOB_PASS ? (keepClass < 0 ? tries - trying : 1) * count - cursor : 1000;
    },
    evals: function (): number {
      return evals;
    },
    total: function (): number {
      return total;
    },
    example: function (): Code | null {
      return count ? unpackCode(list[0], pegs, symbols) : null;
    },
  };
}

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

/**
 * Evaluations still expected before the guess is ready: 0 when it is (or is a table lookup). A
 * rough figure for the "thinking" display; the unit computes about 600 evaluations a second.
 */
export function solverEstimate(s: SolverState): number {
  return s.estimate();
}

/** A hint computation for a human codebreaker: how many codes are still possible, and one of them. */
export type HintState = SolverState;

/** A hint computation under `rules`, to be fed the rows with hintStep in idle time. */
export function createHintState(rules: Rules): HintState {
  return createSolver(rules, undefined, true);
}

/**
 * Works on the hints for `rows` for at most `budget` evaluations; true when hintCount and
 * hintExample are final. Call it again with the same rows to go on; rows that continue the last
 * finished rows by one filter the kept candidates rather than enumerating again.
 */
export function hintStep(h: HintState, rows: Row[], budget: number): boolean {
  h.start(rows);
  return h.step(budget);
}

/** How many valid secrets fit the rows of the last hintStep (final once it returned true). */
export function hintCount(h: HintState): number {
  return h.total();
}

/** One valid secret that fits the rows (the first in enumeration order), or null when none does. */
export function hintExample(h: HintState): Code | null {
  return h.example();
}
