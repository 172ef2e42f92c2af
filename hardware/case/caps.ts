/**
 * The printed parts that ride in openings of the top: a cap on each key's plunger, and a knob on the power
 * switch's lever that slides in a slot. Each is a square column that stands proud of the top, with a flange
 * under the plate that keeps it in and a socket in its underside; it prints standing as it is used, the
 * socket opening onto the bed, and a 45° chamfer under the flange needs no support.
 */
import { type Kernel, type Manifold, segmentsFor } from "./manifold.ts";
import { PRINT } from "./params.ts";
import { type BoardPart, type Box2, centre } from "./board.ts";

export interface CapLevels {
  boardTop: number;
  plateUnder: number;
  plateTop: number;
}

/** The power switch's knob: its column, the socket over the lever, and how deep the lever goes in. */
export const KNOB = { column: 4, socket: 2.4, socketDepth: 2.5 };

/** A key cap or a switch knob: what rides in an opening of the top. */
export function isRider(p: BoardPart): boolean {
  return !!(p.key || p.slide);
}

/** The rider's column: its sides along x and y. */
function column(p: BoardPart): [number, number] {
  return p.key ? [p.key.capSize, p.key.capSize] : [KNOB.column, KNOB.column];
}

/** The rider's underside, resting on the plunger or round the lever's top. */
function riderBottom(p: BoardPart, L: CapLevels): number {
  return L.boardTop + p.height - (p.key ? PRINT.capSocketDepth : KNOB.socketDepth);
}

/** The opening a rider needs in the plate: its column, the knob's travel, and the key gap round it. */
export function riderOpening(p: BoardPart): Box2 {
  const [x, y] = centre(p.box);
  const [w, h] = column(p);
  const t = p.slide?.travel ?? 0;
  const [ex, ey] = p.slide?.axis === "x" ? [t, 0] : [0, t];
  const g = PRINT.keyGap;
  return { x0: x - w / 2 - ex / 2 - g, x1: x + w / 2 + ex / 2 + g, y0: y - h / 2 - ey / 2 - g, y1: y + h / 2 + ey / 2 + g };
}

/**
 * The rider as assembled (a knob `shift` mm along its travel from the middle). `grow` widens it on every
 * side (the fit checks ask for room round it); the socket is then left out.
 */
export function riderSolid(k: Kernel, p: BoardPart, L: CapLevels, grow = 0, shift = 0): Manifold {
  const { Manifold } = k;
  const [cx, cy] = centre(p.box);
  const [x, y] = p.slide?.axis === "x" ? [cx + shift, cy] : [cx, cy + shift];
  const [w, h] = column(p);
  const t = p.slide?.travel ?? 0;
  // A knob's flange covers its slot from end to end of the travel.
  const [fx, fy] = p.slide?.axis === "x" ? [2 * t, 0] : [0, 2 * t];
  const bottom = riderBottom(p, L);
  const flangeTop = L.plateUnder - PRINT.fit;
  const flangeBottom = flangeTop - PRINT.capFlangeHeight;
  const top = L.plateTop + PRINT.capProud;
  const block = (sx: number, sy: number, z0: number, z1: number) =>
    Manifold.cube([sx + 2 * grow, sy + 2 * grow, z1 - z0 + 2 * grow], true).translate([x, y, (z0 + z1) / 2]);
  const f = 2 * PRINT.capFlange;
  const body = Manifold.union([
    block(w, h, bottom, top),
    Manifold.hull([
      block(w + f + fx, h + f + fy, flangeBottom, flangeTop),
      block(w + fx, h + fy, flangeBottom - PRINT.capFlange, flangeBottom),
    ]),
  ]);
  if (grow) return body;
  const depth = p.key ? PRINT.capSocketDepth : KNOB.socketDepth;
  if (p.key) {
    const r = p.key.plunger / 2 + PRINT.fit / 2;
    return body.subtract(Manifold.cylinder(depth + 1, r, r, segmentsFor(r)).translate([x, y, bottom - 1]));
  }
  return body.subtract(Manifold.cube([KNOB.socket, KNOB.socket, depth + 1], true).translate([x, y, bottom + (depth - 1) / 2]));
}

/** The flange must clear the switch below it and the plate above it. */
export function riderProblem(p: BoardPart, L: CapLevels): string | undefined {
  const bottom = riderBottom(p, L);
  const flangeBottom = L.plateUnder - PRINT.fit - PRINT.capFlangeHeight - PRINT.capFlange;
  if (flangeBottom < bottom) return `${p.ref}: the plate is too low for its cap's flange`;
  if (p.key && bottom < L.boardTop + p.key.bodyHeight + 0.3) return `${p.ref}: its cap would rest on the switch body, not the plunger`;
  return undefined;
}
