/**
 * setTimeout, setInterval, clearTimeout, clearInterval and changeInterval as the device does them:
 * numeric ids (the last id + 1, restarting at 1 when the table is empty), virtual time, a minimum
 * interval, and `clear*()` with no argument clearing every timer except those debouncing watches.
 * Debounce timers (gpio.ts) share this table, as they share the device's timer list.
 */
import type { ClockEvent } from "../board/clock.ts";
import type { SizeEstimator } from "./memory.ts";
import type { ApiKit } from "./modules.ts";
import type { Watch } from "./gpio.ts";

/** Espruino's TIMER_MIN_INTERVAL, in ms. */
export const TIMER_MIN_INTERVAL_MS = 0.1;

export type CallResult = "ok" | "threw" | "hung";
/** A function of the firmware's realm. */
export type FirmwareFn = (...args: unknown[]) => unknown;

/** What the timers and watches need of the runtime, beyond a module's kit: its events and its calls into firmware. */
export interface EventKit extends ApiKit {
  /** Schedules an event owned by this boot (cancelled when it ends). */
  at(time: number, run: () => void): ClockEvent;
  cancel(ev: ClockEvent | null | undefined): void;
  /** Runs a firmware function from the idle loop, with the wall-clock timeout. */
  call(fn: unknown, thisArg: unknown, args: unknown[], what: string): CallResult;
  /** The interpreter was reset or is hung: nothing more runs. */
  stopped(): boolean;
  /** A virtual time (ms) as getTime() reports it, in seconds. */
  seconds(timeMs: number): number;
}

export interface Timer {
  id: number;
  /** Absolute virtual time (ms) it falls due. */
  due: number;
  interval?: number;
  fn: unknown;
  args: unknown[];
  ev: ClockEvent | null;
  /** Debounce timers belong to a watch and carry the level it will report. */
  watch?: Watch;
  state?: boolean;
}

export class Timers {
  private readonly table = new Map<number, Timer>();

  /** fireDebounce runs a debounce timer that fell due (the watch owns what it does). */
  constructor(
    private readonly k: EventKit,
    private readonly fireDebounce: (t: Timer) => void,
  ) {}

  /** The firmware's timers (not the debounce timers). */
  get count(): number {
    let n = 0;
    for (const t of this.table.values()) if (!t.watch) n++;
    return n;
  }

  /** Blocks the timers take, for the memory estimate. */
  blocks(est: SizeEstimator): number {
    let n = 0;
    for (const t of this.table.values()) n += 5 + est.sizeOf(t.fn) + t.args.reduce((a: number, v) => a + 1 + est.sizeOf(v), 0);
    return n;
  }

  /** Forgets every timer (the runtime cancels the clock events it owns). */
  clear(): void {
    this.table.clear();
  }

  api(): Record<string, FirmwareFn> {
    return {
      setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(fn, ms, args, false),
      setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(fn, ms, args, true),
      clearTimeout: (...args: unknown[]) => this.clearTimer(args, "Timeout"),
      clearInterval: (...args: unknown[]) => this.clearTimer(args, "Interval"),
      changeInterval: (id: unknown, ms: unknown) => this.changeInterval(id, ms),
    };
  }

  /** Starts a watch's debounce timer: it reports `state` at `due` unless the pin bounces again. */
  startDebounce(watch: Watch, due: number, state: boolean): Timer {
    const t: Timer = { id: nextId(this.table), due, fn: watch.fn, args: [], ev: null, watch, state };
    this.table.set(t.id, t);
    this.schedule(t);
    return t;
  }

  /** Whether the timer is still in the table. */
  live(t: Timer): boolean {
    return this.table.get(t.id) === t;
  }

  /** Stops a timer and removes it from the table. */
  drop(t: Timer): void {
    this.k.cancel(t.ev);
    this.table.delete(t.id);
  }

  /** (Re)schedules a timer at its due time. */
  schedule(t: Timer): void {
    this.k.cancel(t.ev);
    t.ev = this.k.at(t.due, () => {
      t.ev = null;
      if (this.table.get(t.id) !== t) return;
      if (t.watch) this.fireDebounce(t);
      else this.fireTimer(t);
    });
  }

  private setTimer(fn: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    this.k.guard();
    if (typeof fn !== "function" && typeof fn !== "string") throw this.k.err("Function or String not supplied!");
    let interval = Number(ms);
    if (!(interval >= TIMER_MIN_INTERVAL_MS)) interval = TIMER_MIN_INTERVAL_MS;
    const t: Timer = { id: nextId(this.table), due: this.k.bus.clock.now + interval, fn, args, ev: null };
    if (repeat) t.interval = interval;
    this.table.set(t.id, t);
    this.schedule(t);
    return t.id;
  }

  private fireTimer(t: Timer): void {
    const due = t.due;
    const r = this.k.call(t.fn, undefined, t.args, t.interval !== undefined ? "a setInterval callback" : "a setTimeout callback");
    if (this.k.stopped()) return;
    if (this.table.get(t.id) !== t) return;
    // Like the device, the interval is read after the callback ran (changeInterval from inside it
    // changes the period, counted from this run's due time).
    if (t.interval !== undefined && r !== "hung") {
      t.due = due + t.interval;
      this.schedule(t);
    } else this.drop(t);
  }

  private clearTimer(args: unknown[], kind: "Timeout" | "Interval"): void {
    this.k.guard();
    if (args.length === 0) {
      // Everything except the timers debouncing watches.
      for (const t of [...this.table.values()]) if (!t.watch) this.drop(t);
      return;
    }
    const id = args[0];
    if (id === undefined)
      throw this.k.err(`clear${kind}(undefined): not a timer id (clear${kind}() with no argument would clear every timer)`);
    const t = typeof id === "number" ? this.table.get(id) : undefined;
    if (!t) throw this.k.err(`Unknown ${kind}`);
    this.drop(t);
    if (t.watch) t.watch.timer = undefined;
  }

  private changeInterval(id: unknown, ms: unknown): void {
    this.k.guard();
    const t = typeof id === "number" ? this.table.get(id) : undefined;
    if (!t) throw this.k.err("Unknown Interval");
    let interval = Number(ms);
    if (!(interval >= TIMER_MIN_INTERVAL_MS)) interval = TIMER_MIN_INTERVAL_MS;
    t.interval = interval;
    t.due = this.k.bus.clock.now + interval;
    this.schedule(t);
  }
}

/** The device's next id: the largest in use + 1 (1 when the table is empty). */
export function nextId(table: Map<number, unknown>): number {
  let max = 0;
  for (const id of table.keys()) if (id > max) max = id;
  return max + 1;
}
