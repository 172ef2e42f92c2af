import { describe, expect, it } from "vitest";
import { bootBoard, ExpectFailure, parseScript, runCommands, SCRIPT_BOOT_MS } from "../../sim/play/script.ts";
import { firmware, script } from "./helpers.ts";

const board = () => bootBoard({ firmware: firmware() });

describe("runCommands on the real bundle", () => {
  it("plays sim/scripts/brainiac-game.txt to the end with every expect holding", () => {
    const b = board();
    const shows: number[] = [];
    runCommands(b, parseScript(script("brainiac-game.txt"), b.profile), (cmd) => shows.push(cmd.line));
    expect(shows).toHaveLength(1);
    expect(b.errors).toEqual([]);
  });

  it("reaches the position of sim/scripts/mid-game.txt with its expects holding", () => {
    const b = board();
    runCommands(b, parseScript(script("mid-game.txt"), b.profile));
    expect(b.colours("board").slice(0, 4)).toEqual(["red", "red", "green", "green"]);
    expect(b.errors).toEqual([]);
  });

  it("stops at a failed expect, naming its line and what the LEDs showed", () => {
    const b = board();
    const cmds = parseScript("tap ok\nwait 200\nexpect board row 1 red\ntap ok", b.profile);
    let failure: ExpectFailure | undefined;
    const before = b.now;
    try {
      runCommands(b, cmds);
    } catch (e) {
      failure = e as ExpectFailure;
    }
    expect(failure).toBeInstanceOf(ExpectFailure);
    expect(failure!.line).toBe(3);
    expect(failure!.message).toMatch(/^line 3: expected board row 1 to be red, saw \S+ \(board\[0\] is \S+, not red; at [\d.]+ s\)$/);
    expect(failure!.seen).toHaveLength(1);
    // The tap after the failed expect did not run: time stopped after the wait.
    expect(b.now - before).toBe(60 + 60 + 200);
  });

  it("presses and releases keys, waits, switches power and sets the battery", () => {
    const b = board();
    const t0 = b.now;
    expect(t0).toBe(SCRIPT_BOOT_MS);
    runCommands(b, parseScript("press menu\nwait 1.5s", b.profile));
    expect(b.isPressed("p61")).toBe(true);
    expect(b.now - t0).toBe(1500);
    runCommands(b, parseScript("release menu\ntap p11 p12 hold 100", b.profile));
    expect(b.isPressed("p61")).toBe(false);
    expect(b.now - t0).toBe(1500 + 2 * (100 + 60));
    runCommands(b, parseScript("battery 3.5 usb", b.profile));
    expect(b.battery).toEqual({ volts: 3.5, usb: true });
    runCommands(b, parseScript("battery 3.9", b.profile));
    expect(b.battery).toEqual({ volts: 3.9, usb: false });
    runCommands(b, parseScript("power off", b.profile));
    expect(b.isOn).toBe(false);
    expect(b.colours("pad").every((c) => c === "off")).toBe(true);
    runCommands(b, parseScript("power on\nwait 200", b.profile));
    expect(b.isOn).toBe(true);
    const resets = b.resets.length;
    runCommands(b, parseScript("power cycle\nwait 200", b.profile));
    expect(b.isOn).toBe(true);
    expect(b.resets.length).toBe(resets); // a power cycle is not a reset: RAM is lost, no reset is logged
    expect(b.errors).toEqual([]);
  });

  it("accepts alternatives and wildcards in expect", () => {
    const b = board();
    runCommands(b, parseScript("expect pad[35] green/off\nexpect board row 1 * * * * *\nexpect track[0] any", b.profile));
  });
});
