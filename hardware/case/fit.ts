/**
 * Does the board fit its case? Each check works on the solids themselves (manifold's intersections), not
 * on the numbers they were built from, and answers with what is wrong, by part: empty when all is well.
 */
import { type Kernel, type Manifold, segmentsFor } from "./manifold.ts";
import { PRINT } from "./params.ts";
import { type Box2, boxesOverlap, grow, nearestSide, outlineBox } from "./board.ts";
import { type Box3, type CaseModel, bossDiameter, partZ, travelEnds } from "./shells.ts";
import { isRider, riderSolid } from "./caps.ts";

/** Volumes under this (mm³) are touching faces, not overlap. */
const TOUCH = 1e-3;
/** Checks allow this much less than the nominal gap (float rounding, arc chords). */
const SLACK = 0.05;

function boxSolid(k: Kernel, b: Box3): Manifold {
  return k.Manifold.cube([b.x1 - b.x0, b.y1 - b.y0, b.z1 - b.z0]).translate([b.x0, b.y0, b.z0]);
}

function overlap(a: Manifold, b: Manifold): number {
  return a.intersect(b).volume();
}

/** The shells and the shield: every printed part but the key caps, which ride in their openings. */
function housing(model: CaseModel) {
  return model.parts.filter((p) => p.kind === "housing");
}

function collisions(k: Kernel, model: CaseModel, what: string, solid: Manifold): string[] {
  return housing(model)
    .map((p) => [p.name, overlap(solid, p.assembled)] as const)
    .filter(([, v]) => v > TOUCH)
    .map(([name, v]) => `${what} runs into the ${name} (${v.toFixed(2)} mm³ of overlap)`);
}

/**
 * Which of many solids overlap the targets, each named: one intersection of them all first, then only the
 * solids near a piece of what overlapped are tried one by one.
 */
export function overlapsOf(k: Kernel, items: { ref: string; solid: Manifold }[], targets: { name: string; solid: Manifold }[]): string[] {
  const out: string[] = [];
  const all = k.Manifold.union(items.map((i) => i.solid));
  for (const t of targets) {
    const hit = all.intersect(t.solid);
    if (hit.volume() <= TOUCH) continue;
    for (const piece of hit.decompose()) {
      const { min, max } = piece.boundingBox();
      for (const i of items) {
        const b = i.solid.boundingBox();
        if ([0, 1, 2].some((a) => b.min[a] > max[a] || b.max[a] < min[a])) continue;
        const v = overlap(i.solid, t.solid);
        if (v > TOUCH) out.push(`${i.ref} runs into the ${t.name} (${v.toFixed(2)} mm³ of overlap)`);
      }
    }
  }
  return [...new Set(out)];
}

/** The board, grown by the gap to the walls, meets no printed part. */
export function boardProblems(k: Kernel, model: CaseModel): string[] {
  const b = model.board;
  const body = new k.CrossSection([b.outline]).offset(PRINT.boardGap - SLACK, "Round", 2, 64).extrude(b.thickness);
  return collisions(k, model, "the board", body);
}

/** The room each part needs: its body grown by a gap (the part gap from the case, the fit from a key cap). */
export function partEnvelopes(model: CaseModel, gap: number = PRINT.partGap): { ref: string; box: Box3 }[] {
  const b = model.board;
  const g = gap - SLACK;
  return b.parts.map((p) => {
    const [z0, z1] = partZ(b, p);
    return { ref: p.ref, box: { ...grow(p.box, g), z0: z0 - g, z1: z1 + g } };
  });
}

/**
 * Every part's room is free of the housing's material: the part gap all round, but only the fit from the
 * posts and bosses, which stand inside the mounting holes' keep-outs (the board keeps parts out of those).
 */
export function partProblems(k: Kernel, model: CaseModel): string[] {
  const { Manifold } = k;
  const L = model.levels;
  const keepouts = model.board.holes.map((h) => {
    const r = (h.keepout ?? 0) / 2;
    return Manifold.cylinder(L.shieldTop - L.floorBottom + 2, r, r, segmentsFor(r)).translate([h.x, h.y, L.floorBottom - 1]);
  });
  const solids = (gap: number) => partEnvelopes(model, gap).map((e) => ({ ref: e.ref, solid: boxSolid(k, e.box) }));
  const targets = housing(model).map((p) => ({ name: p.name, solid: p.assembled }));
  const outsideKeepouts = targets.map((t) => ({ ...t, solid: keepouts.length ? Manifold.difference([t.solid, ...keepouts]) : t.solid }));
  // One line per part and printed part: the first check's, when both find it.
  const lines = [...overlapsOf(k, solids(PRINT.partGap), outsideKeepouts), ...overlapsOf(k, solids(PRINT.fit), targets)];
  const seen = new Set<string>();
  return lines.filter((line) => {
    const what = line.replace(/ \(.*\)$/, "");
    return !seen.has(what) && !!seen.add(what);
  });
}

/**
 * Under each mounting hole a boss holds the board (a full ring of material just under it, round the
 * screw), over it a post clamps it, and the screw's path through both is clear.
 */
