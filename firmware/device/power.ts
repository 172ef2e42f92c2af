/**
 * The unit's power (issue 7): the watchdog resets a stalled loop (the unit resumes from the last
 * save); an error flag (low memory, a failed callback) saves and reboots; the unit sleeps with its LED
 * supply cut after the idle time and wakes on any key (that press is not acted on); a low battery
 * warns and saves, an empty one puts the unit to sleep. Board differences are profile data
 * (profile.deepSleep); the battery is read by batteryVolts() alone.
 */
import { batteryVolts } from "./battery";
import profile from "brainboard:profile";
import { Scheduler, SLOT_IDLE, SLOT_POWER, nowMs, say } from "./scheduler";

const WATCHDOG_S = 10;
/** While asleep the MCU wakes this often so the (automatic) watchdog is fed from the idle loop. */
const SLEEP_TICK_MS = 8000;
const BATTERY_EVERY_MS = 30000;
/** With an empty battery the unit shows the warning this long after a key, then sleeps again. */
const EMPTY_AWAKE_MS = 5000;
/** An error flag this soon after boot means the saved state itself is at fault: drop it. */
const BOOT_GRACE_MS = 5000;

/** Resets the unit when the idle loop stops being reached (first thing at boot, so a stall while resuming is caught too). */
export function startWatchdog(): void {
  E.enableWatchdog(WATCHDOG_S, true);
}

/** What power asks of the rest of the unit. */
export interface PowerHooks {
  /** Save the state now. */
  save(): void;
  /** Draw the frame (after waking, or when the battery alert changed). */
  show(): void;
  /** Idle minutes before sleep (the setting). */
  sleepMinutes(): number;
  /** May the unit sleep now? (Not during the self-test.) */
  maySleep(): boolean;
  /** The LED supply and the buzzer go off for sleep. */
  off(): void;
  /** The battery is low (alert) or not. */
  lowBattery(low: boolean): void;
}

export class Power {
  sleeping = false;
  private empty = false;
  /** The key that woke the unit: its press and release are not acted on. */
  private swallow = -1;
  private readonly tickNow = this.tick.bind(this);

  constructor(
    private readonly sched: Scheduler,
    private readonly hooks: PowerHooks,
  ) {}

  /** Arms the idle timer and the battery readings (the first a second after boot). */
  start(bootAt: number): void {
    this.idle();
    this.sched.at(SLOT_POWER, bootAt + 1000, this.tickNow);
  }

  /**
   * Reboots on a serious error flag, saving first; right after boot the saved state is the likely
   * cause, so it is dropped (clear) rather than loop.
   */
  restartOnErrors(bootAt: number, clear: () => void): void {
    E.on("errorFlag", (flags) => {
      // (MEMORY is also in LOW_MEMORY.)
      const named = flags.join(",");
      if (named.indexOf("MEMORY") < 0 && named.indexOf("CALLBACK") < 0) return;
      say(named + ": restarting");
      if (nowMs() - bootAt < BOOT_GRACE_MS) clear();
      else this.hooks.save();
      load();
    });
  }

  /** A key event: false when it only wakes the unit (or is the release of that key). The caller then calls idle(). */
  key(k: number, down: boolean): boolean {
    if (this.sleeping) {
      if (down) {
        this.swallow = k;
        this.wake();
      }
      return false;
    }
    if (k === this.swallow) {
      if (!down) this.swallow = -1;
      return false;
    }
    return true;
  }

  /** Restarts the idle time (after a key, once its frame went out). */
  idle(): void {
    this.sched.at(SLOT_IDLE, nowMs() + (this.empty ? EMPTY_AWAKE_MS : this.hooks.sleepMinutes() * 60000), () => this.sleep());
  }

  private sleep(): void {
    if (!this.hooks.maySleep()) return;
    this.sleeping = true;
    this.hooks.off();
    if (profile.deepSleep) setDeepSleep(true);
    this.sched.at(SLOT_POWER, nowMs() + SLEEP_TICK_MS, this.tickNow);
  }

  private wake(): void {
    this.sleeping = false;
    if (profile.deepSleep) setDeepSleep(false);
    this.hooks.show();
    this.idle();
    this.sched.at(SLOT_POWER, nowMs() + BATTERY_EVERY_MS, this.tickNow);
  }

  /** Reads the battery; asleep, it is also the watchdog's wake-up. */
  private tick(): void {
    if (profile.battery) {
      const volts = batteryVolts(profile.battery);
      // Under 1 V there is no cell at all (powered from USB alone).
      const low = volts > 1 && volts < profile.battery.lowV;
      this.hooks.lowBattery(low);
      this.empty = volts > 1 && volts < profile.battery.emptyV;
      if (this.empty && !this.sleeping) {
        this.hooks.save();
        this.sleep();
        return;
      }
      if (!this.sleeping) this.hooks.show();
    }
    this.sched.at(SLOT_POWER, nowMs() + (this.sleeping ? SLEEP_TICK_MS : BATTERY_EVERY_MS), this.tickNow);
  }
}
