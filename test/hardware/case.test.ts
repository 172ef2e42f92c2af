/**
 * The printed case (hardware/case/): built from the board's placement, its committed STL files are current
 * and closed, each part fits the printer's bed, and the board and every part on it fit inside with room to
 * spare, checked on the solids themselves. Each check is also shown to catch what it is for.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadProfile } from "../../hardware/profile.ts";
import { placement } from "../../hardware/kicad/placement.ts";
import { caseBoard } from "../../hardware/case/from-placement.ts";
import { loadKernel, type Kernel } from "../../hardware/case/manifold.ts";
import { buildCase, type CaseModel } from "../../hardware/case/shells.ts";
import {
  boardProblems,
  capProblems,
  exitProblems,
  mountProblems,
  overlapsOf,
  partProblems,
  pieceProblems,
} from "../../hardware/case/fit.ts";
import { boundsOf, closednessProblems, meshOf, overhangArea, parseStl, type TriMesh } from "../../hardware/case/mesh.ts";
import { CASE_DIR, caseFiles, writeCase } from "../../hardware/case/write.ts";
import { PRINT } from "../../hardware/case/params.ts";
import type { CaseBoard } from "../../hardware/case/board.ts";

const PROFILE = "handheld-pico";
const DIR = join(CASE_DIR, PROFILE);

let k: Kernel;
let board: CaseBoard;
let model: CaseModel;

beforeAll(async () => {
  k = await loadKernel();
  board = caseBoard(placement(loadProfile(PROFILE)));
  model = buildCase(k, board);
});

/** The same case around a changed board: what the checks see if the board and its case part ways. */
function around(change: Partial<CaseBoard>): CaseModel {
  return { ...model, board: { ...board, ...change } };
}

function committedStls(): { name: string; mesh: TriMesh }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".stl"))
    .map((name) => ({ name, mesh: parseStl(readFileSync(join(DIR, name))) }));
}

