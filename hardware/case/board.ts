/**
 * What the case needs to know about the board, in the case's frame: millimetres, x to the right and y up
 * seen from above (KiCad's y runs down, so the board's y is negated: a mirrored case would not fit), z up
 * from the board's bottom face. Built from the board's placement (hardware/kicad/placement.ts).
 */

export type Point = [number, number];

export interface Box2 {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export type PartRole = "key" | "led" | "usb" | "switch" | "cell" | "buzzer" | "other";

export interface BoardPart {
  ref: string;
  role: PartRole;
  /** "bottom": hangs under the board (the cell, the charger). */
  side: "top" | "bottom";
  /** Footprint of the body. */
  box: Box2;
  /** Body height from the board face it sits on, and where the body starts (a socket on a module). */
  height: number;
  base?: number;
  /** USB: what must come in from outside to meet it (a plug's overmould, a socket), along the edge and in z. */
  plug?: [number, number];
  /**
   * Keys (height is the plunger's top): the printed cap's side, the switch body's height under the
   * plunger, and the plunger's diameter (the cap's socket fits over it).
   */
  key?: { capSize: number; bodyHeight: number; plunger: number };
  /** A slide switch (height is its lever's top): the lever's axis and travel; a printed knob slides on it. */
  slide?: { axis: "x" | "y"; travel: number };
  /** LEDs seen through the top: the hole over it, and whether the top diffuses it (a thin skin over the hole). */
  light?: { d: number; diffuse: boolean };
}

export interface CaseBoard {
  id: string;
  /** Closed outline, counter-clockwise. */
  outline: Point[];
  thickness: number;
  /** Mounting holes: the drill, and the keep-out round it where the board has no parts. */
  holes: { x: number; y: number; d: number; keepout?: number }[];
  parts: BoardPart[];
  /** What the codemaker's shield covers (the secret's LEDs and the codemaker's pad). */
  shield?: Box2;
  /** Where a lead passes round the board's edge, from under the board to over it (the cell's to the charger). */
  cableWays?: Box2[];
}

export function centre(b: Box2): Point {
  return [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
}

export function grow(b: Box2, d: number): Box2 {
  return { x0: b.x0 - d, y0: b.y0 - d, x1: b.x1 + d, y1: b.y1 + d };
}

/** Whether two boxes share some area (touching edges do not count). */
export function boxesOverlap(a: Box2, b: Box2): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

export function outlineBox(outline: Point[]): Box2 {
  const xs = outline.map((p) => p[0]);
  const ys = outline.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The side of the board's bounding box nearest a part: where an edge connector faces out. */
export function nearestSide(board: Box2, part: Box2): "left" | "right" | "bottom" | "top" {
  const d = { left: part.x0 - board.x0, right: board.x1 - part.x1, bottom: part.y0 - board.y0, top: board.y1 - part.y1 };
  return (Object.keys(d) as (keyof typeof d)[]).reduce((a, b) => (d[b] < d[a] ? b : a));
}
