/**
 * Composition root on the device: profile -> drivers -> app loop. A key event goes to the ui, which
 * changes state; then effects are drained (tune, save) and the frame is rendered and sent if it
 * changed. Blinks re-render at the time the ui says the picture next changes.
 *
 * Reliability (issue 7): the watchdog resets a stalled loop, and the unit resumes from the last
 * save; an error flag (low memory, a failed callback) saves and reboots; the unit sleeps with its
 * LED supply cut after the idle time and wakes on any key (that press is not acted on); a low
 * battery warns and saves, an empty one puts the unit to sleep; the console is locked while a
 * two-player game holds a secret.
 */
import profile from "brainboard:profile";
import { App } from "./ui/app";
import { render } from "./ui/render";
import { G_OK } from "./ui/layout";
import { Scheduler, SLOT_IDLE, SLOT_POWER, SLOT_RENDER, SLOT_THINK, nowMs } from "./device/scheduler";
import { KeyScanner } from "./device/keys";
import { BRIGHTNESS_LEVELS, Pixels } from "./device/pixels";
import { Buzzer } from "./device/buzzer";
import { StateStore } from "./device/store";

/** A key seen down this soon after boot was held at power-on (the scanner reports it after ~3 scans). */
const SELFTEST_WINDOW_MS = 40;
const WATCHDOG_S = 10;
/** While asleep the MCU wakes this often so the (automatic) watchdog is fed from the idle loop. */
const SLEEP_TICK_MS = 8000;
const BATTERY_EVERY_MS = 30000;
/** With an empty battery the unit shows the warning this long after a key, then sleeps again. */
const EMPTY_AWAKE_MS = 5000;
/** Between two slices of background work, key scans and LED updates get their turn. */
const THINK_GAP_MS = 10;
/**
 * A slice of background work ends after this long (ms on the interpreter's clock; ~0.2 s on a Pico),
 * or after SOLVER_SLICE evaluations; in a key's task it is shorter, so the key's frame goes out first.
 */
const SLICE_MS = 3;
const KEY_SLICE_MS = 0.5;
/** An error flag this soon after boot means the saved state itself is at fault: drop it. */
const BOOT_GRACE_MS = 5000;

