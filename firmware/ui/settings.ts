/**
 * The unit's settings: what they are, their options, their defaults and their check. The menu
 * (ui/menu.ts) changes them, the games read their own (matchConfig, flipConfig), the save holds them.
 */
import type { MatchConfig, MatchMode, PresetId } from "../core/types";
import type { FlipConfig, FlipMode } from "../core/brainflip";
import { MODES } from "../core/match";
import type { Layout } from "./layout";

/** The games on the menu's first row: the three codebreaker sheets and Brain Flip. */
export type GameId = PresetId | "brainflip";

/**
 * The settings, one per index (S_*): a list, so that a menu item names its setting by an index rather
 * than by a pair of functions to read and write it, and the save holds them in a dozen bytes.
 * NamedSettings is the same by name, for views and tools (settingsByName).
 */
export type Settings = [GameId, boolean, MatchMode, number, number, boolean, number, boolean, FlipMode, number, number, boolean];
/** The game chosen: a codebreaker preset or Brain Flip. */
export const S_GAME = 0;
/** The harder variant. */
export const S_HARDER = 1;
/** The codebreaker roles. */
export const S_MODE = 2;
/** The codebreaker match length. */
export const S_GAMES = 3;
/** 0 (dimmest) .. BRIGHTNESS_STEPS-1. */
export const S_BRIGHTNESS = 4;
export const S_SOUND = 5;
/** Idle minutes before sleep (one of SLEEP_MENU). */
export const S_SLEEP = 6;
/** Lock the USB console while a two-player game holds a secret. */
export const S_LOCK = 7;
/** Brain Flip: its rules, players, grid size, and whether the unit flips the answers. */
export const S_FLIP_MODE = 8;
export const S_PLAYERS = 9;
export const S_GRID = 10;
export const S_UNIT_FLIPS = 11;
export const SETTINGS_COUNT = 12;

/** A codebreaker match's config from the settings. */
export function matchConfig(s: Settings): MatchConfig {
  return { preset: s[S_GAME] as PresetId, harder: s[S_HARDER], mode: s[S_MODE], games: s[S_GAMES] };
}

/** A Brain Flip game's config from the settings (the grid as chosen, before a build's limit). */
export function flipConfig(s: Settings): FlipConfig {
  return { players: s[S_PLAYERS], grid: s[S_GRID], mode: s[S_FLIP_MODE], unitFlips: s[S_UNIT_FLIPS] };
}

/** The settings' names, by index (views, tools and the save's Node-side decoder; not in the bundle). */
export const SETTING_NAMES = [
  "preset",
  "harder",
  "mode",
  "games",
  "brightness",
  "sound",
  "sleepMin",
  "lockConsole",
  "flipMode",
  "players",
  "flipGrid",
  "unitFlips",
] as const;

/** Brain Flip's settings by name. */
export interface FlipSettings {
  flipMode: "flip" | "straight";
  players: number;
  flipGrid: number;
  unitFlips: boolean;
}

/** The settings by name (views and tools). */
export interface NamedSettings extends FlipSettings {
  preset: GameId;
  harder: boolean;
  mode: MatchMode;
  games: number;
  brightness: number;
  sound: boolean;
  sleepMin: number;
  lockConsole: boolean;
}

/** Settings by index -> by name. */
export function settingsByName(s: Settings): NamedSettings {
  const out: Record<string, unknown> = {};
  SETTING_NAMES.forEach((name, i) => (out[name] = s[i]));
  return out as unknown as NamedSettings;
}

/** Settings by name -> by index. */
export function settingsByIndex(n: NamedSettings): Settings {
  return SETTING_NAMES.map((name) => n[name]) as unknown as Settings;
}

export const MODE_MENU: MatchMode[] = MODES;
export const GAMES_MENU = [2, 4, 6, 8, 10];
export const FLIP_PLAYERS_MENU = [2, 3, 4, 5, 6];
/** (The same options as the players: one array in the bundle.) */
export const FLIP_GRID_MENU = FLIP_PLAYERS_MENU;
export const BRIGHTNESS_STEPS = 4;
export const BRIGHTNESS_MENU = [0, 1, 2, 3];
/** Idle minutes before the unit sleeps, cycled by one menu key. */
export const SLEEP_MENU = [2, 5, 15];

/** The largest Brain Flip grid a build can offer: 6x6 with a codemaker pad for the Master's keys, else 5x5. */
export function maxFlipGrid(L: Layout): number {
  return L.maker ? 6 : 5;
}

/** Brainiac refereed, 4 games; brightness 2 of 4, sound on, sleep after 5 minutes, console lock on; Brain Flip for 3 on 6x6. */
export function defaultSettings(): Settings {
  return ["brainiac", false, "referee", 4, 1, true, 5, true, "flip", 3, 6, false];
}

/** Are the unit's own settings as the menu could have made them? (Each game checks its own: GameKind.settingsProblem.) */
export function settingsValid(set: Settings): boolean {
  return (
    Array.isArray(set) &&
    set.length === SETTINGS_COUNT &&
    SLEEP_MENU.indexOf(set[S_SLEEP]) >= 0 &&
    typeof set[S_LOCK] === "boolean" &&
    typeof set[S_SOUND] === "boolean" &&
    set[S_BRIGHTNESS] >= 0 &&
    set[S_BRIGHTNESS] < BRIGHTNESS_STEPS
  );
}
