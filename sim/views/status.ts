/**
 * What the unit shows now, in words, for the page's status line and panel: the screen, what to do
 * next, the scores and the match so far as numbers, and what every key does on this screen.
 *
 * A view, not a second copy of the rules: everything comes from what the firmware holds. The game's
 * state is the firmware's own latest save in the virtual Storage (it saves at every committed action,
 * docs/reliability.md), read with the save decoder (one import below); what is not saved (a refusal,
 * the hint being shown, the resume key) is read off its LEDs; counts come from the core's functions.
 * What each game's screen says is its entry's (sim/views/game-status.ts), one per game of the list.
 */
import { newestCopy } from "../board/saves.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { kindIndex } from "../../firmware/ui/game.ts";
import { defaultSettings, type Settings } from "../../firmware/ui/settings.ts";
import { CONFIRM_MS, G_RESUME } from "../../firmware/ui/menu.ts";
import { segmentsOf } from "./view.ts";
import type { KeyLegend } from "../../hardware/key-legends.ts";
import { legendsByKey } from "../../hardware/key-legends.ts";
import {
  boardOf,
  refusal,
  screenStatus,
  type BoardInPlay,
  type GameStatus,
  type ScreenStatus,
  type StatusBoard,
  type StatusProfile,
  type UnitStatus,
} from "./game-status.ts";
import { CODEBREAKER_STATUS } from "./codebreaker-status.ts";
import { BRAIN_FLIP_STATUS } from "./flip-status.ts";

export type { BoardInPlay, PanelScore, StatusBoard, UnitStatus } from "./game-status.ts";

/** The built-in games' entries, in the order of the unit's list of games (firmware/ui/games.ts). */
export const GAME_STATUSES: GameStatus[] = [CODEBREAKER_STATUS, BRAIN_FLIP_STATUS];

/** The firmware's saved state, decoded; null before its first save. (The one use of the save format.) */
function savedState(board: StatusBoard): SavedState | null {
  return newestCopy(board.storage)?.state ?? null;
}

/** Follows one board; caches the decoded save, and what the games' entries keep until the next save. */
export class StatusReader {
  private savedText = "";
  private saved: SavedState | null = null;
  private memo: Record<string, unknown> = {};

  /** `games`: the entries of the games on the unit's list (a firmware built with more games gives theirs). */
  constructor(
    readonly board: StatusBoard,
    private readonly games: GameStatus[] = GAME_STATUSES,
  ) {}

  private latest(): SavedState | null {
    const st = this.board.storage;
    const text = (st.readString("bb.s0") ?? "") + "\u0000" + (st.readString("bb.s1") ?? "");
    if (text !== this.savedText) {
      this.savedText = text;
      this.saved = savedState(this.board);
      this.memo = {};
    }
    return this.saved;
  }

  /** The entry of the game chosen in the settings (undefined: a game this list does not know). */
  private chosen(s: Settings): GameStatus | undefined {
    return this.games[
      kindIndex(
        this.games.map((g) => g.kind),
        s.preset,
      )
    ];
  }

  /** What the unit shows; `shieldOpen`: the codemaker's shield is open already (no need to ask for it). */
  status(shieldOpen = false): UnitStatus {
    const b = this.board;
    const profile = b.profile;
    const saved = this.latest();
    const settings = saved?.settings ?? defaultSettings();
    const leds: Record<string, string[]> = {};
    for (const s of segmentsOf(b)) leds[s] = b.colours(s);
    const base = { alert: "", game: "", scores: [] as UnitStatus["scores"], facts: [] as UnitStatus["facts"], history: [] as string[] };
    if (!b.isOn || !b.ledsPowered) this.selfTest = false;
    else this.selfTest = selfTestFrame(leds, this.selfTest);
    // The game whose screen shows (with its state), else on the menu the game chosen.
    const screen = saved?.screen ?? "menu";
    const shown = this.games.find((g) => g.screen === screen);
    const state = shown && saved ? shown.kind.stateIn(saved) : null;
    const playing = shown && state ? shown : undefined;
    const chosen = this.chosen(settings);
    const board = this.selfTest
      ? wholeBoard(profile)
      : playing
        ? playing.board(profile, state, settings)
        : chosen
          ? chosen.board(profile, null, settings)
          : wholeBoard(profile);
    if (!b.isOn) return { ...base, screen: "off", board, line: "The unit is switched off. Switch it on (Power, Switch on).", keys: {} };
    if (!b.ledsPowered)
      return {
        ...base,
        screen: "asleep",
        board,
        line: "The unit is asleep: press any key to wake it (that press does nothing else).",
        keys: {},
      };
    if (this.selfTest) return selfTestStatus(profile, board);
    if (playing) return { ...playing.playing(state, { profile, leds, shieldOpen, memo: this.memo }), board };
    const st = menuStatus(chosen, settings, leds, saved);
    if (chosen?.menuKeys) st.keys = legendsByKey(profile, chosen.menuKeys(settings));
    if ((leds.status ?? [])[1] === "red") st.alert = refusal("red");
    return { ...st, board };
  }

