import { Code, Feedback } from "./types";

/**
 * The feedback for one row (docs/rules.md section 1):
 *
 *   exact = the number of positions where guess and secret hold the same symbol;
 *   near  = Σ over symbols of min(count in guess, count in secret) − exact.
 *
 * So each secret peg is matched at most once and an exact match is preferred over a near one. The
 * blank (symbol `colours`) is a symbol like any colour. Only counts come out, never which peg they
 * refer to.
 *
 * The counts per symbol live in 3-bit fields of one integer (symbol s at bits 3s..3s+2), so this
 * allocates nothing but the result: enough for up to 7 pegs and symbols 0..9 (the presets use at
 * most 5 pegs and 9 symbols).
 */
export function feedback(guess: Code, secret: Code): Feedback {
  const pegs = secret.length;
  let exact = 0;
  let countsInGuess = 0;
  let countsInSecret = 0;
  for (let i = 0; i < pegs; i++) {
    if (guess[i] === secret[i]) exact++;
    countsInGuess += 1 << (3 * guess[i]);
    countsInSecret += 1 << (3 * secret[i]);
  }
  let common = 0;
  while (countsInGuess !== 0 && countsInSecret !== 0) {
    const inGuess = countsInGuess & 7;
    const inSecret = countsInSecret & 7;
    common += inGuess < inSecret ? inGuess : inSecret;
    countsInGuess >>>= 3;
    countsInSecret >>>= 3;
  }
  return { exact: exact, near: common - exact };
}
