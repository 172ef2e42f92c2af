import { describe, expect, it } from "vitest";
import { boot, SCANNER } from "./helpers.ts";

describe("digital I/O", () => {
  it("starts every pin as an input in automatic mode", () => {
    const board = boot("");
    expect(board.pinState("A0")).toEqual({ mode: "input", manual: false, out: 0, level: 0 });
  });

  it("writes a pin array as a bit field whose least significant bit is the last pin", () => {
    const board = boot("digitalWrite([A0, A1, A2], 0b011);");
    expect(["A0", "A1", "A2"].map((p) => board.pinState(p).out)).toEqual([0, 1, 1]);
    board.repl("digitalWrite([A0, A1, A2], true)");
    expect(["A0", "A1", "A2"].map((p) => board.pinState(p).level)).toEqual([1, 1, 1]);
  });

  it("reads a pin array with the last pin as the least significant bit", () => {
    const board = boot(`pinMode(A0, "input_pulldown"); pinMode(A1, "input_pullup"); pinMode(A2, "input_pullup");`);
    expect(board.repl("digitalRead([A0, A1, A2])")).toBe(0b011);
    expect(board.repl("digitalRead([A2, A0])")).toBe(0b10);
  });

  it("switches an automatic pin to an output on write, but not a pin set with pinMode", () => {
    const board = boot(`digitalWrite(A0, 1); pinMode(A1, "input"); digitalWrite(A1, 1);`);
    expect(board.pinState("A0")).toMatchObject({ mode: "output", manual: false, level: 1 });
    expect(board.pinState("A1")).toMatchObject({ mode: "input", manual: true, out: 1, level: 0 });
    board.repl(`pinMode(A1, "auto"); digitalWrite(A1, 1);`);
    expect(board.pinState("A1")).toMatchObject({ mode: "output", manual: false, level: 1 });
  });

  it("refuses a pin that is not on the board, loudly", () => {
    const board = boot("");
    expect(() => board.repl("digitalWrite(undefined, 1)")).toThrow(/Invalid pin/);
    expect(() => board.repl(`pinMode(A0, "floating")`)).toThrow(/Unknown pin mode/);
  });

  it("reads the battery through its divider and refuses analogRead on a pin without an ADC", () => {
    const board = boot("");
    board.setBattery(3.7);
    const volts = board.repl("analogRead(B1) * E.getAnalogVRef() * 2") as number;
    expect(Math.abs(volts - 3.7)).toBeLessThan(0.002);
    expect(() => board.repl("analogRead(B15)")).toThrow(/not an analog input/);
  });

  it("sounds the buzzer while its PWM duty is above zero and logs every change", () => {
    const board = boot("");
    board.advance(10);
    board.repl("analogWrite(A8, 0.5, {freq: 2000})");
    expect(board.tone).toEqual({ freq: 2000 });
    board.advance(5);
    board.repl("digitalWrite(A8, 0)");
    expect(board.tone).toBeNull();
    board.repl("analogWrite(A8, 0.5, {freq: 440}); analogWrite(A8, 0)");
    expect(board.tones).toEqual([
      { at: 10, freq: 2000 },
      { at: 15, freq: 0 },
      { at: 15, freq: 440 },
      { at: 15, freq: 0 },
    ]);
  });
});

