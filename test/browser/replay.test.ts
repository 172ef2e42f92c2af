/**
 * A game replayed after wrong information: the panel's game counter and the match history number the
 * games alike (a replayed game does not count, so its replay keeps its number).
 */
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../sim/web/server.ts";
import { chromiumFor, freeze, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the replayed game test");

/** Answers "nothing" to the unit's guesses (the code in the head) until the answers contradict each other. */
function contradict(sim: Simulator): void {
  for (let row = 1; row <= 12 && !sim.state().status.line.includes("contradict"); row++) sim.command("tap maker.ok\nwait 5000");
  expect(sim.state().status.line).toMatch(/contradict/);
}

describe("a replayed game on the page", () => {
  it.skipIf(!executable)("is numbered alike in the panel's game counter and in the match history", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 61, { width: 1400, height: 900 });
    try {
      // You against the unit, it breaks first, your code in your head: game 1 ends in wrong information, twice.
      sim.command("tap p34 ok\nwait 200\ntap maker.ok\nwait 2000");
      contradict(sim);
      sim.command("tap ok\nwait 500\ntap maker.ok\nwait 2000");
      contradict(sim);
      sim.command("tap ok\nwait 500");
      await freeze(page, sim);
      const facts = await page.locator("#facts").innerText();
      expect(facts).toContain("game\n1 of 4");
      const history = (await page.locator("#history li").allInnerTexts()).map((h) => h.replace(/:.*/, ""));
      expect(history).toEqual(["Game 1", "Game 1 (replay)"]);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
