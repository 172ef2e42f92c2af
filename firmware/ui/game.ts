/**
 * A kind of game, as the unit's one list of games (ui/games.ts) holds it: what the menu offers for it,
 * where its state is saved, and its screen. The menu, a new game, the save and its restore, and the
 * console lock all go through the list; a game's rules are its core module, its keys and LEDs its screen.
 */
import type { Layout } from "./layout";
import type { Host } from "./host";
import type { MenuItem } from "./menu";
import type { GameScreen } from "./screen";
import type { Settings } from "./settings";
import type { MatchState } from "../core/types";
import type { FlipState } from "../core/brainflip";

/**
 * What survives a power loss (in Storage in the format of firmware/save-format.ts, version SAVE_VERSION):
 * the settings, the screen shown, and each game's state under its own field (GameKind.saved).
 */
export interface SavedState {
  v: number;
  screen: string;
  settings: Settings;
  match: MatchState | null;
  flip: FlipState | null;
  /** A game added to the list saves under a field of its own. */
  [game: string]: unknown;
}

export interface GameKind {
  /** The values of the game setting (Settings.preset) that play it: one key each on the menu's first row, in this order. */
  ids: string[];
  /**
   * Its state's field in the saved state, read and written. (Property accesses, not a key as a string: the
   * bundle's names are the save format's keys, firmware/save-format.ts SAVE_KEYS, and the source's are not.)
   */
  stateIn(s: SavedState): unknown;
  putState(s: SavedState, state: unknown): void;
  /** Its settings on the menu (rows 2 to 4); the unit's own (row 5, the lock) follow. */
  menu: MenuItem[];
  /** Can this build play the option (e.g. five holes per row)? All can when absent. */
  fits?: (layout: Layout, id: string) => boolean;
  /** Why a saved state of this game cannot be used (null: it can). */
  check(state: unknown): string | null;
  /** Its screen, made once at start. */
  screen(host: Host, rand: () => number): GameScreen;
}

/** Every game option of the list, in the order of the menu's first row. */
export function gameIds(kinds: GameKind[]): string[] {
  return kinds.reduce((ids: string[], kind) => ids.concat(kind.ids), []);
}

/** The index in the list of the game that plays this option (-1: none). */
export function kindIndex(kinds: GameKind[], id: unknown): number {
  return kinds.findIndex((kind) => kind.ids.indexOf(id as string) >= 0);
}
