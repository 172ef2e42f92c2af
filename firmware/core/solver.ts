/**
 * The unit as codebreaker: follows a precomputed decision table where one is given, and searches
 * the candidates itself where the table stops, in slices of at most `budget` feedback evaluations so
 * the unit stays responsive. Also the candidate machinery behind the hints for a human codebreaker
 * and behind contradiction detection.
 *
 * Pure: the table comes in as bytes (a Uint8Array, or the 8-bit string Storage.read returns).
 *
 * Candidates (the secrets consistent with some rows) are enumerated depth first, hole by hole, in
 * lexicographic order (the order of their packed codes, and forEachCode's). At each hole, per row,
 * what the hole may hold is one bit mask over the symbols: the row's exact matches and symbols in
 * common so far must still be able to reach the row's counts with the holes left (a hole that must
 * match the row's guess there, or must not; a symbol the guess still has unmatched that must come,
 * or must not), and the masks of all rows are ANDed, so that only prefixes that can still fit are
 * visited. Each prefix visited counts as one evaluation. A pass (splitting the candidates by one
 * guess: a row's filter, the table's split, the unit's own choice) counts one evaluation per
 * PASS_SHARE candidates (on the interpreter a candidate's class takes about half the time of a prefix's
 * masks, a loop over the rows). The stop callback is asked every ASK_EVERY evaluations.
 *
 * Where the book ends, the move's guess often comes before the enumeration does: the table's guess
 * there is packed where the enumeration is long (the guess is known once 3 candidates are found, so
 * that the node has a guess at all). step() returns with that guess, and the rest of the
 * enumeration (which the next move needs: the table's candidates always fit the list) goes on in
 * ponder() while the player answers, or in the next move's step(). ponder() then splits the
 * candidates by the guess played, so that the answer only picks its class's, and at a node of the
 * table places the node's children (where each subtree starts), so that the answer goes to its
 * child without reading the subtrees' lengths. Whether an answer fits is then known too (fits()):
 * the ui takes it at once instead of searching for a conflict. A player who answers before that work
 * is done leaves it to the move, for PENDING_MS at most: past it the table goes for the rest of the
 * game, and every move is enumerated from all the rows, held to MOVE_BUDGET_MS.
 *
 * The table's format, and codes as the unit holds them: solver-format.ts.
 *
 * The state is a closure (created once per game), so that its many fields minify to short names.
 */
import { codeAt } from "./codes";
import { codeSpaceSize } from "./presets";
import { ASK_EVERY, byteCounts, CANDIDATE_CAP, CODE_BITS, HINT_CAP } from "./solver-format";
import { MOVE_BUDGET_MS, ones, PENDING_MS, POLICY_BUDGET, TABLE_VERSION } from "./solver-format";
import type { HintState, SolverState } from "./solver-format";
import { Code, Row, Rules } from "./types";

// (Re-exported: the solver's users import it from here.)
export { ASK_EVERY, CANDIDATE_CAP, HINT_CAP, MOVE_BUDGET_MS, PENDING_MS, POLICY_BUDGET, TABLE_VERSION } from "./solver-format";
export { hintCount, hintExample, hintStep, packCode, solverGuess, solverStart, solverStep, solverTableName } from "./solver-format";
export type { HintState, SolverState } from "./solver-format";

/** Candidates of a pass that count one evaluation (the budget's unit: about a prefix's work in an enumeration). */
const PASS_SHARE = 2;

// What the machine works on next.
const JOB_ADVANCE = 0;
const JOB_ENUMERATE = 1;
const JOB_PASS = 2;
const JOB_READY = 3;

/**
 * A new codebreaker for one game under `rules`; `table` is the variant's table, or undefined to
 * search only. With `hinting` it only counts the candidates (createHintState), keeping at most
 * `capacity` of them (default HINT_CAP, else CANDIDATE_CAP); a capacity of 1 only asks whether any code fits (the
 * enumeration stops at the first).
 */
