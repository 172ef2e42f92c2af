/**
 * Hardware profiles: every profile in hardware/profiles/ is valid and builds under the bundle bound; a bad profile is
 * refused with one `<field path>: <reason>` per problem, from the schema (shape) or the semantic checks (meaning).
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkProfile,
  fieldPath,
  ledCount,
  listProfiles,
  loadProfile,
  ProfileError,
  profileFile,
  SCHEMA_PATH,
  SEGMENT_NAMES,
  USB_ONLY_LED_BUDGET_MA,
  type Profile,
} from "../../hardware/profile.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { buildFirmware, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";

/** A fresh, editable copy of a shipped profile. */
function profile(id = "r1-pico"): Profile {
  return structuredClone(loadProfile(id));
}

/** The problems checkProfile reports for the profile after `change`, or [] when it accepts it. */
function problemsAfter(change: (p: Profile) => void, id = "r1-pico"): string[] {
  const p = profile(id);
  change(p);
  try {
    checkProfile(profileFile(p));
    return [];
  } catch (e) {
    if (e instanceof ProfileError) return e.problems;
    throw e;
  }
}

describe("the shipped profiles", () => {
  const ids = listProfiles();

  it("include the reference unit, the mini build and the ESP32 build", () => {
    expect(ids).toEqual(expect.arrayContaining(["r1-pico", "mini-pico", "r1-esp32"]));
  });

  it.each(ids)("%s passes the schema and the semantic checks, and its id is its file name", (id) => {
    expect(loadProfile(id).id).toBe(id);
  });

  it("the mini build has 4 pegs x 10 rows, one 6x6 pad and no codemaker pad or shielded secret", () => {
    const p = loadProfile("mini-pico");
    expect([p.pegs, p.rows]).toEqual([4, 10]);
    expect(p.keys.matrices.map((m) => [m.rows.length, m.colPins.length])).toEqual([[6, 6]]);
    expect(p.keymap.maker).toBeUndefined();
    expect(p.leds.segments.some((s) => s.name === "secret" && s.shielded)).toBe(false);
  });

  it.each(ids)("%s builds into a bundle whose stored image is within its bound", async (id) => {
    const dir = mkdtempSync(join(tmpdir(), "brainboard-build-"));
    try {
      const r = await buildFirmware({ profile: id, out: join(dir, "firmware.js") });
      expect(r.imageBytes).toBeLessThanOrEqual(STORED_BOUND_BYTES);
      // The profile's LED count is compiled in (the id is not: the firmware never reads it).
      expect(r.code).toContain(`:${ledCount(loadProfile(id))},`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a bad profile is refused with the field and the reason", () => {
  it("a missing field", () => {
    expect(problemsAfter((p) => delete (p.leds as Partial<Profile["leds"]>).budgetMa)).toEqual(["leds.budgetMa: is required but missing"]);
  });

  it("a field of the wrong type", () => {
    expect(problemsAfter((p) => ((p as unknown as { pegs: string }).pegs = "5"))).toEqual(['pegs: must be a whole number (got "5")']);
    expect(problemsAfter((p) => ((p.keys as unknown as { diodes: string }).diodes = "yes"))).toEqual([
      'keys.diodes: must be of type boolean (got "yes")',
    ]);
  });

  it("a field the format does not have, deep in an array", () => {
    expect(problemsAfter((p) => ((p.leds.segments[2] as unknown as { colour: string }).colour = "red"))).toEqual([
      "leds.segments[2].colour: is not a field here (fields: name, count, rows, cols, shielded, about)",
    ]);
  });

  it("a segment name outside the enum and a malformed pin name", () => {
    expect(
      problemsAfter((p) => {
        (p.leds.segments[5] as unknown as { name: string }).name = "lamp";
        p.keys.rowPins[1] = "PB14";
      }),
    ).toEqual([
      'leds.segments[5].name: must be one of "board", "keys", "secret", "pad", "track", "status" (got "lamp")',
      'keys.rowPins[1]: "PB14" is not a pin name such as B15 (STM32 port and number) or D13 (ESP32 GPIO)',
    ]);
  });

  it("an LED pin without SPI MOSI", () => {
    const problems = problemsAfter((p) => {
      p.buzzer = { pin: "B15" };
      p.leds.pin = "A8";
    });
    expect(problems).toEqual(["leds.pin: A8 has no SPI MOSI function; neopixel.write needs one of B15, B5, A7"]);
  });

  it("a pin used twice", () => {
    expect(problemsAfter((p) => (p.buzzer = { pin: "B13" }))).toEqual(["buzzer.pin: B13 is already used by keys.rowPins[0]"]);
  });

  it("two column pins with the same pin number on the Pico", () => {
    const problems = problemsAfter((p) => {
      p.battery!.pin = "A2";
      p.keys.matrices[1].colPins[2] = "B1";
    });
    expect(problems).toEqual([
      "keys.matrices[1].colPins[2]: B1 has the same pin number as A1; the Espruino Pico can watch only one pin per number, and every column must be watched to wake the unit",
    ]);
  });

  it("a board segment that is not rows x pegs", () => {
    const problems = problemsAfter((p) => {
      p.leds.segments[0].rows = 10;
      p.leds.segments[0].count = 50;
    });
    expect(problems).toEqual(["leds.segments[0]: the board segment must be 12 rows x 5 cols (rows x pegs), not 10 x 5"]);
  });

  it("a key without a legend", () => {
    expect(problemsAfter((p) => delete p.keys.legends.m33)).toEqual(['keys.legends.m33: key "m33" has no legend']);
  });

  it("a keymap naming an unknown key", () => {
    expect(
      problemsAfter((p) => {
        p.keymap.maker!.ok = "m99";
        p.keymap.grid[35] = "zz";
      }),
    ).toEqual(['keymap.grid[35]: "zz" is not a key of keys.matrices', 'keymap.maker.ok: "m99" is not a key of keys.matrices']);
  });

  it("an unknown board", () => {
    expect(problemsAfter((p) => (p.board = "arduino"))).toEqual([
      `board: unknown board "arduino" (known: ${Object.keys(BOARDS).join(", ")})`,
    ]);
  });

  it("a pin of another board", () => {
    expect(problemsAfter((p) => (p.buzzer = { pin: "D13" }))[0]).toMatch(/^buzzer\.pin: D13 is not a GPIO pin of the Espruino Pico/);
  });

  it("the serial console's pins", () => {
    expect(problemsAfter((p) => (p.buzzer = { pin: "B6" }))).toEqual([
      "buzzer.pin: B6 is the Espruino Pico's serial console; keep it free",
    ]);
  });

  it("an ESP32 column on an input-only pin, which has no pull-up", () => {
    const problems = problemsAfter((p) => {
      p.battery!.pin = "D33";
      p.keys.matrices[1].colPins[3] = "D34";
    }, "r1-esp32");
    expect(problems).toEqual(["keys.matrices[1].colPins[3]: D34 is input only on the ESP32 DevKitC (no output, no pull-up)"]);
  });

  it("an ESP32 column on a pin that cannot be watched", () => {
    const problems = problemsAfter((p) => {
      p.buzzer!.pin = "D0";
      p.keys.matrices[1].colPins[3] = "D12";
    }, "r1-esp32");
    expect(problems).toEqual(["keys.matrices[1].colPins[3]: D12 cannot be watched in deep sleep on the ESP32 DevKitC"]);
  });

  it("a battery: kind none takes no divider fields, a divider needs all of them, and an ESP32 divider needs its ADC full scale", () => {
    expect(problemsAfter((p) => Object.assign(p, { battery: { kind: "none", pin: "B1" } }), "mini-pico")).toEqual([
      'battery: kind "none" (USB only) takes no other fields (got pin)',
    ]);
    expect(problemsAfter((p) => Object.assign(p, { battery: { kind: "divider", pin: "B1", dividerRatio: 2 } }))).toEqual([
      'battery: kind "divider" needs fullV, lowV, emptyV',
    ]);
    expect(problemsAfter((p) => delete p.battery!.adcFullScaleV, "r1-esp32")).toEqual([
      "battery.adcFullScaleV: the ESP32 DevKitC has no E.getAnalogVRef(), so give the ADC's full scale in volts (ESP32: 3.9 at Espruino's 11 dB attenuation)",
    ]);
    expect(problemsAfter((p) => Object.assign(p, { battery: { kind: "solar" } }))).toEqual([
      expect.stringMatching(/^battery\.kind: must be one of "none", "divider"/),
    ]);
  });

  it("a profile file without a battery is refused: USB only must be said (battery kind none)", () => {
    const p = profile() as Partial<Profile>;
    delete p.battery;
    p.leds!.budgetMa = USB_ONLY_LED_BUDGET_MA; // what a USB-only build may give its LEDs
    expect(() => checkProfile(p)).toThrow(/battery: is required but missing/);
    expect(checkProfile(profileFile(p as Profile)).battery).toBeUndefined();
  });

  it("loadProfile refuses a bad file with the same messages, and names the profiles when one is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "brainboard-profile-"));
    try {
      const p = profile();
      delete (p as Partial<Profile>).keymap;
      const file = join(dir, "broken.json");
      writeFileSync(file, JSON.stringify(p));
      expect(() => loadProfile(file)).toThrow(/keymap: is required but missing/);
      expect(() => loadProfile("no-such-unit")).toThrow(/no profile file at .*no-such-unit\.json \(profiles: .*r1-pico/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the build refuses a bad profile before bundling", async () => {
    const dir = mkdtempSync(join(tmpdir(), "brainboard-profile-"));
    try {
      const p = profile();
      p.leds.pin = "B3";
      const file = join(dir, "bad.json");
      writeFileSync(file, JSON.stringify(p));
      await expect(buildFirmware({ profile: file, out: join(dir, "firmware.js") })).rejects.toThrow(ProfileError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the schema", () => {
  it("names the same segments as hardware/profile.ts", () => {
    const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8"));
    expect(schema.$defs.segment.properties.name.enum).toEqual(SEGMENT_NAMES);
  });

  it("errors are located by field path, not JSON pointer", () => {
    expect(fieldPath("/leds/segments/2/count")).toBe("leds.segments[2].count");
    expect(fieldPath("/keys/matrices/0/keys/3/1")).toBe("keys.matrices[0].keys[3][1]");
    expect(fieldPath("/keys/legends/a~1b")).toBe("keys.legends.a/b");
    expect(fieldPath("", "pegs")).toBe("pegs");
    expect(fieldPath("")).toBe("(the profile)");
  });
});
