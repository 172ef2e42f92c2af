import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { codeSpaceSize } from "../../firmware/core/presets";
import { TABLE_VERSION } from "../../firmware/core/solver";
import { measuredSecrets } from "../../firmware/tools/solver/generate.ts";
import { playAll } from "../../firmware/tools/solver/play.ts";
import { MOVE_EVALS_MAX, MOVE_EVALS_MEAN, TABLES_BYTES_MAX, VARIANTS } from "../../firmware/tools/solver/variants.ts";
import { manifest, tableOf } from "./helpers";

describe("the committed solver tables", () => {
  const recorded = manifest();

  it("are all there, as the manifest records them, and fit their Storage budget together", () => {
    let total = 0;
    for (const v of VARIANTS) {
      const record = recorded.tables[v.key];
      expect(record, v.key).toBeDefined();
      const table = tableOf(v);
      expect(createHash("sha256").update(table).digest("hex"), v.key).toBe(record.sha256);
      expect(table.length, v.key).toBe(record.bytes);
      expect(table.length, v.key).toBeLessThanOrEqual(v.maxBytes);
      expect(table[0], v.key).toBe(TABLE_VERSION);
      expect(table[1], v.key).toBe(v.rules.pegs * 16 + v.rules.colours + (v.rules.blanks ? 1 : 0));
      expect(v.storageName.length).toBeLessThanOrEqual(28);
      total += table.length;
    }
    expect(total).toBeLessThanOrEqual(TABLES_BYTES_MAX);
  });

  for (const v of VARIANTS) {
    // The big spaces play a part of their measured secrets here; npm run bench:solver plays them all.
    const part = v.key === "race" || v.key === "race+" || v.key === "travel+" ? 400 : 0;
    it(`${v.key}: decode into games that all end with the secret found${part ? ` (${part} of the measured secrets)` : " (every secret)"}`, () => {
      const size = codeSpaceSize(v.rules, true);
      const measured = measuredSecrets(v, size);
      let secrets: ArrayLike<number> | undefined = measured;
      if (part) {
        const all = measured ?? Int32Array.from({ length: size }, (_, i) => i);
        const step = Math.max(1, Math.floor(all.length / part));
        secrets = Int32Array.from({ length: Math.min(part, all.length) }, (_, i) => all[i * step]);
      }
      const stats = playAll(v.rules, tableOf(v), { secrets, slice: 180 });
      const record = recorded.tables[v.key];
      // Every leaf of the table is a solved code: every game ends on exact = pegs, within the preset's rows.
      expect(stats.unsolved).toBe(0);
      expect(stats.budgetOverruns).toBe(0);
      expect(stats.worst).toBeLessThanOrEqual(record.worstGuesses);
      if (!part) {
        expect(stats.games).toBe(record.games);
        expect(stats.guesses / stats.games).toBeCloseTo(record.averageGuesses, 10);
        expect(stats.guesses / stats.games).toBeLessThanOrEqual(v.targetAverage);
        if (v.targetWorst) expect(stats.worst).toBeLessThanOrEqual(v.targetWorst);
      }
      expect(stats.maxMoveEvals).toBeLessThanOrEqual(record.maxEvalsPerMove);
      expect(stats.maxMoveEvals).toBeLessThanOrEqual(MOVE_EVALS_MAX);
      expect(record.maxEvalsPerMove).toBeLessThanOrEqual(MOVE_EVALS_MAX);
      expect(record.meanEvalsPerMove).toBeLessThanOrEqual(MOVE_EVALS_MEAN);
      // The manifest's figures are the bench's: every secret played, within the targets.
      expect(record.allSecrets).toBe(true);
      expect(record.averageGuesses).toBeLessThanOrEqual(v.targetAverage);
    });
  }
});
