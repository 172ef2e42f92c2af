/** Drawing helpers shared by the screens: blink timing and the pad's pixels. */
import type { Layout } from "./layout";

/** The cursor blinks on for BLINK_ON of every BLINK_PERIOD ms. */
export const BLINK_PERIOD = 600;
export const BLINK_ON = 400;

/** The time of a render, and the earliest time the picture will change again. */
export class Clock {
  next = -1;
  constructor(
    readonly now: number,
    private readonly epoch: number,
  ) {}
  /** Is a blink of this period/on-time (started lit at the epoch) lit now? Also notes when it next toggles. */
  blink(period: number, on: number): boolean {
    const t = (this.now - this.epoch) % period;
    const lit = t < on;
    this.at(this.now - t + (lit ? on : period));
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
