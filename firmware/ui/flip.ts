/**
 * Brain Flip on the unit (docs/rules.md 4). The picture cards lie over the 6x6 pad, one key and one LED
 * under each card; the unit cannot see the pictures, so questions stay spoken. The Master picks the
 * card on the pad (nothing lights), then keys each answer on the codemaker pad; a player's card
 * press is their "Got it!". The pad lights the cards in play, the wrong guesses go dark; the board
 * shows one bar per question (green yes, red no, orange a wrong guess), the status LEDs whose turn
 * it is and the answer just given, the track the questions left and everyone's points.
 */
import type { FlipState } from "../core/brainflip";
import {
  answerQuestion,
  checkFlipState,
  correctLastAnswer,
  FLIP_ANSWER,
  FLIP_ASK,
  FLIP_OVER,
  FLIP_PICK,
  FLIP_TARGET,
  flipHoldsSecret,
  guessCard,
  masterMistake,
  newFlipGame,
  nextRound,
  pickCard,
  questionLimit,
} from "../core/brainflip";
import type { Result } from "../core/types";
import type { Settings } from "./settings";
import { flipConfig, maxFlipGrid, SETTINGS } from "./settings";
import type { GameKind } from "./game";
import { Clock, pad, BLINK_ON, BLINK_PERIOD } from "./frame";
import type { GameScreen } from "./screen";
import type { Host } from "./host";
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
/** The Master's keys (menu, then M_* order: OK, yes, no, correct, mistake): grid positions without a codemaker pad, and their colours there. */
const FG_KEYS = [FG_MENU, FG_OK, FG_YES, FG_NO, FG_CORRECT, FG_MISTAKE];
const FG_COLOURS = [BLUE, WHITE, GREEN, RED, ORANGE, VIOLET];
const M_OK = 1;
const M_YES = 2;
const M_CORRECT = 4;
const M_MISTAKE = 5;
/** The board's rows, one per question; the track's first LEDs count the questions left, from 12 on the points. */
const TRACK_POINTS = 12;

export class FlipScreen implements GameScreen {
  readonly name = "flip";
  state: FlipState | null = null;

  constructor(readonly app: Host) {}

  /** A new game; player 1 (red) is the first Master. */
  start(s: Settings): boolean {
    const config = flipConfig(s);
    config.grid = Math.min(config.grid, maxFlipGrid(this.app.layout));
    this.state = newFlipGame(config, 0);
    return true;
  }

  saved(): FlipState | null {
    return this.state;
  }

  load(state: unknown): void {
    this.state = state as FlipState | null;
  }

  resumable(): boolean {
    return this.state !== null && !this.state.over;
  }

  unfinished(): boolean {
    return this.resumable();
  }

  /** A round whose card is picked: the Master's secret (core/brainflip.ts flipHoldsSecret). */
  holdsSecret(): boolean {
    const s = this.state;
    return !!s && flipHoldsSecret(s);
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
    const phase = s.round.phase;
    // Which of the Master's keys (M_*), or -1: on the codemaker pad, else at their grid positions.
    const action = mk ? [mk.colours[0], mk.ok, mk.yes, mk.no, mk.undo, mk.colours[7]].indexOf(k) : FG_KEYS.indexOf(g);
    // The menu: its codemaker key, or on any build its grid position when no card lies there; OK once the game is over.
    if ((mk && k === mk.colours[0]) || (g === FG_MENU && card < 0) || (action === M_OK && s.over)) {
      app.go(app.menu);
      return;
    }
    let r: Result<FlipState> | null = null;
    let tune: ArrayLike<number> = TUNE_CLICK;
    if (action === M_OK) {
      r = nextRound(s);
      tune = TUNE_ACCEPT;
    } else if (card >= 0) {
      // The pick makes a quiet click only: it must not be heard as different from any other key.
      // In a round over a card is refused, as an answer, correction or mistake would be.
      r = phase === FLIP_PICK ? pickCard(s, card) : guessCard(s, card);
      if (r.ok && phase === FLIP_ASK) tune = r.state.round.finder >= 0 ? TUNE_SOLVED : TUNE_FAILED;
    } else if (action >= M_YES && action <= M_CORRECT) {
      r = action === M_CORRECT ? correctLastAnswer(s) : answerQuestion(s, action === M_YES);
      // The answer now shown, given or corrected, is heard.
      if (r.ok) {
        const log = r.state.round.log;
        tune = log[log.length - 1].yes ? TUNE_YES : TUNE_NO;
      }
    } else if (action === M_MISTAKE) {
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
      for (let i = 0; i < FG_KEYS.length; i++) pad(frame, L, FG_KEYS[i], FG_COLOURS[i]);
    }
    // One bar per question on the board, in the order asked; the asker's colour on the row's key LEDs.
    const pegs = L.pegs;
    for (let i = 0; i < round.log.length && i < L.rows; i++) {
      const e = round.log[i];
      const colour = e.kind === FLIP_ANSWER ? (e.yes ? GREEN : RED) : e.yes ? WHITE : ORANGE;
      const at = L.seg.board + i * pegs;
      frame.fill(colour, at, at + pegs);
      frame[L.seg.keys + i * pegs] = FLIP_PLAYER_COLOURS[e.player];
    }
    // The track: questions left from its start, then three LEDs of points per player.
    if (L.seg.track >= 0) {
      const track = L.seg.track;
      frame.fill(WHITE, track, track + Math.min(questionLimit(s.config.mode) - round.asked, TRACK_POINTS));
      // (A score never passes the target: the game ends there. An end before the start fills nothing.)
      for (let p = 0; p < s.config.players; p++) {
        const at = track + TRACK_POINTS + p * FLIP_TARGET;
        frame.fill(FLIP_PLAYER_COLOURS[p], at, Math.min(at + s.scores[p], track + L.segLen.track));
      }
    }
    if (L.seg.status >= 0) {
      // Whose move: the Master's colour (blinking) while the card is picked, then the player to ask.
      let mover = round.phase === FLIP_PICK ? round.master : round.turn;
      if (s.over) mover = s.winner;
      const lit = round.phase !== FLIP_PICK || on;
      frame[L.seg.status] = lit && mover >= 0 ? FLIP_PLAYER_COLOURS[mover] : OFF;
      // The answer just given: green for yes, red for no, until the next question.
      const last = round.log[round.log.length - 1]; // undefined before the first question
      if (L.segLen.status > 1 && last && last.kind === FLIP_ANSWER && round.phase === FLIP_ASK)
        frame[L.seg.status + 1] = last.yes ? GREEN : RED;
    }
  }
}

/** Brain Flip on the list of games (ui/games.ts): its menu is its rules, players, grid and who flips the answers. */
export const BRAIN_FLIP: GameKind = {
  ids: ["brainflip"],
  stateIn: (s) => s.flip,
  putState: (s, state) => (s.flip = state as FlipState | null),
  menu: [
    { at: 6, colours: [GREEN], setting: SETTINGS.flipMode },
    { at: 12, colours: [ORANGE], setting: SETTINGS.players },
    // 6x6 needs the codemaker pad for the Master's keys.
    { at: 18, colours: [BLUE], setting: SETTINGS.flipGrid, allowed: (v, _s, c) => (v as number) <= maxFlipGrid(c.layout) },
    { at: 23, cycle: true, colours: [RED, GREEN], setting: SETTINGS.unitFlips },
  ],
  check: checkFlipState,
  screen: (host) => new FlipScreen(host),
};
