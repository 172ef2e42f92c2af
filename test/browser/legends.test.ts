/**
 * Every legend on the unit's keys shows whole ("brightness 1", "codemaker answers"), on a laptop's window
 * and on a phone, at 9 px or more: the page shrinks a legend's font until its longest word fits on the
 * key, or hyphenates the word ("bright-ness") rather than go under 9 px.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { chromiumFor, click, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the key legends test");

/** The legends shown now that run past their key, or are set under 9 px: their text, by how many px, their size. */
function cutLegends(page: Page): Promise<string[]> {
  return page.$$eval("#unit .key .legend", (els) =>
    els
      .filter((e) => e.textContent && e.getClientRects().length > 0)
      .flatMap((e) => {
        const legend = e as HTMLElement;
        const key = legend.closest(".key")!.getBoundingClientRect();
        const box = legend.getBoundingClientRect();
        const over = Math.max(legend.scrollWidth - legend.clientWidth, key.left - box.left, box.right - key.right, box.bottom - key.bottom);
        const size = parseFloat(getComputedStyle(legend).fontSize);
        return over > 0.5 || size < 9 ? [`${legend.textContent} (${over.toFixed(1)} px over, ${size} px)`] : [];
      }),
  );
}

describe("the keys' legends", () => {
  for (const [name, viewport] of [
    ["a laptop's window", { width: 1400, height: 900 }],
    ["a phone", { width: 390, height: 844 }],
  ] as const)
    it.skipIf(!executable)(`show whole on every screen, on ${name}`, async () => {
      const { page, pageErrors, close } = await openSimulatorPage(executable!, 41, viewport);
      try {
        const shown = async (what: string) => {
          expect(await page.locator("#unit .key .legend").filter({ hasText: /\w/ }).count(), what).toBeGreaterThan(5);
          expect(await cutLegends(page), what).toEqual([]);
        };
        await page.waitForFunction(
          () => document.querySelector('.key[data-key="p51"] .legend')?.textContent?.replace(/\u00ad/g, "") === "brightness 1",
        );
        await shown("the menu");
        await page.click('.key[data-key="p14"]', { delay: 90 });
        await page.waitForFunction(() => document.querySelector('.key[data-key="p33"] .legend')?.textContent === "4 players");
        await shown("Brain Flip's menu");
        await click(page, "p11");
        await click(page, "p66");
        await page.waitForFunction(() => document.querySelector('.key[data-key="p11"] .legend')?.textContent === "1 red");
        await page.click("#shield");
        await page.waitForFunction(() => document.getElementById("unit")?.classList.contains("shield-open"));
        await shown("a game, the shield open");
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });
});
