/**
 * A phone session (390 x 844, a touch screen): the status line and the latest row stay in view while
 * keying on the pad below the board, the keys show no keyboard letters, the shield fits the screen and
 * says to tap, and Brain Flip's menu key (on the codemaker pad) can be tapped.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { G_OK } from "../../firmware/ui/layout.ts";
import { chromiumFor, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the phone test");
const PHONE = { width: 390, height: 844 };

/** Taps a key of the unit like a player's finger, then lets the firmware react. */
async function tap(page: Page, id: string): Promise<void> {
  await page.tap(`.key[data-key="${id}"]`, { timeout: 3000 });
  await page.waitForTimeout(150);
}

/** The element's box lies wholly inside the phone's screen (`margin` px from its sides). */
async function inView(page: Page, selector: string, margin = 0): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  expect(box, selector).not.toBeNull();
  expect(box.x, selector).toBeGreaterThanOrEqual(margin);
  expect(box.y, selector).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, selector).toBeLessThanOrEqual(PHONE.width - margin);
  expect(box.y + box.height, selector).toBeLessThanOrEqual(PHONE.height);
}

describe("the page on a phone", () => {
  it.skipIf(!executable)("keeps the status line in view over the pad, with touch legends only", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 31, PHONE);
    try {
      const ok = `.key[data-key="${sim.board.profile.keymap.grid[G_OK]}"]`;
      await page.locator(ok).scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 200));
      const status = (await page.locator("#status").boundingBox())!;
      const key = (await page.locator(ok).boundingBox())!;
      expect(status.y).toBeGreaterThanOrEqual(0);
      expect(status.y + status.height).toBeLessThan(key.y);
      const letters = await page.$$eval(
        "#unit .key .kbd",
        (els) => els.filter((e) => e.getClientRects().length > 0 && e.textContent).length,
      );
      expect(letters).toBe(0);
      expect(await page.locator(".shield-hint").first().textContent()).toBe("tap to open");
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!executable)("shows the latest row's result beside the status line while the player keys a row on the pad", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 32, PHONE);
    try {
      // Roles 3: the unit makes the code, the player breaks it on the pad.
      await tap(page, "p33");
      await tap(page, "p66");
      await page.waitForFunction(() => /^Break the unit's code/.test(document.getElementById("status")?.textContent ?? ""));
      for (const id of ["p11", "p12", "p13", "p14", "p66"]) await tap(page, id);
      await page.waitForFunction(() =>
        /^row 1: \d exact, \d near$/.test(document.querySelector("#last-row .last-row-words")?.textContent ?? ""),
      );
      // The pad is a screen below the board (the page has scrolled down to it); the row's result is in view.
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await inView(page, "#status");
      await inView(page, "#last-row");
      await inView(page, `.key[data-key="p66"]`);
      expect(await page.locator("#last-row .last-row-words").textContent()).toBe(sim.state().status.lastRow);
      // The pegs copy the board's row: four guessed colours, then the row's key LEDs.
      const pegs = await page.$$eval("#last-row .last-row-pegs i.mini:not(.mini-key)", (els) => els.map((e) => e.className));
      expect(pegs).toHaveLength(4);
      expect(pegs.every((c) => c.includes("lit"))).toBe(true);
      const fb = sim.board.colours("keys").slice(0, 4);
      const lit = await page.$$eval("#last-row .last-row-pegs i.mini-key", (els) => els.map((e) => e.classList.contains("lit")));
      expect(lit).toEqual(fb.map((c) => c !== "off"));
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!executable)("fits the shield on the screen, and Brain Flip's menu key can be tapped", async () => {
    const { page, pageErrors, close } = await openSimulatorPage(executable!, 33, PHONE);
    try {
      for (const [i, cover] of (await page.locator(".shield-cover").all()).entries()) {
        await cover.scrollIntoViewIfNeeded();
        const box = (await cover.boundingBox())!;
        expect(box.x, `shield piece ${i}`).toBeGreaterThanOrEqual(2);
        expect(box.x + box.width, `shield piece ${i}`).toBeLessThanOrEqual(PHONE.width - 2);
      }
      // Brain Flip: its menu key lies on the codemaker pad, left open for the Master's public answers.
      await tap(page, "p14");
      await tap(page, "p66");
      await page.waitForFunction(() => document.getElementById("unit")?.dataset.screen === "brainflip");
      const menu = await page.$$eval("#unit .key", (els) =>
        els.filter((e) => /^menu\b/.test(e.getAttribute("aria-label") ?? "")).map((e) => e.getAttribute("data-key")),
      );
      expect(menu).toHaveLength(1);
      const key = page.locator(`.key[data-key="${menu[0]}"]`);
      await key.scrollIntoViewIfNeeded();
      expect(await key.isVisible()).toBe(true);
      await inView(page, `.key[data-key="${menu[0]}"]`);
      await tap(page, menu[0]!);
      await page.waitForFunction(() => /^Menu: /.test(document.getElementById("status")?.textContent ?? ""));
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
