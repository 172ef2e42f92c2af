/**
 * Issue 17: the battery is a profile choice the firmware honours. A USB-only build (battery kind "none") never reads
 * a battery and never sleeps for one; a divider build warns when low and sleeps when empty; the ESP32 build reads its
 * ADC at the profile's full scale (11 dB: 3.9 V) and never calls E.getAnalogVRef, which there only prints an error.
 * Each on its own bundle, built from the profile, on the virtual board.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { loadProfile, profilePath, USB_ONLY_LED_BUDGET_MA } from "../../hardware/profile.ts";
import { VirtualBoard } from "../../sim/board/board.ts";

const dir = mkdtempSync(join(tmpdir(), "bb-battery-"));
/** R1 wired for USB only: the same profile with battery kind "none". */
const usbOnlyPath = join(dir, "r1-pico-usb.json");
const bundles: Record<string, string> = {};

beforeAll(async () => {
  const r1 = JSON.parse(readFileSync(profilePath("r1-pico"), "utf8"));
  // USB only: the LEDs' budget lowered to what the Pico's USB fuse carries (the profile check refuses more).
  const leds = { ...r1.leds, budgetMa: USB_ONLY_LED_BUDGET_MA };
  writeFileSync(usbOnlyPath, JSON.stringify({ ...r1, $schema: undefined, id: "r1-pico-usb", leds, battery: { kind: "none" } }));
  for (const [name, profile] of [
    ["usb", usbOnlyPath],
    ["pico", "r1-pico"],
    ["esp32", "r1-esp32"],
  ])
    bundles[name] = (await buildFirmware({ profile, out: join(dir, `${name}.js`) })).code;
}, 120_000);

function boot(name: string, profile: string): VirtualBoard {
  const board = new VirtualBoard({ profile, firmware: bundles[name] });
  board.powerOn();
  board.advance(200);
  return board;
}

/** The colours status LED 2 (alerts) shows over one blink period. */
function alertOver(board: VirtualBoard): Set<string> {
  const seen = new Set<string>();
  for (let t = 0; t < 600; t += 50) {
    seen.add(board.colours("status")[1]);
    board.advance(50);
  }
  return seen;
}

/** Taps a menu key every 20 s for `ms`: the unit is in use, so only a battery decision could put it to sleep. */
function useFor(board: VirtualBoard, ms: number): void {
  for (let t = 0; t < ms; t += 20_000) {
    board.tap("p12");
    board.advance(20_000);
  }
}

describe("a USB-only build (battery kind none)", () => {
  it("compiles no battery into the firmware, and its board model is on USB with no cell to set", () => {
    const board = boot("usb", usbOnlyPath);
    expect(loadProfile(usbOnlyPath).battery).toBeUndefined();
    expect(board.battery).toEqual({ volts: 0, usb: true });
    expect(() => board.setBattery(3.7)).toThrow(/has no battery .* USB only/);
  });

  it("never sleeps for an empty cell and never warns: in use for 3 minutes it stays awake and lit", () => {
    const board = boot("usb", usbOnlyPath);
    useFor(board, 3 * 60_000);
    expect(board.ledsPowered).toBe(true);
    expect(board.deepSleep).toBe(false);
    expect(alertOver(board)).toEqual(new Set(["off"]));
    expect(board.errors).toEqual([]);
  });
});

describe("a divider build on the Pico (the ADC's full scale is the supply, from E.getAnalogVRef)", () => {
  const R1 = loadProfile("r1-pico");

  it("a full cell keeps the unit awake without an alert; a low one warns; an empty one puts it to sleep", () => {
    const board = boot("pico", "r1-pico");
    board.setBattery(R1.battery!.fullV);
    useFor(board, 60_000);
    expect(alertOver(board)).toEqual(new Set(["off"]));
    board.setBattery(R1.battery!.lowV - 0.05);
    useFor(board, 40_000);
    expect(alertOver(board)).toEqual(new Set(["orange", "off"]));
    board.setBattery(R1.battery!.emptyV - 0.1);
    board.advance(31_000);
    expect(board.ledsPowered).toBe(false);
  });
});

describe("the ESP32 build (ADC at 11 dB: 3.9 V full scale, from the profile)", () => {
  const ESP = loadProfile("r1-esp32");

  it("the profile carries the attenuation and full scale as data", () => {
    expect(ESP.battery).toMatchObject({ adcFullScaleV: 3.9, adcAttenuationDb: 11 });
  });

  it("the simulated ESP32, like the board, prints an error and returns NaN for E.getAnalogVRef (so the test below can fail)", () => {
    const board = new VirtualBoard({ profile: "r1-esp32", firmware: "print(isNaN(E.getAnalogVRef()));", tables: false });
    board.powerOn();
    expect(board.consoleLog).toEqual(["ERROR: getAnalogVRef is not implemented on ESP32", "true"]);
  });

  it("reads a 3.9 V cell as healthy (at an assumed 3.3 V scale it would read 3.3 V, empty) and prints no getAnalogVRef error", () => {
    const board = boot("esp32", "r1-esp32");
    board.setBattery(3.9);
    useFor(board, 2 * 60_000);
    expect(board.ledsPowered).toBe(true);
    expect(alertOver(board)).toEqual(new Set(["off"]));
    expect(board.consoleLog.filter((l) => /getAnalogVRef|ERROR/.test(l))).toEqual([]);
  });

  it("warns at the profile's low voltage, read at the right scale", () => {
    const board = boot("esp32", "r1-esp32");
    board.setBattery(ESP.battery!.lowV - 0.05);
    useFor(board, 40_000);
    expect(alertOver(board)).toEqual(new Set(["orange", "off"]));
    board.setBattery(ESP.battery!.lowV + 0.1);
    useFor(board, 40_000);
    expect(alertOver(board)).toEqual(new Set(["off"]));
  });
});
