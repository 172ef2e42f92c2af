/**
 * The unit's games, one entry each, in the order of the menu's first row. The menu, a new game, the
 * save and its restore, and the console lock all go through this list: adding a game is its rules
 * (a core module), its screen with its GameKind (ui/game.ts), and an entry here.
 */
import type { GameKind } from "./game";
import { gameIds } from "./game";
import { CODEBREAKER } from "./codebreaker-game";
import { BRAIN_FLIP } from "./flip";

export const GAMES: GameKind[] = [CODEBREAKER, BRAIN_FLIP];

/** Each game option's name, for people (views, tools, the overlay; not in the bundle). */
export const GAME_NAMES: Record<string, string> = {
  brainiac: "Brainiac",
  travel: "travel unit",
  race: "five-peg race",
  brainflip: "Brain Flip",
};

/** The menu's first row, key by key: every game option of the list (views and tools; not in the bundle). */
export const GAME_IDS = /* @__PURE__ */ gameIds(GAMES);
