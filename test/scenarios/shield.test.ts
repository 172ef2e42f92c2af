/**
 * The unit asks for the codemaker's shield to be closed: in a two-player game the secret lies lit under
 * the shield, and until the codebreaker keys a first peg status LED 2 blinks blue. On the bundle, through
 * keys and LEDs.
 */
import { describe, expect, it } from "vitest";
import { gridKey, UnitDriver } from "./driver.ts";
import type { MatchSetup } from "./driver.ts";

/** The colours status LED 2 shows over `ms` (sampled every 50 ms of the unit's time). */
function led2Over(u: UnitDriver, ms = 1200): Set<string> {
  const seen = new Set<string>();
  for (let t = 0; t < ms; t += 50) {
    u.board.advance(50);
    seen.add(u.status()[1]);
  }
  return seen;
}

describe("the codemaker's shield on the unit", () => {
  for (const mode of ["referee", "manual"] as const)
    it(`two players (${mode}): once the secret is set, status LED 2 blinks blue until the codebreaker keys a peg`, () => {
      const u = new UnitDriver();
      u.startMatch({ preset: "brainiac", mode });
      // The codemaker keys the secret: no cue yet.
      expect(led2Over(u)).not.toContain("blue");
      u.makerSecret([0, 1, 2, 3]);
      expect(u.secretPixels().slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
      expect(led2Over(u)).toEqual(new Set(["blue", "off"]));
      // The codebreaker begins the first row: the shield is taken as closed.
      u.tap(gridKey(0));
      expect(led2Over(u)).not.toContain("blue");
      // The row played (and answered, in "manual" by the codemaker): no cue again in this game.
      u.tap(gridKey(1), gridKey(2), gridKey(3), "p66");
      if (mode === "manual") u.answer({ exact: 4, near: 0 });
      expect(u.feedbackRow(0).exact).toBe(4);
      expect(led2Over(u)).not.toContain("blue");
    });

  for (const setup of [
    { preset: "brainiac", mode: "unit-makes" },
    { preset: "brainiac", mode: "unit-breaks" },
  ] satisfies MatchSetup[])
    it(`against the unit (${setup.mode}): no cue, nobody else is to look away`, () => {
      const u = new UnitDriver();
      u.startMatch(setup);
      if (setup.mode === "unit-breaks") u.makerSecret([0, 1, 2, 3]);
      expect(led2Over(u, 3000)).not.toContain("blue");
    });
});
