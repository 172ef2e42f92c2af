/**
 * Frame -> LED bytes. A frame holds one logical colour (ui/palette) per LED of the chain. Each
 * colour goes through the gamma table, then every channel is scaled by one factor k/256: the user's
 * brightness, or less where the profile's current budget binds; bytes are laid out G,R,B (WS2812)
 * and sent with one neopixel.write, only when they changed.
 *
 * The current of the bytes sent is the idle current of the LEDs plus maPerChannel per 255 of their
 * sum. k holds steady while it can: a frame is laid out at the last k, and k is worked out again
 * only when those bytes draw more than the budget, when they sum to over 1/16 less than the frame k
 * was worked out for (KEEP), or when the user's brightness changed. A new k is the user's, or where
 * the budget binds, KEEP/(KEEP+1) of the largest whose estimate is within it (the gamma-corrected
 * duties unscaled, times k/256: the bytes round each channel down, so they draw at most that): room
 * for a few more pegs. So keying a row (each peg a little more current) dims the board in steps of a
 * few percent every row or so, not a little at every key, and the frame of a key seldom remakes the
 * table below.
 *
 * Speed: the interpreter runs source text, so the per-LED loops are native calls: the bytes are
 * E.mapInPlace of the frame through a per-k table of 24-bit GRB values into a Uint24Array view of
 * the buffer, and their current E.sum of them; a new k's estimate is E.mapInPlace of the frame
 * through the per-colour duty sums (into that view, laid out again after) and E.sum (the table, a loop over the palette, is the costly
 * part of a new k: ~0.2 ms here); "changed" is the frame's CRC32 and k against the last frame sent
 * (a collision, 1 in 2^32, would leave one frame unsent until the next change).
 *
 * Secrecy: the secret's holes sit under the codemaker's shield, lit for the codemaker only; were their
 * colours counted, k (every visible LED's duty: the whole board's dimming) would tell the codebreaker
 * something of the secret. So while a frame lights them under the shield (`covered`), k is worked out
 * on the frame with those holes white (the most any colour draws, so the budget still holds), whatever
 * they show: the sums count white there instead of what those few LEDs hold (no second layout).
 *
 * The LED supply ramps up over a few ms after it is switched on (the soft start), and a WS2812
 * without supply drops the data it is sent; since an unchanged frame is never sent again, a frame
 * sent into the ramp could stay wrong on a still screen. So no frame goes out until the profile's
 * settle time has passed: show() then returns when to try again, and the caller renders anew then.
 */
import { gamma } from "./gamma";

/** Brightness levels offered in the menu, as k (out of 256). */
export const BRIGHTNESS_LEVELS = [24, 64, 128, 256];
/** Where the budget binds, k is worked out with 1/KEEP to spare, and kept for frames down to KEEP/(KEEP+1) of that one's bytes. */
const KEEP = 16;

export class Pixels {
  private readonly pin: Pin;
  private readonly bytes: Uint8ClampedArray;
  /** The bytes as one 24-bit G,R,B value per LED (little-endian: G is the low byte). */
  private readonly grb: Uint24Array;
  /** Gamma-corrected duty per palette entry, R,G,B. */
  private readonly duty: Uint8Array;
  /** Sum of the three duties per palette entry, for the current estimate. */
  private readonly dutySum: Uint16Array;
  /**
   * Per palette entry, its GRB value scaled by lutK. (E.mapInPlace reads a plain array ~1.5 ms a frame faster on a
   * Pico, but numbers of 24 bits cost it three JsVars each: ~17 more.)
   */
  private readonly lut: Uint32Array;
  private lutK = -1;
  /** The sum of the three bytes of white at lutK (what a covered secret's hole counts as). */
  private whiteSum = 0;
  /** The secret's holes counted white: their number times whiteSum. */
  private secretWhite = 0;
  /** The LED driver (looked up once: require() walks the interpreter's global names). */
  private readonly neopixel = require("neopixel");
  /** The budget less the LEDs' idle current, times 255: what the bytes' sum times maPerChannel may reach. */
  private readonly spare: number;
  private readonly maPerChannel: number;
  private readonly power: Pin | undefined;
  private readonly powerOn: number;
  private shownK = -1;
  /** The user's k when k was last worked out, and the bytes' sum of that frame. */
  private keptUserK = -1;
  private keptSum = 0;
  private shownCrc = 0;
  private on = false;
  /** The secret's holes in the frame. */
  private readonly secretAt: number;
  private readonly secretEnd: number;
  /** The secret's holes' bytes (a view; on a board without them the whole buffer, never read). */
  private readonly secretBytes: Uint8ClampedArray;
  /** When (ms, the caller's clock) the supply has settled after it was last switched on. */
  private readyAt = 0;
  private readonly settleMs: number;
  userK = BRIGHTNESS_LEVELS[1];

