import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../sim/board/clock.ts";

describe("virtual clock", () => {
  it("runs events in time order and FIFO at equal times", () => {
    const clock = new VirtualClock();
    const seen: string[] = [];
    clock.schedule(20, () => seen.push("b"));
    clock.schedule(10, () => seen.push("a1"));
    clock.schedule(10, () => seen.push("a2"));
    clock.schedule(30, () => seen.push("c"));
    clock.advance(25);
    expect(seen).toEqual(["a1", "a2", "b"]);
    expect(clock.now).toBe(25);
  });

  it("sets now to each event's time while it runs and runs events scheduled while advancing", () => {
    const clock = new VirtualClock();
    const times: number[] = [];
    clock.schedule(5, () => {
      times.push(clock.now);
      clock.after(3, () => times.push(clock.now));
    });
    clock.advance(10);
    expect(times).toEqual([5, 8]);
  });

  it("drops cancelled events and counts only live ones", () => {
    const clock = new VirtualClock();
    let ran = false;
    const ev = clock.schedule(1, () => (ran = true));
    clock.schedule(2, () => {});
    expect(clock.pending).toBe(2);
    clock.cancel(ev);
    expect(clock.pending).toBe(1);
    clock.advance(5);
    expect(ran).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it("never moves backwards: events in the past run at the current time", () => {
    const clock = new VirtualClock();
    clock.advance(10);
    let at = -1;
    clock.schedule(3, () => (at = clock.now));
    clock.advance(0);
    expect(at).toBe(10);
  });
});
