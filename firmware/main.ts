/**
 * Composition root on the device: profile -> drivers -> app loop; it only wires. A key event goes to
 * the ui, which changes state; the frame is rendered and sent if it changed, and the effects (tune,
 * save) are drained in the next task. Blinks re-render at the time the ui says the picture next changes. Power
 * (watchdog, sleep, battery, error flags) is device/power.ts; the console lock device/console.ts.
 */
import profile from "brainboard:profile";
import { App } from "./ui/app";
import { render } from "./ui/render";
import { PALETTE_RGB, WHITE } from "./ui/palette";
import { G_OK } from "./ui/layout";
import { Scheduler, SLOT_RENDER, SLOT_SAVE, SLOT_THINK, nowMs, say } from "./device/scheduler";
import { KeyScanner } from "./device/keys";
import { BRIGHTNESS_LEVELS, Pixels } from "./device/pixels";
import { Buzzer } from "./device/buzzer";
import { StateStore } from "./device/store";
import { Power, startWatchdog } from "./device/power";
import { lockConsole } from "./device/console";

/** A key seen down this soon after boot was held at power-on (the scanner reports it after ~3 scans). */
const SELFTEST_WINDOW_MS = 40;
/**
 * A slice of background work starts at most this often: between two, key scans and LED updates get their turn (each
 * slice is a task of its own). A slice that ran longer (on a Pico, where a few evaluations take longer than SLICE_MS)
 * is followed by the next 1 ms later, so the work is not held up by a fixed pause after each slice. A faster machine
 * (the interpreter on a PC) thinks as a Pico does, most of the time: a long pause would stretch a move, and the scans and
 * renders in it, over many times its own work.
 */
const THINK_PERIOD_MS = 2;
/**
 * A slice of background work ends after this long (ms on the interpreter's clock), or after SOLVER_SLICE evaluations; it
 * always gets its first chunk of ASK_EVERY evaluations. A chunk takes a Pico 15-120 ms, so there every slice is one
 * chunk; the interpreter on a PC runs a chunk in 0.1-1 ms, and this short a time makes its slices the same work as a
 * Pico's. (The simulator's clock stands still within a task: its slices are SOLVER_SLICE evaluations.) None runs in a
 * key's task: the key's frame goes out first.
 */
const SLICE_MS = 0.1;

