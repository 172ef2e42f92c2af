/**
 * Printed key caps for the tactile switches: a square button that stands proud of the top, a flange under
 * the plate that keeps it in, and a socket in its underside that sits on the switch's plunger. One cap
 * prints flange down (the socket opens onto the bed); every key takes the same one.
 */
import { type Kernel, type Manifold, segmentsFor } from "./manifold.ts";
import { PRINT } from "./params.ts";
import { type BoardPart, centre } from "./board.ts";

export interface CapLevels {
  boardTop: number;
  plateUnder: number;
  plateTop: number;
}

/**
 * The cap over one key as assembled, at rest on its plunger. `grow` widens it on every side (the fit
 * checks ask for room round it); the socket is then left out.
 */
export function capSolid(k: Kernel, key: BoardPart, L: CapLevels, grow = 0): Manifold {
  const { Manifold } = k;
  const spec = key.key!;
  const [x, y] = centre(key.box);
  const bottom = L.boardTop + key.height - PRINT.capSocketDepth;
  const flangeTop = L.plateUnder - PRINT.fit;
  const top = L.plateTop + PRINT.capProud;
  const square = (side: number, z0: number, z1: number) =>
    Manifold.cube([side + 2 * grow, side + 2 * grow, z1 - z0 + 2 * grow], true).translate([x, y, (z0 + z1) / 2]);
  const body = Manifold.union([
    square(spec.capSize, bottom, top),
    square(spec.capSize + 2 * PRINT.capFlange, flangeTop - PRINT.capFlangeHeight, flangeTop),
  ]);
  if (grow) return body;
  const r = spec.plunger / 2 + PRINT.fit / 2;
  return body.subtract(Manifold.cylinder(PRINT.capSocketDepth + 1, r, r, segmentsFor(r)).translate([x, y, bottom - 1]));
}

/** The flange must clear the switch body below it and the plate above it. */
export function capProblem(key: BoardPart, L: CapLevels): string | undefined {
  const bottom = L.boardTop + key.height - PRINT.capSocketDepth;
  const flangeBottom = L.plateUnder - PRINT.fit - PRINT.capFlangeHeight;
  if (flangeBottom < bottom) return `${key.ref}: the plate is too low for its cap's flange`;
  if (bottom < L.boardTop + key.key!.bodyHeight + 0.3) return `${key.ref}: its cap would rest on the switch body, not the plunger`;
  return undefined;
}
