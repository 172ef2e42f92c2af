/**
 * Watching the unit play, on the simulator page in a real browser (Debian's Chromium, headless,
 * driven by Playwright): the Watch button starts the watcher on the page's board, the unit's rows
 * appear on the page's LEDs and in the status, and Stop stops it. Skipped, saying why, where no
 * Chromium is installed.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rulesFor } from "../../firmware/core/presets.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { symbolColour } from "../../firmware/ui/render.ts";
import { chromiumFor, freeze, openSimulatorPage, RESULTS } from "./helpers.ts";

const executable = chromiumFor("the watch test");

describe("watching the unit play on the simulator page in Chromium", () => {
  it.skipIf(!executable)("clicks Watch and sees the unit's first row on the board and in the status; Stop stops it", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 7);
    try {
      expect(await page.locator("#watch-stop").isDisabled()).toBe(true);

      await page.click("#watch");
      await page.waitForFunction(() => !(document.getElementById("watch-stop") as HTMLButtonElement).disabled);
      expect(await page.locator("#watch").isDisabled()).toBe(true);
      // At the normal pace (a press every 0.4 s): the menu, the secret, then the unit's first guess and its answer.
      await page.waitForFunction(() => /row 1: the unit guesses/.test(document.getElementById("watch-log")?.textContent ?? ""), null, {
        timeout: 30_000,
      });
      const row = sim.watcher!.events.find((e) => e.type === "row")!;
      expect(row.type === "row" && row.breaker).toBe("unit");

      await page.click("#watch-stop");
      await page.waitForFunction(() => /^■ stopped/.test(document.getElementById("watch-status")?.textContent ?? ""));
      expect(await page.locator("#watch").textContent()).toBe("Watch again");
      await freeze(page, sim);
      // The page draws the unit's row as the board shows it.
      const pegs = await page.$$eval('#unit [data-segment="board"]', (els) =>
        els
          .sort((a, b) => Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index")))
          .slice(0, 4)
          .map((e) => e.getAttribute("data-colour")),
      );
      expect(pegs).toEqual(sim.board.colours("board").slice(0, 4));
      const rules = rulesFor("brainiac", false); // the menu's default game
      expect(pegs).toEqual(row.type === "row" ? row.guess.map((s) => COLOUR_NAMES[symbolColour(rules, s)]) : []);
      expect(sim.board.keys.filter((k) => sim.board.isPressed(k.id))).toEqual([]);

      mkdirSync(RESULTS, { recursive: true });
      await page.screenshot({ path: RESULTS + "watch.png" });
      expect(pageErrors).toEqual([]);
      expect(sim.board.errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
