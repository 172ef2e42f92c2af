/**
 * The micro-benchmark's firmware side (npm run bench:micro): bundled like the firmware and run on the real
 * interpreter from RAM, it times the pieces of a key press and a frame one by one, many times each, and
 * prints the best time of each ("BENCH <what> <ms>"). The pieces: drawing the menu and a codebreaker game
 * in play, sending a frame (changed and unchanged), a key's handling by the ui, a key with its frame, and
 * a key-matrix scan (idle, and with a key held) with pin functions as cheap as native ones.
 */
import { render } from "../../../firmware/ui/render";
import { app, holdKey, brainiacInPlay, clock, frame, pixels, scanner, SETTLED } from "./fixtures";

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

time("menu render", 50, () => render(app, frame, clock.now));
brainiacInPlay();
time("play render", 100, (i) => render(app, frame, clock.now + i * 37));
pixels.show(frame, 0);
time("pixels show (changed)", 100, (i) => {
  frame[0] = i & 7;
  pixels.show(frame, SETTLED, app.secretCovered);
});
time("pixels show (same)", 100, () => pixels.show(frame, SETTLED, app.secretCovered));
time("key (colour, undo)", 50, () => {
  app.key(2, true, (clock.now += 100));
  app.key(33, true, (clock.now += 100));
});
time("key and render", 50, () => {
  app.key(2, true, (clock.now += 100));
  render(app, frame, clock.now);
});
const scan = scanner();
time("scan (idle)", 50, () => scan());
holdKey();
time("scan (key held)", 50, () => scan());
// The end, for the runner to stop the interpreter (the prelude's timers keep it running; quit() waits for them).
print("BENCH END");
