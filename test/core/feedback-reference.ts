/**
 * The exhaustive feedback check: a reference feedback written differently from the firmware's, and
 * the comparison over a slice of a variant's secrets. Free of vitest, so that feedback-worker.ts can
 * run slices on worker threads in parallel (vitest itself runs test files on one worker on 2 cores).
 */
import { feedback } from "../../firmware/core/feedback";
import type { Code, PresetId } from "../../firmware/core/types";
import { plainValidCodes, seededRandom } from "./helpers";

/** Spaces larger than this are checked against a seeded sample of guesses instead of all of them. */
export const EXHAUSTIVE_LIMIT = 10_000;
export const GUESS_SAMPLE = 2_000;
export const SAMPLE_SEED = 2029;

/** For each symbol, a bit mask of the secret's holes that hold it: set by prepareSecret. */
const holesOfSymbol = new Int32Array(16);

function prepareSecret(secret: Code): void {
  holesOfSymbol.fill(0);
  for (let j = 0; j < secret.length; j++) holesOfSymbol[secret[j]] |= 1 << j;
}

/**
 * Reference feedback by a different method than the counting formula: mark the exact pegs, then
 * match each remaining guess peg greedily with the first unused, non-exact secret peg of its colour
 * (found through holesOfSymbol, prepared once per secret). Returns exact * 16 + near.
 */
function referenceFeedback(guess: Code, secret: Code): number {
  const n = secret.length;
  let exactHoles = 0; // bit i: hole i is an exact match
  let exact = 0;
  for (let i = 0; i < n; i++) {
    if (guess[i] === secret[i]) {
      exactHoles |= 1 << i;
      exact++;
    }
  }
  let usedSecretHoles = exactHoles;
  let near = 0;
  for (let i = 0; i < n; i++) {
    if (exactHoles & (1 << i)) continue;
    const free = holesOfSymbol[guess[i]] & ~usedSecretHoles;
    if (free !== 0) {
      usedSecretHoles |= free & -free; // the first free hole
      near++;
    }
  }
  return exact * 16 + near;
}

/** GUESS_SAMPLE distinct guesses drawn with seed SAMPLE_SEED, in lexicographic order. */
function sampleGuesses(guesses: Code[]): Code[] {
  const rand = seededRandom(SAMPLE_SEED);
  const indexes = guesses.map((_, i) => i);
  for (let i = 0; i < GUESS_SAMPLE; i++) {
    const j = i + Math.floor(rand() * (indexes.length - i));
    const t = indexes[i];
    indexes[i] = indexes[j];
    indexes[j] = t;
  }
  return indexes
    .slice(0, GUESS_SAMPLE)
    .sort((a, b) => a - b)
    .map((i) => guesses[i]);
}

/** One slice of a variant's check: secrets part of parts (split evenly, in order). */
export interface FeedbackTask {
  preset: PresetId;
  harder: boolean;
  part: number;
  parts: number;
}

export interface FeedbackTaskResult {
  secrets: number;
  guesses: number;
  pairs: number;
  /** "" when every pair agreed, else the first pair that did not. */
  firstMismatch: string;
}

/** Compares feedback() with the reference for every secret of the slice against every guess (or the sample). */
export function runFeedbackTask(task: FeedbackTask): FeedbackTaskResult {
  const allSecrets = plainValidCodes(task.preset, task.harder, true);
  const allGuesses = plainValidCodes(task.preset, task.harder, false);
  const guesses = allGuesses.length <= EXHAUSTIVE_LIMIT ? allGuesses : sampleGuesses(allGuesses);
  const from = Math.floor((allSecrets.length * task.part) / task.parts);
  const to = Math.floor((allSecrets.length * (task.part + 1)) / task.parts);
  let firstMismatch = "";
  for (let s = from; s < to; s++) {
    const secret = allSecrets[s];
    prepareSecret(secret);
    for (let g = 0; g < guesses.length; g++) {
      const guess = guesses[g];
      const fb = feedback(guess, secret);
      if (fb.exact * 16 + fb.near !== referenceFeedback(guess, secret) && firstMismatch === "") {
        firstMismatch = `guess ${guess} secret ${secret}: ${fb.exact}/${fb.near}`;
      }
    }
  }
  return { secrets: to - from, guesses: guesses.length, pairs: (to - from) * guesses.length, firstMismatch: firstMismatch };
}
