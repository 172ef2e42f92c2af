/**
 * The flash tool's port on each system, the platform injected (not by running there): Windows COM names (COM3, and
 * the device path \\.\COM3) are accepted as they are, with no device file to look for; macOS's /dev/cu.* and
 * /dev/tty.* are device files (tty.* with a warning: it waits for carrier detect); the messages name each system's ports.
 */
import { describe, expect, it } from "vitest";
import { checkPort, flash, FlashError, noPortMessage } from "../../firmware/tools/flash.ts";
import { parseTcp } from "../../firmware/tools/board-console.ts";

const withSerial = { hasModule: () => true, hasCommand: () => true };

function refusal(fn: () => unknown): FlashError {
  try {
    fn();
  } catch (e) {
    if (e instanceof FlashError) return e;
    throw e;
  }
  throw new Error("not refused");
}

describe("ports on Windows", () => {
  it("COM3, com4 and \\\\.\\COM12 are accepted, given to the CLI as COMn", () => {
    expect(checkPort("COM3", { ...withSerial, platform: "win32" })).toBe("COM3");
    expect(checkPort("com4", { ...withSerial, platform: "win32" })).toBe("COM4");
    expect(checkPort("\\\\.\\COM12", { ...withSerial, platform: "win32" })).toBe("COM12");
  });

  it("a name that is not a COM port is refused with what a Windows port looks like", () => {
    const e = refusal(() => checkPort("/dev/ttyACM0", { ...withSerial, platform: "win32" }));
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/COM3/);
    expect(e.message).toMatch(/Device Manager/);
  });

  it("a COM name on Linux or macOS is refused as a Windows name", () => {
    for (const platform of ["linux", "darwin"]) {
      const e = refusal(() => checkPort("COM3", { ...withSerial, platform }));
      expect(e.message).toMatch(/Windows port name/);
    }
  });
});

describe("ports on macOS", () => {
  it("a /dev/cu.* port that is not there is named as not found, and the message names macOS ports", () => {
    const e = refusal(() => checkPort("/dev/cu.usbmodem1101", { ...withSerial, platform: "darwin", devDir: "/nonexistent" }));
    expect(e.message).toMatch(/port \/dev\/cu\.usbmodem1101 not found/);
    expect(e.message).toMatch(/cu\.usb/);
  });

  it("a /dev/tty.* port gets a warning to use its /dev/cu.* twin", () => {
    const warned: string[] = [];
    refusal(() => checkPort("/dev/tty.usbmodem1101", { ...withSerial, platform: "darwin", warn: (t) => warned.push(t) }));
    expect(warned.join("")).toContain("/dev/cu.usbmodem1101");
  });

  it("with no --port, the message names Linux, macOS and Windows ports", () => {
    const m = noPortMessage("/nonexistent");
    expect(m).toMatch(/\/dev\/ttyACM/);
    expect(m).toMatch(/\/dev\/cu\.usbmodem/);
    expect(m).toMatch(/COM3/);
  });
});

describe("tcp:// ports", () => {
  it("an IPv6 address in brackets is a host; a port out of range is refused with a message, not a RangeError", async () => {
    expect(parseTcp("tcp://[::1]:4001")).toEqual({ host: "::1", port: 4001 });
    expect(parseTcp("tcp://127.0.0.1:4001/")).toEqual({ host: "127.0.0.1", port: 4001 });
    for (const bad of ["tcp://127.0.0.1:99999", "tcp://127.0.0.1:0"]) {
      const e = await flash({ port: bad, bundle: "x", out: () => {}, err: () => {} }).catch((x: unknown) => x);
      expect(e, bad).toBeInstanceOf(FlashError);
      expect((e as FlashError).exitCode).toBe(2);
      expect((e as FlashError).message).toMatch(/from 1 to 65535/);
    }
  });
});
