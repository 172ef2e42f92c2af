/**
 * The micro-benchmark's firmware side (npm run bench:micro): bundled like the firmware and run on the real
 * interpreter from RAM, it times the pieces of a key press and a frame one by one, many times each, and
 * prints the best time of each ("BENCH <what> <ms>"). The pieces: drawing the menu and a codebreaker game
 * in play, sending a frame (changed and unchanged), a key's handling by the ui, a key with its frame, and
 * a key-matrix scan (idle, and with a key held) with pin functions as cheap as native ones.
 */
import profile from "brainboard:profile";
import { App } from "../../../firmware/ui/app";
import { render } from "../../../firmware/ui/render";
import { Pixels } from "../../../firmware/device/pixels";
import { KeyScanner } from "../../../firmware/device/keys";
import { Scheduler } from "../../../firmware/device/scheduler";

/** The interpreter's global object, where the scan's pin functions are replaced. */
declare const global: {
  digitalWrite: (pins: unknown, value: number) => void;
  digitalRead: (pins: unknown) => number;
  setWatch: () => number;
  clearWatch: () => void;
};

const app = new App(profile, Math.random);
const frame = new Uint8Array(profile.ledCount);
const pixels = new Pixels(profile);
let now = 1000;

function tap(k: number): void {
  app.key(k, true, (now += 100));
  app.key(k, false, (now += 100));
}

function time(what: string, runs: number, fn: (i: number) => void): void {
  let best = 1e9;
  for (let i = 0; i < runs; i++) {
    const t = getTime();
    fn(i);
    const ms = (getTime() - t) * 1000;
    if (ms < best) best = ms;
  }
  print("BENCH " + what + " " + best.toFixed(3));
}

time("menu render", 50, () => render(app, frame, now));
// A Brainiac match refereed: the secret on the codemaker pad, five rows played, two pegs of the sixth keyed.
tap(35);
const maker = profile.maker as NonNullable<typeof profile.maker>;
for (let i = 0; i < 4; i++) tap(maker.colours[i]);
tap(maker.ok);
const ROWS = [
  [0, 0, 1, 1],
  [0, 1, 3, 2],
  [1, 2, 3, 4],
  [5, 4, 3, 2],
  [2, 2, 3, 3],
];
for (let r = 0; r < ROWS.length; r++) {
  for (let i = 0; i < 4; i++) tap(ROWS[r][i]);
  tap(35);
}
tap(0);
tap(1);
time("play render", 100, (i) => render(app, frame, now + i * 37));
// The supply is switched on at the first show and settled from then on (the settle time is far below 1e6 ms).
pixels.show(frame, 0);
time("pixels show (changed)", 100, (i) => {
  frame[0] = i & 7;
  pixels.show(frame, 1e6, app.secretCovered);
});
time("pixels show (same)", 100, () => pixels.show(frame, 1e6, app.secretCovered));
time("key (colour, undo)", 50, () => {
  app.key(2, true, (now += 100));
  app.key(33, true, (now += 100));
});
time("key and render", 50, () => {
  app.key(2, true, (now += 100));
  render(app, frame, now);
});

// The scan, with pin functions as cheap as native ones; one key held: row 2, column 3 (the last pin is bit 0).
const rows = profile.rowPins.length;
const cols = profile.colPins.length;
let held = false;
let driven = 0;
global.digitalWrite = function (_pins: unknown, value: number): void {
  driven = value;
};
global.digitalRead = function (): number {
  const all = (1 << cols) - 1;
  return held && !(driven & (1 << (rows - 1 - 2))) ? all ^ (1 << (cols - 1 - 3)) : all;
};
global.setWatch = function (): number {
  return 1;
};
global.clearWatch = function (): void {};
const scanner = new KeyScanner(profile, new Scheduler(), function () {});
const scan = (scanner as unknown as { scan: () => void }).scan.bind(scanner);
time("scan (idle)", 50, () => scan());
held = true;
time("scan (key held)", 50, () => scan());
// The end, for the runner to stop the interpreter (the prelude's timers keep it running; quit() waits for them).
print("BENCH END");
