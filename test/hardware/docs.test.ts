/**
 * The hardware docs are generated from the profiles (hardware/gen-docs.ts): the committed files must be exactly what
 * the profiles produce, and what they say must follow from the profile.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { billOfMaterials, bomCsv, generateAll, HARDWARE_DIR, pinUses, staleFiles, wiringSvg } from "../../hardware/gen-docs.ts";
import { keyList, ledCount, listProfiles, loadProfile } from "../../hardware/profile.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { ROOT } from "../../firmware/tools/build.ts";

describe("the generated hardware docs", () => {
  it("are committed exactly as the profiles produce them", async () => {
    const files = await generateAll();
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining([...listProfiles().flatMap((id) => [`wiring-${id}.md`, `wiring-${id}.svg`]), "bom.csv", "README.md"]),
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
    expect(csv.split("\n")[0]).toBe("ref,qty,part,value/spec,note");
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
