import { describe, expect, it } from "vitest";
import { codeSpaceSize, PRESET_IDS, rulesFor } from "../../firmware/core/presets";
import { expectedCodeRules, plainValidCodes, VARIANTS } from "./helpers";

describe("presets (docs/rules.md 2)", () => {
  it("the presets are brainiac, travel and race, in that order", () => {
    expect(PRESET_IDS).toEqual(["brainiac", "travel", "race"]);
  });

  it("Brainiac: 4 pegs, 6 colours, 12 rows, black and white key pegs, points with 13 for an unsolved code", () => {
    for (const harder of [false, true]) {
      expect(rulesFor("brainiac", harder)).toEqual({
        preset: "brainiac",
        harder: harder,
        pegs: 4,
        colours: 6,
        rows: 12,
        blanks: harder,
        secretRepeats: true,
        guessRepeats: true,
        look: "pegs",
        scoring: "points",
        unsolvedPoints: 13,
        raceAdvance: [],
        raceTarget: 0,
        wrongInfoBonus: 3,
      });
    }
  });

  it("travel unit: 4 pegs, 8 colours, 9 rows, red and white arms, points with 9 for an unsolved code", () => {
    for (const harder of [false, true]) {
      expect(rulesFor("travel", harder)).toEqual({
        preset: "travel",
        harder: harder,
        pegs: 4,
        colours: 8,
        rows: 9,
        blanks: harder,
        secretRepeats: false,
        guessRepeats: true,
        look: "arms",
        scoring: "points",
        unsolvedPoints: 9,
        raceAdvance: [],
        raceTarget: 0,
        wrongInfoBonus: 3,
      });
    }
  });

  it("race: 5 pegs, 8 colours, 12 rows, black and white key pegs, a race to hole 30", () => {
    for (const harder of [false, true]) {
      expect(rulesFor("race", harder)).toEqual({
        preset: "race",
        harder: harder,
        pegs: 5,
        colours: 8,
        rows: 12,
        blanks: harder,
        secretRepeats: harder,
        guessRepeats: harder,
        look: "pegs",
        scoring: "race",
        unsolvedPoints: 0,
        raceAdvance: [12, 12, 12, 12, 10, 10, 8, 8, 6, 6, 4, 4],
        raceTarget: 30,
        wrongInfoBonus: 3,
      });
    }
  });

  it("each variant's rules are made once and shared, read-only, so no caller can change a preset", () => {
    const first = rulesFor("race", false);
    expect(rulesFor("race", false)).toBe(first);
    expect(rulesFor("race", true)).not.toBe(first);
    // The type forbids writing: npm run typecheck fails if either line compiles (they are never run).
    const writes = () => {
      // @ts-expect-error Rules is read-only
      first.pegs = 4;
      // @ts-expect-error raceAdvance is read-only
      first.raceAdvance[0] = 99;
    };
    expect(typeof writes).toBe("function");
  });

  for (const variant of VARIANTS) {
    it(`${variant.name}: codeSpaceSize counts the valid secrets and the valid guesses`, () => {
      const rules = rulesFor(variant.preset, variant.harder);
      expect(expectedCodeRules(variant.preset, variant.harder).pegs).toBe(rules.pegs);
      expect(codeSpaceSize(rules, true)).toBe(plainValidCodes(variant.preset, variant.harder, true).length);
      expect(codeSpaceSize(rules, false)).toBe(plainValidCodes(variant.preset, variant.harder, false).length);
    });
  }

  it("the code spaces have the sizes worked out by hand", () => {
    expect(codeSpaceSize(rulesFor("brainiac", false), true)).toBe(1296); // 6^4
    expect(codeSpaceSize(rulesFor("brainiac", true), true)).toBe(2401); // 7^4
    expect(codeSpaceSize(rulesFor("travel", false), true)).toBe(1680); // 8*7*6*5
    expect(codeSpaceSize(rulesFor("travel", false), false)).toBe(4096); // 8^4
    expect(codeSpaceSize(rulesFor("travel", true), true)).toBe(1680 + 4 * 336 + 6 * 56 + 4 * 8 + 1); // by number of blanks
    expect(codeSpaceSize(rulesFor("race", false), true)).toBe(6720); // 8*7*6*5*4
    expect(codeSpaceSize(rulesFor("race", true), false)).toBe(59049); // 9^5
  });
});
