/**
 * Print and fit settings for FDM (a 0.4 mm nozzle, 0.2 mm layers, PLA or PETG), and the screws that hold
 * the case together: each one goes up from under the case through the bottom shell's boss and the board's
 * mounting hole into a heat-set insert in the top shell's post, clamping the board between the two.
 */

export const PRINT = {
  /** Side walls; the bottom's floor and the top's plate. */
  wall: 2.0,
  floor: 2.0,
  plate: 2.0,
  /** Board edge to inner wall. */
  boardGap: 0.5,
  /** The least room around and above any part (the fit tests hold the case to it). */
  partGap: 1.0,
  /** Around each key cap in its opening. */
  keyGap: 0.4,
  /** Between two printed parts that slide together (the lip and its groove, the shield on its rim). */
  fit: 0.3,
  /** The bottom shell's lip that locates the top shell, and its height. */
  lipHeight: 2.0,
  /** The least room under the board (through-hole leads), and the most the cell gets under it. */
  underMin: 4.0,
  /** Skin left over a diffused LED: three 0.2 mm layers, printed first (the top prints face down). */
  diffuser: 0.6,
  /** The baffle walls round each LED's light pipe, which keep one LED's light out of its neighbours' holes. */
  pipeWall: 1.0,
  /** The codemaker shield's locating rim on the top, and the shield's walls and roof. */
  rimWidth: 1.2,
  rimHeight: 2.0,
  shieldWall: 1.6,
  shieldRoof: 1.6,
  /** Printed key caps: how far a cap stands over the top, its flange under the plate (which keeps it in), and
   * the socket over the switch's plunger (the cap's underside then clears the switch body by a travel's worth). */
  capProud: 2.0,
  capFlange: 1.0,
  capFlangeHeight: 1.0,
  capSocketDepth: 1.0,
  /** The printer's bed. */
  bed: { x: 220, y: 220, z: 200 },
} as const;

export interface Screw {
  name: string;
  /** Through the bottom boss (a clearance hole) and its head's counterbore from below. */
  clearance: number;
  head: number;
  headDepth: number;
  /** The heat-set insert in the top post: its hole and length. */
  insertHole: number;
  insertLength: number;
  insertName: string;
  /** Boss and post diameter. */
  boss: number;
  /** Stock screw lengths, shortest first. */
  lengths: number[];
}

const SCREWS: Screw[] = [
  {
    name: "M2 socket head",
    clearance: 2.4,
    head: 4.4,
    headDepth: 2.4,
    insertHole: 3.2,
    insertLength: 4,
    insertName: "M2 x 4 heat-set insert (3.2 mm hole)",
    boss: 6,
    lengths: [6, 8, 10, 12, 16, 20],
  },
  {
    name: "M2.5 socket head",
    clearance: 2.9,
    head: 5.0,
    headDepth: 2.8,
    insertHole: 3.6,
    insertLength: 5,
    insertName: "M2.5 x 5 heat-set insert (3.6 mm hole)",
    boss: 6.5,
    lengths: [6, 8, 10, 12, 16, 20],
  },
  {
    name: "M3 socket head",
    clearance: 3.4,
    head: 6.0,
    headDepth: 3.2,
    insertHole: 4.0,
    insertLength: 5.7,
    insertName: "M3 x 5.7 heat-set insert (4.0 mm hole)",
    boss: 7.5,
    lengths: [6, 8, 10, 12, 16, 20, 25],
  },
];

/** The largest screw that passes the board's mounting hole (a 3.2 mm hole takes M3). */
export function screwFor(holeDiameter: number): Screw {
  const fits = SCREWS.filter((s) => s.clearance - 0.2 <= holeDiameter);
  if (!fits.length) throw new Error(`a ${holeDiameter} mm mounting hole is smaller than an M2 screw needs (2.2 mm)`);
  return fits[fits.length - 1];
}
