import { Code, EMPTY, Invalid, REFUSED_BLANK, REFUSED_INCOMPLETE, REFUSED_RANGE, REFUSED_REPEAT, Rules } from "./types";

/**
 * Checks a code against the rules, one reason at a time in a fixed order: incomplete, range,
 * blank, repeat. Returns the first failing reason with every hole at fault for it.
 */
function checkCode(rules: Rules, code: Code, repeats: boolean): Invalid | null {
  const pegs = rules.pegs;
  const colours = rules.colours;
  const missing: number[] = [];
  for (let i = 0; i < pegs; i++) if (i >= code.length || code[i] === EMPTY) missing.push(i);
  if (missing.length > 0) return { reason: REFUSED_INCOMPLETE, positions: missing };

  const outOfRange: number[] = [];
  const blanks: number[] = [];
  for (let i = 0; i < code.length; i++) {
    const symbol = code[i];
    // Holes past the last peg are out of range too: the code is too long.
    if (i >= pegs || typeof symbol !== "number" || Math.floor(symbol) !== symbol || symbol < 0 || symbol > colours) outOfRange.push(i);
    else if (symbol === colours && !rules.blanks) blanks.push(i);
  }
  if (outOfRange.length > 0) return { reason: REFUSED_RANGE, positions: outOfRange };
  if (blanks.length > 0) return { reason: REFUSED_BLANK, positions: blanks };

  if (!repeats) {
    const repeated: number[] = [];
    for (let i = 0; i < pegs; i++) {
      if (code[i] === colours) continue; // the blank never counts as a repeat
      for (let j = 0; j < pegs; j++) {
        if (j !== i && code[j] === code[i]) {
          repeated.push(i);
          break;
        }
      }
    }
    if (repeated.length > 0) return { reason: REFUSED_REPEAT, positions: repeated };
  }
  return null;
}

/** Why `code` is not a valid secret under `rules` (with the holes at fault), or null when it is. */
export function checkSecret(rules: Rules, code: Code): Invalid | null {
  return checkCode(rules, code, rules.secretRepeats);
}

/** Why `code` is not a valid guess under `rules` (with the holes at fault), or null when it is. */
export function checkGuess(rules: Rules, code: Code): Invalid | null {
  return checkCode(rules, code, rules.guessRepeats);
}

/** Is x a whole number in lo..hi? (Anything else, NaN, a string or a fraction, is not.) */
export function whole(x: unknown, lo: number, hi: number): boolean {
  return typeof x === "number" && x >= lo && x <= hi && Math.floor(x) === x;
}
