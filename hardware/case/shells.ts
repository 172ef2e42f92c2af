/**
 * The case's printed parts, built from the board alone:
 *
 *   bottom   a tray: floor, walls up to the board's bottom face, a lip that locates the top, a boss under
 *            each mounting hole (a clearance hole and the screw head's counterbore from below), room under
 *            the board for the cell, with corner guides that hold it
 *   top      a shell: walls down to the board's bottom face, a plate over the tallest part, a post over each
 *            mounting hole (the screw threads into it), an opening per key cap, a hole per LED with a thin diffuser
 *            skin and a baffle round it down to just above the parts, the holes that locate the shield, a
 *            grille over the buzzer
 *   shield   the codemaker's lid: a shallow box pinned in those holes; it hides the secret and the
 *            codemaker's keys; lifted off to enter a code
 *   key-cap  one printed cap per key switch (caps.ts), a file per cap size
 *   switch-knob  the power switch's knob, sliding in a slot of the top
 *
 * Edge openings (the USB connectors) and cable ways are cut through whichever shell they cross. Each part
 * is kept twice: as assembled (z up from the board's bottom face) and as printed (flat face down on the bed).
 */
import { type CrossSection, type Kernel, type Manifold, segmentsFor } from "./manifold.ts";
import { PRINT, screwFor, type Screw } from "./params.ts";
import { isRider, riderOpening, riderProblem, riderSolid } from "./caps.ts";
import { type BoardPart, type Box2, type CaseBoard, boxesOverlap, centre, grow, nearestSide, outlineBox } from "./board.ts";

export interface Levels {
  floorBottom: number;
  /** The floor's top face: the room under the board ends here. */
  floorTop: number;
  boardTop: number;
  /** The plate's underside: the room over the board ends here. */
  plateUnder: number;
  plateTop: number;
  /** The shield's roof. */
  shieldTop: number;
}

export interface Box3 extends Box2 {
  z0: number;
  z1: number;
}

export interface EdgeOpening {
  ref: string;
  side: "left" | "right" | "bottom" | "top";
  /** The cut, reaching out past the outer wall. */
  box: Box3;
}

export interface PrintedPart {
  /** The file's name: "bottom", "top", "shield", "key-cap-8" (an 8 mm cap). */
  name: string;
  /** Key caps ride in their openings; the rest is the housing. */
  kind: "housing" | "cap";
  title: string;
  /** How many to print. */
  count: number;
  assembled: Manifold;
  /** Rotated to print (flat face down) and moved to the bed's origin. */
  print: Manifold;
}

export interface CaseModel {
  board: CaseBoard;
  levels: Levels;
  screw: Screw;
  /** The stock screw length that threads far enough into the post. */
  screwLength: number;
  openings: EdgeOpening[];
  parts: PrintedPart[];
}

/** Vertices closer than this (mm) are merged. */
const MERGE = 1e-4;

/** The z span of a part's body in the assembly. */
export function partZ(b: CaseBoard, p: BoardPart): [number, number] {
  const base = p.base ?? 0;
  return p.side === "top" ? [b.thickness + base, b.thickness + p.height] : [-p.height, -base];
}

function inside(p: [number, number], b: Box2): boolean {
  return p[0] > b.x0 && p[0] < b.x1 && p[1] > b.y0 && p[1] < b.y1;
}

export function levelsOf(b: CaseBoard): Levels {
  const T = b.thickness;
  const below = Math.max(0, ...b.parts.filter((p) => p.side === "bottom").map((p) => p.height));
  const above = Math.max(0, ...b.parts.filter((p) => p.side === "top").map((p) => p.height));
  const floorTop = -Math.max(PRINT.underMin, below + PRINT.partGap);
  const plateUnder = T + above + PRINT.partGap;
  const plateTop = plateUnder + PRINT.plate;
  const capsUnderShield = b.shield && b.parts.some((p) => p.key && boxesOverlap(riderOpening(p), grow(b.shield!, PRINT.shieldInset)));
  const room = Math.max(PRINT.partGap, capsUnderShield ? PRINT.capProud + PRINT.partGap : 0);
  return {
    floorBottom: floorTop - PRINT.floor,
    floorTop,
    boardTop: T,
    plateUnder,
    plateTop,
    shieldTop: plateTop + room + PRINT.shieldRoof,
  };
}

