/**
 * What the views (page, command line, tests) read from the board model: every segment's pixels as
 * palette names and RGB, and the RGB to paint them with on a screen.
 *
 * The screen mapping. An LED's RGB from board.pixels() is PWM duty: the palette colour, through the
 * gamma table (2.2), times one brightness factor k for the whole frame (the lower of the user's
 * brightness and the current cap), so a frame may be a quarter as bright as the palette. A screen
 * shows sRGB, which already is a perceived scale, and a dim frame would be illegible on it. So:
 *   1. k is estimated for the frame: for each lit pixel, the least-squares factor that fits it to its
 *      palette colour's ray (gamma'd palette RGB); k is the largest of these (all are equal but for
 *      rounding). Pixels that fit no palette colour count with max(channel) / 255.
 *   2. Each channel is divided by k (undoing the brightness cap) and clamped to 0..255.
 *   3. The inverse gamma is applied: screen = 255 * (duty / 255) ^ (1 / 2.2).
 * A palette colour thus shows as its perceived RGB in PALETTE_RGB at any brightness setting, and a
 * pixel that is not a palette colour keeps its hue and its brightness relative to the frame.
 */
import { COLOUR_NAMES, PALETTE_RGB, PALETTE_SIZE } from "../../firmware/ui/palette.ts";
import { gammaTable } from "../../firmware/device/gamma.ts";
import { SEGMENT_NAMES, type SegmentName } from "../../hardware/profile.ts";
import type { Rgb, VirtualBoard } from "../board/board.ts";

/** What the views read of a board: either engine's (sim/board/board.ts, sim/espruino/engine.ts). */
export type LedBoard = Pick<VirtualBoard, "profile" | "pixels" | "colours" | "now" | "isOn" | "tone" | "battery">;
import { colourName } from "./colours.ts";

export type Triple = [number, number, number];

/** One LED as the views see it. */
export interface PixelView {
  /** Palette name from colourName(): "off", "red", ..., "violet" (black pegs), "hole", "cyan", or "?". */
  name: string;
  /** Duty RGB on the wire, as board.pixels() reports it. */
  rgb: Triple;
}

export interface ScreenPixel extends PixelView {
  /** sRGB to paint on a screen (see the mapping above). */
  screen: Triple;
}

const GAMMA = 2.2;
const gamma = gammaTable();
const RAYS: { name: string; c: Triple; norm2: number }[] = [];
for (let i = 0; i < PALETTE_SIZE; i++) {
  const c: Triple = [gamma[PALETTE_RGB[3 * i]], gamma[PALETTE_RGB[3 * i + 1]], gamma[PALETTE_RGB[3 * i + 2]]];
  const norm2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  if (norm2 > 0) RAYS.push({ name: COLOUR_NAMES[i], c, norm2 });
}

/** The brightness factor k (0..1] a frame was sent with, estimated from its pixels; 1 for a dark frame. */
export function frameScale(pixels: Rgb[]): number {
  let k = 0;
  for (const p of pixels) {
    if (p.r === 0 && p.g === 0 && p.b === 0) continue;
    const name = colourName(p);
    const ray = RAYS.find((r) => r.name === name);
    const ki = ray ? (p.r * ray.c[0] + p.g * ray.c[1] + p.b * ray.c[2]) / ray.norm2 : Math.max(p.r, p.g, p.b) / 255;
    if (ki > k) k = ki;
  }
  return k > 0 ? Math.min(1, k) : 1;
}

/** The screen sRGB of one LED of a frame sent with brightness factor k. */
export function screenRgb(p: Rgb, k: number): Triple {
  const ch = (v: number) => Math.round(255 * Math.pow(Math.min(1, v / 255 / k), 1 / GAMMA));
  return [ch(p.r), ch(p.g), ch(p.b)];
}

/** The profile's segments that exist on this build, in SEGMENT_NAMES order. */
export function segmentsOf(board: Pick<LedBoard, "profile">): SegmentName[] {
  const have = new Set(board.profile.leds.segments.map((s) => s.name));
  return SEGMENT_NAMES.filter((s) => have.has(s));
}

/** Every segment's pixels, as palette names and duty RGB: the command line's --json form. */
export function segmentViews(board: LedBoard): Record<string, PixelView[]> {
  const out: Record<string, PixelView[]> = {};
  for (const s of segmentsOf(board)) out[s] = board.pixels(s).map((p) => ({ name: colourName(p), rgb: [p.r, p.g, p.b] }));
  return out;
}

/** Every segment's pixels with the screen RGB to paint them, for the page. */
export function screenViews(board: LedBoard): Record<string, ScreenPixel[]> {
  const k = frameScale(board.pixels());
  const out: Record<string, ScreenPixel[]> = {};
  for (const s of segmentsOf(board))
    out[s] = board.pixels(s).map((p) => ({ name: colourName(p), rgb: [p.r, p.g, p.b], screen: screenRgb(p, k) }));
  return out;
}

/**
 * One letter per palette colour, for the labels switch and the text picture: colour-blind players
 * read the pegs by these. Black pegs are shown violet on the LEDs and labelled k.
 */
export const COLOUR_INITIALS: Record<string, string> = {
  off: ".",
  red: "r",
  green: "g",
  blue: "b",
  yellow: "y",
  white: "w",
  orange: "o",
  pink: "p",
  violet: "k",
  hole: "-",
  cyan: "c",
  "?": "?",
};

/** The initial of a palette name ("?" for unknown names). */
export function colourInitial(name: string): string {
  return COLOUR_INITIALS[name] ?? "?";
}

/** The legend of the initials, for the text picture and the page. */
export const INITIALS_LEGEND = "r red, g green, b blue, y yellow, w white, o orange, p pink, k black (violet), c cyan, - empty hole, . off";
