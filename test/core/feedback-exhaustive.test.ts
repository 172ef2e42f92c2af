import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXHAUSTIVE_LIMIT, GUESS_SAMPLE, SAMPLE_SEED } from "./feedback-reference";
import type { FeedbackTask, FeedbackTaskResult } from "./feedback-reference";
import { plainValidCodes, VARIANTS } from "./helpers";

// The pairs are split over two worker threads so that both cores work: vitest runs the test files
// on a single worker on a 2-core machine. feedback-worker.mjs loads the TypeScript sources through tsx.
const THREADS = 2;
const WORKER_FILE = join(dirname(fileURLToPath(import.meta.url)), "feedback-worker.mjs");
let workers: Worker[] = [];

/** Runs one task on a worker; rejects if the worker fails or exits instead of answering. */
function run(worker: Worker, task: FeedbackTask): Promise<FeedbackTaskResult> {
  return new Promise((resolve, reject) => {
    const onMessage = (result: FeedbackTaskResult) => {
      worker.off("error", onError);
      worker.off("exit", onExit);
      resolve(result);
    };
    const onError = (error: Error) => {
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      reject(error);
    };
    const onExit = (code: number) => onError(new Error("feedback worker exited with code " + code));
    worker.once("message", onMessage);
    worker.once("error", onError);
    worker.once("exit", onExit);
    worker.postMessage(task);
  });
}

beforeAll(() => {
  workers = [];
  for (let i = 0; i < THREADS; i++) workers.push(new Worker(WORKER_FILE));
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.terminate()));
});

describe("feedback equals the reference (mark exact, then match greedily) for every pair of valid secret and valid guess", () => {
  for (const variant of VARIANTS) {
    const secrets = plainValidCodes(variant.preset, variant.harder, true).length;
    const guesses = plainValidCodes(variant.preset, variant.harder, false).length;
    const name =
      guesses <= EXHAUSTIVE_LIMIT
        ? `${variant.name}: every secret against every guess (${secrets} x ${guesses})`
        : `${variant.name}: every secret (${secrets}) against ${GUESS_SAMPLE} distinct guesses sampled with seed ${SAMPLE_SEED} out of ${guesses}, the space being too large for every pair`;
    it(name, async () => {
      const results = await Promise.all(
        workers.map((worker, part) => run(worker, { preset: variant.preset, harder: variant.harder, part: part, parts: THREADS })),
      );
      expect(results.map((r) => r.firstMismatch)).toEqual(results.map(() => ""));
      expect(results.reduce((sum, r) => sum + r.secrets, 0)).toBe(secrets);
      expect(results.reduce((sum, r) => sum + r.pairs, 0)).toBe(secrets * (guesses <= EXHAUSTIVE_LIMIT ? guesses : GUESS_SAMPLE));
    });
  }
});
