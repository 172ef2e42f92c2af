/**
 * Brain Flip on the simulator page in a real browser (Debian's Chromium, headless, driven by
 * Playwright): the pictures lie on the pad's cards, and a card guessed wrong is shown out. Skipped,
 * saying why, where no Chromium is installed.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { PICTURES } from "../../sim/views/pictures.ts";
import { chromiumFor, click, freeze, openSimulatorPage, RESULTS } from "./helpers.ts";

const executable = chromiumFor("the Brain Flip test");

/** The pad key of card `card` on a 6x6 grid. */
const cardKey = (card: number) => `p${Math.floor(card / 6) + 1}${(card % 6) + 1}`;

describe("Brain Flip on the simulator page in Chromium", () => {
  it.skipIf(!executable)("lays 36 pictures on the pad's keys and shows a card guessed wrong as out", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 5);
    try {
      expect(await page.locator("#unit .key.card").count()).toBe(0);

      // The menu: Brain Flip (row 1, column 4), then OK. Default settings: 3 players, 6x6 cards.
      await click(page, "p14");
      await click(page, "p66");
      await page.waitForFunction(() => document.querySelectorAll("#unit .key.card").length === 36);
      const deal = sim.deal!;
      expect(deal.grid).toBe(6);
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>("#unit .key.card img")).every((img) => img.complete && img.naturalWidth > 0),
      );
      const cards = await page.$$eval("#unit .key.card", (els) =>
        els.map((e) => ({
          key: e.getAttribute("data-key"),
          picture: Number(e.getAttribute("data-picture")),
          label: e.getAttribute("aria-label"),
        })),
      );
      expect(cards.map((c) => c.key)).toEqual([...Array(36).keys()].map(cardKey));
      expect(cards.map((c) => c.picture)).toEqual(deal.pictures);
      expect(cards.map((c) => c.label)).toEqual(deal.pictures.map((id) => PICTURES[id].name));
      expect(new Set(cards.map((c) => c.label)).size).toBe(36);
      expect(await page.locator("#flip-help").isVisible()).toBe(true);

      // The Master (player 1) picks card 1 (p11); player 2 asks, the Master answers yes on the codemaker pad (m31).
      await click(page, "p11");
      await page.click("#shield");
      await page.waitForFunction(() => document.getElementById("unit")?.classList.contains("shield-open"));
      await click(page, "m31");
      await page.click("#shield");
      await page.waitForFunction(() => !document.getElementById("unit")?.classList.contains("shield-open"));
      // Player 3 says "Got it!" and points at card 2 (p12): wrong, so the card goes out.
      await click(page, "p12");
      await page.mouse.move(0, 0);

      await freeze(page, sim);
      const pad = sim.board.colours("pad");
      expect(pad[1]).toBe("off");
      expect(pad.filter((c) => c === "cyan").length).toBe(35);
      const shown = await page.$$eval("#unit .key.card", (els) =>
        els.map((e) => ({ out: e.classList.contains("out"), label: e.getAttribute("aria-label") ?? "" })),
      );
      shown.forEach((card, i) => expect(card.out, cardKey(i)).toBe(pad[i] === "off"));
      expect(shown[1].label).toBe(`${PICTURES[deal.pictures[1]].name} (out)`);
      const face = page.locator('.key[data-key="p12"] .card-face');
      expect(await face.evaluate((e) => getComputedStyle(e).filter)).toContain("grayscale");
      expect(await page.locator('.key[data-key="p13"] .card-face').evaluate((e) => getComputedStyle(e).filter)).toBe("none");
      // The cards stay the same through the round.
      expect(sim.deal).toEqual(deal);
      expect(sim.state().flip?.pictures).toEqual(deal.pictures);

      // A card looked at closely grows and shows its name.
      await page.hover(`.key[data-key="${cardKey(22)}"]`);
      await page.waitForTimeout(700);
      expect(await page.locator(`.key[data-key="${cardKey(22)}"] .card-name`).innerText()).toBe(PICTURES[deal.pictures[22]].name);

      mkdirSync(RESULTS, { recursive: true });
      const shot = RESULTS + "brainflip.png";
      await page.screenshot({ path: shot });
      console.log(`test/browser: screenshot of Brain Flip at ${shot}`);
      expect(pageErrors).toEqual([]);
      expect(sim.board.errors).toEqual([]);
    } finally {
      await close();
    }
  });

  /** The scale a card's face is drawn at now (1: on its key). */
  const scaleOf = (page: Page, key: string) =>
    page.locator(`.key[data-key="${key}"] .card-face`).evaluate((e) => new DOMMatrixReadOnly(getComputedStyle(e).transform).a);

  for (const [name, viewport] of [
    ["clicked", { width: 1400, height: 900 }],
    ["tapped on a phone", { width: 390, height: 844 }],
  ] as const)
    it.skipIf(!executable)(`shows the Master's card larger, with its name, when it is ${name}`, async () => {
      const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 6, viewport);
      const touch = viewport.width < 760;
      const press = (key: string) => (touch ? page.tap(`.key[data-key="${key}"]`) : page.click(`.key[data-key="${key}"]`, { delay: 90 }));
      try {
        await press("p14");
        await page.waitForTimeout(150);
        await press("p66");
        await page.waitForFunction(() => document.querySelectorAll("#unit .key.card").length === 36);
        expect(await scaleOf(page, "p23")).toBe(1);
        // The Master picks card 8 (p23): it grows at once and names its picture, then lies back on its key.
        await press("p23");
        await page.waitForTimeout(300);
        expect(await scaleOf(page, "p23")).toBeGreaterThan(1.5);
        expect(await page.locator('.key[data-key="p23"] .card-name').innerText()).toBe(PICTURES[sim.deal!.pictures[8]].name);
        await page.waitForFunction(() => !document.querySelector('.key[data-key="p23"]')?.classList.contains("shown"), undefined, {
          timeout: 3000,
        });
        await page.waitForTimeout(400);
        expect(await scaleOf(page, "p23")).toBeLessThan(1.5);
        expect(sim.state().status.line).toMatch(/ask a yes\/no question/);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });
});
