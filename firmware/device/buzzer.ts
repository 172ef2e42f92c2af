/**
 * The piezo buzzer: plays short tunes (pairs of frequency in Hz and duration in ms; 0 Hz is a rest)
 * as PWM on the buzzer pin, one note after another through the scheduler's sound slot.
 */
import { nowMs, Scheduler, SLOT_SOUND } from "./scheduler";

export class Buzzer {
  private tune: ArrayLike<number> = [];
  private step = 0;
  muted = false;

  constructor(
    private readonly pin: Pin | undefined,
    private readonly sched: Scheduler,
  ) {
    if (pin) digitalWrite(pin, 0);
  }

  /** Starts a tune, cutting off the one playing. */
  play(tune: ArrayLike<number>): void {
    if (!this.pin || this.muted) return;
    this.tune = tune;
    this.step = 0;
    this.next();
  }

  stop(): void {
    this.sched.cancel(SLOT_SOUND);
    if (this.pin) digitalWrite(this.pin, 0);
  }

  private next(): void {
    const pin = this.pin as Pin;
    if (this.step >= this.tune.length) {
      digitalWrite(pin, 0);
      return;
    }
    const freq = this.tune[this.step];
    const ms = this.tune[this.step + 1];
    this.step += 2;
    if (freq > 0) analogWrite(pin, 0.5, { freq: freq });
    else digitalWrite(pin, 0);
    this.sched.at(SLOT_SOUND, nowMs() + ms, () => this.next());
  }
}
