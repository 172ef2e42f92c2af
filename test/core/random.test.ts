import { describe, expect, it } from "vitest";
import { codeSpaceSize, rulesFor } from "../../firmware/core/presets";
import { randomSecret } from "../../firmware/core/random";
import { checkSecret } from "../../firmware/core/validate";
import { seededRandom, VARIANTS } from "./helpers";

describe("randomSecret", () => {
  for (const variant of VARIANTS) {
    it(`${variant.name}: each of the n equal slices of rand()'s range gives a different valid secret, so a uniform rand gives a uniform secret`, () => {
      const rules = rulesFor(variant.preset, variant.harder);
      const size = codeSpaceSize(rules, true);
      const seen = new Set<string>();
      let invalid = 0;
      for (let i = 0; i < size; i++) {
        // Both ends of slice i of [0, 1) must give the same secret (a hair inside, for rounding).
        const low = randomSecret(rules, () => (i + 0.001) / size);
        const high = randomSecret(rules, () => (i + 0.999) / size);
        if (checkSecret(rules, low) !== null || low.join() !== high.join()) invalid++;
        seen.add(low.join());
      }
      expect(invalid).toBe(0);
      expect(seen.size).toBe(size);
    });
  }

  it("is always valid with a seeded random source", () => {
    const rand = seededRandom(99);
    for (const variant of VARIANTS) {
      const rules = rulesFor(variant.preset, variant.harder);
      for (let n = 0; n < 2000; n++) expect(checkSecret(rules, randomSecret(rules, rand))).toBeNull();
    }
  });

  it("travel expert: the draws pass a chi-square test over all 3,393 secrets (seeded, 40 draws per secret)", () => {
    const rules = rulesFor("travel", true);
    const size = codeSpaceSize(rules, true);
    const perSecret = 40;
    const counts = new Map<string, number>();
    const rand = seededRandom(12345);
    for (let n = 0; n < size * perSecret; n++) {
      const key = randomSecret(rules, rand).join();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(size);
    let chiSquare = 0;
    for (const count of counts.values()) chiSquare += ((count - perSecret) * (count - perSecret)) / perSecret;
    // size - 1 degrees of freedom: mean 3392, standard deviation about 82; allow 4 deviations.
    expect(chiSquare).toBeLessThan(size - 1 + 4 * Math.sqrt(2 * (size - 1)));
    expect(chiSquare).toBeGreaterThan(size - 1 - 4 * Math.sqrt(2 * (size - 1)));
  });

  it("a rand() that returns 1 still gives a valid secret", () => {
    const rules = rulesFor("race", false);
    expect(randomSecret(rules, () => 1)).toEqual([7, 6, 5, 4, 3]);
    expect(randomSecret(rules, () => 0)).toEqual([0, 1, 2, 3, 4]);
  });
});
