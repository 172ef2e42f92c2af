/**
 * The KiCad schematic and BOM of every Pico board, checked by KiCad itself: kicad-cli's ERC finds no error, and the
 * netlist KiCad reads out of the drawn schematic joins exactly the pins the profile says (the key matrices, the LED
 * chain, every pin the firmware drives) under the net names the PCB uses. Skips, saying so, without kicad-cli.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyList, ledCount, listProfiles, loadProfile, type Profile } from "../../hardware/profile.ts";
import { netlist } from "../../hardware/kicad/netlist.ts";
import { bomLines, caseHardware } from "../../hardware/kicad/bom.ts";
import { writeSchematic } from "../../hardware/kicad/schematic.ts";
import { pinNumber } from "../../hardware/kicad/symbols.ts";
import { children, parse, text } from "../../hardware/kicad/sexpr.ts";
import { HARDWARE_DIR } from "../../hardware/gen-docs.ts";

const KICAD_CLI = process.env.KICAD_CLI ?? "kicad-cli";
const hasKicad = spawnSync(KICAD_CLI, ["version"], { encoding: "utf8" }).status === 0;
if (!hasKicad) console.warn(`schematic.test: ${KICAD_CLI} not found (install KiCad 9 or set KICAD_CLI): ERC and netlist checks skipped`);

const boards = listProfiles().filter((id) => loadProfile(id).board === "pico");

interface Violation {
  type: string;
  severity: string;
  description: string;
}

/** The schematic of `p` written into a fresh KiCad project; returns the root sheet's path. */
function project(p: Profile): { dir: string; root: string } {
  const base = mkdtempSync(join(tmpdir(), "brainboard-sch-"));
  const dir = join(base, p.id);
  mkdirSync(dir);
  writeSchematic(p, dir);
  writeFileSync(join(dir, `${p.id}.kicad_pro`), JSON.stringify({ meta: { filename: `${p.id}.kicad_pro`, version: 3 } }));
  const pretty = join(HARDWARE_DIR, "kicad", "Brainboard.pretty");
  if (existsSync(pretty)) cpSync(pretty, join(base, "Brainboard.pretty"), { recursive: true });
  return { dir: base, root: join(dir, `${p.id}.kicad_sch`) };
}

function erc(root: string): Violation[] {
  const out = root.replace(/\.kicad_sch$/, ".erc.json");
  const r = spawnSync(KICAD_CLI, ["sch", "erc", "--format", "json", "--severity-all", "-o", out, root], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(out, "utf8")) as { sheets: { violations: Violation[] }[] };
  return report.sheets.flatMap((s) => s.violations);
}

