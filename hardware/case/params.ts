/**
 * Print and fit settings for FDM (a 0.4 mm nozzle, 0.2 mm layers, PLA or PETG), and the screws that hold
 * the case together: each one goes up from under the case through the bottom shell's boss and the board's
 * mounting hole and cuts its own thread into the top shell's post, clamping the board between the two. (A
 * heat-set insert wants a post wider than the board's keep-out round its holes allows.)
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
  /** Between two printed parts that slide together (the lip and its groove, the shield's pins in their holes). */
  fit: 0.3,
  /** The gap left between the two shells' walls (the lip covers it). */
  seam: 0.2,
  /** The bottom shell's lip that locates the top shell, and its height. */
  lipHeight: 2.0,
  /** The least room under the board (through-hole leads stick out about 2 mm). */
  underMin: 4.0,
  /** Skin left over a diffused LED: three 0.2 mm layers, printed first (the top prints face down). */
  diffuser: 0.6,
  /** The baffle walls round each LED's light pipe, which keep one LED's light out of its neighbours' holes. */
  pipeWall: 1.0,
  /** The codemaker's shield: its walls' inside this far outside the region it covers (less than nothing: it
   * stands just inside, clear of the LEDs beside it); a block in each corner with a pin that drops into a hole
   * in the top. */
  shieldInset: -0.3,
  shieldCorner: 3.5,
  shieldPin: 2.0,
  shieldPinLength: 1.2,
  shieldWall: 1.2,
  shieldRoof: 1.6,
  /** Printed key caps: how far a cap stands over the top, its flange under the plate (which keeps it in), and
   * the socket over the switch's plunger (the cap's underside then clears the switch body by a travel's worth). */
  capProud: 2.0,
  capFlange: 1.0,
  capFlangeHeight: 1.0,
  capSocketDepth: 1.0,
  /** The corner guides that hold the cell on the bottom's floor. */
  guideWall: 1.2,
  guideHeight: 3.0,
  /** Plastic round the screw head's counterbore, where the boss flares into the floor. */
  counterboreWall: 1.2,
  /** The buzzer's grille: holes through the plate on a square grid. */
  grilleHole: 1.5,
  grillePitch: 3.0,
  /** What a cable way's channel leaves of the wall behind it. */
  channelSkin: 0.8,
  /** The printer's bed. */
  bed: { x: 220, y: 220, z: 200 },
} as const;

export interface Screw {
  name: string;
  /** Through the bottom boss (a clearance hole) and its head's counterbore from below. */
  clearance: number;
  head: number;
  headDepth: number;
  /** The pilot hole in the top's post that the screw cuts its own thread into, and the thread's least and most length. */
  pilot: number;
  minThread: number;
  maxThread: number;
  /** Boss and post diameter, where the board's keep-out allows it. */
  boss: number;
  /** Stock screw lengths, shortest first. */
  lengths: number[];
}

const SCREWS: Screw[] = [
  {
    name: "M2 button head",
    clearance: 2.4,
    head: 4.0,
    headDepth: 2.0,
    pilot: 1.7,
    minThread: 4,
    maxThread: 6,
    boss: 5,
    lengths: [6, 8, 10, 12, 16, 20],
  },
  {
    name: "M2.5 button head",
    clearance: 2.9,
    head: 4.7,
    headDepth: 2.2,
    pilot: 2.1,
    minThread: 5,
    maxThread: 7,
    boss: 6,
    lengths: [6, 8, 10, 12, 16, 20],
  },
  {
    name: "M3 button head",
    clearance: 3.4,
    head: 5.7,
    headDepth: 2.5,
    pilot: 2.6,
    minThread: 5,
    maxThread: 8,
    boss: 7,
    lengths: [6, 8, 10, 12, 16, 20, 25],
  },
];

/** The largest screw that passes the board's mounting hole (a 3.2 mm hole takes M3). */
export function screwFor(holeDiameter: number): Screw {
  const fits = SCREWS.filter((s) => s.clearance - 0.2 <= holeDiameter);
  if (!fits.length) throw new Error(`a ${holeDiameter} mm mounting hole is smaller than an M2 screw needs (2.2 mm)`);
  return fits[fits.length - 1];
}
