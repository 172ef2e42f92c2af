import { describe, expect, it } from "vitest";
import { colourName } from "../../sim/views/colours.ts";
import { COLOUR_NAMES, PALETTE_RGB, PALETTE_SIZE } from "../../firmware/ui/palette.ts";
import { gammaTable } from "../../firmware/device/gamma.ts";

const gamma = gammaTable();

describe("colourName", () => {
  it("decodes every palette colour at every brightness from 0.05 to 1, rounded or truncated", () => {
    const wrong: string[] = [];
    for (let i = 1; i < PALETTE_SIZE; i++) {
      const c = [0, 1, 2].map((ch) => gamma[PALETTE_RGB[3 * i + ch]]);
      for (let step = 5; step <= 100; step++) {
        const k = step / 100;
        for (const round of [Math.round, Math.floor]) {
          const rgb = { r: round(c[0] * k), g: round(c[1] * k), b: round(c[2] * k) };
          if (colourName(rgb) !== COLOUR_NAMES[i]) wrong.push(`${COLOUR_NAMES[i]} at ${k} -> ${JSON.stringify(rgb)} -> ${colourName(rgb)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("calls a dark pixel off and a colour outside the palette ?", () => {
    expect(colourName({ r: 0, g: 0, b: 0 })).toBe("off");
    expect(colourName({ r: 255, g: 0, b: 255 })).toBe("?");
    expect(colourName({ r: 120, g: 120, b: 0 })).toBe("?");
  });
});
