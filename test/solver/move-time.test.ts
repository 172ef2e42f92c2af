import { describe, expect, it } from "vitest";
import { codeSpaceSize } from "../../firmware/core/presets";
import { playAll, sampleSecrets } from "../../firmware/tools/solver/play.ts";
import { VARIANTS } from "../../firmware/tools/solver/variants.ts";
import { enumMs, MOVE_MS_MAX } from "../../firmware/tools/solver/work.ts";
import { manifest, tableOf } from "./helpers";

describe("the unit's moves as codebreaker in a Pico's time: the tables plan no move over MOVE_MS_MAX of solver work after the answer (race advanced: its moveMsMax)", () => {
  const recorded = manifest();

  it("an enumeration's evaluation is priced as bench:micro counts it: 200,000 x (rows + 1.5) instructions, 1e8 a Pico's second", () => {
    expect(enumMs(100, 2)).toBeCloseTo(700, 6);
    expect(enumMs(1, 4)).toBeCloseTo(11, 6);
  });

  for (const v of VARIANTS) {
    it(`${v.key}: the manifest's longest takeover (to the guess) and longest move (its evaluations after the answer) are within ${v.moveMsMax} ms of a Pico`, () => {
      const record = recorded.tables[v.key];
      if (v.key !== "race+") expect(v.moveMsMax).toBe(MOVE_MS_MAX);
      expect(record.maxTakeoverMs, v.key).toBeLessThanOrEqual(v.moveMsMax);
      expect(record.maxMoveMs, v.key).toBeLessThanOrEqual(v.moveMsMax);
      // (The evaluations it is made of, priced at the fewest rows a move that enumerates has: one.)
      expect(enumMs(record.maxEvalsPerMove, 1), v.key).toBeLessThanOrEqual(v.moveMsMax);
    });

    it(`${v.key}: played with the committed table against a sample of secrets, every move's evaluations after the answer, priced as an enumeration's, within ${v.moveMsMax} ms`, () => {
      const size = codeSpaceSize(v.rules, true);
      const secrets = sampleSecrets(size, Math.min(size, v.key.startsWith("race") ? 300 : 600), 31);
      const stats = playAll(v.rules, tableOf(v), { secrets, slice: 8 });
      expect(stats.unsolved).toBe(0);
      expect(stats.maxMoveMs).toBeLessThanOrEqual(v.moveMsMax);
      expect(stats.maxMoveMs).toBeLessThanOrEqual(recorded.tables[v.key].maxMoveMs);
    });
  }
});