type Hole = CaseBoard["holes"][number];

/**
 * Bosses and posts are as wide as the screw wants, but stay inside the hole's keep-out on the board by the
 * fit: the board keeps parts out of it, and the case then comes no nearer them than the fit.
 */
export function bossDiameter(screw: Screw, h: Hole): number {
  return Math.min(screw.boss, h.keepout === undefined ? screw.boss : h.keepout - 2 * PRINT.fit);
}

/** Builds every printed part of the case around the board. */
export function buildCase(k: Kernel, b: CaseBoard): CaseModel {
  const { Manifold, CrossSection } = k;
  const L = levelsOf(b);
  const T = b.thickness;
  const screw = screwFor(Math.min(...b.holes.map((h) => h.d)));
  const lip = (PRINT.wall - PRINT.fit) / 2;

  const slab = (cs: CrossSection, z0: number, z1: number): Manifold => cs.extrude(z1 - z0).translate([0, 0, z0]);
  const box = (r: Box2, z0: number, z1: number): Manifold => Manifold.cube([r.x1 - r.x0, r.y1 - r.y0, z1 - z0]).translate([r.x0, r.y0, z0]);
  const rod = (x: number, y: number, d: number, z0: number, z1: number): Manifold =>
    Manifold.cylinder(z1 - z0, d / 2, d / 2, segmentsFor(d / 2)).translate([x, y, z0]);
  const union = (parts: Manifold[]): Manifold => (parts.length ? Manifold.union(parts) : Manifold.cube([0, 0, 0]));

  const round = (cs: CrossSection, d: number) => cs.offset(d, "Round", 2, segmentsFor(d + 1));
  // A near-rectangular board gets a cavity with small corner radii, which leaves room for parts that sit
  // in its rounded corners; any other outline is followed at the gap.
  const board = new CrossSection([b.outline]);
  const bb = outlineBox(b.outline);
  const rectangular = board.area() > 0.99 * (bb.x1 - bb.x0) * (bb.y1 - bb.y0);
  const squared = CrossSection.square([bb.x1 - bb.x0 - 2, bb.y1 - bb.y0 - 2]).translate([bb.x0 + 1, bb.y0 + 1]);
  const inner = round(rectangular ? squared : board, PRINT.boardGap + (rectangular ? 1 : 0));
  const outer = round(inner, PRINT.wall);
  const ob = outer.bounds();
  const outerBox = { x0: ob.min[0], y0: ob.min[1], x1: ob.max[0], y1: ob.max[1] };

  // Edge openings: the connector's face on the board edge, grown by the part gap or to what plugs into it,
  // reaching out past the wall.
  const boardBox = outlineBox(b.outline);
  const openings: EdgeOpening[] = b.parts
    .filter((p) => p.role === "usb")
    .map((p) => {
      const side = nearestSide(boardBox, p.box);
      const [z0, z1] = partZ(b, p);
      const along = side === "left" || side === "right" ? ([p.box.y0, p.box.y1] as const) : ([p.box.x0, p.box.x1] as const);
      const [w, h] = p.plug ?? [0, 0];
      const mid = (along[0] + along[1]) / 2;
      const half = Math.max(w / 2, (along[1] - along[0]) / 2 + PRINT.partGap);
      const zm = (z0 + z1) / 2;
      const hz = Math.max(h / 2, (z1 - z0) / 2 + PRINT.partGap);
      const far = 10;
      let r: Box2;
      // From just inside the board's edge (the cavity is empty there anyway) out past the wall.
      if (side === "left") r = { x0: outerBox.x0 - far, x1: boardBox.x0 + 1, y0: mid - half, y1: mid + half };
      else if (side === "right") r = { x0: boardBox.x1 - 1, x1: outerBox.x1 + far, y0: mid - half, y1: mid + half };
      else if (side === "bottom") r = { y0: outerBox.y0 - far, y1: boardBox.y0 + 1, x0: mid - half, x1: mid + half };
      else r = { y0: boardBox.y1 - 1, y1: outerBox.y1 + far, x0: mid - half, x1: mid + half };
      // An opening that would leave a thin strip of wall under it runs out through the wall's edge instead.
      const low = zm - hz < PRINT.lipHeight + PRINT.fit + 1 ? Math.min(-1, zm - hz) : zm - hz;
      return { ref: p.ref, side, box: { ...r, z0: low, z1: zm + hz } };
    });
  const openingCuts = openings.map((o) => box(o.box, o.box.z0, o.box.z1));
  // Cable ways: a channel in the walls' inside, from the floor to the plate, leaving the wall's outer part.
  const channelDepth = PRINT.wall - PRINT.channelSkin;
  const channels = (b.cableWays ?? []).map((w) => {
    const side = nearestSide(boardBox, w);
    const r = grow(w, 0);
    if (side === "left") r.x0 = boardBox.x0 - PRINT.boardGap - channelDepth;
    else if (side === "right") r.x1 = boardBox.x1 + PRINT.boardGap + channelDepth;
    else if (side === "bottom") r.y0 = boardBox.y0 - PRINT.boardGap - channelDepth;
    else r.y1 = boardBox.y1 + PRINT.boardGap + channelDepth;
    return box(r, L.floorTop, L.plateUnder);
  });

  // Bottom: tray, lip, bosses.
  const tray = slab(outer, L.floorBottom, 0)
    .add(slab(round(inner, lip), -0.5, PRINT.lipHeight))
    .subtract(slab(inner, L.floorTop, PRINT.lipHeight + 1));
  const boss = (h: Hole) => bossDiameter(screw, h);
  // Each boss flares at 45° where it meets the floor, round the screw head's counterbore: a boss narrower
  // than the counterbore would otherwise stand on nothing.
  const flare = screw.head / 2 + 0.3 + PRINT.counterboreWall;
  const bosses = union(
    b.holes.flatMap((h) => {
      const r = boss(h) / 2;
      const cone = Manifold.cylinder(flare - r + 0.5, flare, r, segmentsFor(flare)).translate([h.x, h.y, L.floorTop - 0.5]);
      return [rod(h.x, h.y, boss(h), L.floorTop - 0.5, 0), cone];
    }),
  );
  const screwHoles = union(
    b.holes.flatMap((h) => [
      rod(h.x, h.y, screw.clearance, L.floorBottom - 1, 1),
      rod(h.x, h.y, screw.head + 0.6, L.floorBottom - 1, L.floorBottom + screw.headDepth),
    ]),
  );
  // Corner guides that keep the cell in its place on the floor (the sides stay open for its lead).
  const guides = b.parts
    .filter((p) => p.role === "cell")
    .map((p) => {
      const inside = grow(p.box, PRINT.partGap);
      const ring = box(grow(inside, PRINT.guideWall), L.floorTop - 0.5, L.floorTop + PRINT.guideHeight).subtract(
        box(inside, L.floorTop - 1, L.floorTop + PRINT.guideHeight + 1),
      );
      const [x, y] = centre(p.box);
      const [w, h] = [p.box.x1 - p.box.x0, p.box.y1 - p.box.y0];
      const gaps = [
        box({ x0: x - w / 4, x1: x + w / 4, y0: -1e3, y1: 1e3 }, -1e3, 1e3),
        box({ y0: y - h / 4, y1: y + h / 4, x0: -1e3, x1: 1e3 }, -1e3, 1e3),
      ];
      return Manifold.difference([ring, ...gaps]);
    });
  let bottom = Manifold.difference([Manifold.union([tray, bosses, ...guides]), screwHoles, ...openingCuts, ...channels]);

  // Top: shell, posts, baffles; then every opening.
  const riders = b.parts.filter(isRider);
  const keyHoles = riders.map(riderOpening);
  const shown = b.parts.filter((p) => p.light && !keyHoles.some((o) => inside(centre(p.box), o)));
  // The top's walls stop short of the bottom's: the screws clamp the board between boss and post, whatever
  // its thickness tolerance, before the shells could meet.
  const shell = slab(outer, PRINT.seam, L.plateTop)
    .subtract(slab(inner, -1, L.plateUnder))
    .subtract(slab(round(inner, lip + PRINT.fit), -1, PRINT.lipHeight + PRINT.fit));
  const posts = b.holes.map((h) => rod(h.x, h.y, boss(h), T, L.plateUnder + 0.5));
  const pilotDepth = screw.maxThread + 1;
  if (T + pilotDepth > L.plateTop - 0.8)
    throw new Error(
      `the top's posts are ${(L.plateTop - T).toFixed(1)} mm tall: too short for ${screw.maxThread} mm of ${screw.name} thread`,
    );
  const pilots = b.holes.map((h) => rod(h.x, h.y, screw.pilot, T - 1, T + pilotDepth));
  const baffles: Manifold[] = [];
  const ledHoles: Manifold[] = [];
  for (const p of shown) {
    const [x, y] = centre(p.box);
    const d = p.light!.d;
    const half = d / 2 + PRINT.pipeWall;
    const foot = { x0: x - half, y0: y - half, x1: x + half, y1: y + half };
    const below = b.parts.filter((q) => q.side === "top" && (q === p || boxesOverlap(grow(foot, PRINT.partGap), q.box)));
    const z0 = Math.max(...below.map((q) => partZ(b, q)[1])) + PRINT.partGap;
    if (z0 < L.plateUnder - 0.5) baffles.push(box(foot, z0, L.plateUnder + 0.5));
    ledHoles.push(rod(x, y, d, Math.min(z0, L.plateUnder) - 1, p.light!.diffuse ? L.plateTop - PRINT.diffuser : L.plateTop + 1));
  }
  // A grille over the buzzer: a grid of small holes through the plate, inside its round body.
  const grille = b.parts
    .filter((p) => p.role === "buzzer")
    .flatMap((p) => {
      const [x, y] = centre(p.box);
      const reach = Math.min(p.box.x1 - p.box.x0, p.box.y1 - p.box.y0) / 2 - PRINT.grillePitch / 2;
      const n = Math.floor(reach / PRINT.grillePitch);
      const holes: Manifold[] = [];
      for (let i = -n; i <= n; i++)
        for (let j = -n; j <= n; j++)
          if (Math.hypot(i, j) * PRINT.grillePitch <= reach)
            holes.push(rod(x + i * PRINT.grillePitch, y + j * PRINT.grillePitch, PRINT.grilleHole, L.plateUnder - 1, L.plateTop + 1));
      return holes;
    });
  const capTrouble = riders.map((p) => riderProblem(p, L)).filter((m) => m);
  if (capTrouble.length) throw new Error(capTrouble.join("; "));
  const keyCuts = keyHoles.map((o) => box(o, L.plateUnder - 1, L.plateTop + 1));
  // Baffles stop short of the caps' and the knob's flanges.
  const capRooms = riders.flatMap((p) => travelEnds(p).map((at) => riderSolid(k, p, L, PRINT.fit, at)));
  let top = Manifold.union([shell, ...posts, Manifold.difference([union(baffles), ...capRooms])]);
  const lid = b.shield ? shieldLid(k, b.shield, L) : undefined;
  let shield = lid?.shield;
  top = Manifold.difference([top, ...pilots, ...ledHoles, ...keyCuts, ...openingCuts, ...(lid?.pinHoles ?? []), ...channels, ...grille]);

  // The round offsets leave a few vertices closer than float32 (an STL's precision) tells apart; merging
  // them keeps every triangle a real one.
  bottom = bottom.simplify(MERGE);
  top = top.simplify(MERGE);
  shield = shield?.simplify(MERGE);
  const flip = (m: Manifold) => toBed(m.rotate([180, 0, 0]));
  const parts: PrintedPart[] = [
    { name: "bottom", kind: "housing", title: "bottom shell: prints floor down", count: 1, assembled: bottom, print: toBed(bottom) },
    { name: "top", kind: "housing", title: "top shell: prints face down", count: 1, assembled: top, print: flip(top) },
  ];
  if (shield) {
    const title = "codemaker's shield: prints roof down";
    parts.push({ name: "shield", kind: "housing", title, count: 1, assembled: shield, print: flip(shield) });
  }
  const keys = riders.filter((p) => p.key);
  for (const size of [...new Set(keys.map((p) => p.key!.capSize))].sort((a, c) => c - a)) {
    const caps = keys.filter((p) => p.key!.capSize === size).map((p) => riderSolid(k, p, L));
    const title = `${size} mm key cap: prints socket down`;
    parts.push({ name: `key-cap-${size}`, kind: "cap", title, count: caps.length, assembled: Manifold.union(caps), print: toBed(caps[0]) });
  }
  for (const p of riders.filter((q) => q.slide)) {
    const knob = riderSolid(k, p, L);
    const title = "power switch knob: prints socket down";
    parts.push({ name: "switch-knob", kind: "cap", title, count: 1, assembled: knob, print: toBed(knob) });
  }

  const seat = L.floorBottom + screw.headDepth;
  const longest = T - seat + screw.maxThread;
  const shortest = T - seat + screw.minThread;
  const screwLength = [...screw.lengths].reverse().find((l) => l <= longest && l >= shortest);
  if (screwLength === undefined)
    throw new Error(
      `no stock ${screw.name} length between ${shortest.toFixed(1)} and ${longest.toFixed(1)} mm (${screw.lengths.join(", ")})`,
    );
  return { board: b, levels: L, screw, screwLength, openings, parts };
}

