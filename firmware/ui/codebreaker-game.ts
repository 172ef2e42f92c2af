/**
 * The codebreaker games (Brainiac, the travel unit, the five-peg race) on the list of games
 * (ui/games.ts): their menu is the variant, the roles and the match length; their screen is
 * ui/codebreaker.ts.
 */
import { PRESET_IDS, rulesFor } from "../core/presets";
import { checkMatchState } from "../core/match";
import type { MatchState, PresetId } from "../core/types";
import type { GameKind } from "./game";
import { CodebreakerScreen } from "./codebreaker";
import { BLUE, GREEN, ORANGE } from "./palette";
import { SETTINGS } from "./settings";

export const CODEBREAKER: GameKind = {
  ids: PRESET_IDS,
  stateIn: (s) => s.match,
  putState: (s, state) => (s.match = state as MatchState | null),
  menu: [
    { at: 6, colours: [GREEN], setting: SETTINGS.harder },
    { at: 12, colours: [ORANGE], setting: SETTINGS.mode },
    // The race has no agreed length (first to hole 30).
    { at: 18, colours: [BLUE], setting: SETTINGS.games, allowed: (_v, s) => s.preset !== "race" },
  ],
  // The five-peg race needs five holes per row.
  fits: (layout, id) => rulesFor(id as PresetId, false).pegs <= layout.pegs,
  check: checkMatchState,
  screen: (host, rand) => new CodebreakerScreen(host, rand),
};
