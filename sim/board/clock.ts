/**
 * Virtual time for the simulated board. Time is a number of milliseconds (float) that only moves
 * when `advance` is called, so every run is deterministic and nothing ever sleeps in real time.
 * Events are ordered by time and, at equal times, by the order they were scheduled (FIFO).
 */

/** A scheduled event; pass it to `cancel` to drop it. */
export interface ClockEvent {
  readonly at: number;
  readonly seq: number;
  cancelled: boolean;
  readonly run: () => void;
}

export class VirtualClock {
  private time = 0;
  private seq = 0;
  /** Binary min-heap on (at, seq); cancelled events are dropped lazily when they reach the top. */
  private heap: ClockEvent[] = [];
  private live = 0;

  /** Milliseconds since the clock was created. */
  get now(): number {
    return this.time;
  }

  /** How many events are scheduled and not cancelled. */
  get pending(): number {
    return this.live;
  }

  /** Schedules `run` at absolute time `at` (clamped to now: the past cannot be changed). */
  schedule(at: number, run: () => void): ClockEvent {
    if (Number.isNaN(at)) throw new Error("VirtualClock.schedule: time is NaN");
    const ev: ClockEvent = { at: Math.max(at, this.time), seq: this.seq++, cancelled: false, run };
    this.push(ev);
    this.live++;
    return ev;
  }

  /** Schedules `run` after `delayMs` from now. */
  after(delayMs: number, run: () => void): ClockEvent {
    return this.schedule(this.time + Math.max(0, delayMs), run);
  }

  cancel(ev: ClockEvent | undefined | null): void {
    if (!ev || ev.cancelled) return;
    ev.cancelled = true;
    this.live--;
  }

  /** Time of the next live event, or undefined when nothing is scheduled. */
  nextAt(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.at;
  }

  /**
   * Moves time forward by `ms`, running every event that falls due, in order, with `now` set to
   * each event's time while it runs. Events scheduled while advancing run too if they fall due.
   */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`VirtualClock.advance: ms must be a non-negative number, got ${ms}`);
    const target = this.time + ms;
    for (;;) {
      this.dropCancelled();
      const next = this.heap[0];
      if (!next || next.at > target) break;
      this.pop();
      this.live--;
      next.cancelled = true;
      this.time = next.at;
      next.run();
    }
    this.time = target;
  }

  private dropCancelled(): void {
    // A cancelled event was already subtracted from `live` by cancel().
    while (this.heap.length && this.heap[0].cancelled) this.pop();
  }

  private less(a: ClockEvent, b: ClockEvent): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(ev: ClockEvent): void {
    const h = this.heap;
    h.push(ev);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private pop(): ClockEvent | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l], h[m])) m = l;
        if (r < h.length && this.less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}
