/**
 * The wiring check, entered by holding OK at power-on and left by power-cycling: LED segments light in
 * turn, then the whole chain (the lamp test, at the current cap); a held grid key lights its pad LED
 * green and a held codemaker key lights a track LED, in key order.
 */
import type { Screen } from "./screen";
import type { Host } from "./host";
import { Clock, pad } from "./frame";
import { GREEN, WHITE } from "./palette";
import { TUNE_CLICK } from "./tunes";

/** How long each step of the self-test's LED walk lasts. */
export const SELFTEST_STEP_MS = 800;

export class SelfTestScreen implements Screen {
  readonly name = "selftest";
  since = 0;
  /** Keys held down, for the echo. */
  held: Uint8Array;

  constructor(readonly app: Host) {
    this.held = new Uint8Array(app.layout.keyCount);
  }

  key(k: number, _g: number, down: boolean): void {
    this.held[k] = down ? 1 : 0;
    if (down) this.app.tune = TUNE_CLICK;
  }

  draw(frame: Uint8Array, clock: Clock): void {
    const L = this.app.layout;
    const seg = L.seg;
    const len = L.segLen;
    // The segments in chain order, then the whole chain. (Named one by one, not by a list of names: their
    // names are mangled in the bundle.)
    const starts = [seg.board, seg.keys, seg.secret, seg.pad, seg.track, seg.status];
    const lengths = [len.board, len.keys, len.secret, len.pad, len.track, len.status];
    const steps = starts.length + 1;
    const since = clock.now - this.since;
    const step = Math.floor(since / SELFTEST_STEP_MS) % steps;
    clock.at(this.since + (Math.floor(since / SELFTEST_STEP_MS) + 1) * SELFTEST_STEP_MS);
    if (step === steps - 1) frame.fill(WHITE);
    else if (starts[step] >= 0) frame.fill(WHITE, starts[step], starts[step] + lengths[step]);
    let other = 0;
    for (let k = 0; k < this.held.length; k++) {
      if (k < 36) {
        if (this.held[k]) pad(frame, L, k, GREEN);
      } else {
        if (this.held[k] && L.seg.track >= 0 && other < L.segLen.track) frame[L.seg.track + other] = GREEN;
        other++;
      }
    }
  }
}