function start(): void {
  E.enableWatchdog(WATCHDOG_S, true);
  const sched = new Scheduler();
  const pixels = new Pixels(profile);
  const buzzer = new Buzzer(profile.buzzer, sched);
  const store = new StateStore();
  // The compiled profile is a Layout as it is (it has every field the ui reads).
  const app = new App(profile, Math.random);
  app.tableReader = function (name: string): string | undefined {
    return require("Storage").read(name);
  };
  let sliceEnd = getTime() + SLICE_MS / 1000;
  // A background slice always gets its first chunk of work (so work goes on however slow the rest of the task was).
  let firstAsk = false;
  app.sliceOver = function (): boolean {
    if (firstAsk) return (firstAsk = false);
    return getTime() >= sliceEnd;
  };
  const frame = new Uint8Array(profile.ledCount);
  const bootAt = nowMs();
  let seeded = false;
  let sleeping = false;
  let batteryEmpty = false;
  let swallow = -1;
  let consoleLocked = false;

  const loaded = store.load();
  const refused = app.restore(loaded.data, bootAt);
  if (loaded.warning || refused) {
    app.warnUntil = bootAt + 3000;
    console.log("brainboard: saved state not used: " + (loaded.warning || refused));
  }

  function save(): void {
    // A full Storage is compacted and tried once more; if it still fails, the unit says so.
    if (store.save(app.snapshot())) return;
    require("Storage").compact();
    if (!store.save(app.snapshot())) app.warnUntil = nowMs() + 3000;
  }

  function show(): void {
    if (sleeping) return;
    const now = nowMs();
    pixels.userK = BRIGHTNESS_LEVELS[app.settings.brightness];
    buzzer.muted = !app.settings.sound;
    app.keysStuck = keys.stuckCount() > 0;
    const next = render(app, frame, now);
    pixels.show(frame);
    if (next >= 0) sched.at(SLOT_RENDER, next, show);
    else sched.cancel(SLOT_RENDER);
  }

  /** Locks the console while a two-player game holds a secret, so it cannot be read over USB. */
  function updateConsoleLock(): void {
    const want = app.consoleLockWanted();
    if (want === consoleLocked) return;
    consoleLocked = want;
    if (want) {
      let pw = "";
      for (let i = 0; i < 20; i++) pw += String.fromCharCode(65 + ((E.hwRand() >>> 0) % 26));
      E.setPassword(pw);
      E.lockConsole();
    } else E.setPassword();
  }

  function idleIn(ms: number): void {
    sched.at(SLOT_IDLE, nowMs() + ms, sleep);
  }

  function sleep(): void {
    if (app.screen === "selftest") return;
    sleeping = true;
    sched.cancel(SLOT_RENDER);
    buzzer.stop();
    pixels.setPower(false);
    if (typeof setDeepSleep !== "undefined") setDeepSleep(true);
    sched.at(SLOT_POWER, nowMs() + SLEEP_TICK_MS, powerTick);
  }

  function wake(): void {
    sleeping = false;
    if (typeof setDeepSleep !== "undefined") setDeepSleep(false);
    show();
    idleIn(batteryEmpty ? EMPTY_AWAKE_MS : app.settings.sleepMin * 60000);
    sched.at(SLOT_POWER, nowMs() + BATTERY_EVERY_MS, powerTick);
  }

  /** Reads the battery (through the profile's divider); asleep, it is also the watchdog's wake-up. */
  function powerTick(): void {
    const b = profile.battery;
    if (b) {
      let vref = E.getAnalogVRef();
      if (!(vref > 0)) vref = 3.3; // ESP32 does not implement getAnalogVRef (ESPRUINO.md 5.2)
      const volts = analogRead(b.pin) * vref * b.ratio;
      // Under 1 V there is no cell at all (powered from USB alone).
      const low = volts > 1 && volts < b.lowV;
      if (low && !app.lowBattery) save();
      app.lowBattery = low;
      batteryEmpty = volts > 1 && volts < b.emptyV;
      if (batteryEmpty && !sleeping) {
        save();
        sleep();
        return;
      }
      if (!sleeping) show();
    }
    sched.at(SLOT_POWER, nowMs() + (sleeping ? SLEEP_TICK_MS : BATTERY_EVERY_MS), powerTick);
  }

  /** Background work (the unit's guess, an answer's check, hints) in slices between other work, so keys and LEDs stay responsive. */
  function think(): void {
    sliceEnd = getTime() + SLICE_MS / 1000;
    firstAsk = true;
    const done = app.think(nowMs());
    if (done) {
      const tune = app.takeTune();
      if (tune) buzzer.play(tune);
    }
    // Every slice: the thinking light moves on.
    show();
    if (done && app.takeSave()) save();
    thinkLater();
  }

  function thinkLater(): void {
    if (app.busy) sched.at(SLOT_THINK, nowMs() + THINK_GAP_MS, think);
  }

  function onKey(key: number, down: boolean): void {
    sliceEnd = getTime() + KEY_SLICE_MS / 1000;
    firstAsk = false;
    if (sleeping) {
      // The press that wakes the unit only wakes it.
      if (down) {
        swallow = key;
        wake();
      }
      return;
    }
    if (key === swallow) {
      if (!down) swallow = -1;
      return;
    }
    idleIn(batteryEmpty ? EMPTY_AWAKE_MS : app.settings.sleepMin * 60000);
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
    if (app.takeSave() && app.screen !== "selftest") save();
    thinkLater();
    updateConsoleLock();
  }

  E.on("errorFlag", (flags) => {
    const serious = flags.indexOf("MEMORY") >= 0 || flags.indexOf("LOW_MEMORY") >= 0 || flags.indexOf("CALLBACK") >= 0;
    if (!serious) return;
    console.log("brainboard: " + flags.join(",") + ": saving and restarting");
    // Right after boot the saved state is the likely cause: start afresh rather than loop.
    if (nowMs() - bootAt < BOOT_GRACE_MS) store.clear();
    else save();
    load();
  });

  const keys = new KeyScanner(profile, sched, onKey);
  keys.start();
  idleIn(app.settings.sleepMin * 60000);
  sched.at(SLOT_POWER, bootAt + 1000, powerTick);
  updateConsoleLock();
  show();
  if (app.takeSave()) save();
  thinkLater();
}

start();
