/** Drawing helpers shared by the screens: blink timing, the pad's pixels, codes and key pegs. */
import type { Layout } from "./layout";
import { EMPTY } from "../core/types";
import type { Code, Feedback, Rules } from "../core/types";
import { HOLE, OFF, PEG_COLOURS, RED, VIOLET, WHITE } from "./palette";

/** The cursor blinks on for BLINK_ON of every BLINK_PERIOD ms. */
export const BLINK_PERIOD = 600;
export const BLINK_ON = 400;
/** Pegs at fault flash, and a key asking to be pressed again blinks, at this half period (ms). */
export const FLASH_HALF = 120;

/**
 * The time of a render, and the earliest time the picture will change again (one, set again for each render: `now`,
 * `epoch` when blinks started lit, `next` -1).
 */
export class Clock {
  next = -1;
  now = 0;
  epoch = 0;
  /** Is a blink of this period/on-time (started lit at the epoch) lit now? Also notes when it next toggles. */
  blink(period: number, on: number): boolean {
    const t = (this.now - this.epoch) % period;
    const lit = t < on;
    // (at(), inline: asked in every frame. The toggle is always after now: t < on when lit, t < period.)
    const toggle = this.now - t + (lit ? on : period);
    if (this.next < 0 || toggle < this.next) this.next = toggle;
    return lit;
  }
  /** Notes that the picture changes at time t. */
  at(t: number): void {
    if (t > this.now && (this.next < 0 || t < this.next)) this.next = t;
  }
}

/** Lights the pad LED under grid position g (0..35). */
export function pad(frame: Uint8Array, L: Layout, g: number, colour: number): void {
  if (L.seg.pad >= 0) frame[L.seg.pad + g] = colour;
}

/** Colour of a code symbol on the LEDs: the blank is an unlit hole. */
export function symbolColour(rules: Rules, s: number): number {
  if (s === EMPTY) return HOLE;
  return s < rules.colours ? PEG_COLOURS[s] : OFF;
}

/** The colour of each symbol under `codeRules`, at symbol + 1 (EMPTY first): a peg is drawn with one lookup. */
const CODE_COLOURS = new Uint8Array(11);
let codeRules: Rules | null = null;

/** The colour of each symbol under `rules`, at symbol + 1 (a table shared by every caller: valid until asked for other rules). */
export function codeColours(rules: Rules): Uint8Array {
  if (rules !== codeRules) {
    for (let s = -1; s < 10; s++) CODE_COLOURS[s + 1] = symbolColour(rules, s);
    codeRules = rules;
  }
  return CODE_COLOURS;
}

export function drawCode(frame: Uint8Array, start: number, rules: Rules, code: Code): void {
  codeColours(rules);
  // for-of is the interpreter's cheapest walk of an array (~40% less than by index), which it runs on any array; the
  // firmware's type library (no Symbol) does not declare arrays iterable, the tests' (Node's) does.
  // eslint-disable-next-line @typescript-eslint/ban-ts-comment
  // @ts-ignore (see above)
  for (const s of code) frame[start++] = CODE_COLOURS[s + 1];
}

/**
 * Draws one row's feedback on its key pixels in the preset's look (never in peg order), over the preset's
 * own holes (a four-peg preset on a five-hole board leaves the fifth dark).
 */
export function drawFeedback(frame: Uint8Array, start: number, rules: Rules, fb: Feedback): void {
  if (rules.look === "arms") {
    // Indicator arms: the red arm grows from the left by exact, the white arm from the right by near.
    for (let i = 0; i < fb.exact; i++) frame[start + i] = RED;
    for (let i = 0; i < fb.near; i++) frame[start + rules.pegs - 1 - i] = WHITE;
  } else {
    // Key pegs: all black (shown violet) first, then all white.
    for (let i = 0; i < fb.exact; i++) frame[start + i] = VIOLET;
    for (let i = 0; i < fb.near; i++) frame[start + fb.exact + i] = WHITE;
  }
}
