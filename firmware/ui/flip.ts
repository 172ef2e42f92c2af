/**
 * Brain Flip on the unit (RULES.md 4). The picture cards lie over the 6x6 pad, one key and one LED
 * under each card; the unit cannot see the pictures, so questions stay spoken. The Master picks the
 * card on the pad (nothing lights), then keys each answer on the codemaker pad; a player's card
 * press is their "Got it!". The pad lights the cards in play, the wrong guesses go dark; the board
 * shows one bar per question (green yes, red no, orange a wrong guess), the status LEDs whose turn
 * it is and the answer just given, the track the questions left and everyone's points.
 */
import type { FlipState } from "../core/brainflip";
import {
  answerQuestion,
  correctLastAnswer,
  FLIP_ANSWER,
  FLIP_ASK,
  FLIP_OVER,
  FLIP_PICK,
  FLIP_TARGET,
  guessCard,
  masterMistake,
  newFlipGame,
  nextRound,
  pickCard,
  questionLimit,
} from "../core/brainflip";
import type { Result } from "../core/types";
import type { Settings } from "./menu";
import { flipConfig } from "./menu";
import { Clock, pad, BLINK_ON, BLINK_PERIOD } from "./frame";
import type { Layout } from "./layout";
import type { GameScreen } from "./screen";
import type { App } from "./app";
import { BLUE, CYAN, GREEN, OFF, ORANGE, PINK, RED, VIOLET, WHITE, YELLOW } from "./palette";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_FAILED, TUNE_MATCH_OVER, TUNE_SOLVED } from "./tunes";

/** Six players, seated clockwise, each with a colour on the status and track LEDs. */
export const FLIP_PLAYER_COLOURS = [RED, BLUE, GREEN, YELLOW, ORANGE, PINK];
export const TUNE_YES = [1568, 90];
export const TUNE_NO = [392, 160];
/** Grid positions of the Master's keys on a build without a codemaker pad (the grid is then at most 5x5). */
export const FG_YES = 5;
export const FG_NO = 11;
export const FG_CORRECT = 17;
export const FG_MISTAKE = 23;
export const FG_MENU = 30;
export const FG_OK = 35;
/** The board's rows, one per question; the track's first LEDs count the questions left, from 12 on the points. */
const TRACK_POINTS = 12;

export interface FlipSettings {
  flipMode: "flip" | "straight";
  players: number;
  flipGrid: number;
  unitFlips: boolean;
}

/** The largest grid a build can offer: 6x6 with a codemaker pad for the Master's keys, else 5x5. */
export function maxFlipGrid(L: Layout): number {
  return L.maker ? 6 : 5;
}

export class FlipScreen implements GameScreen {
  readonly name = "flip";
  state: FlipState | null = null;

  constructor(readonly app: App) {}

  /** A new game; player 1 (red) is the first Master. */
  start(s: Settings): void {
    const config = flipConfig(s);
    config.grid = Math.min(config.grid, maxFlipGrid(this.app.layout));
    this.state = newFlipGame(config, 0);
  }

  resumable(): boolean {
    return this.state !== null && !this.state.over;
  }

  unfinished(): boolean {
    return this.resumable();
  }

  /** A round whose card is picked: the Master's secret. */
  holdsSecret(): boolean {
    const s = this.state;
    return s !== null && !s.over && s.round.phase === FLIP_ASK;
  }

  /** The card under a grid position, or -1 outside the grid in use. */
  cardAt(g: number): number {
    const n = (this.state as FlipState).config.grid;
    const row = (g / 6) | 0;
    const col = g % 6;
    return g >= 0 && row < n && col < n ? row * n + col : -1;
  }

  /** Grid position of a card. */
  cardPos(card: number): number {
    const n = (this.state as FlipState).config.grid;
    return ((card / n) | 0) * 6 + (card % n);
  }

