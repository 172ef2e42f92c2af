/** The LEDs' gamma: what the eye should see (the palette's RGB values) -> PWM duty. */

/** Gamma 2.2 from perceived value to PWM duty, both 0..255. */
export function gamma(v: number): number {
  return Math.floor(Math.pow(v / 255, 2.2) * 255 + 0.5);
}

/** gamma() of every value 0..255 (the simulator's views; the firmware needs only its palette's). */
export function gammaTable(): Uint8Array {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = gamma(i);
  return t;
}
