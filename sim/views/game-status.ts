/**
 * What the page's status (sim/views/status.ts) asks of each game: one entry per game of the unit's list
 * (firmware/ui/games.ts), saying in words what its screen shows, what to do next, its numbers and the part
 * of the board it uses. The status reads the game's state from the firmware's latest save and hands it to
 * the entry of the game whose screen is shown (or, on the menu, of the game chosen). The built-in games'
 * entries are sim/views/codebreaker-status.ts and flip-status.ts; a game added to the list brings its own.
 */
import type { VirtualBoard } from "../board/board.ts";
import type { SaveSource } from "../board/saves.ts";
import type { GameKind } from "../../firmware/ui/game.ts";
import type { Settings } from "../../firmware/ui/settings.ts";
import { REFUSAL_COLOURS } from "../../firmware/ui/render.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { REFUSAL_NAMES } from "../../firmware/core/types.ts";
import type { KeyLegend, ScreenLegends } from "../../hardware/key-legends.ts";

export interface PanelScore {
  /** "you", "the unit", "player 1"... */
  name: string;
  value: number;
  /** "points", "holes" */
  unit: string;
}

/**
 * What of the board the game uses: the first `pegs` holes of rows 1..`rows` (and `keyPegs` key pixels of
 * each), the rest out of play. From the game being played, or on the menu the game chosen.
 */
export interface BoardInPlay {
  pegs: number;
  rows: number;
  keyPegs: number;
  /** In words, for the page's model line: "travel unit: 4 holes × 9 rows (board of 5 × 12)". */
  about: string;
}

export interface UnitStatus {
  /** What is on the unit: "off", "asleep", "selftest" (OK held at power-on), "menu", or a game's screen ("codebreaker", "brainflip"...). */
  screen: string;
  /** The part of the board in play. */
  board: BoardInPlay;
  /** What the unit shows and what to do next, in plain words (the page's role="status" line). */
  line: string;
  /** A passing alert read off status LED 2 (a refusal), or "". */
  alert: string;
  /** The game being played or chosen ("Brainiac, normal, 4 games"), or "". */
  game: string;
  scores: PanelScore[];
  /** Facts as numbers: game 2 of 4, row 3 of 12, codes that still fit (while the hint shows), questions left... */
  facts: { label: string; value: string }[];
  /** The match so far, one line per game or round. */
  history: string[];
  /** What each key does on this screen, by key id (empty labels for keys that do nothing here). */
  keys: Record<string, KeyLegend>;
  /** A person is to break the code now: the secret must not show (the page's shield closes itself). */
  secretHidden?: boolean;
  /** The latest row played, in words ("row 3: 2 exact, 1 near"), for screen readers; absent before the first. */
  lastRow?: string;
}

/** A screen's status, before the board in play is added. */
export type ScreenStatus = Omit<UnitStatus, "board">;

/** What the status reads of a board, on either engine (the real one mirrors the save slots: sim/espruino/engine.ts). */
export type StatusBoard = Pick<VirtualBoard, "profile" | "colours" | "isOn" | "ledsPowered"> & { readonly storage: SaveSource };

export type StatusProfile = StatusBoard["profile"];

/** What a game's entry is given besides its state. */
export interface StatusContext {
  profile: StatusProfile;
  /** Every LED segment's colours, by segment name. */
  leds: Record<string, string[]>;
  /** The codemaker's shield is open already (no need to ask for it). */
  shieldOpen: boolean;
  /** Kept for the entry from one call to the next until the firmware saves again (what it saw on the LEDs, counts worked out). */
  memo: Record<string, unknown>;
}

/** One game's status, in words. */
export interface GameStatus {
  /** Its entry in the unit's list of games: the options it plays, its field in the saved state. */
  kind: GameKind;
  /** Its screen's name as the firmware saves it (SavedState.screen). */
  screen: string;
  /** What the menu's rows 2 to 5 set for it, in words ("row 2 normal or harder, ..."). */
  menuRows: string;
  /** The settings chosen for it, in words, for the menu's line ("Brainiac, normal, ..."). */
  chosen(s: Settings): string;
  /** The part of the board it uses: for its state (being played), or, with none, for the settings (on the menu). */
  board(profile: StatusProfile, state: unknown, s: Settings): BoardInPlay;
  /** Its screen in words: what it shows, what to do next, its numbers and keys. */
  playing(state: unknown, ctx: StatusContext): ScreenStatus;
  /** Is a game begun and not over in this state (OK on the menu asks twice)? */
  unfinished(state: unknown): boolean;
  /** The numbers of a game the menu can resume (its scores, the game or round). */
  kept?(st: ScreenStatus, state: unknown): void;
  /** What the menu's keys set for it (the first row and the unit's own included). */
  menuKeys?(s: Settings): ScreenLegends;
}

/** The board's size in words: "board of 5 × 12". */
export function boardOf(profile: StatusProfile): string {
  return `board of ${profile.pegs} × ${profile.rows}`;
}

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A status with nothing in it yet but the screen and its line. */
export function screenStatus(screen: string, line: string): ScreenStatus {
  return { screen, line, alert: "", game: "", scores: [], facts: [], history: [], keys: {} };
}

/** What a refusal's colour on status LED 2 says (ui/render.ts REFUSAL_COLOURS), or "" for another colour. */
export function refusal(colour: string | undefined): string {
  const why: Record<string, string> = {
    phase: "that key does nothing now",
    incomplete: "the row has empty holes (they flash)",
    repeat: "a colour is used twice, which this game does not allow (the pegs flash)",
    blank: "this game has no blanks",
    "feedback-range": "no code gives that answer (too many marks, or all but one exact with one near)",
  };
  const i = REFUSAL_COLOURS.findIndex((c) => COLOUR_NAMES[c] === colour);
  return i < 0 ? "" : `Refused: ${why[REFUSAL_NAMES[i]]}. Nothing was used.`;
}
