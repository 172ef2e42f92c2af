import { feedback } from "./feedback";
import { countCompletions } from "./presets";
import { Code, Row, Rules } from "./types";

/**
 * Visits every valid secret (forSecret) or valid guess under `rules` in lexicographic order of the
 * symbols (hole 0 most significant), stopping as soon as `fn` returns true.
 *
 * To stay allocation-light on the device, `fn` always receives the SAME array, overwritten for each
 * code: a callee that wants to keep a code must copy it (`code.slice()`).
 */
export function forEachCode(rules: Rules, forSecret: boolean, fn: (code: Code) => boolean | void): void {
  const pegs = rules.pegs;
  const colours = rules.colours;
  const symbols = colours + (rules.blanks ? 1 : 0);
  const repeats = forSecret ? rules.secretRepeats : rules.guessRepeats;
  const code: Code = [];
  const uses: number[] = []; // per real colour: how many holes of `code` hold it
  for (let i = 0; i < pegs; i++) code.push(-1);
  for (let c = 0; c < colours; c++) uses.push(0);
  // An odometer with backtracking: holes after `hole` are always -1 (not yet chosen).
  let hole = 0;
  while (hole >= 0) {
    let symbol = code[hole];
    if (symbol >= 0 && symbol < colours) uses[symbol]--;
    symbol++;
    if (!repeats) while (symbol < colours && uses[symbol] > 0) symbol++;
    if (symbol >= symbols) {
      code[hole] = -1;
      hole--;
      continue;
    }
    code[hole] = symbol;
    if (symbol < colours) uses[symbol]++;
    if (hole < pegs - 1) hole++;
    else if (fn(code) === true) return;
  }
}

/**
 * The code at position `index` of forEachCode's order (0 <= index < codeSpaceSize), built directly
 * by counting the completions of each prefix, so that a uniform index gives a uniform code.
 * An index outside that range gives a short code.
 */
export function codeAt(rules: Rules, forSecret: boolean, index: number): Code {
  const colours = rules.colours;
  const repeats = forSecret ? rules.secretRepeats : rules.guessRepeats;
  const code: Code = [];
  let usedColours = 0;
  for (let hole = 0; hole < rules.pegs; hole++) {
    const left = rules.pegs - hole - 1;
    // Every colour that may come next (with repeats, any; else one not in the code yet) leaves as many completions as
    // the others, so the colour is found by a division rather than by counting each in turn (on the interpreter each
    // count is a call: a few ms on a Pico). The blank comes after the colours.
    const free = repeats ? colours : colours - usedColours;
    const each = countCompletions(rules, forSecret, left, repeats ? 0 : usedColours + 1);
    let k = Math.floor(index / each);
    if (k < free) {
      index -= k * each;
      let symbol = 0;
      // The k-th colour that may come next.
      for (; k > 0 || (!repeats && code.indexOf(symbol) >= 0); symbol++) if (repeats || code.indexOf(symbol) < 0) k--;
      code.push(symbol);
      usedColours++;
      continue;
    }
    index -= free * each;
    if (!rules.blanks || index >= countCompletions(rules, forSecret, left, usedColours)) return code;
    code.push(colours);
  }
  return code;
}

/** Does `code`, taken as the secret, give exactly the recorded feedback for every row? */
export function isConsistent(code: Code, rows: Row[]): boolean {
  for (let r = 0; r < rows.length; r++) {
    const given = rows[r].feedback;
    const actual = feedback(rows[r].guess, code);
    if (actual.exact !== given.exact || actual.near !== given.near) return false;
  }
  return true;
}

/** How many valid secrets are consistent with all `rows`; counting stops at `limit` when given. */
export function countConsistent(rules: Rules, rows: Row[], limit?: number): number {
  let count = 0;
  forEachCode(rules, true, function (code) {
    if (isConsistent(code, rows)) count++;
    return limit !== undefined && count >= limit;
  });
  return count;
}

/**
 * The first valid secret consistent with all `rows` at or after position `startIndex` of
 * forEachCode's order, wrapping around to the start; null when there is none (contradiction).
 */
export function firstConsistent(rules: Rules, rows: Row[], startIndex?: number): Code | null {
  const start = startIndex ?? 0;
  let found: Code | null = null;
  let index = 0;
  // First from the start index to the end; only if that finds nothing, from 0 up to the start index.
  forEachCode(rules, true, function (code) {
    if (index++ < start || !isConsistent(code, rows)) return false;
    found = code.slice();
    return true;
  });
  if (found === null && start > 0) {
    index = 0;
    forEachCode(rules, true, function (code) {
      if (index++ >= start) return true;
      if (!isConsistent(code, rows)) return false;
      found = code.slice();
      return true;
    });
  }
  return found;
}

/** The rows whose indexes are listed. */
function pickRows(rows: Row[], indexes: number[]): Row[] {
  const picked: Row[] = [];
  for (let i = 0; i < indexes.length; i++) picked.push(rows[indexes[i]]);
  return picked;
}

/**
 * [] when some valid secret is consistent with all `rows`. Otherwise a minimal set of row indexes
 * (ascending) that together admit no valid secret: starting from all rows, each row in turn is
 * dropped if the rows left still contradict each other.
 */
export function conflictingRows(rules: Rules, rows: Row[]): number[] {
  if (countConsistent(rules, rows, 1) > 0) return [];
  let kept: number[] = [];
  for (let i = 0; i < rows.length; i++) kept.push(i);
  for (let i = 0; i < rows.length; i++) {
    const without: number[] = [];
    for (let k = 0; k < kept.length; k++) if (kept[k] !== i) without.push(kept[k]);
    if (countConsistent(rules, pickRows(rows, without), 1) === 0) kept = without;
  }
  return kept;
}
