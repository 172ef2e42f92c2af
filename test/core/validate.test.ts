import { describe, expect, it } from "vitest";
import { rulesFor } from "../../firmware/core/presets";
import { EMPTY } from "../../firmware/core/types";
import type { Code } from "../../firmware/core/types";
import { checkGuess, checkSecret } from "../../firmware/core/validate";
import { expectedCodeRules, plainValidCodes, VARIANTS } from "./helpers";
import { REFUSED_BLANK, REFUSED_INCOMPLETE, REFUSED_RANGE, REFUSED_REPEAT } from "../../firmware/core/types.ts";

const brainiac = rulesFor("brainiac", false);
const brainiacExtra = rulesFor("brainiac", true);
const travel = rulesFor("travel", false);
const travelExpert = rulesFor("travel", true);
const race = rulesFor("race", false);
const raceAdvanced = rulesFor("race", true);

describe("validate: reasons and the holes at fault", () => {
  it("an incomplete code names every empty hole", () => {
    expect(checkGuess(brainiac, [0, EMPTY, 1, EMPTY])).toEqual({ reason: REFUSED_INCOMPLETE, positions: [1, 3] });
    expect(checkSecret(race, [EMPTY, EMPTY, EMPTY, EMPTY, EMPTY])).toEqual({ reason: REFUSED_INCOMPLETE, positions: [0, 1, 2, 3, 4] });
  });

  it("a code that is too short is incomplete in its missing holes", () => {
    expect(checkGuess(race, [0, 1, 2])).toEqual({ reason: REFUSED_INCOMPLETE, positions: [3, 4] });
    expect(checkSecret(brainiac, [])).toEqual({ reason: REFUSED_INCOMPLETE, positions: [0, 1, 2, 3] });
  });

  it("symbols that are no colour and no blank are out of range, and so are holes past the last peg", () => {
    expect(checkGuess(brainiac, [0, 7, -2, 1.5])).toEqual({ reason: REFUSED_RANGE, positions: [1, 2, 3] });
    expect(checkGuess(brainiacExtra, [0, 6, 7, 1])).toEqual({ reason: REFUSED_RANGE, positions: [2] });
    expect(checkGuess(brainiac, [0, 1, 2, 3, 4])).toEqual({ reason: REFUSED_RANGE, positions: [4] });
  });

  it("the blank symbol is a 'blank' refusal where blanks are not allowed", () => {
    expect(checkGuess(brainiac, [6, 0, 6, 1])).toEqual({ reason: REFUSED_BLANK, positions: [0, 2] });
    expect(checkSecret(travel, [8, 0, 1, 2])).toEqual({ reason: REFUSED_BLANK, positions: [0] });
    expect(checkGuess(race, [0, 1, 2, 3, 8])).toEqual({ reason: REFUSED_BLANK, positions: [4] });
    expect(checkGuess(brainiacExtra, [6, 0, 6, 1])).toBeNull();
  });

  it("a repeat names every hole holding the repeated colours, never the blank", () => {
    expect(checkSecret(travel, [1, 2, 1, 2])).toEqual({ reason: REFUSED_REPEAT, positions: [0, 1, 2, 3] });
    expect(checkSecret(travelExpert, [8, 3, 8, 3])).toEqual({ reason: REFUSED_REPEAT, positions: [1, 3] });
    expect(checkSecret(travelExpert, [8, 3, 8, 8])).toBeNull();
    expect(checkGuess(race, [0, 5, 1, 5, 5])).toEqual({ reason: REFUSED_REPEAT, positions: [1, 3, 4] });
  });

  it("the checks come in a fixed order: incomplete, range, blank, repeat", () => {
    expect(checkGuess(race, [EMPTY, 9, 8, 1, 1])).toEqual({ reason: REFUSED_INCOMPLETE, positions: [0] });
    expect(checkGuess(race, [2, 9, 8, 1, 1])).toEqual({ reason: REFUSED_RANGE, positions: [1] });
    expect(checkGuess(race, [2, 3, 8, 1, 1])).toEqual({ reason: REFUSED_BLANK, positions: [2] });
    expect(checkGuess(race, [2, 3, 4, 1, 1])).toEqual({ reason: REFUSED_REPEAT, positions: [3, 4] });
  });

  it("secrets and guesses have their own repeat rule", () => {
    expect(checkSecret(travel, [1, 1, 2, 3])?.reason).toBe(REFUSED_REPEAT);
    expect(checkGuess(travel, [1, 1, 2, 3])).toBeNull();
    expect(checkSecret(raceAdvanced, [1, 1, 8, 8, 3])).toBeNull();
    expect(checkGuess(raceAdvanced, [1, 1, 8, 8, 3])).toBeNull();
  });

  for (const variant of VARIANTS) {
    it(`${variant.name}: exactly the codes allowed by docs/rules.md 2 pass, out of every code of the symbols and the blank`, () => {
      const rules = rulesFor(variant.preset, variant.harder);
      const expected = expectedCodeRules(variant.preset, variant.harder);
      const symbols = expected.colours + 1; // the blank symbol is tried even where it is not allowed
      for (const forSecret of [true, false]) {
        const valid = new Set(plainValidCodes(variant.preset, variant.harder, forSecret).map((c) => c.join()));
        let passed = 0;
        let firstWrong = "";
        const total = Math.pow(symbols, expected.pegs);
        for (let n = 0; n < total; n++) {
          const code: Code = [];
          for (let i = 0, rest = n; i < expected.pegs; i++, rest = Math.floor(rest / symbols)) code.push(rest % symbols);
          const result = forSecret ? checkSecret(rules, code) : checkGuess(rules, code);
          if (result === null) passed++;
          if ((result === null) !== valid.has(code.join()) && firstWrong === "") firstWrong = code.join();
        }
        expect(firstWrong).toBe("");
        expect(passed).toBe(valid.size);
      }
    });
  }
});
