/**
 * Keyboard and screen readers on a game screen: a visible focus ring on a lit key, no tab stop on a key
 * that does nothing now, the pad's keys before the codemaker pad's, and refusals and each row's answer
 * said in words through a live region.
 */
import { describe, expect, it } from "vitest";
import { G_OK } from "../../firmware/ui/layout.ts";
import { MODE_MENU } from "../../firmware/ui/settings.ts";
import { chromiumFor, click, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the keyboard test");

describe("keyboard and screen readers on the game screen", () => {
  it.skipIf(!executable)("focus shows, idle keys are out of the tab order, refusals and rows are announced", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 17);
    try {
      const grid = sim.board.profile.keymap.grid;
      sim.command(`tap ${grid[12 + MODE_MENU.indexOf("unit-makes")]}\nwait 300\ntap ok\nwait 600`);
      await page.waitForFunction(() => /row 1 of/.test(document.getElementById("status")?.textContent ?? ""));
      const stops = await page.$$eval("#unit .key", (els) =>
        els.filter((e) => (e as HTMLElement).tabIndex >= 0).map((e) => ({ cls: e.className, label: e.getAttribute("aria-label") ?? "" })),
      );
      expect(stops.filter((s) => /does nothing on this screen/.test(s.label))).toEqual([]);
      expect(stops.filter((s) => /key-maker/.test(s.cls))).toEqual([]);
      expect(stops[0].cls).toMatch(/key-pad/);

      // A lit key, focused from the keyboard, shows a ring.
      const lit = (await page.$$eval("#unit .key.lit", (els) => els.map((e) => e.getAttribute("data-key"))))[0]!;
      await page.focus(`.key[data-key="${lit}"]`);
      await page.keyboard.press("Shift"); // keyboard modality: :focus-visible
      const ring = await page.$eval(`.key[data-key="${lit}"]`, (e) => getComputedStyle(e));
      expect(ring.outlineStyle).not.toBe("none");
      expect(parseFloat(ring.outlineWidth)).toBeGreaterThanOrEqual(2);

      // OK on an empty row is refused: the refusal is said.
      await click(page, grid[G_OK]);
      await page.waitForFunction(() => (document.getElementById("announce")?.textContent ?? "") !== "");
      const refusal = await page.locator("#announce").textContent();
      expect(refusal).toBe(await page.locator("#alert").textContent());

      sim.command("tap red green blue yellow\nwait 300\ntap ok\nwait 2000");
      await page.waitForFunction(() => /^row 1: \d exact, \d near$/.test(document.getElementById("announce")?.textContent ?? ""));
      expect(await page.locator("#announce").getAttribute("aria-live")).toBe("assertive");
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
