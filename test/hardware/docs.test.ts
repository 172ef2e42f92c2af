/**
 * The hardware docs are generated from the profiles (hardware/gen-docs.ts): the committed files must be exactly what
 * the profiles produce, and what they say must follow from the profile.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { generateAll, HARDWARE_DIR, pinUses, staleFiles } from "../../hardware/gen-docs.ts";
import {
  keyList,
  ledCount,
  ledSettleMs,
  listProfiles,
  loadProfile,
  profileFile,
  USB_ONLY_LED_BUDGET_MA,
  validateProfile,
  type Profile,
} from "../../hardware/profile.ts";
import { netlist } from "../../hardware/kicad/netlist.ts";
import { PICO_PINS } from "../../hardware/kicad/pico-pins.ts";
import { sleepDrain, SLEEP, softStart, SOFT_START, USB_ONLY, usbOnlyBudget } from "../../hardware/kicad/power.ts";
import { libSymbol } from "../../hardware/kicad/symbols.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { ROOT } from "../../firmware/tools/build.ts";

describe("the generated hardware docs", () => {
  it("are committed exactly as the profiles produce them", async () => {
    const files = await generateAll();
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([...listProfiles().map((id) => `wiring-${id}.md`), "README.md"]));
    expect(staleFiles(files)).toEqual([]);
  });

  it("gen-docs --check exits 0 on the committed files", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "hardware/gen-docs.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/hardware docs match the profiles \(\d+ files\)/);
  });

  it("staleFiles names a file whose content differs", async () => {
    const files = await generateAll();
    const changed = files.map((f) => (f.path === "README.md" ? { ...f, content: f.content + "extra\n" } : f));
    expect(staleFiles(changed)).toEqual(["README.md"]);
  });
});

describe("what the docs say follows from the profile", () => {
  it("the README's parts list counts the handheld board's LEDs and keys from its profile", () => {
    const p = loadProfile("handheld-pico");
    const readme = readFileSync(HARDWARE_DIR + "README.md", "utf8");
    expect(readme).toMatch(new RegExp(`^\\| LED1-LED${ledCount(p)} +\\| ${ledCount(p)} +\\|`, "m"));
    expect(readme).toMatch(new RegExp(`^\\| SW1-SW${keyList(p).length} +\\| ${keyList(p).length} +\\|`, "m"));
  });

  it.each(listProfiles())("%s: every used pin appears once in the pin table", (id) => {
    const p = loadProfile(id);
    const uses = pinUses(p);
    expect(uses.map((u) => u.pin).sort()).toEqual([...BOARDS[p.board].pins].sort());
    const md = readFileSync(HARDWARE_DIR + `wiring-${id}.md`, "utf8");
    for (const u of uses.filter((x) => x.group !== "free" && x.group !== "console"))
      expect(md).toMatch(new RegExp(`^\\| ${u.pin} +\\| ${u.function.replace(/[()]/g, "\\$&")}`, "m"));
  });

  it("R1's LED data pin says SPI2 MOSI, level shifter and series resistor", () => {
    const led = pinUses(loadProfile("r1-pico")).find((u) => u.group === "led")!;
    expect(led.pin).toBe("B15");
    expect(led.function).toBe("LED data (SPI2 MOSI)");
    expect(led.notes).toMatch(/level shifter .* 330 Ω series resistor/);
  });
});

describe("the power design follows the profile's battery choice, with Espruino's pin names", () => {
  const r1 = loadProfile("r1-pico");
  const usbOnly = loadProfile("mini-pico");
  const part = (p: Profile, ref: string) => netlist(p).parts.find((x) => x.ref === ref);

  it("a battery build feeds the Pico's BAT_IN from the boost's 5V, leaves the Pico's VBAT pin unconnected, and switches the boost's EN", () => {
    const pico = part(r1, "U1")!;
    expect(pico.pins.BAT_IN).toBe("+5V");
    expect(pico.pins.VBAT).toBeNull();
    const boost = part(r1, "U3")!;
    expect(boost.pins["5V"]).toBe("+5V");
    expect(boost.pins.BAT).toBe("VCELL");
    const sw = netlist(r1).parts.find((x) => x.symbol === "Switch:SW_SPDT")!;
    expect(Object.values(sw.pins)).toEqual(expect.arrayContaining([boost.pins.EN, "GND"]));
  });

  it("a USB-only build runs from the Pico's VBAT pin, with no charger, cell or divider", () => {
    const pico = part(usbOnly, "U1")!;
    expect(pico.pins.VBAT).toBe("+5V");
    expect(pico.pins.BAT_IN).toBeNull();
    const nets = netlist(usbOnly).parts.flatMap((x) => Object.values(x.pins));
    expect(nets).not.toContain("VCELL");
    expect(part(usbOnly, "U3")).toBeUndefined();
    expect(netlist(usbOnly).offBoard.map((x) => x.ref)).not.toContain("BT1");
  });

  it("refuses a USB-only profile whose LED budget the Pico's USB fuse cannot carry", () => {
    const data = JSON.parse(JSON.stringify(profileFile(r1))) as { battery: unknown; leds: { budgetMa: number } };
    data.battery = { kind: "none" };
    expect(validateProfile(data)).toEqual([
      expect.stringMatching(/^leds\.budgetMa: 400 mA is more than a USB-only build may give its LEDs \(300 mA\)/),
    ]);
    data.leds.budgetMa = USB_ONLY_LED_BUDGET_MA;
    expect(validateProfile(data)).toEqual([]);
    expect(usbOnlyBudget(usbOnly).totalMa).toBeLessThan(0.8 * USB_ONLY.fuseHoldMa);
  });

  it("slew-limits the LED rail with a gate-drain capacitor: a ramp of milliseconds, an inrush under 400 mA, settled within the schema's 100 ms", () => {
    const cap = netlist(r1).parts.find((x) => x.symbol === "Device:C" && Object.values(x.pins).sort().join() === "+5V_LED,LED_GATE");
    expect(cap?.value).toBe(SOFT_START.cGd.value);
    const st = softStart(r1);
    expect(st.riseMs[0]).toBeGreaterThanOrEqual(3);
    expect(Math.max(...st.inrushMa)).toBeLessThan(400);
    expect(st.settleMs).toBeLessThanOrEqual(100);
    expect(st.powerUpVgs).toBeLessThan(SOFT_START.vthMinV);
  });

  it("every profile with an LED switch waits at least the switch's worst-case settle before its first frame", () => {
    for (const id of listProfiles()) {
      const p = loadProfile(id);
      if (p.leds.powerPin === undefined) continue;
      expect(ledSettleMs(p), id).toBeGreaterThanOrEqual(softStart(p).settleMs);
    }
  });

  it("writes down how long a sleeping, switched-on unit lasts on its cell", () => {
    const sleep = sleepDrain(r1)!;
    expect(sleep.days).toBe(Math.floor(SLEEP.cellMah / sleep.totalMa / 24));
    expect(readFileSync(HARDWARE_DIR + "README.md", "utf8")).toContain(`flat after about **${sleep.days} days**`);
    expect(sleepDrain(usbOnly)).toBeUndefined();
  });

  it("names the Pico's pins as Espruino does, in the schematic's symbol and the docs (no VCC pin)", () => {
    const pins = libSymbol("Brainboard:Espruino_Pico").pins.map((x) => x.name);
    expect(pins.sort()).toEqual(PICO_PINS.map((x) => x.name).sort());
    expect(pins).toEqual(expect.arrayContaining(["VBAT", "BAT_IN", "3.3", "GND", "B15"]));
    for (const f of ["README.md", ...listProfiles().map((id) => `wiring-${id}.md`)])
      expect(readFileSync(HARDWARE_DIR + f, "utf8"), f).not.toMatch(/\bVCC\b/);
  });
});