export function mountProblems(k: Kernel, model: CaseModel): string[] {
  const { Manifold } = k;
  const b = model.board;
  const L = model.levels;
  const s = model.screw;
  const [bottom, top] = ["bottom", "top"].map((n) => model.parts.find((p) => p.name === n)!.assembled);
  const ring = (x: number, y: number, boss: number, z0: number, z1: number) => {
    const r0 = s.clearance / 2 + 0.3;
    const r1 = boss / 2 - 0.3;
    return Manifold.cylinder(z1 - z0, r1, r1, segmentsFor(r1))
      .subtract(Manifold.cylinder(z1 - z0 + 2, r0, r0, segmentsFor(r0)).translate([0, 0, -1]))
      .translate([x, y, z0]);
  };
  const out: string[] = [];
  for (const h of b.holes) {
    const at = `the mounting hole at (${h.x.toFixed(1)}, ${h.y.toFixed(1)})`;
    const under = ring(h.x, h.y, bossDiameter(s, h), -0.5, 0);
    if (overlap(under, bottom) < 0.95 * under.volume()) out.push(`no boss under ${at}`);
    const over = ring(h.x, h.y, bossDiameter(s, h), b.thickness, b.thickness + 0.5);
    if (overlap(over, top) < 0.95 * over.volume()) out.push(`no post over ${at}`);
    const r = Math.min(h.d, s.clearance) / 2 - SLACK;
    const path = Manifold.cylinder(b.thickness - L.floorBottom, r, r, segmentsFor(r)).translate([h.x, h.y, L.floorBottom]);
    if (overlap(path, bottom) > TOUCH) out.push(`the screw's path under ${at} is blocked`);
  }
  return out;
}

/** The way out of each edge connector: its face, carried out past the outer wall. */
export function exitPaths(model: CaseModel): { ref: string; box: Box3 }[] {
  const b = model.board;
  const board = outlineBox(b.outline);
  const reach = PRINT.boardGap + PRINT.wall + 5;
  return b.parts
    .filter((p) => p.role === "usb")
    .map((p) => {
      const [z0, z1] = partZ(b, p);
      const side = nearestSide(board, p.box);
      const q = p.box;
      const path: Box2 =
        side === "left"
          ? { ...q, x0: board.x0 - reach, x1: q.x0 }
          : side === "right"
            ? { ...q, x0: q.x1, x1: board.x1 + reach }
            : side === "bottom"
              ? { ...q, y0: board.y0 - reach, y1: q.y0 }
              : { ...q, y0: q.y1, y1: board.y1 + reach };
      return { ref: p.ref, box: { ...path, z0, z1 } };
    });
}

/** A plug reaches each edge connector straight through its opening. */
export function exitProblems(k: Kernel, model: CaseModel): string[] {
  return exitPaths(model).flatMap((e) => collisions(k, model, `the way out of ${e.ref}`, boxSolid(k, e.box)));
}

/**
 * Each key cap and the switch's knob moves freely: the fit's room all round it (at either end of the
 * knob's travel) is clear of the housing, it touches no part but its own switch, and it stands proud of
 * the top (or it could not be pressed or pushed).
 */
export function capProblems(k: Kernel, model: CaseModel): string[] {
  const b = model.board;
  const L = model.levels;
  const out: string[] = [];
  const others = partEnvelopes(model, PRINT.fit);
  for (const p of b.parts.filter(isRider)) {
    const what = p.key ? `${p.ref}'s cap` : `${p.ref}'s knob`;
    for (const at of travelEnds(p)) {
      out.push(...collisions(k, model, what, riderSolid(k, p, L, Math.min(PRINT.fit, PRINT.keyGap) - SLACK, at)));
      const solid = riderSolid(k, p, L, 0, at);
      for (const e of others)
        if (e.ref !== p.ref && boxesOverlap(grow(e.box, 10), p.box) && overlap(solid, boxSolid(k, e.box)) > TOUCH)
          out.push(`${what} comes within ${PRINT.fit} mm of ${e.ref}`);
      if (solid.boundingBox().max[2] < L.plateTop + 1) out.push(`${what} stands less than 1 mm over the top`);
    }
  }
  return [...new Set(out)];
}

/** Each printed part, as it lies on the bed, fits the printer. */
export function bedProblems(model: CaseModel): string[] {
  return model.parts.flatMap((p) => {
    const { min, max } = p.print.boundingBox();
    const size = [0, 1, 2].map((i) => max[i] - min[i]);
    const bed = [PRINT.bed.x, PRINT.bed.y, PRINT.bed.z];
    return size.some((v, i) => v > bed[i]) || min[2] < -1e-6
      ? [`the ${p.name} is ${size.map((v) => v.toFixed(1)).join(" x ")} mm as printed: over the ${bed.join(" x ")} mm bed`]
      : [];
  });
}

/** Each printed part is one piece: nothing in it stands on air. */
export function pieceProblems(model: CaseModel): string[] {
  return model.parts
    .map((p) => [p.name, p.print.decompose().length] as const)
    .filter(([, n]) => n !== 1)
    .map(([name, n]) => `the ${name} is ${n} pieces`);
}

export function fitProblems(k: Kernel, model: CaseModel): string[] {
  return [
    ...boardProblems(k, model),
    ...partProblems(k, model),
    ...mountProblems(k, model),
    ...exitProblems(k, model),
    ...capProblems(k, model),
    ...bedProblems(model),
    ...pieceProblems(model),
  ];
}
