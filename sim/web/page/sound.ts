/** The buzzer, played in the browser from the tones the server streams. */
import { page } from "./state.ts";

/** The buzzer, as a square wave at the tone's frequency; notes keep their virtual-time spacing. */
export const audio = {
  ctx: null as AudioContext | null,
  osc: null as unknown as OscillatorNode,
  gain: null as unknown as GainNode,
  offset: null as number | null,
  unlock() {
    if (this.ctx) {
      if (this.ctx.state === "suspended") this.ctx.resume();
      return;
    }
    const AC = window.AudioContext || (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    this.ctx = new AC();
    this.osc = this.ctx.createOscillator();
    this.osc.type = "square";
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.osc.connect(this.gain).connect(this.ctx.destination);
    this.osc.start();
  },
  play(now: number, tones: { at: number; freq: number }[]) {
    if (!this.ctx || !page.lastState || page.lastState.view.muted) return;
    const t = this.ctx.currentTime;
    // Virtual ms -> audio seconds; re-anchored when the stream falls behind or runs far ahead.
    const guess = t + 0.03 - now / 1000;
    if (this.offset === null || this.offset < guess - 0.05 || this.offset > guess + 0.25) this.offset = guess;
    for (const tone of tones) {
      const when = Math.max(t, tone.at / 1000 + this.offset);
      if (tone.freq > 0) this.osc.frequency.setValueAtTime(tone.freq, when);
      this.gain.gain.setTargetAtTime(tone.freq > 0 ? 0.05 : 0, when, 0.002);
    }
  },
  silence() {
    if (this.ctx) this.gain.gain.setTargetAtTime(0, this.ctx.currentTime, 0.002);
  },
};
