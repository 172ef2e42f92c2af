/**
 * The "not reachable" state keeps the layout at 1400 x 900: the unit keeps its size, the status line stays
 * at the top in view, and the message covers none of the unit's keys.
 */
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chromiumFor, openSimulatorPage, RESULTS } from "./helpers.ts";

const executable = chromiumFor("the offline layout test");

describe("the page when the simulator is not reachable", () => {
  it.skipIf(!executable)("keeps the unit's size, the status line in view and the keys uncovered", async () => {
    const { sim, page, close } = await openSimulatorPage(executable!, 29, { width: 1400, height: 900 });
    try {
      const box = async (sel: string) => (await page.locator(sel).boundingBox())!;
      const unit = await box("#unit");
      await sim.close();
      await page.waitForFunction(() => document.body.classList.contains("offline"));
      await page.waitForTimeout(300);
      mkdirSync(RESULTS, { recursive: true });
      await page.screenshot({ path: RESULTS + "offline.png" });
      const after = await box("#unit");
      expect(Math.abs(after.width - unit.width)).toBeLessThan(2);
      expect(Math.abs(after.height - unit.height)).toBeLessThan(2);
      const status = await box("#status");
      expect(status.y).toBeGreaterThanOrEqual(0);
      expect(status.y + status.height).toBeLessThanOrEqual(900);
      const message = await box("#offline");
      const keys = await page.$$eval("#unit .key", (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
      const overlaps = keys.filter(
        (k) => k.x < message.x + message.width && message.x < k.x + k.w && k.y < message.y + message.height && message.y < k.y + k.h,
      );
      expect(overlaps).toEqual([]);
    } finally {
      await close();
    }
  });
});
