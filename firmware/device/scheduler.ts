/**
 * The one scheduler: a fixed set of slots (key scan, render, sound, idle), each with at most one
 * deadline, served by a single Espruino interval set to fire at the earliest (changeInterval after
 * every run). One owner of timers means no stray ones, and never a `clearInterval()` without an id
 * (which would clear them all).
 */
export const SLOT_SCAN = 0;
export const SLOT_RENDER = 1;
export const SLOT_SOUND = 2;
export const SLOT_IDLE = 3;
/** Battery readings, and the wake-ups that keep the watchdog fed in deep sleep. */
export const SLOT_POWER = 4;
/** The unit's thinking (codebreaker slices). From this slot on, a job runs in a task of its own. */
export const SLOT_THINK = 5;
/**
 * Saving the state (after the frame it belongs to went out). After a slice of thinking that is due too: a move the
 * unit finds at once (from its table) is shown before the row that asked for it is saved (and both are saved then).
 */
export const SLOT_SAVE = 6;
const SLOTS = 7;
/** Espruino's shortest timer delay (TIMER_MIN_INTERVAL, ms): a shorter one runs as this. */
const MIN_DELAY = 0.1;

/** A line on the console, marked as the unit's. */
export function say(line: string): void {
  console.log("brainboard: " + line);
}

/** Milliseconds since boot, from Espruino's getTime() (seconds). */
export function nowMs(): number {
  return getTime() * 1000;
}

export class Scheduler {
  /**
   * Per slot its deadline (ms), Infinity: none (the earliest is then one native Math.min over them). Typed: 7 doubles
   * in a plain array cost a Pico ~7 JsVars more.
   */
  private readonly due = new Float64Array(SLOTS).fill(Infinity);
  private readonly jobs: ((() => void) | undefined)[] = [];
  /** Errors thrown by jobs: counted and logged, never allowed to stop the other slots. */
  errors = 0;
  /**
   * One interval, reprogrammed (changeInterval) for the earliest deadline after every run and whenever an earlier one
   * comes: a new timeout for every task cost the interpreter a timer made and freed each time.
   */
  private timer: number | undefined = undefined;
  /** When the timer fires next (ms); in a run, when it fired (the device counts its next firing from then). */
  private timerAt = -1;
  private running = false;

  /** Runs fn at time `at` (ms since boot), replacing whatever the slot held. */
  at(slot: number, at: number, fn: () => void): void {
    this.due[slot] = at;
    this.jobs[slot] = fn;
    // (A job scheduling another: run() arms once after all its jobs. Outside a run the timer fires by the earliest
    // deadline, so one no earlier than its firing needs nothing of arm().)
    if (!this.running && !(this.timerAt <= at && this.timer !== undefined)) this.arm();
  }

  cancel(slot: number): void {
    this.due[slot] = Infinity;
    this.jobs[slot] = undefined;
  }

  /** Outside a run: the timer brought forward for an earlier deadline (or made). */
  private arm(): void {
    const next = Math.min.apply(null, this.due as unknown as number[]);
    if (next === Infinity || (this.timer !== undefined && this.timerAt <= next)) return;
    // (getTime() inline, not nowMs(): a call and a late global's lookup less.) A deadline passed runs at once (a delay
    // below the shortest runs as the shortest): timerAt is when the timer fires, from which its next period counts.
    const now = getTime() * 1000;
    const delay = next - now;
    this.timerAt = now + (delay > MIN_DELAY ? delay : MIN_DELAY);
    if (this.timer === undefined) this.timer = setInterval(this.tick, delay);
    else changeInterval(this.timer, delay);
  }

  /** run(), made once. */
  private readonly tick = this.run.bind(this);

  private run(): void {
    this.running = true;
    const due = this.due;
    // A small tolerance: Espruino timers may fire a fraction of a millisecond early.
    const until = getTime() * 1000 + 0.5;
    // The slots in order, unrolled (the interpreter pays for every test and step of a loop: a third of the cost). A
    // save or a slice of thought waits for a task of its own (the next timer, at once), so no task holds it and other
    // work. (A slot is due only while it holds a job.)
    let ran = false;
    if (due[SLOT_SCAN] <= until) ran = this.go(SLOT_SCAN);
    if (due[SLOT_RENDER] <= until) ran = this.go(SLOT_RENDER);
    if (due[SLOT_SOUND] <= until) ran = this.go(SLOT_SOUND);
    if (due[SLOT_IDLE] <= until) ran = this.go(SLOT_IDLE);
    if (due[SLOT_POWER] <= until) ran = this.go(SLOT_POWER);
    if (!ran && due[SLOT_THINK] <= until) ran = this.go(SLOT_THINK);
    if (!ran && due[SLOT_SAVE] <= until) this.go(SLOT_SAVE);
    this.running = false;
    // The timer again for the earliest deadline: an interval fired goes on from the time it was due, so the period is
    // counted from then (changeInterval from its own callback); with nothing due it stops.
    const next = Math.min.apply(null, due as unknown as number[]);
    if (next === Infinity) {
      clearInterval(this.timer as number);
      this.timer = undefined;
    } else {
      const delay = next - this.timerAt;
      changeInterval(this.timer as number, delay);
      this.timerAt += delay > MIN_DELAY ? delay : MIN_DELAY;
    }
  }

  /** Runs the job in `slot` (the slot is free again first: the job may fill it anew). */
  private go(slot: number): boolean {
    const fn = this.jobs[slot] as () => void;
    this.due[slot] = Infinity;
    this.jobs[slot] = undefined;
    try {
      fn();
    } catch (e) {
      this.errors++;
      say("job " + slot + " failed: " + e);
    }
    return true;
  }
}
