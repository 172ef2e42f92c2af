/**
 * Plays the unit the way a person does: keys on the virtual board running dist/firmware.js, and
 * answers read off the LEDs. Scenario tests use only this, so they exercise the shipped bundle.
 */
import { VirtualBoard, type BoardOptions } from "../../sim/board/board.ts";
import type { Feedback, MatchMode, PresetId } from "../../firmware/core/types.ts";
import { REFUSAL_NAMES } from "../../firmware/core/types.ts";
import { REFUSAL_COLOURS } from "../../firmware/ui/render.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { firmwareBundle } from "../device/helpers.ts";

/** Grid key id at a grid position (0..35, reading order). */
export const gridKey = (g: number) => `p${Math.floor(g / 6) + 1}${(g % 6) + 1}`;
/** A refusal's reason (core/types.ts REFUSAL_NAMES), and the colour status LED 2 says it in. */
export type RefusalReason = "phase" | "incomplete" | "repeat" | "blank" | "range" | "feedback-range";
export const REFUSAL_COLOUR_NAMES = Object.fromEntries(REFUSAL_NAMES.map((name, i) => [name, COLOUR_NAMES[REFUSAL_COLOURS[i]]])) as Record<
  RefusalReason,
  string
>;

/** Colour symbols as the LEDs show them; "black" pegs are violet and a blank is an unlit hole. */
export const LED_NAMES = ["red", "green", "blue", "yellow", "white", "orange", "pink", "violet"];
export const BLANK_LED = "off";

const PRESETS: PresetId[] = ["brainiac", "travel", "race"];
const MODES: MatchMode[] = ["referee", "manual", "unit-makes", "unit-breaks"];
const GAMES = [2, 4, 6, 8, 10];
const MAKER_COLOUR_KEYS = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24"];

export interface MatchSetup {
  preset: PresetId;
  harder?: boolean;
  mode?: MatchMode;
  games?: number;
}

export class UnitDriver {
  readonly board: VirtualBoard;

  constructor(opts: BoardOptions = {}) {
    this.board = new VirtualBoard({ firmware: firmwareBundle(), ...opts });
    this.board.powerOn();
    this.board.advance(200);
  }

  tap(...keys: string[]): void {
    for (const k of keys) this.board.tap(k);
  }

  /** Chooses the settings on the menu and starts the match with OK. */
  startMatch(setup: MatchSetup): void {
    this.tap(gridKey(PRESETS.indexOf(setup.preset)));
    this.tap(gridKey(6 + (setup.harder ? 1 : 0)));
    this.tap(gridKey(12 + MODES.indexOf(setup.mode ?? "referee")));
    if (setup.preset !== "race") this.tap(gridKey(18 + GAMES.indexOf(setup.games ?? 2)));
    this.tap("p66");
  }

  /** The codemaker keys a secret on the codemaker pad (symbol = colour index, `blank` for an empty hole). */
  makerSecret(code: (number | "blank")[]): void {
    for (const s of code) this.tap(s === "blank" ? "m31" : MAKER_COLOUR_KEYS[s]);
    this.tap("m34");
  }

  /** The codebreaker keys a row on the main pad and submits it. */
  guess(code: (number | "blank")[]): void {
    for (const s of code) this.tap(s === "blank" ? "p23" : gridKey(s));
    this.tap("p66");
  }

  /** The codemaker keys exact/near on the codemaker pad and confirms. */
  answer(fb: Feedback): void {
    for (let i = 0; i < fb.exact; i++) this.tap("m31");
    for (let i = 0; i < fb.near; i++) this.tap("m32");
    this.tap("m34");
  }

  /** Waits into the lit half of the blink cycle, so blinking LEDs read as lit. */
  settle(): void {
    this.board.advance(20);
  }

  /** The pegs of board row r (0 = row 1), as LED colour names, for the first `pegs` holes. */
  boardRow(r: number, pegs = 4): string[] {
    this.settle();
    return this.board.colours("board").slice(r * this.board.profile.pegs, r * this.board.profile.pegs + pegs);
  }

  /** The feedback shown for row r, read in the preset's look; also returns the raw pixel names. */
  feedbackRow(r: number): Feedback & { pixels: string[]; look: "pegs" | "arms" | "none" } {
    this.settle();
    const w = this.board.profile.pegs;
    const px = this.board.colours("keys").slice(r * w, r * w + w);
    const count = (c: string) => px.filter((p) => p === c).length;
    const look = count("red") > 0 ? "arms" : count("violet") > 0 ? "pegs" : "none";
    return { exact: count("violet") + count("red"), near: count("white"), pixels: px, look };
  }

  /** The secret as the reveal shows it on the pad's slot row. */
  revealed(pegs = 4): string[] {
    this.settle();
    return this.board.colours("pad").slice(12, 12 + pegs);
  }

  secretPixels(): string[] {
    this.settle();
    return this.board.colours("secret");
  }

  /** Points per player from the track: player 0 fills from the left in red, player 1 from the right in blue; white LEDs are banked 15s. */
  pointScores(): [number, number] {
    const t = this.board.colours("track");
    const half = (px: string[], colour: string) => px.filter((c) => c === colour).length + (px.includes("white") ? 15 : 0);
    return [half(t.slice(0, 15), "red"), half(t.slice(15).reverse(), "blue")];
  }

  /** Race holes per player: the hole (1..30) where each scoring peg is lit, 0 before the start. */
  raceHoles(): [number, number] {
    const t = this.board.colours("track");
    const hole = (colour: string) => {
      const i = t.findIndex((c) => c === colour || c === "pink");
      return i + 1;
    };
    return [hole("red"), hole("blue")];
  }

  /** Colour of status LED 0 (whose move) and 1 (alerts). */
  status(): string[] {
    return this.board.colours("status");
  }

  /** Is a refusal being shown (status alert lit red, low tone)? */
  /**
   * A refusal is showing: the low tone, and status LED 2 in the colour of its reason (ui/render.ts
   * REFUSAL_COLOURS): any reason, or the one named.
   */
  refusedJustNow(reason?: RefusalReason): boolean {
    const lastTone = this.board.tones.filter((t) => t.freq > 0).at(-1);
    const shown = this.board.colours("status")[1];
    const colours = reason ? [REFUSAL_COLOUR_NAMES[reason]] : Object.values(REFUSAL_COLOUR_NAMES);
    return colours.includes(shown) && lastTone !== undefined && lastTone.freq < 300;
  }

  /** Pad LED at a grid position. */
  padAt(g: number): string {
    return this.board.colours("pad")[g];
  }
}
