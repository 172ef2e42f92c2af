/**
 * Watch the unit play takes over from any state: with a match in progress (here one started and left on
 * the menu), the watcher confirms leaving it and plays; the status line speaks to the person watching.
 */
import { describe, expect, it } from "vitest";
import { chromiumFor, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the watch take-over test");

describe("Watch the unit play, over a match in progress", () => {
  it.skipIf(!executable)("confirms leaving the match, plays its first row, and the status line speaks to the watcher", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 11);
    try {
      // A match begun (OK on the menu), then the menu again: the unit now asks to confirm before a new one.
      sim.command("tap ok\nwait 500\ntap menu\nwait 500");
      await page.click("#watch");
      await page.waitForFunction(() => /row 1: the unit guesses/.test(document.getElementById("watch-log")?.textContent ?? ""), null, {
        timeout: 30_000,
      });
      expect(sim.watcher!.events.some((e) => e.type === "left-match")).toBe(true);
      expect(await page.locator("#watch-log").textContent()).toContain("a match was in progress");
      const status = (await page.locator("#status").textContent()) ?? "";
      expect(status).toMatch(/^Watching the unit play: /);
      expect(status).not.toMatch(/then OK/);
      expect(pageErrors).toEqual([]);
      expect(sim.board.errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
