/**
 * The conflict search the unit runs in slices when a player's answers (secret kept in the head)
 * may contradict each other: same answer as codes.ts conflictingRows, the reference by full
 * enumeration, and each slice bounded.
 */
import { describe, expect, it } from "vitest";
import { conflictingRows, countConsistent } from "../../firmware/core/codes.ts";
import { conflictingRowsNow, createConflictSearch } from "../../firmware/core/conflict.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import { PRESET_IDS, rulesFor } from "../../firmware/core/presets.ts";
import type { Row, Rules } from "../../firmware/core/types.ts";
import { randomRows, seededRandom } from "../solver/helpers.ts";

/** Rows from a true secret, then one answer changed to something that may contradict them. */
function maybeContradictory(rules: Rules, rand: () => number): Row[] {
  const rows = randomRows(rules, 2 + Math.floor(rand() * 3), rand);
  const at = Math.floor(rand() * rows.length);
  const exact = Math.floor(rand() * (rules.pegs - 1));
  rows[at] = { guess: rows[at].guess, feedback: { exact, near: Math.floor(rand() * (rules.pegs - exact)) } };
  return rows;
}

describe("the conflict search (docs/rules.md 3, role 4: the rows that conflict)", () => {
  for (const preset of PRESET_IDS)
    for (const harder of [false, true]) {
      const rules = rulesFor(preset, harder);
      const name = `${preset}${harder ? "+" : ""}`;
      it(`${name}: names the same rows as the reference, [] when some code fits`, () => {
        const rand = seededRandom(name.length * 97 + 3);
        let conflicts = 0;
        const games = preset === "race" && harder ? 6 : 20;
        for (let g = 0; g < games; g++) {
          const rows = maybeContradictory(rules, rand);
          const expected = conflictingRows(rules, rows);
          expect(conflictingRowsNow(rules, rows), JSON.stringify(rows)).toEqual(expected);
          if (expected.length) conflicts++;
        }
        expect(conflicts).toBeGreaterThan(0);
      });
    }

  it("works in slices: a contradiction on race advanced takes many, and the answer is the one found at once", () => {
    const rules = rulesFor("race", true);
    const secret = [2, 2, 5, 8, 1];
    const rows: Row[] = [
      [0, 0, 0, 1, 1],
      [1, 2, 3, 4, 5],
      [6, 6, 7, 7, 8],
    ].map((guess) => ({ guess, feedback: feedback(guess, secret) }));
    // An answer for a fourth guess that no code fits together with the three true ones.
    const guess = [2, 2, 5, 8, 0];
    let clash: Row | undefined;
    for (let e = 0; e <= 5 && !clash; e++)
      for (let n = 0; e + n <= 5 && !clash; n++)
        if (countConsistent(rules, [...rows, { guess, feedback: { exact: e, near: n } }], 1) === 0)
          clash = { guess, feedback: { exact: e, near: n } };
    rows.push(clash!);
    const whole = conflictingRowsNow(rules, rows);
    expect(whole).toContain(3);
    const search = createConflictSearch(rules, rows);
    let steps = 0;
    while (!search.step(180)) steps++;
    expect(steps).toBeGreaterThan(3); // a real contradiction on race advanced takes many slices
    expect(search.rows()).toEqual(whole);
    expect(search.step(180)).toBe(true); // final: further steps change nothing
    expect(search.rows()).toEqual(whole);
  });

  it("a consistent set of rows answers [] at once when the first code found fits", () => {
    const rules = rulesFor("brainiac", false);
    const rows = randomRows(rules, 3, seededRandom(5));
    const search = createConflictSearch(rules, rows);
    let steps = 1;
    while (!search.step(180)) steps++;
    expect(search.rows()).toEqual([]);
    expect(steps).toBeLessThan(10);
  });
});
