/**
 * The codebreaker games (Brainiac, the travel unit, the five-peg race) on the list of games
 * (ui/games.ts): their menu is the variant, the roles and the match length; their screen is
 * ui/codebreaker.ts.
 */
import { PRESET_IDS, rulesFor } from "../core/presets";
import { checkConfig, checkMatchState } from "../core/match";
import type { MatchState, PresetId } from "../core/types";
import type { GameKind } from "./game";
import { CodebreakerScreen } from "./codebreaker";
import { OFF_ON } from "./menu";
import { BLUE, GREEN, ORANGE } from "./palette";
import { GAMES_MENU, matchConfig, MODE_MENU, S_GAME, S_GAMES, S_HARDER, S_MODE } from "./settings";

export const CODEBREAKER: GameKind = {
  ids: PRESET_IDS,
  stateIn: (s) => s.match,
  putState: (s, state) => (s.match = state as MatchState | null),
  menu: [
    { at: 6, options: OFF_ON, colours: [GREEN], set: S_HARDER },
    { at: 12, options: MODE_MENU, colours: [ORANGE], set: S_MODE },
    // The race has no agreed length (first to hole 30).
    { at: 18, options: GAMES_MENU, colours: [BLUE], set: S_GAMES, allowed: (_v, s) => s[S_GAME] !== "race" },
  ],
  // The five-peg race needs five holes per row.
  fits: (layout, id) => rulesFor(id as PresetId, false).pegs <= layout.pegs,
  // The match settings are checked when a codebreaker game is chosen (else the game setting is not a preset).
  settingsProblem: (s) => (PRESET_IDS.indexOf(s[S_GAME] as PresetId) < 0 ? null : checkConfig(matchConfig(s))),
  check: checkMatchState,
  screen: (host, rand) => new CodebreakerScreen(host, rand),
};
