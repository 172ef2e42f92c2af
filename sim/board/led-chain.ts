/**
 * A WS2812B chain as it behaves electrically: each write's bytes are taken as G, R, B per pixel
 * from the first pixel on; pixels beyond the data keep their colour (bytes beyond the chain fall
 * off its end). Without supply every pixel is dark and forgets its colour, so after the supply
 * comes back the chain is dark until the next write. The supply takes `settleMs` to come up
 * (the soft start): data sent before then is lost, and the chain stays dark.
 */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface LedStats {
  /** neopixel.write calls on the chain's pin. */
  writes: number;
  /** Bytes sent. */
  bytes: number;
  /** Time on the wire: 30 us per pixel sent (docs/espruino.md 5.1). */
  wireUs: number;
  /** Virtual time (ms) of the last write, -1 before the first. */
  lastWriteAt: number;
  /** Writes that came while the supply was off or still coming up, and were lost. */
  lost: number;
}

/** Microseconds per WS2812 pixel on the wire, interrupts off. */
export const WIRE_US_PER_PIXEL = 30;

export class LedChain {
  readonly count: number;
  private rgb: Uint8Array;
  private supplied = false;
  /** When the supply, last switched on, takes data (ms). */
  private settledAt = 0;
  /** A frame has landed since the supply last came on (until then the LEDs are dark whatever the state). */
  private latched = false;
  private readonly settleMs: number;
  readonly stats: LedStats = { writes: 0, bytes: 0, wireUs: 0, lastWriteAt: -1, lost: 0 };

  constructor(count: number, settleMs = 0) {
    this.count = count;
    this.settleMs = settleMs;
    this.rgb = new Uint8Array(count * 3);
  }

  /** When the supply, last switched on, started taking data (ms). */
  get settledSince(): number {
    return this.settledAt;
  }

  get powered(): boolean {
    return this.supplied;
  }

  /** Whether the LEDs show a frame: supplied, and written once it had settled. */
  get showing(): boolean {
    return this.supplied && this.latched;
  }

  /** Switches the LED supply at time `at` (ms). Returns whether any pixel changed. */
  setPowered(on: boolean, at: number): boolean {
    if (on === this.supplied) return false;
    this.supplied = on;
    this.latched = false;
    if (on) {
      this.settledAt = at + this.settleMs;
      return false;
    }
    const lit = this.rgb.some((v) => v !== 0);
    this.rgb.fill(0);
    return lit;
  }

  /** Data sent down the chain at time `at` (ms). Returns whether any pixel changed. */
  write(grb: Uint8Array, at: number): boolean {
    this.stats.writes++;
    this.stats.bytes += grb.length;
    this.stats.wireUs += (grb.length / 3) * WIRE_US_PER_PIXEL;
    this.stats.lastWriteAt = at;
    if (!this.supplied || at < this.settledAt) {
      this.stats.lost++;
      return false;
    }
    this.latched = true;
    let changed = false;
    const n = Math.min(this.count, Math.floor(grb.length / 3));
    for (let i = 0; i < n; i++) {
      const g = grb[3 * i];
      const r = grb[3 * i + 1];
      const b = grb[3 * i + 2];
      if (this.rgb[3 * i] !== r || this.rgb[3 * i + 1] !== g || this.rgb[3 * i + 2] !== b) changed = true;
      this.rgb[3 * i] = r;
      this.rgb[3 * i + 1] = g;
      this.rgb[3 * i + 2] = b;
    }
    return changed;
  }

  pixel(i: number): Rgb {
    return { r: this.rgb[3 * i], g: this.rgb[3 * i + 1], b: this.rgb[3 * i + 2] };
  }

  /** Pixels start..start+count-1. */
  slice(start: number, count: number): Rgb[] {
    const out: Rgb[] = [];
    for (let i = start; i < start + count; i++) out.push(this.pixel(i));
    return out;
  }
}

/** The pixels of a whole chain, or of one segment of it (an error names a segment the build lacks). */
export function chainPixels(
  chain: LedChain,
  segments: Record<string, { start: number; count: number }>,
  profileId: string,
  segment?: string,
): Rgb[] {
  if (segment === undefined) return chain.slice(0, chain.count);
  const s = segments[segment];
  if (!s || s.start < 0) throw new Error(`profile ${profileId} has no "${segment}" LED segment`);
  return chain.slice(s.start, s.count);
}
