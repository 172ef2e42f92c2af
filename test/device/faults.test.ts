/**
 * Issue 7 on the built bundle: input faults, sleep, battery, watchdog and error flags. Power cuts,
 * bad saves and the fuzzer are in test/saves and test/fuzz.
 */
import { describe, expect, it } from "vitest";
import { keyList } from "../../hardware/profile.ts";
import { UnitDriver } from "../scenarios/driver.ts";
import { bootedBoard, echoedKeys, R1, selfTestBoard } from "./helpers.ts";

/** The colours status LED 2 shows over one blink period. */
function alertOver(board: ReturnType<typeof bootedBoard>, ms = 600): Set<string> {
  const seen = new Set<string>();
  for (let t = 0; t < ms; t += 50) {
    seen.add(board.colours("status")[1]);
    board.advance(50);
  }
  return seen;
}

describe("input faults", () => {
  it("a key stuck down at power-on is ignored after 8 s and signalled, and the other keys still work", () => {
    const u = new UnitDriver({ storageFile: undefined });
    u.board.powerOff();
    u.board.press("p13"); // the race preset key, held as the unit starts
    u.board.powerOn();
    u.board.advance(9000);
    expect(alertOver(u.board)).toContain("yellow");
    u.tap("p12"); // the travel unit key still works, though p13 is still down
    u.settle();
    expect(u.padAt(1)).toBe("white");
    u.board.release("p13");
    u.board.advance(300);
    expect(alertOver(u.board)).toEqual(new Set(["off"]));
  });

  it("a key stuck during play is released to the game after 8 s, and keys on its row and column still work", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "travel" }); // eight colours: p21 is pink
    u.makerSecret([0, 1, 2, 3]);
    u.board.press("p11"); // red, stuck
    u.board.advance(8300);
    expect(u.boardRow(0)[0]).toBe("red"); // the press itself counted once
    u.tap("p12", "p21"); // same row, same column as the stuck key
    u.settle();
    expect(u.boardRow(0).slice(0, 3)).toEqual(["red", "green", "pink"]);
    expect(alertOver(u.board)).toContain("yellow");
  });

  it("bursts of 20 presses a second on one key are each seen exactly once", () => {
    const board = selfTestBoard({ bounceMs: 3 });
    const before = echoedKeys(board).length;
    for (let i = 0; i < 20; i++) {
      board.press("p23");
      board.advance(25);
      board.release("p23");
      board.advance(25);
    }
    const events = echoedKeys(board).slice(before);
    expect(events.filter((e) => e === "p23 down")).toHaveLength(20);
    expect(events.filter((e) => e === "p23 up")).toHaveLength(20);
  });

  it("every key at once: each is reported once, then released, and nothing fails", () => {
    const board = selfTestBoard();
    const ids = keyList(R1).map((k) => k.id);
    const before = echoedKeys(board).length;
    for (const id of ids) board.press(id);
    board.advance(100);
    for (const id of ids) board.release(id);
    board.advance(100);
    const events = echoedKeys(board).slice(before);
    expect(events.filter((e) => e.endsWith("down")).sort()).toEqual(ids.map((id) => `${id} down`).sort());
    expect(events.filter((e) => e.endsWith("up"))).toHaveLength(ids.length);
    expect(board.errors).toEqual([]);
  });

  it("random chords on every pad during play never crash the unit", () => {
    const u = new UnitDriver({ seed: 4 });
    u.startMatch({ preset: "race", mode: "manual" });
    const ids = keyList(R1).map((k) => k.id);
    let x = 12345;
    for (let i = 0; i < 300; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const a = ids[x % ids.length];
      const b = ids[(x >> 8) % ids.length];
      u.board.press(a);
      u.board.press(b);
      u.board.advance(20 + (x % 40));
      u.board.release(a);
      u.board.release(b);
      u.board.advance(20 + ((x >> 4) % 40));
    }
    expect(u.board.errors).toEqual([]);
  });
});

describe("sleep and battery", () => {
  it("after the idle time the LEDs are switched off and the unit sleeps; any key wakes it to the same screen, and that key does nothing else", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac" });
    u.makerSecret([0, 1, 2, 3]);
    u.tap("p11", "p12");
    const before = u.boardRow(0);
    u.board.advance(5 * 60_000 + 1000); // the default idle time is 5 minutes
    expect(u.board.ledsPowered).toBe(false);
    expect(u.board.deepSleep).toBe(true);
    expect(u.board.pixels().every((p) => p.r + p.g + p.b === 0)).toBe(true);
    u.tap("p13"); // wakes; blue is not placed
    expect(u.board.ledsPowered).toBe(true);
    expect(u.boardRow(0)).toEqual(before);
    u.tap("p13");
    expect(u.boardRow(0).slice(0, 3)).toEqual(["red", "green", "blue"]);
    expect(u.board.resets).toEqual([]); // the watchdog was fed while asleep
  });

  it("a low battery warns with a blinking orange alert and saves the game", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac" });
    const writes = u.board.storage.getStats().fileCount + u.board.storage.getStats().trashCount;
    u.board.setBattery(R1.battery!.lowV - 0.05);
    u.board.advance(31_000);
    expect(alertOver(u.board)).toEqual(new Set(["orange", "off"]));
    const after = u.board.storage.getStats().fileCount + u.board.storage.getStats().trashCount;
    expect(after).toBeGreaterThan(writes);
  });

  it("an empty battery saves and puts the unit to sleep; a key shows the warning, then it sleeps again", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac" });
    u.board.setBattery(R1.battery!.emptyV - 0.1);
    u.board.advance(31_000);
    expect(u.board.ledsPowered).toBe(false);
    u.tap("p11");
    expect(u.board.ledsPowered).toBe(true);
    u.board.advance(6000);
    expect(u.board.ledsPowered).toBe(false);
  });

  it("powered from USB alone (no cell: the divider reads 0 V) there is no battery warning", () => {
    const u = new UnitDriver();
    u.board.setBattery(0, true);
    u.board.advance(31_000);
    expect(alertOver(u.board)).toEqual(new Set(["off"]));
  });
});

describe("watchdog and error flags", () => {
  it("a stalled main loop is reset by the watchdog, and the unit resumes where it was", () => {
    // A stall is caught by wall-clock time (an endless loop has no virtual time); 1 s leaves the boot code room on a loaded machine.
    const u = new UnitDriver({ callbackTimeoutMs: 1000 });
    u.startMatch({ preset: "travel" });
    u.makerSecret([0, 1, 2, 3]);
    u.guess([4, 5, 6, 7]);
    const row = u.boardRow(0);
    expect(() => u.board.repl("for (;;) {}")).toThrow();
    u.board.advance(11_000);
    expect(u.board.resets.map((r) => r.reason)).toContain("watchdog");
    u.board.advance(300);
    expect(u.boardRow(0)).toEqual(row);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 0, near: 0, look: "none" });
  });

  it("a low-memory error flag saves and restarts the unit, which resumes the game", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac" });
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 1, 4, 4]);
    u.board.advance(6000); // past the boot grace period
    u.board.repl("var junk = []; for (var i = 0; i < 6000; i++) junk.push({ a: i, b: [i] }); process.memory();");
    u.board.advance(500);
    expect(u.board.resets.length).toBeGreaterThan(0);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 2, near: 0 });
    expect(u.board.errors).toEqual([]);
  });
});
