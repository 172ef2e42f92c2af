/**
 * The KiCad boards: committed files current (npm run pcb -- --check), KiCad's own DRC with schematic parity clean,
 * and the handheld board within 190 x 130 mm. KiCad's checks need KiCad 9 (kicad-cli); without it they skip and say
 * so. The placement's own checks need no KiCad.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadProfile } from "../../hardware/profile.ts";
import { netlist } from "../../hardware/kicad/netlist.ts";
import { placement } from "../../hardware/kicad/placement.ts";
import { BOARD_PROFILES, hasKicad, KICAD_DIR } from "../../hardware/kicad/main.ts";
import { child, children, parse, text } from "../../hardware/kicad/sexpr.ts";

const KICAD = hasKicad();
if (!KICAD) console.warn("test/hardware/kicad: skipping KiCad's checks: kicad-cli (KiCad 9) is not installed");

interface DrcReport {
  violations: { severity: string; type: string; description: string }[];
  unconnected_items: unknown[];
  schematic_parity: { type: string; description: string }[];
}

function drc(id: string): DrcReport {
  const out = join(mkdtempSync(join(tmpdir(), "bb-drc-")), "drc.json");
  const pcb = join(KICAD_DIR, id, `${id}.kicad_pcb`);
  execFileSync("kicad-cli", ["pcb", "drc", "--schematic-parity", "--format", "json", "--severity-error", "-o", out, pcb], {
    stdio: "ignore",
  });
  return JSON.parse(readFileSync(out, "utf8")) as DrcReport;
}

/** The extent of the board's Edge.Cuts drawing, mm. */
function outlineExtent(pcbText: string): { w: number; h: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const item of parse(pcbText) as unknown[])
    if (Array.isArray(item) && /^gr_/.test(String(item[0])) && text(child(item, "layer")?.[1]) === "Edge.Cuts")
      for (const k of ["start", "end", "mid"]) {
        const pt = child(item, k);
        if (pt) {
          xs.push(Number(pt[1]));
          ys.push(Number(pt[2]));
        }
      }
  return { w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
}

describe("the handheld board's placement", () => {
  const p = loadProfile("handheld-pico");
  const n = netlist(p);
  const pl = placement(p, n);

  it("places every part of the netlist once, inside the 190 x 130 mm outline", () => {
    const refs = [...pl.leds, ...pl.keys, ...pl.parts].map((x) => x.ref).sort();
    expect(refs).toEqual(n.parts.map((x) => x.ref).sort());
    expect(pl.outline.width).toBeLessThanOrEqual(190);
    expect(pl.outline.height).toBeLessThanOrEqual(130);
    for (const x of [...pl.leds, ...pl.keys, ...pl.parts]) {
      expect(x.x - x.body.w / 2, x.ref).toBeGreaterThanOrEqual(0);
      expect(x.y - x.body.h / 2, x.ref).toBeGreaterThanOrEqual(0);
      // The Pico's USB tongue alone goes over the edge, by the overhang the case leaves room for.
      expect(x.x + x.body.w / 2, x.ref).toBeLessThanOrEqual(pl.outline.width + (x.ref === pl.usb.ref ? pl.usb.overhang : 0) + 0.01);
      expect(x.y + x.body.h / 2, x.ref).toBeLessThanOrEqual(pl.outline.height + 0.01);
    }
  });

  it("chains the LEDs in the profile's segment order and keys every key with its diode", () => {
    expect(pl.leds.map((l) => l.chain)).toEqual(pl.leds.map((_, i) => i + 1));
    expect(pl.leds.map((l) => l.segment)).toEqual(p.leds.segments.flatMap((s) => Array<string>(s.count).fill(s.name)));
    expect(pl.keys).toHaveLength(48);
    expect(new Set(pl.keys.map((k) => k.diode)).size).toBe(48);
    // The Pico's USB plug leaves over the right edge.
    expect(pl.usb.x).toBe(pl.outline.width);
    expect(pl.usb.overhang).toBeGreaterThan(5);
  });
});

describe.skipIf(!KICAD)("the KiCad boards, checked by KiCad", () => {
  it("npm run pcb -- --check: the committed files are what the profiles make", () => {
    const r = (() => {
      try {
        return {
          code: 0,
          out: execFileSync("npx", ["tsx", join(KICAD_DIR, "main.ts"), "--check", "--no-render"], { encoding: "utf8", stdio: "pipe" }),
        };
      } catch (e) {
        const err = e as { status: number; stdout: string; stderr: string };
        return { code: err.status, out: err.stdout + err.stderr };
      }
    })();
    expect(r.out).toContain("hardware/kicad is current");
    expect(r.code).toBe(0);
  }, 240_000);

  it.each(BOARD_PROFILES)(
    "%s: DRC with schematic parity: no errors, nothing unconnected, no parity difference",
    (id) => {
      const report = drc(id);
      expect(report.violations.map((v) => `${v.type}: ${v.description}`)).toEqual([]);
      expect(report.unconnected_items).toHaveLength(0);
      expect(report.schematic_parity.map((v) => `${v.type}: ${v.description}`)).toEqual([]);
    },
    120_000,
  );

  it("the handheld board's outline fits within 190 x 130 mm, and its fab outputs are there", () => {
    const dir = join(KICAD_DIR, "handheld-pico");
    const { w, h } = outlineExtent(readFileSync(join(dir, "handheld-pico.kicad_pcb"), "utf8"));
    expect(w).toBeGreaterThan(100);
    expect(w).toBeLessThanOrEqual(190);
    expect(h).toBeLessThanOrEqual(130);
    for (const f of [
      "gerbers/handheld-pico-F_Cu.gtl",
      "gerbers/handheld-pico.drl",
      "handheld-pico-pos.csv",
      "handheld-pico-3d.png",
      "handheld-pico-bom.csv",
    ])
      expect(existsSync(join(dir, "fab", f)), f).toBe(true);
    const zones = children(parse(readFileSync(join(dir, "handheld-pico.kicad_pcb"), "utf8")), "zone");
    expect(zones.map((z) => text(child(z, "net_name")?.[1])).sort()).toEqual(["+5V_LED", "GND"]);
    expect(zones.every((z) => child(z, "filled_polygon"))).toBe(true);
  });
});
