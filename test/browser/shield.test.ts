/**
 * Two players: the codemaker's shield. The status line asks to open it only while it is closed, and once the
 * codemaker's OK has set the secret the shield closes itself: the page never shows the secret while the
 * codebreaker is to move.
 */
import { describe, expect, it } from "vitest";
import { MODE_MENU } from "../../firmware/ui/settings.ts";
import { chromiumFor, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the shield test");

describe("the codemaker's shield in a two-player game", () => {
  it.skipIf(!executable)("is asked for only while closed, and closes itself before the codebreaker's first move", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 13);
    try {
      const grid = sim.board.profile.keymap.grid;
      sim.command(`tap ${grid[12 + MODE_MENU.indexOf("referee")]}\nwait 300\ntap ok\nwait 500`);
      await page.waitForFunction(() => /makes the code: open the shield, /.test(document.getElementById("status")?.textContent ?? ""));
      await page.click("#shield");
      await page.waitForFunction(() => /makes the code: key /.test(document.getElementById("status")?.textContent ?? ""));

      sim.command("tap maker.red maker.green maker.blue maker.yellow\nwait 300\ntap maker.ok\nwait 500");
      await page.waitForFunction(() => document.getElementById("shield")?.getAttribute("aria-pressed") === "false");
      expect(sim.view.shield).toBe(false);
      const secret = await page.$$eval('#unit .hole[data-segment="secret"]', (els) => els.map((e) => e.getAttribute("data-colour")));
      expect(secret.length).toBeGreaterThan(0);
      expect(secret.every((c) => c === "off")).toBe(true);
      expect(await page.locator("#toast").textContent()).toMatch(/shield closed itself/);
      expect(pageErrors).toEqual([]);
      expect(sim.board.errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