function start(): void {
  startWatchdog();
  const sched = new Scheduler();
  const pixels = new Pixels(profile, PALETTE_RGB, WHITE);
  const buzzer = new Buzzer(profile.buzzer, sched);
  const store = new StateStore();
  // The compiled profile is a Layout as it is (it has every field the ui reads).
  const app = new App(profile, Math.random);
  app.readTable = function (name: string): string | undefined {
    return require("Storage").read(name);
  };
  let sliceEnd = 0;
  // A background slice always gets its first chunk of work (so work goes on however slow the rest of the task was).
  let firstAsk = false;
  app.sliceOver = function (): boolean {
    if (firstAsk) return (firstAsk = false);
    return getTime() >= sliceEnd;
  };
  const frame = new Uint8Array(profile.ledCount);
  const bootAt = nowMs();
  let seeded = false;

  // The newest save the app accepts is resumed (restore takes it on); every copy passed over is named on the
  // console, and the LEDs warn when none was usable (the unit starts afresh).
  const loaded = store.load(function (data: unknown): string {
    return app.restore(data, bootAt);
  });
  if (loaded.warning) say("save not used: " + loaded.warning);
  app.warnUntil = loaded.data === undefined && loaded.warning ? bootAt + 3000 : 0;

  function save(): void {
    // A full Storage is compacted and tried once more; if it still fails, the unit says so.
    if (store.save(app.snapshot())) return;
    require("Storage").compact();
    if (!store.save(app.snapshot())) app.warnUntil = nowMs() + 3000;
  }

  /** Saves in a task of its own, after the frame went out (JSON, checksum and a flash write). */
  function saveSoon(): void {
    sched.at(SLOT_SAVE, nowMs(), save);
  }

  function playTune(): void {
    const tune = app.takeTune();
    if (tune) buzzer.play(tune);
  }

  /** Renders the frame for time `now` (by default, the present) and sends it if it changed. */
  function show(now?: number): void {
    if (power.sleeping) return;
    if (now === undefined) now = nowMs();
    pixels.userK = BRIGHTNESS_LEVELS[app.settings.brightness];
    app.keysStuck = keys.stuckCount > 0;
    let next = render(app, frame, now);
    const settled = pixels.show(frame, now, app.secretCovered);
    // (After the LEDs: a key's frame waits for nothing else.)
    buzzer.muted = !app.settings.sound;
    if (settled && (next < 0 || settled < next)) next = settled;
    if (next >= 0) sched.at(SLOT_RENDER, next, show);
    else sched.cancel(SLOT_RENDER);
  }

  const power = new Power(sched, {
    save: save,
    show: show,
    sleepMinutes: () => app.settings.sleepMin,
    maySleep: () => app.screen !== app.selfTest,
    off: () => {
      sched.cancel(SLOT_RENDER);
      buzzer.stop();
      pixels.setPower(false);
    },
    lowBattery: (low) => {
      if (low && !app.lowBattery) save();
      app.lowBattery = low;
    },
  });

  /** Background work (the unit's guess, an answer's check, hints) in slices between other work, so keys and LEDs stay responsive. */
  function think(): void {
    const started = getTime();
    sliceEnd = started + SLICE_MS / 1000;
    firstAsk = true;
    // The frame changes only when the work is done (the thinking light steps on the render slot, by time):
    // then it is drawn, the tune played and the state saved, each in a task after this one.
    if (app.worker.think(nowMs())) {
      sched.at(SLOT_RENDER, nowMs(), function () {
        show();
        playTune();
      });
      if (app.takeSave()) saveSoon();
    }
    thinkLater(Math.max(1, THINK_PERIOD_MS - (getTime() - started) * 1000));
  }

  /** The next slice of background work: at once after a key's task (a task of its own), or `gap` ms after a slice. */
  function thinkLater(gap: number): void {
    if (app.worker.working()) sched.at(SLOT_THINK, nowMs() + gap, think);
  }

  /** A key's event, at the time of the scan that took it (its frame is drawn for that time, as are blinks). */
  function onKey(key: number, down: boolean, now: number): void {
    if (!power.key(key, down)) return;
    if (!seeded) {
      // ESP32 does not seed Math.random at boot; the time of the first press is good entropy anywhere.
      E.srand((getTime() * 1e6) ^ E.hwRand());
      seeded = true;
    }
    const selfTest = app.selfTest;
    // OK held at power-on starts the self-test (the scanner reports a held key within its first scans).
    if (down && key === G_OK && now - bootAt < SELFTEST_WINDOW_MS && app.screen !== selfTest) app.enterSelfTest(now);
    app.key(key, down, now);
    // The LEDs first, and the self-test's echo; the rest in a task of its own (afterKey), so that the key's task ends
    // with its frame (the scan holding the next key waits for no more).
    show(now);
    if (app.screen === selfTest) print("key " + key + (down ? " down" : " up"));
    sched.at(SLOT_THINK, now, afterKey);
  }

  /**
   * After a key's frame, in the next task (the unit's work slot, which it hands back to that work): the sound, the idle
   * timer, the save (a task of its own), the console's lock and the unit's work. Each takes what the ui asks for then, so
   * a second key before it runs leaves one to do both keys' work.
   */
  function afterKey(): void {
    playTune();
    power.idle();
    if (app.takeSave() && app.screen !== app.selfTest) saveSoon();
    lockConsole(app.consoleLockWanted());
    thinkLater(0);
  }

  power.restartOnErrors(bootAt, () => store.clear());
  const keys = new KeyScanner(profile, sched, onKey);
  keys.start();
  power.start(bootAt);
  lockConsole(app.consoleLockWanted());
  show();
  thinkLater(0);
}

start();
