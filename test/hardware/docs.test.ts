/**
 * The hardware docs are generated from the profiles (hardware/gen-docs.ts): the committed files must be exactly what
 * the profiles produce, and what they say must follow from the profile.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { billOfMaterials, bomCsv, generateAll, HARDWARE_DIR, pinUses, staleFiles, wiringSvg } from "../../hardware/gen-docs.ts";
import { endRowPins, enclosureSvg, layoutSvg, PRICES, schematicSvg, totalCost } from "../../hardware/design.ts";
import { keyList, ledCount, listProfiles, loadProfile } from "../../hardware/profile.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { ROOT } from "../../firmware/tools/build.ts";

describe("the generated hardware docs", () => {
  it("are committed exactly as the profiles produce them", async () => {
    const files = await generateAll();
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        ...listProfiles().flatMap((id) => [
          `wiring-${id}.md`,
          `wiring-${id}.svg`,
          `schematic-${id}.svg`,
          `layout-${id}.svg`,
          `enclosure-${id}.svg`,
        ]),
        "bom.csv",
        "README.md",
      ]),
    );
    expect(staleFiles(files)).toEqual([]);
  });

  it("gen-docs --check exits 0 on the committed files", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "hardware/gen-docs.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/hardware docs match the profiles \(\d+ files\)/);
  });

  it("staleFiles names a file whose content differs", async () => {
    const files = await generateAll();
    const changed = files.map((f) => (f.path === "bom.csv" ? { ...f, content: f.content + "extra\n" } : f));
    expect(staleFiles(changed)).toEqual(["bom.csv"]);
  });
});

describe("what the docs say follows from the profile", () => {
  it("bom.csv counts R1's LEDs and keys from its profile", () => {
    const p = loadProfile("r1-pico");
    const csv = readFileSync(HARDWARE_DIR + "bom.csv", "utf8");
    expect(csv).toBe(bomCsv(billOfMaterials(p)));
    expect(csv.split("\n")[0]).toBe("ref,qty,part,value/spec,note,unit_eur,total_eur");
    const qty = (part: string) => billOfMaterials(p).find((x) => x.part === part)!.qty;
    expect(qty("WS2812B")).toBe(ledCount(p));
    expect(ledCount(p)).toBe(193);
    expect(qty("key switch")).toBe(48);
    expect(qty("1N4148")).toBe(keyList(p).length);
  });

  it.each(listProfiles())("%s: every used pin appears once in the pin table, every board pin in the diagram", (id) => {
    const p = loadProfile(id);
    const uses = pinUses(p);
    expect(uses.map((u) => u.pin).sort()).toEqual([...BOARDS[p.board].pins].sort());
    const md = readFileSync(HARDWARE_DIR + `wiring-${id}.md`, "utf8");
    for (const u of uses.filter((x) => x.group !== "free" && x.group !== "console"))
      expect(md).toMatch(new RegExp(`^\\| ${u.pin} +\\| ${u.function.replace(/[()]/g, "\\$&")}`, "m"));
    const svg = wiringSvg(p);
    for (const pin of BOARDS[p.board].pins) expect(svg).toContain(`>${pin}</text>`);
    for (const s of p.leds.segments) expect(svg).toContain(`. ${s.name}</text>`);
  });

  it("R1's LED data pin says SPI2 MOSI, level shifter and series resistor", () => {
    const led = pinUses(loadProfile("r1-pico")).find((u) => u.group === "led")!;
    expect(led.pin).toBe("B15");
    expect(led.function).toBe("LED data (SPI2 MOSI)");
    expect(led.notes).toMatch(/level shifter .* 330 Ω series resistor/);
  });
});

describe("the power design and the drawings follow the profile's battery choice (issue 17)", () => {
  const r1 = loadProfile("r1-pico");
  const usbOnly = loadProfile("mini-pico");

  it("a battery build feeds the Pico's BAT_IN from the charger's 5 V, leaves VCC unconnected and has a power switch", () => {
    const parts = billOfMaterials(r1);
    expect(parts.map((x) => x.ref)).toEqual(expect.arrayContaining(["U3", "BT1", "SW_PWR", "F1"]));
    const svg = schematicSvg(r1);
    expect(svg).toMatch(/>BAT_IN<\/text>[\s\S]*?>\+5V<\/text>/);
    expect(svg).toMatch(/>VCC<\/text>[\s\S]*?>\(n\.c\.\)<\/text>/);
    expect(svg).toContain(">EN</text>");
  });

  it("a USB-only build runs from the Pico's VCC, with no charger, cell, switch or divider", () => {
    const refs = billOfMaterials(usbOnly).map((x) => x.ref);
    for (const r of ["U3", "BT1", "SW_PWR"]) expect(refs).not.toContain(r);
    expect(billOfMaterials(usbOnly).some((x) => /divider/.test(x.note))).toBe(false);
    const svg = schematicSvg(usbOnly);
    expect(svg).toMatch(/>BAT_IN<\/text>[\s\S]*?>\(n\.c\.\)<\/text>/);
    expect(svg).toContain("USB-only build");
  });

  it("the LED switch has its soft start, the driver's pull-down, the pinouts, the flyback diode and 100 nF per LED", () => {
    const parts = billOfMaterials(r1);
    const note = (re: RegExp) => parts.find((x) => re.test(x.note) || re.test(x.spec));
    expect(note(/soft start/)).toBeDefined();
    expect(note(/keeps the LEDs off while B9 floats/)?.spec).toBe("100 kΩ");
    expect(parts.find((x) => x.part.startsWith("NPN transistor 2N3904"))!.spec).toMatch(/E, B, C.*BC547 is C, B, E/);
    expect(parts.find((x) => x.part.startsWith("P-channel"))!.spec).toContain("pins: 1 gate, 2 source, 3 drain");
    expect(note(/coil kicks back/)?.part).toBe("1N4148");
    expect(parts.find((x) => x.note.startsWith("one per LED"))!.qty).toBe(ledCount(r1));
  });

  it("names the Pico's 0.05\" end row pins a build uses (R1: all eight)", () => {
    expect(endRowPins(r1)).toEqual(["A4", "A3", "A2", "A1", "A0", "A10", "B9", "B8"]);
    expect(billOfMaterials(r1).find((x) => x.ref === "J1")!.part).toContain('1.27 mm (0.05") pitch');
  });

  it("the BOM is costed: every line priced, the total the sum, with its currency and date", () => {
    const parts = billOfMaterials(r1);
    const csv = bomCsv(parts).trim().split("\n");
    expect(csv[csv.length - 1]).toBe(
      `,,total,"estimate, EUR, prices of ${PRICES.date}",one-off hobby-distributor prices; check before buying,,${totalCost(parts).toFixed(2)}`,
    );
    expect(totalCost(parts)).toBe(Math.round(parts.reduce((s, x) => s + x.qty * x.unit, 0)));
    expect(parts.every((x) => x.unit > 0)).toBe(true);
  });

  it.each(listProfiles())(
    "%s: the enclosure has a hole for every LED and a cut-out for every key, at 1:1 in mm; the layout places every LED",
    (id) => {
      const p = loadProfile(id);
      const enclosure = enclosureSvg(p);
      expect(enclosure).toMatch(/^<svg [^>]*width="[\d.]+mm" height="[\d.]+mm"/);
      const padKeys = keyList(p).filter((k) => k.matrix === "pad").length;
      expect((enclosure.match(/<circle /g) ?? []).length).toBe(ledCount(p) - padKeys); // the pad's LEDs shine through their keys
      expect((enclosure.match(/<rect [^>]*stroke="#000" stroke-width="0.25"/g) ?? []).length).toBe(keyList(p).length);
      const layout = layoutSvg(p);
      expect((layout.match(/fill="#fff8e0"/g) ?? []).length).toBe(ledCount(p));
    },
  );
});
