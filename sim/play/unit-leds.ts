/**
 * What the unit shows, read off its LEDs as a person at it would (sim/play/watch.ts plays with it): which
 * screen, the menu's choices, the codes on the board rows and the feedback on their key LEDs.
 */
import type { Code, Feedback, PresetId, Row, Rules } from "../../firmware/core/types.ts";
import { GAMES_MENU, MODE_MENU } from "../../firmware/ui/settings.ts";
import { GAME_IDS } from "../../firmware/ui/games.ts";
import { G_COLOUR, G_MENU, G_SLOT } from "../../firmware/ui/layout.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { drawFeedback, symbolColour } from "../../firmware/ui/render.ts";
import type { Profile, SegmentName } from "../../hardware/profile.ts";
import { variantName } from "./watch-text.ts";

/** What the watcher needs of a board: either engine's (sim/board/board.ts, sim/espruino/engine.ts). */
export interface WatchedBoard {
  readonly profile: Profile;
  readonly now: number;
  readonly isOn: boolean;
  readonly ledsPowered: boolean;
  readonly errors: string[];
  colours(segment: SegmentName): string[];
  press(key: string): void;
  release(key: string): void;
  powerOn(): void | Promise<void>;
  advance(ms: number): void | Promise<void>;
}

/** Something the board showed (or did not show) that the watcher cannot play on from. */
export class WatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WatchError";
  }
}

/** Reads a board's LEDs (the watcher's eyes). */
export class UnitLeds {
  constructor(readonly board: WatchedBoard) {}

  onPlayScreen(): boolean {
    return this.board.isOn && this.board.colours("pad")[G_MENU] === "blue";
  }

  /** The menu: one white option in the game row, one in the role row, the menu key unlit. */
  onMenu(): boolean {
    if (!this.board.isOn) return false;
    const pad = this.board.colours("pad");
    const games = pad.slice(0, GAME_IDS.length);
    const roles = pad.slice(12, 12 + MODE_MENU.length);
    return (
      pad[G_MENU] === "off" &&
      games.filter((c) => c === "white").length === 1 &&
      games.every((c) => c === "white" || c === "yellow" || c === "off") &&
      roles.filter((c) => c === "white").length === 1
    );
  }

  /** The menu's choices, read off the pad: the chosen option of each row shows white. */
  readMenu(): { preset: PresetId | "brainflip"; harder: boolean; mode: string; games: number } {
    const pad = this.board.colours("pad");
    const white = (from: number, count: number) => pad.slice(from, from + count).indexOf("white");
    return {
      preset: (GAME_IDS[white(0, GAME_IDS.length)] ?? "brainiac") as PresetId | "brainflip",
      harder: white(6, 2) === 1,
      mode: MODE_MENU[white(12, MODE_MENU.length)] ?? "?",
      games: GAMES_MENU[white(18, GAMES_MENU.length)] ?? GAMES_MENU[1],
    };
  }

  /**
   * The board row (0 = nearest the codebreaker) showing game row `row` when `current` rows are played
   * or pending: a board with fewer rows than the game shows the latest ones (firmware/ui/codebreaker.ts).
   */
  rowAt(rules: Rules, row: number, current: number): number {
    const shift = Math.max(0, Math.min(current, rules.rows - 1) + 1 - this.board.profile.rows);
    return row - shift;
  }

  pixelsAt(segment: "board" | "keys", at: number, pegs: number): string[] {
    const w = this.board.profile.pegs;
    return this.board.colours(segment).slice(at * w, at * w + pegs);
  }

  /** A code from the LEDs: a board row, or (at = -1 on the pad) the reveal on the slot row. `loose`: -1 for what is no symbol. */
  readCode(rules: Rules, segment: "board" | "pad", at: number, loose = false): Code {
    const px = segment === "pad" ? this.board.colours("pad").slice(G_SLOT, G_SLOT + rules.pegs) : this.pixelsAt("board", at, rules.pegs);
    const symbols = rules.colours + (rules.blanks ? 1 : 0);
    return px.map((name) => {
      for (let s = 0; s < symbols; s++) if (COLOUR_NAMES[symbolColour(rules, s)] === name) return s;
      if (loose) return -1;
      throw new WatchError(`a peg shows ${name}, which is no colour of ${variantName(rules)} (${segment}: ${px.join(" ")})`);
    });
  }

  /** The feedback on a row's key LEDs: black (violet) pegs or the red arm are exact, white near. */
  readFeedback(rules: Rules, at: number): Feedback {
    const px = this.pixelsAt("keys", at, this.board.profile.pegs);
    const count = (c: string) => px.filter((p) => p === c).length;
    const fb = { exact: count(rules.look === "arms" ? "red" : "violet"), near: count("white") };
    if (fb.exact + fb.near > rules.pegs || px.some((p) => p !== "off" && p !== "white" && p !== (rules.look === "arms" ? "red" : "violet")))
      throw new WatchError(`the key LEDs show ${px.join(" ")}, which is no feedback`);
    return fb;
  }

  /** Do a row's key LEDs show exactly this feedback, in the preset's look? */
  keysShow(rules: Rules, at: number, fb: Feedback): boolean {
    const w = this.board.profile.pegs;
    const frame = new Uint8Array(w);
    drawFeedback(frame, 0, rules, fb);
    return this.pixelsAt("keys", at, w).join() === Array.from(frame, (c) => COLOUR_NAMES[c]).join();
  }

  /** Row `i` of `rows` stands on the board with its answer (all rows played). */
  rowShows(rules: Rules, rows: Row[], i: number): boolean {
    const at = this.rowAt(rules, i, rows.length);
    return this.readCode(rules, "board", at, true).join() === rows[i].guess.join() && this.keysShow(rules, at, rows[i].feedback);
  }

  /** The unit's guess for the row after `rows` is on the board, waiting for your answer. */
  pendingRow(rules: Rules, rows: Row[]): boolean {
    const n = rows.length;
    if (!this.onPlayScreen() || !this.pixelsAt("keys", this.rowAt(rules, n, n + 1), this.board.profile.pegs).includes("hole")) return false;
    if (n === 0) return true;
    const at = this.rowAt(rules, n - 1, n + 1);
    return this.readCode(rules, "board", at, true).join() === rows[n - 1].guess.join() && this.keysShow(rules, at, rows[n - 1].feedback);
  }

  /** Row `n` waits to be keyed: empty holes (hole colour) on its board row, colour keys lit. */
  entryReady(rules: Rules, n: number): boolean {
    if (!this.onPlayScreen() || this.board.colours("pad")[G_COLOUR] !== "red") return false;
    const px = this.pixelsAt("board", this.rowAt(rules, n, n), rules.pegs);
    return px.filter((c) => c === "hole").length >= rules.pegs - 1 && px.every((c) => c === "hole" || c === "off");
  }
}
