/**
 * The printed legend overlay (hardware/gen-overlay.ts): the committed sheets are what the profiles and
 * the screen tables produce, at 1:1 on A4, with every key where the unit has it and its words.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OVERLAY_DIR, overlaySets, overlaySvg, pdfTitle, staleOverlays } from "../../hardware/gen-overlay.ts";
import { loadProfile } from "../../hardware/profile.ts";
import { unitGeometry } from "../../hardware/geometry.ts";
import { brainFlipLegends, codebreakerLegends, menuLegends } from "../../hardware/key-legends.ts";

/** The key outlines of a sheet: [x, y, size] in mm, in the sheet's coordinates. */
function keyRects(svg: string): { x: number; y: number; size: number; group: string }[] {
  const out: { x: number; y: number; size: number; group: string }[] = [];
  const groups = svg.split('<g transform="translate(').slice(1);
  for (const g of groups) {
    const [dx, dy] = g.slice(0, g.indexOf(")")).split(" ").map(Number);
    const body = g.slice(0, g.indexOf("</g>"));
    for (const m of body.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" rx="2.4"/g))
      out.push({ x: Number(m[1]) + dx, y: Number(m[2]) + dy, size: Number(m[3]), group: `${dx},${dy}` });
  }
  return out;
}

describe("the printed legend overlay", () => {
  it("is current: the committed SVGs and PDFs are what the profiles and the screen tables produce (npm run overlay)", () => {
    expect(staleOverlays()).toEqual([]);
  });

  it("is an A4 sheet at 1:1 with the pad's 36 keys on the unit's 20 mm key pitch (two steps of the 10 mm grid)", () => {
    const p = loadProfile("r1-pico");
    const g = unitGeometry(p);
    const svg = overlaySvg(p, "codebreaker");
    expect(svg).toContain('width="210mm" height="297mm" viewBox="0 0 210 297"');
    const keys = keyRects(svg);
    const pad = keys.filter((k) => k.size === 16);
    expect(pad).toHaveLength(36);
    const x0 = Math.min(...pad.map((k) => k.x));
    const y0 = Math.min(...pad.map((k) => k.y));
    // Each key sits where the unit has it, relative to the first one.
    const unitPad = g.keys.filter((k) => k.padLed !== undefined);
    const ux0 = Math.min(...unitPad.map((k) => k.x));
    const uy0 = Math.min(...unitPad.map((k) => k.y));
    expect(pad.map((k) => [k.x - x0, k.y - y0]).sort()).toEqual(unitPad.map((k) => [k.x - ux0, k.y - uy0]).sort());
    for (const k of pad) expect([(k.x - x0) % 20, (k.y - y0) % 20]).toEqual([0, 0]);
    // The codemaker pad's 12 keys, 14 mm caps.
    expect(keys.filter((k) => k.size === 14)).toHaveLength(12);
  });

  it("prints each screen's words from the screen tables: the menu's (with Brain Flip's), the game's, the cards and the Master's keys", () => {
    const p = loadProfile("r1-pico");
    const words = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(" ");
    const menu = words(overlaySvg(p, "menu"));
    for (const l of menuLegends("codebreaker").pad.filter((l) => l.label)) for (const w of l.label.split(" ")) expect(menu).toContain(w);
    expect(menu).toContain("BF: grid 6x6");
    expect(menu).toContain("resume");
    const play = words(overlaySvg(p, "codebreaker"));
    for (const l of Object.values(codebreakerLegends(p).maker)) expect(play).toContain(l.label);
    expect(play).toContain("hint");
    const flip = words(overlaySvg(p, "brainflip"));
    for (const l of Object.values(brainFlipLegends(p).maker)) for (const w of l.label.split(" ")) expect(flip).toContain(w);
    expect(flip).toContain("card 6-6");
  });

  it("has a PDF per profile with one A4 page per screen, titled with the digest of the SVGs it prints", () => {
    for (const set of overlaySets()) {
      const pdf = readFileSync(OVERLAY_DIR + set.pdf);
      expect(pdfTitle(pdf)).toBe(set.pdfTitle);
      const boxes = [...pdf.toString("latin1").matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
      expect(boxes).toHaveLength(3);
      // A4 in points (1 pt = 25.4 / 72 mm): 210 x 297 mm within 0.5 mm.
      for (const [w, h] of boxes) {
        expect(Math.abs((w * 25.4) / 72 - 210)).toBeLessThan(0.5);
        expect(Math.abs((h * 25.4) / 72 - 297)).toBeLessThan(0.5);
      }
    }
  });

  it("tells a stale PDF from a current one by its title", () => {
    const [set] = overlaySets();
    const stale = staleOverlays([{ ...set, pdfTitle: set.pdfTitle.replace(/.$/, "x") }]);
    expect(stale).toEqual([set.pdf]);
  });
});
