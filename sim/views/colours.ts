/**
 * Decodes what an LED shows back into the palette's colour names (firmware/ui/palette.ts). The
 * firmware sends gammaTable(PALETTE_RGB) scaled by one brightness factor k in (0, 1] for all three
 * channels, rounded to integers; so each palette colour is a ray in RGB space, and a pixel is the
 * colour whose ray it lies nearest, with k fitted per candidate by least squares.
 */
import { COLOUR_NAMES, PALETTE_RGB, PALETTE_SIZE } from "../../firmware/ui/palette.ts";
import { gammaTable } from "../../firmware/device/gamma.ts";
import type { Rgb } from "../board/led-chain.ts";

/** The largest distance (per channel, in duty steps) from a candidate's ray that still counts as that colour. */
export const COLOUR_TOLERANCE = 1.5;

interface Candidate {
  name: string;
  c: [number, number, number];
  norm2: number;
}

const gamma = gammaTable();
const CANDIDATES: Candidate[] = [];
for (let i = 0; i < PALETTE_SIZE; i++) {
  const c: [number, number, number] = [gamma[PALETTE_RGB[3 * i]], gamma[PALETTE_RGB[3 * i + 1]], gamma[PALETTE_RGB[3 * i + 2]]];
  const norm2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  if (norm2 > 0) CANDIDATES.push({ name: COLOUR_NAMES[i], c, norm2 });
}

/** The palette name of an LED's duty-cycle RGB: "off" when dark, "?" when no palette colour fits. */
export function colourName(rgb: Rgb): string {
  const p = [rgb.r, rgb.g, rgb.b];
  if (p[0] === 0 && p[1] === 0 && p[2] === 0) return "off";
  let best = "?";
  let bestErr = Infinity;
  for (const cand of CANDIDATES) {
    const c = cand.c;
    // Brightness may only dim a colour (k <= 1); a step of rounding above is allowed.
    const k = Math.min((p[0] * c[0] + p[1] * c[1] + p[2] * c[2]) / cand.norm2, 1 + 1 / 255);
    if (k <= 0) continue;
    let sse = 0;
    let worst = 0;
    for (let ch = 0; ch < 3; ch++) {
      const e = Math.abs(p[ch] - k * c[ch]);
      sse += e * e;
      if (e > worst) worst = e;
    }
    if (worst <= COLOUR_TOLERANCE && sse < bestErr) {
      bestErr = sse;
      best = cand.name;
    }
  }
  return best;
}