describe("the printed case", () => {
  it("is current: the committed STL files and parts list are what the board's placement gives (npm run pcb)", async () => {
    expect(await writeCase(loadProfile(PROFILE), DIR, true)).toEqual([]);
  });

  it("refuses to make a case that does not fit its board, naming each part and what it runs into", async () => {
    const parts = board.parts.map((p) => (p.ref === "U1" ? { ...p, box: { ...p.box, y0: p.box.y0 - 40 } } : p));
    const holes = board.holes.map((h, i) => (i === 0 ? { ...h, d: 1.5 } : h));
    await expect(caseFiles({ ...board, parts })).rejects.toThrow(
      /^the case of handheld-pico is not right:\n {2}U1 runs into the bottom .*\n {2}U1 runs into the top .*\n {2}\S+'s knob comes within 0.3 mm of U1$/,
    );
    await expect(caseFiles({ ...board, holes })).rejects.toThrow("a 1.5 mm mounting hole is smaller than an M2 screw needs (2.2 mm)");
  });

  it("has a bottom, a top, the codemaker's shield and the key caps, as binary STL files", () => {
    const names = committedStls().map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(["bottom.stl", "top.stl", "shield.stl"]));
    expect(names.filter((n) => n.startsWith("key-cap-")).length).toBeGreaterThan(0);
    // Modest files: circles of sensible segment counts keep the case's STLs to a few MB at most.
    const bytes = readdirSync(DIR).reduce((n, f) => n + readFileSync(join(DIR, f)).length, 0);
    expect(bytes).toBeLessThan(3_000_000);
  });

  it("has closed meshes: every edge of every STL in exactly two triangles, run opposite ways, none degenerate", () => {
    for (const { name, mesh } of committedStls()) {
      expect(mesh.triangles.length / 3, name).toBeGreaterThan(12);
      expect(closednessProblems(mesh), name).toEqual([]);
    }
  });

  it("makes each printed part one piece: nothing in it stands on air (each boss flares into the floor round its counterbore)", () => {
    expect(pieceProblems(model)).toEqual([]);
    const floating = k.Manifold.union([k.Manifold.cube([5, 5, 5]), k.Manifold.cube([5, 5, 5]).translate([0, 0, 10])]);
    const parts = model.parts.map((p) => (p.name === "shield" ? { ...p, print: floating } : p));
    expect(pieceProblems({ ...model, parts })).toEqual(["the shield is 2 pieces"]);
  });

  it("the closedness check finds a gap, a flipped triangle and a degenerate one", () => {
    const { mesh } = committedStls().find((s) => s.name === "shield.stl")!;
    const gap = { ...mesh, triangles: mesh.triangles.slice(3) };
    expect(closednessProblems(gap).join()).toMatch(/0 the other/);
    const flipped = { ...mesh, triangles: mesh.triangles.slice() };
    [flipped.triangles[1], flipped.triangles[2]] = [mesh.triangles[2], mesh.triangles[1]];
    expect(closednessProblems(flipped).join()).toMatch(/2 triangle\(s\) one way/);
    const flat = { ...mesh, triangles: mesh.triangles.slice() };
    flat.triangles[2] = flat.triangles[1];
    expect(closednessProblems(flat).join()).toMatch(/degenerate/);
  });

  it("each part fits a 220 x 220 mm bed lying as it prints, flat on it, and stands a sensible height", () => {
    for (const { name, mesh } of committedStls()) {
      const { min, max } = boundsOf(mesh);
      expect(
        min.map((v) => Math.abs(v) < 1e-4),
        name,
      ).toEqual([true, true, true]);
      expect(max[0], name).toBeLessThanOrEqual(220);
      expect(max[1], name).toBeLessThanOrEqual(220);
      expect(max[2], name).toBeGreaterThan(2);
      expect(max[2], name).toBeLessThan(40);
    }
  });

  it("prints without supports: what faces down above the bed is short bridges only, and the wrong way up is caught", () => {
    // Bridges: the bottom's counterbore ledges, the top's USB window and the shield's pin holes, the caps' sockets.
    const most: Record<string, number> = { bottom: 150, top: 150, shield: 1, "switch-knob": 30 };
    for (const p of model.parts) expect(overhangArea(meshOf(p.print)), p.name).toBeLessThan(most[p.name] ?? 15);
    const top = model.parts.find((p) => p.name === "top")!;
    expect(overhangArea(meshOf(top.assembled.translate([0, 0, 20])))).toBeGreaterThan(10_000);
  });

  it("holds the board 0.5 mm off its walls; a bigger board is caught", () => {
    expect(boardProblems(k, model)).toEqual([]);
    const wider = board.outline.map(([x, y]): [number, number] => [x > 100 ? x + 1 : x, y]);
    expect(boardProblems(k, around({ outline: wider })).join()).toMatch(/the board runs into the (top|bottom)/);
  });

  it("leaves 1 mm round every part on the board, the Pico, the charger and the cell among them; a taller part is caught", () => {
    expect(partProblems(k, model)).toEqual([]);
    for (const ref of ["U1", "U3", "BT1"]) expect(board.parts.some((p) => p.ref === ref)).toBe(true);
    const parts = board.parts.map((p) => (p.ref === "U3" ? { ...p, height: p.height + 2 } : p));
    expect(partProblems(k, around({ parts })).join()).toMatch(/U3 runs into the top/);
  });

  it("has a boss under each mounting hole and a post over it that clamp the board, the screw's path clear; moved holes are caught", () => {
    expect(board.holes.length).toBeGreaterThanOrEqual(4);
    expect(mountProblems(k, model)).toEqual([]);
    // The screws clamp the board between boss and post: the top's walls stop short of the bottom's.
    expect(model.parts.find((p) => p.name === "top")!.assembled.boundingBox().min[2]).toBeGreaterThan(0.1);
    const moved = board.holes.map((h) => ({ ...h, x: h.x + 10 }));
    expect(mountProblems(k, around({ holes: moved })).join()).toMatch(/no boss under .*no post over/);
  });

  it("has an opening in line with each USB connector, wide enough for what plugs in; a moved connector is caught", () => {
    expect(model.openings.map((o) => `${o.ref} ${o.side}`).sort()).toEqual(["U1 USB right", "U3 USB bottom"]);
    expect(exitProblems(k, model)).toEqual([]);
    for (const o of model.openings) {
      const part = board.parts.find((p) => p.ref === o.ref)!;
      const along = o.side === "right" ? o.box.y1 - o.box.y0 : o.box.x1 - o.box.x0;
      expect(along).toBeGreaterThanOrEqual(part.plug![0]);
      expect(o.box.z1 - o.box.z0).toBeGreaterThanOrEqual(part.plug![1]);
    }
    const parts = board.parts.map((p) => (p.ref === "U3 USB" ? { ...p, box: { ...p.box, x0: p.box.x0 - 20, x1: p.box.x1 - 20 } } : p));
    expect(exitProblems(k, around({ parts })).join()).toMatch(/the way out of U3 USB runs into the top/);
  });

  it("leaves a way for the cell's lead round the board's edge, from under the board to the charger over it", () => {
    expect(board.cableWays?.length).toBe(1);
    const way = board.cableWays![0];
    const L = model.levels;
    // A 5 x 1.5 mm lead (two wires side by side) standing in the gap between the board and the wall.
    const lead = k.Manifold.cube([5, 1.5, L.plateUnder - L.floorTop - 0.2]).translate([
      (way.x0 + way.x1) / 2 - 2.5,
      -1.6,
      L.floorTop + 0.1,
    ]);
    const housing = model.parts.filter((p) => p.kind === "housing");
    expect(housing.map((p) => p.assembled.intersect(lead).volume())).toEqual(housing.map(() => 0));
    const besideIt = lead.translate([-20, 0, 0]);
    expect(Math.max(...housing.map((p) => p.assembled.intersect(besideIt).volume()))).toBeGreaterThan(1);
  });

  it("has a hole over each LED not under a key, closed by a thin diffuser skin at the top", () => {
    const top = model.parts.find((p) => p.name === "top")!.assembled;
    const L = model.levels;
    const leds = board.parts.filter((p) => p.light);
    expect(leds.length).toBe(193);
    const probes = (z0: number, z1: number) =>
      leds.map((led) => ({
        ref: led.ref,
        solid: k.Manifold.cylinder(z1 - z0, 0.5, 0.5, 12).translate([(led.box.x0 + led.box.x1) / 2, (led.box.y0 + led.box.y1) / 2, z0]),
      }));
    // The hole: no material between the plate's underside and the skin.
    expect(overlapsOf(k, probes(L.plateUnder, L.plateTop - PRINT.diffuser - 0.05), [{ name: "top", solid: top }])).toEqual([]);
    // The skin: solid all over each hole's top.
    const skins = k.Manifold.union(probes(L.plateTop - PRINT.diffuser + 0.05, L.plateTop - 0.05).map((p) => p.solid));
    expect(top.intersect(skins).volume() / skins.volume()).toBeGreaterThan(0.999);
  });

  it("covers the secret's LEDs and the codemaker's keys with the shield's roof, and nothing the codebreaker needs", () => {
    const pl = placement(loadProfile(PROFILE));
    const shield = model.parts.find((p) => p.name === "shield")!.assembled;
    const L = model.levels;
    const roof = (p: { box: { x0: number; x1: number; y0: number; y1: number } }) =>
      k.Manifold.cylinder(L.shieldTop - L.plateTop + 2, 0.5, 0.5, 12).translate([
        (p.box.x0 + p.box.x1) / 2,
        (p.box.y0 + p.box.y1) / 2,
        L.plateTop,
      ]);
    const covered = (ref: string) => shield.intersect(roof(board.parts.find((p) => p.ref === ref)!)).volume() > 0;
    const secret = pl.leds.filter((l) => l.segment === "secret").map((l) => l.ref);
    const maker = pl.keys.filter((key) => key.matrix !== pl.keys[0].matrix).map((key) => key.ref);
    expect(secret.length).toBe(5);
    expect(maker.length).toBe(12);
    expect([...secret, ...maker].filter((ref) => !covered(ref))).toEqual([]);
    const open = pl.leds.filter((l) => l.segment === "board" || l.segment === "track").map((l) => l.ref);
    expect(open.filter(covered)).toEqual([]);
  });

  it("has a grille over the buzzer: holes right through the plate", () => {
    const buzzer = board.parts.find((p) => p.role === "buzzer")!;
    const L = model.levels;
    const top = model.parts.find((p) => p.name === "top")!.assembled;
    const [x, y] = [(buzzer.box.x0 + buzzer.box.x1) / 2, (buzzer.box.y0 + buzzer.box.y1) / 2];
    const through = k.Manifold.cylinder(L.plateTop - L.plateUnder + 2, 0.5, 0.5, 12).translate([x, y, L.plateUnder - 1]);
    expect(top.intersect(through).volume()).toBe(0);
    expect(top.intersect(through.translate([1.5, 0, 0])).volume()).toBeGreaterThan(0);
  });

  it("gives every key a printed cap and the power switch a knob, each free in its opening and proud of the top; a longer travel is caught", () => {
    const keys = board.parts.filter((p) => p.key);
    expect(keys.length).toBe(48);
    expect(capProblems(k, model)).toEqual([]);
    const caps = model.parts.filter((p) => p.name.startsWith("key-cap-"));
    expect(caps.reduce((n, p) => n + p.count, 0)).toBe(48);
    expect(model.parts.map((p) => p.name)).toContain("switch-knob");
    const knob = board.parts.find((p) => p.slide)!;
    const slid = board.parts.map((p) => (p === knob ? { ...p, slide: { ...knob.slide!, travel: knob.slide!.travel + 4 } } : p));
    expect(capProblems(k, around({ parts: slid })).join()).toMatch(/knob runs into the top/);
  });

  it("is held by stock M3 screws that thread far enough into the posts and no further than their pilot holes", () => {
    expect(model.screw.name).toMatch(/^M3/);
    expect(model.screw.lengths).toContain(model.screwLength);
    const tip = model.levels.floorBottom + model.screw.headDepth + model.screwLength;
    expect(tip - board.thickness).toBeGreaterThanOrEqual(model.screw.minThread);
    expect(tip - board.thickness).toBeLessThanOrEqual(model.screw.maxThread);
  });
});