describe("setWatch", () => {
  /** All rows pulled low, columns pulled up: any key of a row pulls its column low (the wake-up wiring). */
  const ROWS_LOW = `${SCANNER} rows.forEach(function (r) { digitalWrite(r, 0); }); var events = [];`;

  it("returns numeric ids, the last id + 1, starting again at 1 when none are left", () => {
    const board = boot(`var f = function () {}; var a = setWatch(f, A5), b = setWatch(f, A6, {repeat: true});`);
    expect(board.repl("[a, b].join()")).toBe("1,2");
    board.repl("clearWatch(b)");
    expect(board.repl("setWatch(f, A6)")).toBe(2);
    board.repl("clearWatch()");
    expect(board.watchCount).toBe(0);
    expect(board.repl("setWatch(f, A7)")).toBe(1);
  });

  it("calls back with the state and the time in seconds, from the idle loop, once without repeat", () => {
    const board = boot(`${ROWS_LOW} setWatch(function (e) { events.push([e.state, e.time, e.lastTime]); }, A5);`, { bounceMs: 0 });
    board.advance(100);
    board.press("p11");
    board.advance(10);
    board.release("p11");
    board.advance(10);
    expect(board.repl("JSON.stringify(events)")).toBe("[[false,0.1,null]]");
    expect(board.watchCount).toBe(0);
  });

  it("filters edges and reports the previous change as lastTime", () => {
    const board = boot(
      `${ROWS_LOW} setWatch(function (e) { events.push([e.state, e.time, e.lastTime]); }, A5, {repeat: true, edge: "rising"});`,
      {
        bounceMs: 0,
      },
    );
    board.advance(100);
    board.press("p11");
    board.advance(50);
    board.release("p11");
    board.advance(10);
    expect(board.repl("JSON.stringify(events)")).toBe("[[true,0.15,0.1]]");
  });

  it("sees every bounce without debounce, and one stable change with it", () => {
    const fw = `${ROWS_LOW} var raw = 0;
      setWatch(function () { raw++; }, A5, {repeat: true});
      setWatch(function (e) { events.push([e.state, e.time]); }, A6, {repeat: true, debounce: 10});`;
    const board = boot(fw, { bounceMs: 5, seed: 3 });
    board.advance(100);
    board.press("p11");
    board.press("p12");
    board.advance(14);
    expect(board.repl("events.length")).toBe(0);
    board.advance(2);
    expect(board.repl("raw")).toBeGreaterThan(2);
    const events = JSON.parse(board.repl("JSON.stringify(events)") as string) as [boolean, number][];
    expect(events.length).toBe(1);
    expect(events[0][0]).toBe(false);
    // Reported at the time of the last bounce, which is within bounceMs of the press.
    expect(events[0][1]).toBeGreaterThan(0.1);
    expect(events[0][1]).toBeLessThanOrEqual(0.105);
  });

  it("runs the callback after the call that caused the edge, never inside it", () => {
    const board = boot(
      `setWatch(function () { print("watch"); }, A0, {repeat: true}); print("before"); digitalWrite(A0, 1); print("after");`,
    );
    board.advance(0);
    expect(board.consoleLog).toEqual(["before", "after", "watch"]);
  });

  it("refuses a second pin with the same number (B1 after A1) with a warning and undefined, like an STM32", () => {
    const board = boot(
      `var f = function () {}; var a = setWatch(f, A1, {repeat: true}); var b = setWatch(f, B1); var c = setWatch(f, A1);`,
    );
    expect(board.repl("[a, typeof b, c].join()")).toBe("1,undefined,2");
    expect(board.consoleLog.some((l) => l.startsWith("WARNING: Unable to set watch"))).toBe(true);
    expect(board.warnings.some((w) => w.includes("setWatch(B1) refused"))).toBe(true);
  });

  it("clears every watch with no argument, throws for undefined and for an unknown id", () => {
    const board = boot(`setWatch(function () {}, A5); setWatch(function () {}, A6);`);
    expect(() => board.repl("clearWatch(undefined)")).toThrow(/undefined/);
    expect(() => board.repl("clearWatch(7)")).toThrow("Unknown Watch");
    board.repl("clearWatch()");
    expect(board.watchCount).toBe(0);
  });
});

describe("timers", () => {
  it("numbers timers like the device and fires them on virtual time", () => {
    const board = boot(`var log = []; var a = setTimeout(function () { log.push("a" + getTime()); }, 25);
      var b = setInterval(function () { log.push("b" + getTime()); }, 10);`);
    expect(board.repl("a + ',' + b")).toBe("1,2");
    board.advance(30);
    expect(board.repl("log.join()")).toBe("b0.01,b0.02,a0.025,b0.03");
    expect(board.timersPending).toBe(1);
  });

  it("fires timers due at the same time in the order they were set, with their extra arguments", () => {
    const board =
      boot(`var log = []; setTimeout(function (x) { log.push(x); }, 5, "one"); setTimeout(function (x, y) { log.push(x + y); }, 5, "tw", "o");
      setTimeout("log.push('three')", 5);`);
    board.advance(5);
    expect(board.repl("log.join()")).toBe("one,two,three");
  });

  it("clears all timers with no argument and throws for undefined or an unknown id", () => {
    const board = boot(`var n = 0; var t = setTimeout(function () {}, 5); setInterval(function () { n++; }, 10);`);
    board.advance(6);
    expect(() => board.repl("clearTimeout(t)")).toThrow("Unknown Timeout");
    expect(() => board.repl("clearInterval(undefined)")).toThrow(/undefined/);
    board.repl("clearInterval()");
    board.advance(100);
    expect(board.repl("n")).toBe(0);
    expect(board.timersPending).toBe(0);
  });

  it("changes an interval's period from now", () => {
    const board = boot(`var times = []; var id = setInterval(function () { times.push(getTime()); }, 100);`);
    board.advance(150);
    board.repl("changeInterval(id, 20)");
    board.advance(45);
    expect(board.repl("times.join()")).toBe("0.1,0.17,0.19");
  });

  it("restarts getTime at power-on while board.now keeps counting", () => {
    const board = boot("");
    board.advance(500);
    board.powerCycle();
    board.advance(20);
    expect(board.repl("getTime()")).toBeCloseTo(0.02, 9);
    expect(board.now).toBe(520);
    expect(board.uptime).toBe(20);
  });
});