  key(k: number, g: number, down: boolean): void {
    if (!down) return;
    const s = this.state as FlipState;
    const app = this.app;
    const mk = app.layout.maker;
    const card = this.cardAt(g);
    const is = (makerKey: number | undefined, gridPos: number) => (mk ? k === makerKey : g === gridPos);
    const round = s.round;
    if ((mk && k === mk.colours[0]) || (g === FG_MENU && card < 0)) {
      app.go(app.menu);
      return;
    }
    let r: Result<FlipState> | null = null;
    let tune = TUNE_CLICK;
    if (is(mk ? mk.ok : undefined, FG_OK)) {
      if (s.over) {
        app.go(app.menu);
        return;
      }
      r = nextRound(s);
      tune = TUNE_ACCEPT;
    } else if (card >= 0 && round.phase === FLIP_PICK) {
      r = pickCard(s, card);
      // A quiet click only: the pick must not be heard as different from any other key.
    } else if (card >= 0 && round.phase === FLIP_ASK) {
      r = guessCard(s, card);
      if (r.ok) tune = r.state.round.finder >= 0 ? TUNE_SOLVED : TUNE_FAILED;
    } else if (is(mk ? mk.yes : undefined, FG_YES) || is(mk ? mk.no : undefined, FG_NO)) {
      r = answerQuestion(s, is(mk ? mk.yes : undefined, FG_YES));
      if (r.ok) {
        const entry = r.state.round.log[r.state.round.log.length - 1];
        tune = entry.yes ? TUNE_YES : TUNE_NO;
      }
    } else if (is(mk ? mk.undo : undefined, FG_CORRECT)) {
      r = correctLastAnswer(s);
      if (r.ok) {
        tune = r.state.round.log[r.state.round.log.length - 1].yes ? TUNE_YES : TUNE_NO;
      }
    } else if (is(mk ? mk.colours[7] : undefined, FG_MISTAKE)) {
      r = masterMistake(s);
      tune = TUNE_FAILED;
    }
    if (!r || !r.ok) {
      app.refuse();
      return;
    }
    this.state = r.state;
    if (r.state.over) tune = TUNE_MATCH_OVER;
    app.tune = tune;
    app.saveWanted = true;
  }

  draw(frame: Uint8Array, clock: Clock): void {
    const s = this.state as FlipState;
    const L = this.app.layout;
    const round = s.round;
    const n = s.config.grid;
    const on = clock.blink(BLINK_PERIOD, BLINK_ON);
    // Cards in play light cyan, wrong guesses go dark; at the end the picked card blinks green.
    for (let c = 0; c < n * n; c++) {
      let colour = round.wrongCards.indexOf(c) >= 0 ? OFF : CYAN;
      if (round.phase === FLIP_OVER && c === round.pick) colour = on ? GREEN : OFF;
      pad(frame, L, this.cardPos(c), colour);
    }
    if (!L.maker) {
      pad(frame, L, FG_YES, GREEN);
      pad(frame, L, FG_NO, RED);
      pad(frame, L, FG_CORRECT, ORANGE);
      pad(frame, L, FG_MISTAKE, VIOLET);
      pad(frame, L, FG_MENU, BLUE);
      pad(frame, L, FG_OK, WHITE);
    }
    // One bar per question on the board, in the order asked; the asker's colour on the row's key LEDs.
    const pegs = L.pegs;
    for (let i = 0; i < round.log.length && i < L.rows; i++) {
      const e = round.log[i];
      const colour = e.kind === FLIP_ANSWER ? (e.yes ? GREEN : RED) : e.yes ? WHITE : ORANGE;
      for (let j = 0; j < pegs; j++) frame[L.seg.board + i * pegs + j] = colour;
      frame[L.seg.keys + i * pegs] = FLIP_PLAYER_COLOURS[e.player];
    }
    // The track: questions left from its start, then three LEDs of points per player.
    if (L.seg.track >= 0) {
      const left = questionLimit(s.config.mode) - round.asked;
      for (let i = 0; i < left && i < TRACK_POINTS; i++) frame[L.seg.track + i] = WHITE;
      for (let p = 0; p < s.config.players; p++)
        for (let i = 0; i < s.scores[p] && i < FLIP_TARGET; i++) {
          const at = TRACK_POINTS + p * FLIP_TARGET + i;
          if (at < L.segLen.track) frame[L.seg.track + at] = FLIP_PLAYER_COLOURS[p];
        }
    }
    if (L.seg.status >= 0) {
      // Whose move: the Master's colour (blinking) while the card is picked, then the player to ask.
      let mover = round.phase === FLIP_PICK ? round.master : round.turn;
      if (s.over) mover = s.winner;
      const lit = round.phase !== FLIP_PICK || on;
      frame[L.seg.status] = lit && mover >= 0 ? FLIP_PLAYER_COLOURS[mover] : OFF;
      // The answer just given: green for yes, red for no, until the next question.
      const last = round.log.length ? round.log[round.log.length - 1] : null;
      if (L.segLen.status > 1 && last && last.kind === FLIP_ANSWER && round.phase === FLIP_ASK)
        frame[L.seg.status + 1] = last.yes ? GREEN : RED;
    }
  }
}
