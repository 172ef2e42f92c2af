/** Shared helpers for the solver tests: the committed tables and a few rows to play with. */
import { readFileSync } from "node:fs";
import { codeAt } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import { codeSpaceSize } from "../../firmware/core/presets";
import type { Row, Rules } from "../../firmware/core/types";
import type { Manifest } from "../../firmware/tools/solver/generate.ts";
import { MANIFEST, TABLES_DIR, type Variant } from "../../firmware/tools/solver/variants.ts";

/** The committed table of a variant. */
export function tableOf(v: Variant): Uint8Array {
  return new Uint8Array(readFileSync(TABLES_DIR + v.storageName + ".bin"));
}

export function manifest(): Manifest {
  return JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;
}

/** The core tests' seeded PRNG (mulberry32), so both suites draw the same samples from a seed. */
export { seededRandom } from "../core/helpers.ts";

/** `count` rows of random valid guesses against a random secret (consistent feedback). */
export function randomRows(rules: Rules, count: number, rand: () => number): Row[] {
  const secret = codeAt(rules, true, Math.floor(rand() * codeSpaceSize(rules, true)));
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const guess = codeAt(rules, false, Math.floor(rand() * codeSpaceSize(rules, false)));
    rows.push({ guess, feedback: feedback(guess, secret) });
  }
  return rows;
}