/**
 * The codemaker's shield: it stands on the top, held in place by a pin in each corner in a shallow hole of
 * the top. (A rim would keep the top from lying flat on its face to print; a groove would cut the diffusers
 * of the LEDs beside it.)
 */
function shieldLid(k: Kernel, region: Box2, L: Levels): { shield: Manifold; pinHoles: Manifold[] } {
  const { Manifold } = k;
  const cover = grow(region, PRINT.shieldInset);
  const c = PRINT.shieldCorner;
  const corners: [number, number][] = [
    [cover.x0 + c / 2, cover.y0 + c / 2],
    [cover.x1 - c / 2, cover.y0 + c / 2],
    [cover.x0 + c / 2, cover.y1 - c / 2],
    [cover.x1 - c / 2, cover.y1 - c / 2],
  ];
  const block = (r: Box2, z0: number, z1: number) => Manifold.cube([r.x1 - r.x0, r.y1 - r.y0, z1 - z0]).translate([r.x0, r.y0, z0]);
  const pin = (x: number, y: number, d: number, z0: number, z1: number) =>
    Manifold.cylinder(z1 - z0, d / 2, d / 2, segmentsFor(d / 2)).translate([x, y, z0]);
  const shell = block(grow(cover, PRINT.shieldWall), L.plateTop, L.shieldTop).subtract(
    block(cover, L.plateTop - 1, L.shieldTop - PRINT.shieldRoof),
  );
  const blocks = corners.map(([x, y]) =>
    block({ x0: x - c / 2, x1: x + c / 2, y0: y - c / 2, y1: y + c / 2 }, L.plateTop, L.shieldTop - 0.5),
  );
  const pins = corners.map(([x, y]) => pin(x, y, PRINT.shieldPin, L.plateTop - PRINT.shieldPinLength, L.plateTop + 0.5));
  const holeDepth = PRINT.shieldPinLength + 0.3;
  const pinHoles = corners.map(([x, y]) => pin(x, y, PRINT.shieldPin + 2 * PRINT.fit, L.plateTop - holeDepth, L.plateTop + 1));
  return { shield: Manifold.union([shell, ...blocks, ...pins]), pinHoles };
}

/** Where a rider can be along its travel: the two ends for a knob, the middle for a cap. */
export function travelEnds(p: BoardPart): number[] {
  return p.slide ? [-p.slide.travel / 2, p.slide.travel / 2] : [0];
}

/** Moves a solid so its bounding box starts at the origin: on the bed, in the first quadrant. */
function toBed(m: Manifold): Manifold {
  const { min } = m.boundingBox();
  return m.translate([-min[0], -min[1], -min[2]]);
}
