/**
 * The simulator page with the unit on the real Espruino interpreter (`npm start -- --engine espruino`), in
 * Debian's Chromium: a few keys clicked on the page reach the unit, and the page draws the LEDs the
 * interpreter's unit lights and says on its status line what the unit shows. Skipped, saying why, where
 * Chromium or the interpreter ($BRAINBOARD_ESPRUINO_DIR) is missing.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ESPRUINO_MISSING } from "../engines/engines.ts";
import { chromiumFor, openEspruinoPage } from "./helpers.ts";

const executable = ESPRUINO_MISSING ? undefined : chromiumFor("the page on the real interpreter");
if (ESPRUINO_MISSING) console.warn(`test/browser: skipping the page on the real interpreter: ${ESPRUINO_MISSING}`);

/** The palette names the page shows on a segment's LEDs, in order. */
function drawn(page: Page, segment: string): Promise<string[]> {
  return page.$$eval(`#unit [data-segment="${segment}"]`, (els) =>
    els
      .sort((a, b) => Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index")))
      .map((e) => e.getAttribute("data-colour") ?? ""),
  );
}

/** Waits until the page draws `want` from the segment's first LED on (what the unit lights, streamed by the server). */
async function waitDrawn(page: Page, segment: string, want: string[]): Promise<void> {
  await page.waitForFunction(
    ([seg, colours]) => {
      const els = Array.prototype.slice
        .call(document.querySelectorAll(`#unit [data-segment="${seg}"]`))
        .sort((a, b) => Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index")));
      return colours.every((c, i) => els[i]?.getAttribute("data-colour") === c);
    },
    [segment, want] as const,
    { timeout: 30_000 },
  );
}

/** A click as a player makes it; the server takes the unit's keys in order, however slow the interpreter. */
async function click(page: Page, id: string): Promise<void> {
  await page.click(`.key[data-key="${id}"]`, { delay: 90 });
  await page.waitForTimeout(60);
}

describe("the page on the real interpreter, in Chromium", () => {
  it.skipIf(!executable)(
    "clicked keys reach the interpreter's unit; the page draws its LEDs and says what it shows",
    async () => {
      const { sim, page, pageErrors, close } = await openEspruinoPage(executable!);
      try {
        expect(await page.locator("#clock").innerText()).toMatch(/real time, on the real Espruino interpreter/);
        await click(page, "p66");
        await page.waitForFunction(
          () => /^Player 1 \(red\) makes the code/.test(document.getElementById("status")?.textContent ?? ""),
          null,
          {
            timeout: 30_000,
          },
        );
        await page.click("#shield");
        await page.waitForFunction(() => document.getElementById("unit")?.classList.contains("shield-open"));
        for (const id of ["m11", "m12", "m13", "m14", "m34"]) await click(page, id);
        await page.click("#shield");
        await page.waitForFunction(() => !document.getElementById("unit")?.classList.contains("shield-open"));
        // Red red green green against red green blue yellow: one exact (violet), one near (white).
        for (const id of ["p11", "p11", "p12", "p12", "p66"]) await click(page, id);
        await waitDrawn(page, "board", ["red", "red", "green", "green"]);
        await waitDrawn(page, "keys", ["violet", "white", "off", "off"]);
        await page.waitForFunction(() => /row 2/.test(document.getElementById("status")?.textContent ?? ""), null, { timeout: 30_000 });
        // What the page draws is what the unit lights (the finished row and its key pegs do not blink).
        expect((await drawn(page, "board")).slice(0, 4)).toEqual(sim.board.colours("board").slice(0, 4));
        expect((await drawn(page, "keys")).slice(0, 5)).toEqual(sim.board.colours("keys").slice(0, 5));
        // The closed shield keeps the secret from the page.
        expect((await drawn(page, "secret")).every((c) => c === "off")).toBe(true);
        expect(pageErrors).toEqual([]);
        expect(sim.board.errors).toEqual([]);
      } finally {
        await close();
      }
    },
    180_000,
  );
});
