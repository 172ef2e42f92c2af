/**
 * What the ui knows of the build (its Layout, a part of the compiled profile, firmware/profile.ts)
 * and the grid positions of the play screen's controls.
 */
import type { CompiledProfile } from "../profile";

/** What the ui needs to know of the build: segments, sizes, and which key is which grid position or codemaker-pad function. */
export type Layout = Pick<
  CompiledProfile<unknown>,
  "pegs" | "rows" | "ledCount" | "seg" | "segLen" | "secretShielded" | "keyCount" | "maker"
>;

/** Grid positions (0..35, reading order) of the play screen's controls. */
export const G_COLOUR = 0; // colours 1..8 at 0..7 (row 1 and the start of row 2)
export const G_BLANK = 8;
export const G_SLOT = 12; // one key per hole: row 3
export const G_EXACT = 18; // feedback entry on builds without a codemaker pad
export const G_NEAR = 19;
/** The hint key of a human codebreaker: how many codes still fit, and one of them in the row. */
export const G_HINT = 11;
export const G_MENU = 30;
export const G_UNDO = 33;
export const G_CLEAR = 34;
export const G_OK = 35;
