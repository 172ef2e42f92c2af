/** Micro-benchmark entry (bundled like the firmware): times render, pixels and key handling on the interpreter. */
import profile from "brainboard:profile";
import { App } from "../ui/app";
import { render } from "../ui/render";
declare const global: any;
import { Pixels } from "../device/pixels";

const app = new App(profile, Math.random);
const frame = new Uint8Array(profile.ledCount);
const pixels = new Pixels(profile);
let now = 1000;
function tapGrid(g: number): void {
  app.key(profile.grid[g], true, (now += 100));
  app.key(profile.grid[g], false, (now += 100));
}
function tapKey(k: number): void {
  app.key(k, true, (now += 100));
  app.key(k, false, (now += 100));
}
function time(what: string, n: number, fn: (i: number) => void): void {
  let best = 1e9;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const t = getTime();
    fn(i);
    const d = (getTime() - t) * 1000;
    sum += d;
    if (d < best) best = d;
  }
  print("BENCH " + what + " min " + best.toFixed(3) + " mean " + (sum / n).toFixed(3));
}
time("menu render", 50, () => render(app, frame, now));
tapGrid(35); // OK: a Brainiac match, referee
const mk = profile.maker!;
for (let i = 0; i < 4; i++) tapKey(mk.colours[i]);
tapKey(mk.ok);
const rows = [
  [0, 0, 1, 1],
  [0, 1, 3, 2],
  [1, 2, 3, 4],
  [5, 4, 3, 2],
  [2, 2, 3, 3],
];
for (let r = 0; r < rows.length; r++) {
  for (let i = 0; i < 4; i++) tapGrid(rows[r][i]);
  tapGrid(35);
}
tapGrid(0);
tapGrid(1);
time("play render", 100, (i) => render(app, frame, now + i * 37));
time("pixels show (changed)", 100, (i) => {
  frame[0] = i & 7;
  pixels.show(frame);
});
time("pixels show (same)", 100, () => pixels.show(frame));
time("key colour+undo", 50, () => {
  app.key(profile.grid[2], true, (now += 100));
  app.key(profile.grid[33], true, (now += 100));
});
time("key+render", 50, () => {
  app.key(profile.grid[2], true, (now += 100));
  render(app, frame, now);
  app.key(profile.grid[33], true, (now += 100));
  render(app, frame, now);
});
for (const k in global) if (k.indexOf("PT_") === 0) print("BENCH part " + k + " min " + ((global[k] * 1000) / 150).toFixed(3) + " mean 0");
import { KeyScanner } from "../device/keys";
import { Scheduler } from "../device/scheduler";
{
  // The scan's own work, with pin functions as cheap as native ones: no key down, then one key held.
  // One key held: row 2, column 3 (row lines: the last pin is bit 0).
  let held = 0;
  let driven = 0;
  (global as any).digitalWrite = function (_p: unknown, v: number) {
    driven = v;
  };
  (global as any).digitalRead = function () {
    return held && !(driven & (1 << (profile.rowPins.length - 1 - 2))) ? 0x3ff ^ (1 << (10 - 1 - 3)) : 0x3ff;
  };
  (global as any).setWatch = function () {
    return 1;
  };
  (global as any).clearWatch = function () {};
  const sched = new Scheduler();
  let events = 0;
  const ks = new KeyScanner(profile, sched, function () {
    events++;
  });
  const scan = (ks as any).scan.bind(ks);
  time("scan idle", 50, () => scan());
  held = 1;
  time("scan key held", 50, () => scan());
  print("events " + events);
}