  /** The self-test shows (it is not saved, and is left only by switching off): read off the LEDs. */
  private selfTest = false;
}

function wholeBoard(profile: StatusProfile): BoardInPlay {
  return { pegs: profile.pegs, rows: profile.rows, keyPegs: profile.pegs, about: `self-test: every hole of the ${boardOf(profile)}` };
}

/**
 * Does the frame show the self-test (ui/selftest.ts)? One whole segment white, or all of them, and
 * nothing else lit but held keys' green echoes on the pad and the track; once seen (`was`), a dark frame
 * (a segment this build lacks) is still the self-test. No screen of the unit's lights a frame like it.
 */
function selfTestFrame(leds: Record<string, string[]>, was: boolean): boolean {
  const names = Object.keys(leds);
  let whole = 0;
  for (const name of names) {
    const px = leds[name];
    const echo = name === "pad" || name === "track";
    let white = 0;
    let off = 0;
    for (const c of px) {
      if (c === "white") white++;
      else if (c === "off") off++;
      else if (!(c === "green" && echo)) return false;
    }
    if (white > 0 && off > 0) return false;
    if (white > 0) whole++;
  }
  return whole === 0 ? was : whole === 1 || whole === names.length;
}

function selfTestStatus(profile: StatusProfile, board: BoardInPlay): UnitStatus {
  const maker = profile.keymap.maker ? " (a codemaker-pad key: a track LED)" : "";
  const about = `self-test: held, it lights its own pad LED green${maker}; the USB console prints key <n> down, key <n> up`;
  const keys: Record<string, KeyLegend> = {};
  for (const id of profile.keymap.grid) keys[id] = { label: "", about };
  for (const id of Object.values(profile.keymap.maker ?? {}).flat()) keys[String(id)] = { label: "", about };
  return {
    screen: "selftest",
    board,
    line:
      "Self-test (OK was held at power-on): each LED segment lights white in turn (board, key pegs, secret, pad, track, status), " +
      `then all of them; press and hold any key to see it: its pad LED lights green${maker}, and the USB console prints key <n> down. ` +
      "Switch off or power cycle to leave.",
    alert: "",
    game: "",
    scores: [],
    facts: [],
    history: [],
    keys,
  };
}

/** The menu in words: the game chosen and its settings, what OK and resume do, the numbers of a game it can resume. */
function menuStatus(game: GameStatus | undefined, s: Settings, leds: Record<string, string[]>, saved: SavedState | null): ScreenStatus {
  const resumable = (leds.pad ?? [])[G_RESUME] === "cyan";
  const state = game && saved ? game.kind.stateIn(saved) : null;
  // OK over a game begun and not over asks for a second press (ui/menu.ts): status LED 2 yellow meanwhile.
  const unfinished = !!game && game.unfinished(state);
  const asking = unfinished && (leds.status ?? [])[1] === "yellow";
  const chosen = game ? game.chosen(s) : String(s.preset);
  const rows = game ? game.menuRows : "row 1 the game";
  const line = asking
    ? `Press OK again within ${CONFIRM_MS / 1000} seconds to start a new game: the game in progress will be lost. ` +
      "Any other key, or waiting, keeps it (resume goes back to it); status light 2 shows yellow while the unit waits."
    : `Menu: ${chosen}. Each pad row is one setting (${rows}); the chosen option is white. ` +
      `OK (bottom right, blinking green) starts a new match` +
      (unfinished ? ` (twice within ${CONFIRM_MS / 1000} seconds: a game is in progress)` : "") +
      (resumable ? "; resume (row 6, column 5, cyan) goes back to the game in progress." : ".");
  const st = screenStatus("menu", line);
  st.game = chosen;
  // The game kept in Storage, if the menu can resume it.
  if (resumable && state && game?.kept) game.kept(st, state);
  return st;
}
