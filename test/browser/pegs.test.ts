/**
 * Key pegs stay legible on the black board: a violet (black) key peg, the darkest colour the board shows,
 * is drawn with enough light against the board around it. Measured on the page's own pixels: a screenshot
 * of the peg, read back through a canvas in the same Chromium.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { chromiumFor, freeze, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the key pegs test");

/** WCAG contrast ratio of two sRGB colours. */
function contrast(a: number[], b: number[]): number {
  const lum = (rgb: number[]) => {
    const lin = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4)));
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The RGB pixels of a PNG (a screenshot), decoded by the browser onto a canvas. */
async function pixels(page: Page, png: Buffer): Promise<{ width: number; height: number; data: number[] }> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        return { width: img.width, height: img.height, data: Array.from(ctx.getImageData(0, 0, img.width, img.height).data) };
      },
      `data:image/png;base64,${png.toString("base64")}`,
    );
  } finally {
    await blank.close();
  }
}

describe("key pegs on the page", () => {
  it.skipIf(!executable)("draws a violet key peg with light enough to read against the board", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 51, { width: 1400, height: 900 });
    try {
      // You against the unit, the code in your head; the unit's first guess answered "1 exact": a violet key peg.
      sim.command("tap p34 ok\nwait 200\ntap maker.ok\nwait 4000\ntap m31 maker.ok\nwait 3000");
      await freeze(page, sim);
      expect(sim.board.colours("keys")[0]).toBe("violet");
      const peg = page.locator('.hole[data-segment="keys"][data-index="0"]');
      const box = (await peg.boundingBox())!;
      // The hole and a margin of board round it; the board's colour is read at the margin's corner.
      const m = 6;
      const shot = await pixels(
        page,
        await page.screenshot({ clip: { x: box.x - m, y: box.y - m, width: box.width + 2 * m, height: box.height + 2 * m } }),
      );
      const at = (x: number, y: number) => shot.data.slice((y * shot.width + x) * 4, (y * shot.width + x) * 4 + 3);
      const board = at(1, 1);
      // The light drawn at 4.5:1 or more against the board (the peg, its ring, its glow), as a share of the hole's area.
      let legible = 0;
      for (let y = 0; y < shot.height; y++) for (let x = 0; x < shot.width; x++) if (contrast(at(x, y), board) >= 4.5) legible++;
      const share = legible / (Math.PI * (box.width / 2) ** 2);
      console.log(
        `test/browser: violet key peg in a hole of ${box.width.toFixed(1)} px: ${legible} px at 4.5:1 or more against the board (rgb ${board.join(",")}), ${Math.round(share * 100)} % of the hole`,
      );
      expect(box.width).toBeGreaterThanOrEqual(12);
      expect(share).toBeGreaterThan(0.3);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
