/**
 * What bench:micro's two firmware sides share (micro.ts times the pieces, count.ts counts them): the app with a
 * fixed sequence for its randomness, a frame and the pixels, a Brainiac match in play, and the key scanner with pin
 * functions standing in for a Pico's native ones.
 */
import profile from "brainboard:profile";
import { App } from "../../../firmware/ui/app";
import { render } from "../../../firmware/ui/render";
import { Pixels } from "../../../firmware/device/pixels";
import { PALETTE_RGB, WHITE } from "../../../firmware/ui/palette";
import { KeyScanner } from "../../../firmware/device/keys";
import { Scheduler } from "../../../firmware/device/scheduler";

/**
 * The interpreter's global object: the scan's pin stand-ins' state (installed before the bundle by the runner's
 * prelude, test/bench/count.ts: [on, key held, rows driven, the held key's row bit, columns open, columns with the key
 * closed, ...]) and the watch functions, replaced here.
 */
declare const global: {
  BENCH_PINS: number[];
  setWatch: () => number;
  clearWatch: () => void;
};

/** A fixed sequence for the app's randomness (a Park-Miller generator): the counted runs must repeat. */
let seed = 12345;
/** Starts the sequence again (a piece whose work draws from it leaves the next repetition's setup as it found it). */
export function reseed(): void {
  seed = 12345;
}
function random(): number {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
}

export const app = new App(profile, random);
export const frame = new Uint8Array(profile.ledCount);
export const pixels = new Pixels(profile, PALETTE_RGB, WHITE);
/** The time the pieces pass to the app (ms); each key moves it on. */
export const clock = { now: 1000 };
/** The LED supply is switched on at the first show and settled from then on (its settle time is far below SETTLED). */
export const SETTLED = 1e6;

export function tap(k: number): void {
  app.key(k, true, (clock.now += 100));
  app.key(k, false, (clock.now += 100));
}

/** A Brainiac match refereed: the secret on the codemaker pad, five rows played, two pegs of the sixth keyed. */
export function brainiacInPlay(): void {
  tap(35);
  const maker = profile.maker as NonNullable<typeof profile.maker>;
  for (let i = 0; i < 4; i++) tap(maker.colours[i]);
  tap(maker.ok);
  const rows = [
    [0, 0, 1, 1],
    [0, 1, 3, 2],
    [1, 2, 3, 4],
    [5, 4, 3, 2],
    [2, 2, 3, 3],
  ];
  for (let r = 0; r < rows.length; r++) {
    for (let i = 0; i < 4; i++) tap(rows[r][i]);
    tap(35);
  }
  tap(0);
  tap(1);
}

/** The match in play, its frame out and the LED supply settled. */
export function playWithLeds(): void {
  brainiacInPlay();
  render(app, frame, clock.now);
  pixels.show(frame, 0, app.secretCovered);
  pixels.show(frame, SETTLED, app.secretCovered);
}

/** Closes the scanner's matrix's key at row 2, column 3 (held from then on). */
export function holdKey(): void {
  global.BENCH_PINS[1] = 1;
}

/** How many key events the scanner has given (the held key must be taken, or the stand-ins are not in its way). */
export const keysTaken = [0];

/** A key scanner whose pins are the stand-ins, as cheap as native ones; returns its scan. */
export function scanner(): () => void {
  const rows = profile.rowPins.length;
  const cols = profile.colPins.length;
  const pins = global.BENCH_PINS;
  // (The last pin is bit 0.)
  pins[3] = 1 << (rows - 1 - 2);
  pins[4] = (1 << cols) - 1;
  pins[5] = pins[4] ^ (1 << (cols - 1 - 3));
  pins[0] = 1;
  global.setWatch = function (): number {
    return 1;
  };
  global.clearWatch = function (): void {};
  const s = new KeyScanner(profile, new Scheduler(), function () {
    keysTaken[0]++;
  });
  return (s as unknown as { scan: () => void }).scan.bind(s);
}
