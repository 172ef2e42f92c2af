import { Code, EMPTY, Invalid, REFUSED_BLANK, REFUSED_INCOMPLETE, REFUSED_RANGE, REFUSED_REPEAT, Result, Rules } from "./types";

/** The reasons checkCode tells, in the order it tells them. */
const CODE_REASONS = [REFUSED_INCOMPLETE, REFUSED_RANGE, REFUSED_BLANK, REFUSED_REPEAT];

/**
 * Checks a code, a secret (forSecret) or a guess, against the rules, one reason at a time in a fixed
 * order: incomplete, range, blank, repeat. Returns the first failing reason with every hole at fault for it.
 */
export function checkCode(rules: Rules, code: Code, forSecret: boolean): Invalid | null {
  const repeats = forSecret ? rules.secretRepeats : rules.guessRepeats;
  const pegs = rules.pegs;
  const colours = rules.colours;
  // A valid code (what a player almost always keys) in one pass with no arrays: the holes at fault are found for a refusal.
  if (code.length === pegs) {
    let seen = 0;
    let i = 0;
    for (; i < pegs; i++) {
      const symbol = code[i];
      if (symbol === colours && rules.blanks) continue;
      // (A whole number in range: `| 0` keeps neither a fraction, a string nor NaN as it was.)
      if (!(symbol >= 0 && symbol < colours && (symbol | 0) === symbol) || (!repeats && seen & (1 << symbol))) break;
      seen |= 1 << symbol;
    }
    if (i === pegs) return null;
  }
  // The holes at fault, per reason of CODE_REASONS; each hole counts for the first reason that applies.
  const faults: number[][] = [[], [], [], []];
  for (let i = 0; i < pegs || i < code.length; i++) {
    const symbol = code[i];
    // Holes past the last peg are out of range: the code is too long.
    if (i < pegs && (i >= code.length || symbol === EMPTY)) faults[0].push(i);
    else if (i >= pegs || !whole(symbol, 0, colours)) faults[1].push(i);
    else if (symbol === colours) {
      // The blank never counts as a repeat.
      if (!rules.blanks) faults[2].push(i);
    } else if (!repeats && code.filter((c) => c === symbol).length > 1) faults[3].push(i);
  }
  for (let f = 0; f < 4; f++) if (faults[f].length) return { reason: CODE_REASONS[f], positions: faults[f] };
  return null;
}

/** Why `code` is not a valid secret under `rules` (with the holes at fault), or null when it is. */
export function checkSecret(rules: Rules, code: Code): Invalid | null {
  return checkCode(rules, code, true);
}

/** Why `code` is not a valid guess under `rules` (with the holes at fault), or null when it is. */
export function checkGuess(rules: Rules, code: Code): Invalid | null {
  return checkCode(rules, code, false);
}

/** Is x a whole number in lo..hi? (Anything else, NaN, a string or a fraction, is not.) */
export function whole(x: unknown, lo: number, hi: number): boolean {
  return typeof x === "number" && x >= lo && x <= hi && Math.floor(x) === x;
}

/** Is `list` an array of `length` whole numbers in lo..hi (any number of them when `length` is -1)? */
export function wholes(list: unknown, length: number, lo: number, hi: number): boolean {
  if (!Array.isArray(list) || (length >= 0 && list.length !== length)) return false;
  for (let i = 0; i < list.length; i++) if (!whole(list[i], lo, hi)) return false;
  return true;
}

// The reducers' shared pieces (core/match.ts, core/brainflip.ts).

/** A reducer's new state. */
export function accept<T>(state: T): Result<T> {
  return { ok: true, state: state };
}

/** A reducer's refusal, with the holes or cards at fault. */
export function refuse<T>(reason: number, positions?: number[]): Result<T> {
  return { ok: false, refusal: { refused: reason, positions: positions || [] } };
}

/** A shallow copy: reducers replace the parts they change, never writing into their input. */
export function copy<T extends object>(o: T): T {
  return Object.assign({}, o);
}
