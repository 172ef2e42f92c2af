import { describe, expect, it } from "vitest";
import { boot } from "./helpers.ts";

describe("running firmware", () => {
  it("runs the boot code, then E.on('init') handlers, then onInit()", () => {
    const board = boot(`print("boot"); E.on("init", function () { print("init"); }); function onInit() { print("onInit"); }`);
    expect(board.consoleLog).toEqual(["boot", "init", "onInit"]);
  });

  it("records an uncaught error like Espruino prints it, and keeps running", () => {
    const board = boot(`var ticks = 0; setInterval(function () { ticks++; }, 10);
      setTimeout(function () { throw new Error("boom"); }, 15); setTimeout(function () { throw "plain"; }, 16);`);
    board.advance(50);
    expect(board.errors).toEqual(["Uncaught Error: boom", 'Uncaught "plain"']);
    expect(board.consoleLog).toContain("Uncaught Error: boom");
    expect(board.repl("ticks")).toBe(5);
  });

  it("passes uncaught errors to process.on('uncaughtException') when there is a handler", () => {
    const board = boot(`var caught; process.on("uncaughtException", function (e) { caught = e.message; });
      setTimeout(function () { null.x; }, 1);`);
    board.advance(5);
    expect(board.errors).toEqual([]);
    expect(board.repl("caught")).toMatch(/null/);
  });

  it("runs promise callbacks after the current callback and before timers, and reports unhandled rejections", () => {
    const board = boot(`var log = []; setTimeout(function () { log.push("timeout"); }, 0);
      Promise.resolve(1).then(function (v) { log.push("then" + v); }); log.push("sync");
      Promise.reject(new Error("handled")).catch(function () {}); Promise.reject(new Error("nope"));`);
    board.advance(1);
    expect(board.repl("log.join()")).toBe("sync,then1,timeout");
    expect(board.errors).toEqual(["Uncaught Error: Unhandled promise rejection: Error: nope"]);
  });

  it("loses RAM, timers and watches on power-off, and boots again on power-on", () => {
    const board = boot(`var n = 0; setInterval(function () { n++; }, 10); setWatch(function () {}, A5, true);`);
    board.advance(100);
    expect(board.repl("n")).toBe(10);
    board.powerOff();
    expect([board.timersPending, board.watchCount, board.isOn]).toEqual([0, 0, false]);
    expect(() => board.repl("n")).toThrow(/not running/);
    board.advance(100);
    board.powerOn();
    board.advance(30);
    expect(board.repl("n")).toBe(3);
  });

  it("seeds Math.random with E.srand, and a board seed makes every run the same", () => {
    const board = boot("");
    expect(board.repl("E.srand(42); var a = Math.random(); E.srand(42); a === Math.random()")).toBe(true);
    const hw = (seed: number) => boot("", { seed }).repl("[E.hwRand(), Math.random()].join()");
    expect(hw(5)).toBe(hw(5));
    expect(hw(5)).not.toBe(hw(6));
  });

  it("reports memory in blocks with Espruino's cost model, including state kept in closures", () => {
    const small = boot(`(function () { var state = [1, 2]; setInterval(function () { state[0]++; }, 100); })();`);
    const big = boot(`(function () { var state = []; for (var i = 0; i < 500; i++) state.push(i + 0.5);
      setInterval(function () { state[0]++; }, 100); })();`);
    const used = (b: typeof small) => b.repl("process.memory().usage") as number;
    // 500 floats take a name block and a value block each.
    expect(used(big) - used(small)).toBeGreaterThanOrEqual(2 * 500 - 5);
    expect(small.repl("var m = process.memory(); m.total + m.blocksize * 0 === 5100 && m.free === m.total - m.usage")).toBe(true);
    expect(small.repl("[E.getSizeOf({a: 1, b: 2, c: 3}), E.getSizeOf([[1, 2, 3, 4], [5, 6, 7, 8]])].join()")).toBe("4,13");
  });

  it("counts a string that Storage.read gave as one block (the device maps the file), a copy of it in RAM by its length", () => {
    const board = boot("");
    board.repl(`require("Storage").write("big", "x".repeat(2000));`);
    expect(board.repl(`E.getSizeOf(require("Storage").read("big"))`)).toBe(1);
    expect(board.repl(`E.getSizeOf("y".repeat(2000))`)).toBeGreaterThan(150);
  });
});

describe("the watchdog", () => {
  it("resets the board at the deadline when a manual watchdog is not kicked", () => {
    const board = boot(`print("boot"); E.enableWatchdog(0.5, false);`);
    board.advance(499);
    expect(board.resets).toEqual([]);
    board.advance(2);
    expect(board.resets).toEqual([{ at: 500, reason: "watchdog" }]);
    expect(board.consoleLog).toEqual(["boot", "boot"]);
    expect(board.uptime).toBe(1);
  });

  it("keeps the board running while a manual watchdog is kicked in time", () => {
    const board = boot(`E.enableWatchdog(0.5, false); setInterval(function () { E.kickWatchdog(); }, 200);`);
    board.advance(5000);
    expect(board.resets).toEqual([]);
  });

  it("resets the board when a callback never returns with the watchdog on", () => {
    const board = boot(`E.enableWatchdog(1); setTimeout(function () { while (true) {} }, 10);`, { callbackTimeoutMs: 50 });
    board.advance(1009);
    expect(board.resets).toEqual([]);
    board.advance(2);
    expect(board.resets).toEqual([{ at: 1010, reason: "watchdog" }]);
  });

  it("records a callback that never returns as an error when there is no watchdog, and carries on", () => {
    const board = boot(
      `var n = 0; var hang = setInterval(function () { n++; if (n === 2) while (true) {} }, 10);
      var later = 0; setTimeout(function () { later = 1; }, 100);`,
      { callbackTimeoutMs: 50 },
    );
    board.advance(200);
    expect(board.errors.length).toBe(1);
    expect(board.errors[0]).toMatch(/^Execution Interrupted/);
    expect(board.repl("later + ',' + n + ',' + E.getErrorFlags().join()")).toBe("1,2,CALLBACK");
    expect(board.timersPending).toBe(0);
  });

  it("starves an automatic watchdog only in deep sleep off USB, when nothing wakes the board", () => {
    const sleeper = `E.enableWatchdog(1); setDeepSleep(1);`;
    const onUsb = boot(sleeper);
    onUsb.setBattery(4.1, true);
    onUsb.advance(5000);
    expect(onUsb.resets).toEqual([]);
    const onBattery = boot(sleeper);
    onBattery.advance(1001);
    expect(onBattery.resets.map((r) => r.reason)).toEqual(["watchdog"]);
    const woken = boot(`${sleeper} setInterval("", 900);`);
    woken.advance(5000);
    expect(woken.resets).toEqual([]);
  });
});
