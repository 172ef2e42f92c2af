/**
 * Frame -> LED bytes. A frame holds one logical colour (ui/palette) per LED of the chain. Each
 * colour goes through the gamma table, then every channel is scaled by one factor k/256, the
 * smaller of the user's brightness and what keeps the estimated current under the profile's
 * budget; bytes are laid out G,R,B (WS2812) and sent with one neopixel.write, only when they changed.
 *
 * Speed: the interpreter runs source text, so the per-LED loops are native calls: the current
 * estimate is E.mapInPlace through the per-colour duty sums and E.sum; the bytes are E.mapInPlace
 * of the frame through a per-k table of 24-bit GRB values into a Uint24Array view of the buffer;
 * "changed" is the frame's CRC32 and k against the last frame sent (a collision, 1 in 2^32, would
 * leave one frame unsent until the next change).
 */
import { gamma, PALETTE_RGB, PALETTE_SIZE } from "../ui/palette";

/** Brightness levels offered in the menu, as k (out of 256). */
export const BRIGHTNESS_LEVELS = [24, 64, 128, 256];

export class Pixels {
  private readonly pin: Pin;
  private readonly count: number;
  private readonly bytes: Uint8ClampedArray;
  /** The bytes as one 24-bit G,R,B value per LED (little-endian: G is the low byte). */
  private readonly grb: Uint24Array;
  /** Gamma-corrected duty per palette entry, R,G,B. */
  private readonly duty = new Uint8Array(PALETTE_SIZE * 3);
  /** Sum of the three duties per palette entry, for the current estimate, and that sum per LED. */
  private readonly dutySum = new Uint16Array(PALETTE_SIZE);
  private readonly ledSum: Uint16Array;
  /** Per palette entry, its GRB value scaled by lutK. */
  private readonly lut = new Uint32Array(PALETTE_SIZE);
  private lutK = -1;
  private readonly budgetMa: number;
  private readonly maPerChannel: number;
  private readonly idleMa: number;
  private readonly power: Pin | undefined;
  private readonly powerOn: number;
  private shownK = -1;
  private shownUserK = -1;
  private shownCrc = 0;
  private on = false;
  userK = BRIGHTNESS_LEVELS[1];

  constructor(p: FirmwareProfile) {
    this.pin = p.led;
    this.count = p.ledCount;
    this.bytes = new Uint8ClampedArray(p.ledCount * 3);
    this.grb = new Uint24Array(this.bytes.buffer);
    this.ledSum = new Uint16Array(p.ledCount);
    this.budgetMa = p.budgetMa;
    this.maPerChannel = p.maPerChannel;
    this.idleMa = p.idleMa;
    this.power = p.ledPower;
    this.powerOn = p.ledPowerOn;
    // Only the palette's 33 channel values (a whole 256-entry table took ~2.8 ms at boot on the interpreter).
    for (let i = 0; i < PALETTE_SIZE * 3; i++) this.duty[i] = gamma(PALETTE_RGB[i]);
    for (let c = 0; c < PALETTE_SIZE; c++) this.dutySum[c] = this.duty[c * 3] + this.duty[c * 3 + 1] + this.duty[c * 3 + 2];
  }

  /** Switches the LED supply (a dark WS2812 still draws ~1 mA, so sleep cuts it). */
  setPower(on: boolean): void {
    this.on = on;
    if (this.power) digitalWrite(this.power, on ? this.powerOn : 1 - this.powerOn);
    // LEDs forget their colours when unpowered: force the next frame out.
    this.shownK = -1;
  }

  /** The largest k (out of 256) whose estimated current for this frame stays within the budget. */
  budgetK(frame: Uint8Array): number {
    E.mapInPlace(frame, this.ledSum, this.dutySum);
    const sum = E.sum(this.ledSum);
    const spare = this.budgetMa - this.idleMa * this.count;
    if (sum === 0) return 256;
    if (spare <= 0) return 0;
    // current(k) = idle + maPerChannel * sum/255 * k/256 <= budget
    return Math.min(256, Math.floor((spare * 255 * 256) / (this.maPerChannel * sum)));
  }

  /** Sends the frame if it differs from what the LEDs show. Returns true when bytes were sent. */
  show(frame: Uint8Array): boolean {
    if (!this.on) this.setPower(true);
    const crc = E.CRC32(frame);
    // The same frame at the same setting needs no current estimate and no write.
    if (crc === this.shownCrc && this.userK === this.shownUserK && this.shownK >= 0) return false;
    const k = Math.min(this.userK, this.budgetK(frame));
    this.shownUserK = this.userK;
    if (k === this.shownK && crc === this.shownCrc) return false;
    if (k !== this.lutK) {
      const d = this.duty;
      for (let c = 0; c < PALETTE_SIZE; c++)
        this.lut[c] = ((d[c * 3 + 1] * k) >> 8) | (((d[c * 3] * k) >> 8) << 8) | (((d[c * 3 + 2] * k) >> 8) << 16);
      this.lutK = k;
    }
    E.mapInPlace(frame, this.grb, this.lut);
    this.shownK = k;
    this.shownCrc = crc;
    require("neopixel").write(this.pin, this.bytes);
    return true;
  }
}
