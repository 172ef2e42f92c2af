/**
 * A phone session (390 x 844): the status line stays in view while keying on the pad below the board, the
 * keys show no keyboard letters, and the shield says to tap.
 */
import { describe, expect, it } from "vitest";
import { G_OK } from "../../firmware/ui/layout.ts";
import { chromiumFor, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the phone test");

describe("the page on a phone", () => {
  it.skipIf(!executable)("keeps the status line in view over the pad, with touch legends only", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 31, { width: 390, height: 844 });
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
});
