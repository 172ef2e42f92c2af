/**
 * What the ui needs to know of the build: where each LED segment starts in the chain, and which
 * key index is which grid position or codemaker-pad function. main.ts fills it from the profile.
 */
export interface Segments {
  board: number;
  keys: number;
  secret: number;
  pad: number;
  track: number;
  status: number;
}
export interface MakerKeys {
  colours: number[];
  blank: number;
  exact: number;
  near: number;
  yes: number;
  no: number;
  undo: number;
  ok: number;
}
export interface Layout {
  /** Holes per board row and rows on the board. */
  pegs: number;
  rows: number;
  ledCount: number;
  /** First LED of each segment, -1 when the build lacks it. */
  seg: Segments;
  segLen: Segments;
  /** The secret segment sits under the codemaker's shield. */
  secretShielded: boolean;
  keyCount: number;
  /** The key index of each of the 36 grid positions, in reading order. */
  grid: number[];
  /** The codemaker pad, when the build has one. */
  maker: MakerKeys | undefined;
}

/** Grid positions (0..35, reading order) of the play screen's controls. */
export const G_COLOUR = 0; // colours 1..8 at 0..7 (row 1 and the start of row 2)
export const G_BLANK = 8;
export const G_SLOT = 12; // one key per hole: row 3
export const G_EXACT = 18; // feedback entry on builds without a codemaker pad
export const G_NEAR = 19;
export const G_MENU = 30;
export const G_UNDO = 33;
export const G_CLEAR = 34;
export const G_OK = 35;
