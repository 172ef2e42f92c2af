/**
 * Composition root on the device: profile -> drivers -> app loop. A key event goes to the ui, which
 * changes state; then effects are drained (tune, save) and the frame is rendered and sent if it
 * changed. Blinks re-render at the time the ui says the picture next changes.
 */
import profile from "brainboard:profile";
import { App } from "./ui/app";
import { render } from "./ui/render";
import { G_OK } from "./ui/layout";
import type { Layout } from "./ui/layout";
import { Scheduler, SLOT_RENDER, nowMs } from "./device/scheduler";
import { KeyScanner } from "./device/keys";
import { BRIGHTNESS_LEVELS, Pixels } from "./device/pixels";
import { Buzzer } from "./device/buzzer";
import { StateStore } from "./device/store";

/** A key seen down this soon after boot was held at power-on (the scanner reports it after ~3 scans). */
const SELFTEST_WINDOW_MS = 40;

function layoutOf(p: FirmwareProfile): Layout {
  return {
    pegs: p.pegs,
    rows: p.rows,
    ledCount: p.ledCount,
    seg: p.seg,
    segLen: p.segLen,
    secretShielded: p.secretShielded,
    keyCount: p.keyCount,
    grid: p.grid,
    maker: p.maker,
  };
}

function start(): void {
  const sched = new Scheduler();
  const pixels = new Pixels(profile);
  const buzzer = new Buzzer(profile.buzzer, sched);
  const store = new StateStore();
  const app = new App(layoutOf(profile), Math.random);
  const frame = new Uint8Array(profile.ledCount);
  let seeded = false;
  const bootAt = nowMs();

  const loaded = store.load();
  const refused = app.restore(loaded.data, nowMs());
  if (loaded.warning || refused) {
    app.warnUntil = nowMs() + 3000;
    console.log("brainboard: saved state not used: " + (loaded.warning || refused));
  }

  function show(): void {
    const now = nowMs();
    pixels.userK = BRIGHTNESS_LEVELS[app.settings.brightness];
    buzzer.muted = !app.settings.sound;
    const next = render(app, frame, now);
    pixels.show(frame);
    if (next >= 0) sched.at(SLOT_RENDER, next, show);
    else sched.cancel(SLOT_RENDER);
  }

  function onKey(key: number, down: boolean): void {
    if (!seeded) {
      // ESP32 does not seed Math.random at boot; the time of the first press is good entropy anywhere.
      E.srand((getTime() * 1e6) ^ E.hwRand());
      seeded = true;
    }
    // OK held at power-on starts the self-test (the scanner reports a held key within its first scans).
    if (down && key === profile.grid[G_OK] && nowMs() - bootAt < SELFTEST_WINDOW_MS && app.screen !== "selftest")
      app.enterSelfTest(nowMs());
    app.key(key, down, nowMs());
    if (app.screen === "selftest") print("key " + key + (down ? " down" : " up"));
    const tune = app.takeTune();
    if (tune) buzzer.play(tune);
    show();
    if (app.takeSave() && app.screen !== "selftest") store.save(app.snapshot());
  }

  const keys = new KeyScanner(profile, sched, onKey);
  keys.start();
  show();
}

start();