/** KiCad's own netlist of the schematic: net name -> "REF.pin" members, and "REF.pin" -> net name. */
function kicadNets(root: string): { nets: Map<string, Set<string>>; netOf: Map<string, string> } {
  const out = root.replace(/\.kicad_sch$/, ".net");
  const r = spawnSync(KICAD_CLI, ["sch", "export", "netlist", "-o", out, root], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  const tree = parse(readFileSync(out, "utf8"));
  const nets = new Map<string, Set<string>>();
  const netOf = new Map<string, string>();
  for (const net of children(children(tree, "nets")[0], "net")) {
    const name = text(children(net, "name")[0][1]);
    const members = new Set<string>();
    for (const node of children(net, "node")) {
      const pin = `${text(children(node, "ref")[0][1])}.${text(children(node, "pin")[0][1])}`;
      members.add(pin);
      netOf.set(pin, name);
    }
    nets.set(name, members);
  }
  return { nets, netOf };
}

describe.skipIf(!hasKicad).each(boards)("the KiCad schematic of %s", (id) => {
  const p = loadProfile(id);
  const n = netlist(p);
  const { dir, root } = project(p);
  const { netOf } = kicadNets(root);

  it("passes KiCad's ERC with no error and no warning but the project's own footprints not drawn yet", () => {
    const violations = erc(root);
    expect(violations.filter((v) => v.severity === "error")).toEqual([]);
    const drawn = existsSync(join(HARDWARE_DIR, "kicad", "Brainboard.pretty"));
    const warnings = violations.filter(
      (v) => v.severity !== "error" && !(!drawn && v.type === "footprint_link_issues" && /'Brainboard'/.test(v.description)),
    );
    expect(warnings).toEqual([]);
  });

  it("puts every pin of every part on the netlist's net, under the same name (the PCB's)", () => {
    const wrong: string[] = [];
    for (const part of n.parts)
      for (const [pin, net] of Object.entries(part.pins)) {
        const got = netOf.get(`${part.ref}.${pin}`);
        if (net === null ? got && !got.startsWith("unconnected-") : got !== net) wrong.push(`${part.ref}.${pin}: ${got} (netlist: ${net})`);
      }
    expect(wrong).toEqual([]);
  });

  it("joins each key's switch to its column pin and its diode's cathode to its row pin, as the profile numbers them", () => {
    const cols = p.keys.matrices.flatMap((m) => m.colPins);
    const keys = keyList(p);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) {
      expect(netOf.get(`SW${k.index + 1}.1`), `key ${k.id}`).toBe(netOf.get(`U1.${cols[k.colLine]}`));
      expect(netOf.get(`D${k.index + 1}.1`), `key ${k.id}`).toBe(netOf.get(`U1.${p.keys.rowPins[k.rowLine]}`));
      expect(netOf.get(`SW${k.index + 1}.2`)).toBe(netOf.get(`D${k.index + 1}.2`));
    }
  });

  it("chains the LEDs in order from the data pin through the buffer, with a capacitor at every LED", () => {
    const count = ledCount(p);
    const led = n.parts.find((x) => x.ref === "LED1")!.symbol;
    const [din, dout, vdd, vss] = ["DIN", "DOUT", "VDD", "VSS"].map((name) => pinNumber(led, name));
    expect(netOf.get("U2.2")).toBe(netOf.get(`U1.${p.leds.pin}`));
    expect(netOf.get(`LED1.${din}`)).toBe(netOf.get("R1.2"));
    for (let i = 1; i < count; i++) expect(netOf.get(`LED${i}.${dout}`), `LED${i} DOUT`).toBe(netOf.get(`LED${i + 1}.${din}`));
    expect(netOf.has(`LED${count + 1}.${din}`)).toBe(false);
    for (let i = 1; i <= count; i++) {
      expect(netOf.get(`C${i}.1`)).toBe(netOf.get(`LED${i}.${vdd}`));
      expect(netOf.get(`C${i}.2`)).toBe("GND");
      expect(netOf.get(`LED${i}.${vss}`)).toBe("GND");
    }
  });

  it("connects every pin the firmware drives", () => {
    const pins = [
      p.leds.pin,
      p.leds.powerPin,
      ...p.keys.rowPins,
      ...p.keys.matrices.flatMap((m) => m.colPins),
      p.buzzer?.pin,
      p.battery?.pin,
    ];
    for (const pin of pins.filter((x): x is string => !!x))
      expect(netOf.get(`U1.${pin}`) ?? "unconnected-", pin).not.toMatch(/^unconnected-/);
  });

  it("lists every part with an MPN and a quantity in the BOM, the parts off the board included", () => {
    const lines = bomLines(n, caseHardware(p, n));
    for (const l of lines) {
      expect(l.mpn, l.refs.join(" ")).not.toBe("");
      expect(l.qty).toBeGreaterThan(0);
    }
    expect(lines.filter((l) => l.onBoard).reduce((s, l) => s + l.qty, 0)).toBe(n.parts.length);
    const qty = (value: string) => lines.find((l) => l.value === value)?.qty;
    expect(qty(n.parts.find((x) => x.ref === "LED1")!.value)).toBe(ledCount(p));
    expect(qty("1N4148W")).toBe(keyList(p).length + (p.buzzer ? 1 : 0));
    expect(lines.some((l) => !l.onBoard && /screw/.test(l.value))).toBe(true);
    if (p.battery) expect(lines.some((l) => l.refs.includes("BT1"))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