export function createSolver(rules: Rules, table: Uint8Array | string | undefined, hinting?: boolean, capacity?: number): SolverState {
  const pegs = rules.pegs;
  const symbols = rules.colours + (rules.blanks ? 1 : 0);
  const winClass = pegs * (pegs + 1);
  let packBits = 0;
  while (1 << packBits < Math.pow(symbols, pegs)) packBits++;
  const isString = typeof table === "string";
  /** `n` bits (at most 16) of the table at bit `p` (0 past its end). */
  function bits(p: number, n: number): number {
    const q = p >> 3;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const t: any = table;
    return (
      ((isString
        ? (t.charCodeAt(q) << 16) | (t.charCodeAt(q + 1) << 8) | t.charCodeAt(q + 2)
        : (t[q] << 16) | (t[q + 1] << 8) | t[q + 2]) >>
        (24 - (p & 7) - n)) &
      ((1 << n) - 1)
    );
  }
  if (table && bits(0, 16) !== TABLE_VERSION * 256 + pegs * 16 + symbols) table = undefined;

  // Fields of 3 bits (a symbol's count): the lowest bit of each; every symbol, as bits 3s (the layout of symbol counts).
  const low3 = 0x1249249;
  const every = low3 & ((1 << (3 * symbols)) - 1);
  // The symbols a secret holds at most once: every colour when the secret has no repeats (the blank may repeat).
  const own = rules.secretRepeats ? 0 : low3 & ((1 << (3 * rules.colours)) - 1);
  // Symbol s from its bit 3s: +symbolOf[(1 << 3s) % 37] (those residues differ for s < 9).
  const symbolOf = "-0------1-8------------5--42-7-3----6";

  const byteOf = byteCounts;
  /** The guess the table holds at bit `p` (packed in base `symbols`) as the unit holds codes: 4 bits a hole, hole 0 most significant. */
  function tableGuess(p: number): number {
    let n = 0;
    for (let i = 0, v = bits(p, packBits); i < pegs; i++, v = (v - (v % symbols)) / symbols) n |= (v % symbols) << (4 * i);
    return n;
  }
  function pack(digits: ArrayLike<number>): number {
    let v = 0;
    for (let i = 0; i < pegs; i++) v = (v << 4) | digits[i];
    return v;
  }
  function unpack(v: number): Code {
    const code: Code = [];
    for (let i = pegs; i--; v >>= 4) code.unshift(v & 15);
    return code;
  }
  // The holes' lowest bits (4-bit fields); the byte above the holes, with no hole (10) in its empty fields, for byteCounts.
  const holes = ((1 << (4 * pegs)) - 1) / 15;
  const top = pegs > 4 ? 0xa0 : 0xaa;

  const most = rules.rows + 1;
  let rowCount = 0;
  // Position: rows applied, bit position of the table node (-1: no table here), is it a book node?
  let applied = 0;
  let at = table ? 16 : -1;
  let book = at >= 0;
  // May the move's guess come before the enumeration ends (it is for all the rows, at a table's candidate node)?
  let early = false;
  // Candidates of the position once `known` (all of them unless `overflow`), and how many fit in all.
  let known = false;
  let overflow = false;
  const cap = capacity || (hinting ? HINT_CAP : CANDIDATE_CAP);
  const list = new Int32Array(cap);
  let count = 0;
  let total = 0;
  let job = JOB_ADVANCE;
  // Enumeration, depth first over the prefix: per position d (slot d: what the positions before it left) and row r (at
  // d * most + r), the exact matches and the symbols in common still to come, and the guess's symbols not matched yet (3-bit
  // counts); slot 0 holds the row's exact, exact + near and its guess's symbol counts. Per position and row, the row's guess's
  // symbol there (as bit 3s, the layout of symbol counts). Per position the symbols left to try, the prefix, the colours used.
  let enumRows = 0;
  let depth = 0;
  // (Slot `pegs` only for rowBits: the others' last slot is the last position's, which leaves no state below.)
  const slots = pegs * most;
  // The exact matches at i, the symbols in common at slots + i (one array: a Pico holds two in ~12 JsVars more).
  const stExact = new Int8Array(2 * slots);
  const stLeft = new Int32Array(slots);
  const rowBits = new Int32Array(slots + most);
  // Rows: per row the guess, packed, in rowBits' slot 0 (the enumeration's level 0 only asks that it is not its bit, 1 << 27).
  const rowGuess = rowBits;
  // Per position k, at 4k: the symbols left to try, the prefix, the colours used, and how many codes the prefix stands for
  // (once only counted: symbols no row's guess holds are tried once for all). (One array: each costs a Pico ~10 JsVars.)
  const levels = new Int32Array(4 * (pegs + 1) + 2 * (winClass + 1));
  let free = 0;
  // A pass over the candidates with one guess: class counts (in levels, from classAt), position, kept so far, the class kept
  // (-1: none); the guess's symbols (as bits 3s) and symbol counts (3-bit fields).
  const classAt = 4 * (pegs + 1);
  // Where a node's children's subtrees start (skipTo with index -1), in levels after the class counts.
  const placeAt = classAt + winClass + 1;
  let cursor = 0;
  let kept = 0;
  let keepClass = -1;
  let guessCode = 0;
  // The guess the candidates are split by already (pondering, before its answer): each holds its class + 1 in bits 24-28.
  let classified = -1;
  // Per k = 1..5, the guess's symbols it holds at least k times (lowest bits of 3-bit fields).
  let atLeast1 = 0;
  let atLeast2 = 0;
  let atLeast3 = 0;
  let atLeast4 = 0;
  let atLeast5 = 0;
  // The unit's own choice: the candidate tried, how many to try, the best so far and its parts.
  let trying = 0;
  let tries = 0;
  let best = 0;
  let bestParts = 0;
  let afterGuess = 0;
  let guess = -1;
  let evals = 0;
  // Where the table's candidate node is for all the rows of the move: the first evaluation of its enumeration (else -1; -2
  // once the move's guess is a code found then, MOVE_BUDGET_MS, not the table's).
  let moveFrom = -1;
  // The table node whose children's places are in `levels` (skipTo with index -1), else 0 (no node is there: the header).
  let walked = 0;
  // Where the move began while pondering's work was left (the player answered before it ended: the rest of an
  // enumeration, or the split by the guess), else -1: past PENDING_MS of that work the table is dropped (see run()).
  let pendingFrom = -1;
  // The table was dropped this game: every move (an enumeration for all the rows, the unit's own choice) is held to
  // MOVE_BUDGET_MS.
  let dropped = false;

  /**
   * At `cursor`, the lengths of `children` subtrees but the last (Elias gamma codes of length + 1),
   * then the subtrees: the table node becomes the start of subtree `index`. With index -1 the node stays, and levels
   * holds where the subtrees start (after the last length, at placeAt + winClass) and each one how far after that (child
   * k at placeAt + k).
   */
  function skipTo(children: number, index: number): void {
    let skip = 0;
    if (index < 0) levels[placeAt] = 0;
    for (let k = 0; k < children - 1; k++) {
      // The leading zeros of the next 16 bits, in four steps (a damaged table reads as zeros past its end: 15 at most).
      let w = bits(cursor, 16);
      let zeros = 0;
      if (w < 256) {
        zeros = 8;
        w <<= 8;
      }
      if (w < 4096) {
        zeros += 4;
        w <<= 4;
      }
      if (w < 16384) {
        zeros += 2;
        w <<= 2;
      }
      if (w < 32768) zeros++;
      if (index < 0) levels[placeAt + k + 1] = skip += bits(cursor + zeros, zeros + 1) - 1;
      else if (k < index) skip += bits(cursor + zeros, zeros + 1) - 1;
      cursor += 2 * zeros + 1;
    }
    if (index >= 0) at = cursor + skip;
    else levels[placeAt + winClass] = cursor;
  }

  function startEnumeration(rows: number): void {
    // (start() wrote slot 0.)
    enumRows = rows;
    early = rows === rowCount && at >= 0;
    // (Once the table is dropped, every enumeration is for all the rows: no book leaves fewer.)
    moveFrom = early || dropped ? evals : -1;
    count = total = 0;
    overflow = known = false;
    classified = -1;
    depth = 0;
    levels[0] = 1 << 27;
    levels[3] = 1;
    // (Level 0's visit is not an evaluation.)
    evals--;
    job = JOB_ENUMERATE;
  }

  /** Ends an enumeration or a filter: the candidates are known. */
  function finished(): void {
    known = true;
    job = JOB_ADVANCE;
    if (!overflow) total = count;
  }

  /**
   * Depth first over the prefixes, one child visited per evaluation. Level k chooses the symbol of position k - 1 among
   * toTry[k]; level 0 is a position before the first, whose one "symbol" (a bit no row has) places nothing. A child gets its
   * state (slot k + 1: what the positions before it left) from its parent's (slot k) with its symbol `bit` (as bit 3s, the
   * layout of symbol counts) placed, and the symbols that may come at position k: for every row, the exact matches and
   * the symbols in common still to come must fit in the positions left (a position that must match the row's guess there,
   * or must not; a symbol the guess still has unmatched that must come, or must not). They always fit (answers are
   * checked: exact + near <= pegs), and at the last position the mask is exact: each symbol left is a candidate.
   */
  function enumerate(budget: number): number {
    // (Locals: each name is looked up scope by scope, a closure's names one by one, and every token costs on the interpreter.)
    const se = stExact;
    const sn = slots;
    const sl = stLeft;
    const rb = rowBits;
    const lv = levels;
    const ps = pegs;
    const ms = most;
    const lo = low3;
    let k = depth;
    while (budget > 0) {
      const q = 4 * k;
      let a = lv[q];
      if (!a) {
        if (!k) {
          finished();
          break;
        }
        k--;
      } else if (k === ps) {
        // The last position: each symbol left is a candidate; once hints only count them, all at once.
        const base = lv[q + 1] << 4;
        if (hinting && overflow) {
          total += lv[q + 3] * ones(a);
          a = 0;
          budget--;
        }
        for (; a && budget > 0; budget--, total++) {
          const bit = a & -a;
          a -= bit;
          if (count < cap) list[count++] = base | +symbolOf[bit % 37];
          else overflow = true;
        }
        lv[q] = a;
        // A probe, with room for one, only asks whether any code fits (it may count a few past the first).
        if (cap < 2) {
          finished();
          break;
        }
      } else {
        const bit = a & -a;
        // Hints, only counting: one of the free symbols stands for all of them.
        const group = overflow && bit & free ? free : 0;
        const d = k + 1;
        const next = q + 4;
        lv[next + 3] = group ? lv[q + 3] * ones(a & group) : lv[q + 3];
        lv[q] = a & ~(group | bit);
        budget--;
        let m = every & ~(lv[next + 2] = lv[q + 2] | (bit & own));
        // Positions from this one on; the symbol's 3-bit field.
        const left = ps - k;
        const b7 = 7 * bit;
        if (d === ps)
          // The last position's symbols: no state to keep below.
          for (let r = enumRows, i = k * ms; m && r--; i++) {
            const x = sl[i];
            const u = x & b7;
            const y = u ? x - bit : x;
            const h = (y | (y >> 1) | (y >> 2)) & lo;
            m &= (se[i] - +(rb[i] === bit) ? rb[i + ms] : ~rb[i + ms]) & (se[i + sn] - +!!u ? h : ~h);
          }
        else
          for (let r = enumRows, i = k * ms, j = i + ms; m && r--; i++, j++) {
            const x = sl[i];
            const u = x & b7;
            const y = (sl[j] = u ? x - bit : x);
            const e = (se[j] = se[i] - +(rb[i] === bit));
            const c = (se[j + sn] = se[i + sn] - +!!u);
            if (e === left) m &= rb[j];
            else if (!e) m &= ~rb[j];
            if (!c || c === left) {
              // The guess's symbols not matched yet.
              const h = (y | (y >> 1) | (y >> 2)) & lo;
              m &= c ? h : ~h;
            }
          }
        // (No symbol fits there: stay. The bit of level 0 reads as no symbol: NaN, 0 once ORed.)
        if ((lv[next] = m)) {
          lv[next + 1] = (lv[q + 1] << 4) | +symbolOf[bit % 37];
          k = d;
        }
      }
    }
    depth = k;
    return budget;
  }

  /** Starts a pass over the candidates with packed guess g, keeping those of class `keep` (-1: counting only). */
  function startPass(g: number, keep: number): void {
    const c = byteOf[g & 255] + byteOf[(g >> 8) & 255] + byteOf[(g >> 16) | top];
    guessCode = g;
    atLeast1 = (c | (c >> 1) | (c >> 2)) & low3;
    atLeast2 = ((c >> 1) | (c >> 2)) & low3;
    atLeast3 = ((c >> 2) | ((c >> 1) & c)) & low3;
    atLeast4 = (c >> 2) & low3;
    atLeast5 = (c >> 2) & (c | (c >> 1)) & low3;
    keepClass = keep;
    cursor = kept = 0;
    // (The split by this guess has counted them.)
    if (g !== classified) levels.fill(0, classAt, placeAt);
    job = JOB_PASS;
  }

  function pass(budget: number): number {
    // (Locals: the interpreter looks names up scope by scope.)
    const l = list;
    const t = byteOf;
    const g = guessCode;
    const a1 = atLeast1;
    const a2 = atLeast2;
    const kc = keepClass;
    // Split by this guess already (pondering): each candidate's class + 1 is in its top bits, and the classes are counted.
    // Then the answer only picks its class's candidates, four times as many as a pass's between two questions to stop, and
    // none of them an evaluation.
    const tagged = g === classified;
    const span = (tagged ? 4 * PASS_SHARE : PASS_SHARE) * budget;
    const end = count - cursor > span ? cursor + span : count;
    const did = end - cursor;
    if (tagged)
      for (const tag = kc + 1; cursor < end;) {
        const w = l[cursor++];
        if (w >> 24 === tag) l[kept++] = w & CODE_BITS;
      }
    else budget -= ((did + PASS_SHARE - 1) / PASS_SHARE) | 0;
    while (cursor < end) {
      // The class exact * pegs + in common, without a loop over the holes: the holes that differ (4-bit fields of v ^ g,
      // counted by a multiplication), and per k the symbols both hold at least k times (3-bit fields, counted the same way).
      // (A split cut short by the answer may have left classes in the top bits.)
      const v = l[cursor++] & CODE_BITS;
      let x = v ^ g;
      x = (x | (x >> 1) | (x >> 2) | (x >> 3)) & holes;
      const n = t[v & 255] + t[(v >> 8) & 255] + t[(v >> 16) | top];
      let s = (n | (n >> 1) | (n >> 2)) & a1;
      if (a2)
        s +=
          (((n >> 1) | (n >> 2)) & a2) +
          (((n >> 2) | ((n >> 1) & n)) & atLeast3) +
          ((n >> 2) & atLeast4) +
          ((n >> 2) & (n | (n >> 1)) & atLeast5);
      const c = (((s * low3) >> 24) & 7) + pegs * (pegs - (((x * holes) >> (4 * pegs - 4)) & 15));
      levels[classAt + c]++;
      if (kc < -1) l[cursor - 1] = v | ((c + 1) << 24);
      else if (c === kc) l[kept++] = v;
    }
    // (What follows the last candidate, the table's children, is a piece of work of its own: after a question to stop. The
    // unit's own choice only counts the classes: it goes on.)
    if (cursor < count || (did && kc !== -1)) return budget;
    if (kc < -1) {
      // Pondering: the candidates split by the guess played, for its answer.
      classified = g;
      job = JOB_READY;
      return budget;
    }
    if (kc >= 0) {
      classified = -1;
      count = kept;
      applied++;
      finished();
      if (at >= 0) {
        // Move to the kept class's subtree: children with 3 or more candidates have a flag, set when the table goes on below.
        let children = 0;
        let index = 0;
        cursor = afterGuess;
        for (let c = 0; c < winClass; c++) {
          if (levels[classAt + c] > 2 && bits(cursor++, 1)) {
            children++;
            if (c < keepClass) index++;
            // (Counted: a kept class still over 2 below has no table.)
            levels[classAt + c] = 0;
          }
        }
        // (Walked while the player answered: see run().)
        if (walked === at) at = levels[placeAt + winClass] + levels[placeAt + index];
        else skipTo(children, index);
        if (levels[classAt + keepClass] > 2) at = -1;
      }
      return budget;
    }
    // A pass of the unit's own choice: the guess that splits the candidates into the most classes wins (the first on ties).
    let parts = 0;
    for (let c = 0; c <= winClass; c++) if (levels[classAt + c]) parts++;
    if (parts > bestParts) {
      bestParts = parts;
      best = trying;
    }
    if (++trying < tries) {
      startPass(list[trying], -1);
      // (The next pass in the same call, while the budget lasts: a pass over a few candidates is a small piece of work.)
      if (budget > 0) return pass(budget);
    } else {
      guess = list[best];
      job = JOB_READY;
    }
    return budget;
  }

  /** The guess of the candidate node at `at` (the candidates may hold their class in their top bits). */
  function candidateNodeGuess(): number {
    let p = at;
    let g = list[0] & CODE_BITS;
    if (count > 2) {
      if (bits(p++, 1)) {
        g = tableGuess(p);
        p += packBits;
      } else {
        let n = 0;
        while (1 << n < count) n++;
        g = list[bits(p, n)] & CODE_BITS;
        p += n;
      }
    }
    afterGuess = p;
    return g;
  }

  /** During an enumeration for all the rows, once 3 candidates are found: the table's guess if packed (an index's width needs their number). */
  function earlyGuess(): void {
    if (bits(at, 1)) guess = tableGuess(at + 1);
    early = false;
  }

  /** At the book node at `at`: one bit per class, class 0 first, set for the classes with a child (a secret gives them). */
  function childClasses(): number {
    const p = at + packBits;
    return (bits(p, 15) << (winClass - 15)) | bits(p + 15, winClass - 15);
  }

  /** Applies the next row to the position (no evaluations itself), or decides the guess after the last. */
  function advance(): void {
    const r = applied;
    if (r >= rowCount) {
      job = JOB_READY;
      if (book) guess = tableGuess(at);
      else if (hinting && !r) {
        // Every valid secret fits: no need to count them.
        list[0] = pack(codeAt(rules, true, 0));
        count = 1;
        total = codeSpaceSize(rules, true);
      } else if (!known) {
        at = -1;
        // No table and no rows: a fixed opening, 0011 / 00011 where repeats are allowed, else 01234.
        if (r) startEnumeration(r);
        else guess = pack(codeAt(rules, false, rules.guessRepeats ? symbols + 1 : 0));
      } else if (!hinting && moveFrom > -2) {
        guess = count ? (at >= 0 ? candidateNodeGuess() : -1) : -2;
        if (guess === -1) {
          at = -1;
          tries = Math.min(count, (POLICY_BUDGET / count) | 0);
          trying = bestParts = 0;
          // (One guess to try: it is the guess, no pass needed.)
          if (tries > 1) startPass(list[0], -1);
          else guess = list[0];
        }
      }
      return;
    }
    const playedClass = stExact[r] * pegs + stExact[slots + r];
    if (book) {
      book = false;
      applied = rowCount;
      // A row's guess that is not the table's: the table no longer applies.
      if (tableGuess(at) !== rowGuess[r]) return;
      let p = at + packBits;
      const w = childClasses();
      const children = ones(w);
      const index = playedClass < winClass && (w >> (winClass - 1 - playedClass)) & 1 ? ones(w >> (winClass - playedClass)) : -1;
      // No child for this feedback: no secret gives it, a contradiction.
      known = index < 0;
      count = 0;
      if (known) return;
      p += winClass;
      book = bits(p + index, 1) > 0;
      applied = r + 1;
      // (Walked while the player answered: see run().)
      if (walked === at) at = levels[placeAt + winClass] + levels[placeAt + index];
      else {
        cursor = p + children;
        skipTo(children, index);
      }
      if (!book) {
        // A candidate child: its first bit is set when the table goes on below.
        if (!bits(at++, 1)) at = -1;
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
    early = false;
    // Work left from pondering: the rest of an enumeration where the book ended, or the split by the guess.
    const left = (job === JOB_ENUMERATE && at >= 0) || (job === JOB_PASS && keepClass < -1);
    // (A split by the guess cut short by its answer: the answer's pass does it.)
    if (job === JOB_PASS && keepClass < -1) job = JOB_READY;
    // Fewer rows (a mistake: a new game needs a new state), or a move cut short: start again from the first row. An
    // enumeration where the book ended goes on (its rows are still the first ones, and its candidates fit the list), and
    // the rows after it are applied when it ends.
    if (rows.length < rowCount || (job !== JOB_READY && !(job === JOB_ENUMERATE && at >= 0))) {
      applied = walked = 0;
      known = overflow = false;
      at = table ? 16 : -1;
      book = at >= 0;
      job = JOB_ADVANCE;
    }
    rowCount = rows.length;
    let held = 0;
    for (let r = 0; r < rowCount; r++) {
      const fb = rows[r].feedback;
      // The guess's symbol counts (3-bit fields), and its symbol (as bit 3s) at each position i (rowBits[r + (i + 1) * most]).
      let v = (rowGuess[r] = pack(rows[r].guess));
      let counts = 0;
      for (let i = pegs; i--; v >>= 4) counts += rowBits[r + (i + 1) * most] = 1 << (3 * (v & 15));
      held |= stLeft[r] = counts;
      stExact[slots + r] = (stExact[r] = fb.exact) + fb.near;
    }
    // Symbols no row's guess holds are interchangeable (swapping two maps the codes that fit onto each other), as long as the
    // secret's rules treat them alike: the blank is apart where colours may not repeat.
    free = hinting ? (rules.secretRepeats ? every : own) & ~(held | (held >> 1) | (held >> 2)) : 0;
    guess = -1;
    moveFrom = dropped ? evals : -1;
    pendingFrom = left ? evals : -1;
    if (job === JOB_READY) job = JOB_ADVANCE;
  }

  /** The codes that fit: found so far by the work in hand (an enumeration, or a row's filter), or all once done (0 between the two). */
  function found(): number {
    return job === JOB_PASS ? kept : job === JOB_ADVANCE ? 0 : total;
  }

  /** Works for at most `budget` evaluations or until `stop`; true when done, or (`toGuess`) once the guess is ready. */
  function run(toGuess: boolean, budget: number, stop?: () => boolean): boolean {
    for (;;) {
      if (job === JOB_READY) {
        // Pondering, once the rest is done: the candidates split by the guess played, so that its answer only picks them;
        // then, at a node of the table, where each child's subtree starts, so that the answer goes to its child at once.
        if (toGuess || hinting || guess < 0 || (!book && (!known || overflow))) return true;
        if (!book && classified !== guess) startPass(guess, -2);
        else if (at < 0 || walked === at) return true;
        else {
          if (budget <= 0 || (stop && stop())) return false;
          let children = 0;
          if (book) {
            children = ones(childClasses());
            cursor = at + packBits + winClass + children;
          } else if (candidateNodeGuess() === guess) {
            // (As the answer's pass walks them: children with 3 or more candidates have a flag.)
            cursor = afterGuess;
            for (let c = 0; c < winClass; c++) if (levels[classAt + c] > 2 && bits(cursor++, 1)) children++;
          }
          skipTo(children, -1);
          walked = at;
          budget -= 4;
          continue;
        }
      }
      // (Hints: the example is ready once one code fits; ponder() goes on counting.)
      if (toGuess && (guess >= 0 || (hinting && found()))) return true;
      // (No question before a step of the book that reads no subtree lengths: the guess there, or the child placed already.)
      if (budget <= 0 || (stop && !(job === JOB_ADVANCE && book && (applied >= rowCount || walked === at)) && stop())) return false;
      // A few evaluations between two questions to `stop` (each is a call and a clock read): the work is a resumable
      // state machine, so this does exactly what one call with the whole budget would.
      // (The evaluations are the budget used; a piece of work with none takes a part of the slice all the same: picking a
      // split's class (16 candidates) 2, a row applied or the table's walk (up to 8 million instructions at a book node) 4.)
      let n = budget < ASK_EVERY ? budget : ASK_EVERY;
      n -= job === JOB_ADVANCE ? (advance(), (budget -= 2), n) : job === JOB_ENUMERATE ? enumerate(n) : pass(n);
      budget -= n || 2;
      evals += n;
      if (pendingFrom >= 0 && applied < rowCount && job !== JOB_READY && (evals - pendingFrom) * (2 * applied + 3) > PENDING_MS) {
        // The answer came before pondering ended, and the rest is long: an enumeration for the earlier rows, or the answer's
        // pass over their candidates unsplit (a Pico's 7 ms a candidate). The table needs all of those (to find the answer's
        // child), so it goes for the rest of the game, and the candidates are enumerated from all the rows (far fewer prefixes
        // fit them), held to MOVE_BUDGET_MS from the move's start.
        table = undefined;
        dropped = true;
        at = -1;
        applied = rowCount;
        startEnumeration(rowCount);
        moveFrom = pendingFrom;
        pendingFrom = -1;
      } else if (early && count > 2) earlyGuess();
      else if (moveFrom >= 0 && guess < 0 && count && job === JOB_ENUMERATE && (evals - moveFrom) * (2 * enumRows + 3) > MOVE_BUDGET_MS) {
        // The move's time is up: a code found that fits every row. (The enumeration goes on while the player answers, as
        // after an early guess; where the table's guess was another, the table ends at the answer.)
        guess = list[0];
        moveFrom = -2;
        early = false;
      } else if (moveFrom >= 0 && job === JOB_PASS && keepClass === -1 && (evals - moveFrom) * (2 * applied + 3) > MOVE_BUDGET_MS) {
        // The unit's own choice without the table's plan (it was dropped) is held to the move's time too: the best so far.
        guess = list[best];
        job = JOB_READY;
      }
    }
  }

  return {
    start: start,
    // (Functions, not bound ones: those cost a Pico a few JsVars more.)
    step: function (budget: number, stop?: () => boolean): boolean {
      return run(true, budget, stop);
    },
    ponder: function (budget: number, stop?: () => boolean): boolean {
      return run(false, budget, stop);
    },
    guess: function (): Code | null {
      return guess < 0 ? null : unpack(guess);
    },
    fits: function (exact: number, near: number): boolean {
      const c = exact * (pegs + 1) + near;
      // (The winning class: the guess itself, which need not be a valid secret.)
      if (job !== JOB_READY || guess < 0 || c >= winClass) return false;
      // Split by the guess played: the class's candidates are counted. At the book node whose guess it is: its child.
      if (classified === guess) return levels[classAt + c] > 0;
      return book && applied === rowCount && ((childClasses() >> (winClass - 1 - c)) & 1) > 0;
    },
    evals: function (): number {
      return evals;
    },
    total: found,
    example: function (): Code | null {
      return found() ? unpack(list[0]) : null;
    },
  };
}

/** A hint computation under `rules`, to be fed the rows with hintStep in idle time. */
export function createHintState(rules: Rules): HintState {
  return createSolver(rules, undefined, true);
}