  /**
   * `rgb`: the palette (ui/palette.ts PALETTE_RGB), R,G,B per colour as the eye should see it; `white`: the
   * colour that draws the most (ui/palette.ts WHITE), which the covered secret's holes count as.
   */
  constructor(
    p: FirmwareProfile,
    rgb: ArrayLike<number>,
    private readonly white: number,
  ) {
    const colours = rgb.length / 3;
    this.duty = new Uint8Array(rgb.length);
    this.dutySum = new Uint16Array(colours);
    this.lut = new Uint32Array(colours);
    this.pin = p.led;
    this.bytes = new Uint8ClampedArray(p.ledCount * 3);
    this.grb = new Uint24Array(this.bytes.buffer);
    this.spare = (p.budgetMa - p.idleMa * p.ledCount) * 255;
    this.maPerChannel = p.maPerChannel;
    this.power = p.ledPower;
    this.powerOn = p.ledPowerOn;
    this.settleMs = p.ledSettleMs;
    // Only the palette's 33 channel values (a whole 256-entry table took ~2.8 ms at boot on the interpreter).
    for (let i = 0; i < rgb.length; i++) this.duty[i] = gamma(rgb[i]);
    for (let c = 0; c < colours; c++) this.dutySum[c] = this.duty[c * 3] + this.duty[c * 3 + 1] + this.duty[c * 3 + 2];
    this.secretAt = p.seg.secret;
    this.secretEnd = p.seg.secret + p.segLen.secret;
    this.secretBytes = this.secretAt >= 0 ? this.bytes.subarray(this.secretAt * 3, this.secretEnd * 3) : this.bytes;
  }

  /** Switches the LED supply (a dark WS2812 still draws ~1 mA, so sleep cuts it). */
  setPower(on: boolean): void {
    this.on = on;
    if (this.power) digitalWrite(this.power, on ? this.powerOn : 1 - this.powerOn);
    // LEDs forget their colours when unpowered: force the next frame out.
    this.shownK = -1;
  }

  /**
   * The sum of the frame's duties (its LEDs' channels, gamma-corrected, unscaled). The bytes' buffer holds the sum per LED
   * meanwhile (a frame is laid out again after): no array of its own (~40 JsVars).
   */
  private duties(frame: Uint8Array): number {
    E.mapInPlace(frame, this.grb, this.dutySum);
    return E.sum(this.grb);
  }

  /** The frame's bytes at brightness k (the table is made again only for a new k). */
  private layOut(frame: Uint8Array, k: number): void {
    if (k !== this.lutK) {
      const d = this.duty;
      for (let c = 0; c < this.lut.length; c++)
        this.lut[c] = ((d[c * 3 + 1] * k) >> 8) | (((d[c * 3] * k) >> 8) << 8) | (((d[c * 3 + 2] * k) >> 8) << 16);
      this.lutK = k;
      const w = this.lut[this.white];
      this.whiteSum = (w & 255) + ((w >> 8) & 255) + (w >> 16);
      this.secretWhite = (this.secretEnd - this.secretAt) * this.whiteSum;
    }
    E.mapInPlace(frame, this.grb, this.lut);
  }

  /** Works k out again for the frame (see the header), and lays the frame out at it. */
  private newK(frame: Uint8Array, covered?: boolean): number {
    const userK = this.userK;
    const spare = this.spare;
    let duties = this.duties(frame);
    // (The buffer holds each LED's duty sum meanwhile: the secret's holes' duties read through a view of it.)
    const n = this.secretEnd - this.secretAt;
    if (covered) duties += n * this.dutySum[this.white] - E.sum(new Uint24Array(this.bytes.buffer, this.secretAt * 3, n));
    const fits = duties ? Math.floor((spare * 256) / (this.maPerChannel * duties)) : 256;
    const k = fits >= userK ? userK : spare > 0 ? ((fits * KEEP) / (KEEP + 1)) | 0 : 0;
    this.layOut(frame, k);
    this.keptUserK = userK;
    // (What the secret's holes add counted white: white's bytes for each, less what they hold.)
    this.keptSum = E.sum(this.bytes) + (covered ? this.secretWhite - E.sum(this.secretBytes) : 0);
    return k;
  }

  /**
   * Sends the frame (at time `now`, ms) if it differs from what the LEDs show. Returns 0, or while the
   * supply is still settling, the time to show the frame of that moment instead. `covered`: the frame
   * lights the secret's holes under the shield (see the header).
   */
  show(frame: Uint8Array, now: number, covered?: boolean): number {
    if (!this.on) {
      this.setPower(true);
      this.readyAt = now + this.settleMs;
    }
    if (now < this.readyAt) return this.readyAt;
    const crc = E.CRC32(frame);
    // The same frame at the same setting needs no current estimate and no write.
    const userK = this.userK;
    if (crc === this.shownCrc && userK === this.keptUserK && this.shownK >= 0) return 0;
    // The last k if it still fits (see the header): the bytes' sum is what they draw (maPerChannel per 255). (Its
    // table is made: layOut() with k at lutK, inline.)
    let k = this.lutK;
    if (userK === this.keptUserK) {
      E.mapInPlace(frame, this.grb, this.lut);
      const sum = E.sum(this.bytes) + (covered ? this.secretWhite - E.sum(this.secretBytes) : 0);
      if (this.maPerChannel * sum > this.spare || (k < userK && sum * (KEEP + 1) < this.keptSum * KEEP)) k = this.newK(frame, covered);
    } else k = this.newK(frame, covered);
    if (k === this.shownK && crc === this.shownCrc) return 0;
    this.shownK = k;
    this.shownCrc = crc;
    this.neopixel.write(this.pin, this.bytes);
    return 0;
  }
}
