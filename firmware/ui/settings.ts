/**
 * The unit's settings, each a named entry: its options (what the menu offers, in the menu's order, and
 * all a restore accepts) and its default. The menu (ui/menu.ts) changes them by name, the games read
 * their own (matchConfig, flipConfig), the save holds them by name (firmware/save-format.ts SAVE_KEYS),
 * and the page and the printed overlay name their options (SETTING_LEGENDS).
 */
import type { MatchConfig, MatchMode, PresetId } from "../core/types";
import type { FlipConfig, FlipMode } from "../core/brainflip";
import { MODES } from "../core/match";
import type { Layout } from "./layout";

/** The games on the menu's first row: the three codebreaker sheets and Brain Flip (and any game added to the list). */
export type GameId = PresetId | "brainflip";

/** The settings by name. */
export interface Settings {
  /** The game chosen: a codebreaker preset or Brain Flip (one of the list of games' ids, ui/games.ts). */
  preset: GameId;
  /** The codebreaker games: the harder variant, the roles, the match length. */
  harder: boolean;
  mode: MatchMode;
  games: number;
  /** 0 (dimmest) .. BRIGHTNESS_STEPS-1. */
  brightness: number;
  sound: boolean;
  /** Idle minutes before sleep. */
  sleepMin: number;
  /** Lock the USB console while a two-player game holds a secret. */
  lockConsole: boolean;
  /** Brain Flip: its rules, players, grid size, and whether the unit flips the answers. */
  flipMode: FlipMode;
  players: number;
  flipGrid: number;
  unitFlips: boolean;
}

export type SettingName = keyof Settings;

/** One setting. */
export interface Setting {
  /** Its name: its field in Settings. */
  name: SettingName;
  /** Every value it may take, in the menu's order (the game setting's are the list of games', ui/games.ts: set by the menu, ui/menu.ts gameRow). */
  options?: unknown[];
  default: unknown;
}

export const OFF_ON = [false, true];
const ON_OFF = [true, false];
export const MODE_MENU: MatchMode[] = MODES;
export const GAMES_MENU = [2, 4, 6, 8, 10];
export const FLIP_PLAYERS_MENU = [2, 3, 4, 5, 6];
/** (The same options as the players: one array in the bundle.) */
export const FLIP_GRID_MENU = FLIP_PLAYERS_MENU;
export const BRIGHTNESS_STEPS = 4;
export const BRIGHTNESS_MENU = [0, 1, 2, 3];
/** Idle minutes before the unit sleeps, cycled by one menu key. */
export const SLEEP_MENU = [2, 5, 15];

/**
 * Every setting, by name. Brainiac refereed, 4 games; brightness 2 of 4, sound on, sleep after 5 minutes,
 * console lock on; Brain Flip for 3 on 6x6.
 */
export const SETTINGS: { [K in SettingName]: Setting } = {
  preset: { default: "brainiac" } as Setting,
  harder: { options: OFF_ON, default: false } as Setting,
  mode: { options: MODE_MENU, default: "referee" } as Setting,
  games: { options: GAMES_MENU, default: 4 } as Setting,
  brightness: { options: BRIGHTNESS_MENU, default: 1 } as Setting,
  sound: { options: ON_OFF, default: true } as Setting,
  sleepMin: { options: SLEEP_MENU, default: 5 } as Setting,
  lockConsole: { options: ON_OFF, default: true } as Setting,
  flipMode: { options: ["flip", "straight"], default: "flip" } as Setting,
  players: { options: FLIP_PLAYERS_MENU, default: 3 } as Setting,
  flipGrid: { options: FLIP_GRID_MENU, default: 6 } as Setting,
  unitFlips: { options: OFF_ON, default: false } as Setting,
};
const DEFAULTS = {} as Record<string, unknown>;
// Each entry learns its name from its key (the bundle's property names are mangled, a name written as a string would
// not be), and gives its default.
for (const name in SETTINGS) DEFAULTS[name] = SETTINGS[(SETTINGS[name as SettingName].name = name as SettingName)].default;

/** The settings at their defaults. */
export function defaultSettings(): Settings {
  return Object.assign({}, DEFAULTS) as unknown as Settings;
}

/** Why saved settings cannot be used ("bad setting" and its key in the save), or null when every one holds one of its options. */
export function settingsProblem(set: Settings): string | null {
  for (const name in SETTINGS) {
    const options = SETTINGS[name as SettingName].options;
    // (A save without settings, or with settings of another shape, lacks them all.)
    if (options && options.indexOf((set || 0)[name as SettingName]) < 0) return "bad setting " + name;
  }
  return null;
}

/** A codebreaker match's config from the settings. */
export function matchConfig(s: Settings): MatchConfig {
  return { preset: s.preset as PresetId, harder: s.harder, mode: s.mode, games: s.games };
}

/** A Brain Flip game's config from the settings (the grid as chosen, before a build's limit). */
export function flipConfig(s: Settings): FlipConfig {
  return { players: s.players, grid: s.flipGrid, mode: s.flipMode, unitFlips: s.unitFlips };
}

/** The largest Brain Flip grid a build can offer: 6x6 with a codemaker pad for the Master's keys, else 5x5. */
export function maxFlipGrid(L: Layout): number {
  return L.maker ? 6 : 5;
}

const ROLE_NAMES: Record<MatchMode, string> = {
  referee: "unit referees",
  manual: "codemaker answers",
  "unit-makes": "you break first",
  "unit-breaks": "unit breaks first",
};

/**
 * Each setting's options in words, for the page's key labels and the printed overlay (views and tools; not in
 * the bundle). The game setting's are the games' names (ui/games.ts GAME_NAMES).
 */
export const SETTING_LEGENDS: { [K in Exclude<SettingName, "preset">]: (v: Settings[K]) => string } = {
  harder: (v) => (v ? "harder" : "normal"),
  mode: (v) => ROLE_NAMES[v],
  games: (v) => `${v} games`,
  brightness: (v) => `brightness ${v + 1}`,
  sound: (v) => `sound ${v ? "on" : "off"}`,
  sleepMin: (v) => `sleep ${v} min`,
  lockConsole: (v) => `console lock ${v ? "on" : "off"}`,
  flipMode: (v) => (v === "flip" ? "Brain Flip rules" : "straight"),
  players: (v) => `${v} players`,
  flipGrid: (v) => `grid ${v}x${v}`,
  unitFlips: (v) => (v ? "unit flips" : "player flips"),
};

/** A setting's option in words ("sound off", "4 games"). */
export function settingLegend(name: Exclude<SettingName, "preset">, value: unknown): string {
  return (SETTING_LEGENDS[name] as (v: unknown) => string)(value);
}
