/**
 * Brain Flip (docs/rules.md section 4): the unit holds the Master's hidden pick, counts the questions,
 * records the Master's yes/no answers, judges guesses truthfully and keeps the scores to 3.
 * The questions themselves stay spoken: the unit never sees the pictures.
 *
 * Decisions (docs/rules.md leaves them open):
 * - a barred player (wrong guess) is skipped in the turn order: they can no longer score, so their
 *   questions would only spend the shared count;
 * - when every player but the Master is barred, the round ends at once and the Master scores;
 * - the pick cannot be changed once made (it is hidden, so a change could never be checked);
 * - the Master's point for an unfound card can win the Master the game;
 * - a mistake penalty on a Master at 0 points leaves them at 0;
 * - a correction flips the last answer while the round is still running; once the turn has passed,
 *   the next player's question is not answered yet, so "before the next question" still holds.
 */
import { REFUSED_PHASE, REFUSED_RANGE, REFUSED_REPEAT, Result } from "./types";
import { accept, copy, refuse, whole, wholes } from "./validate";

export type FlipMode = "flip" | "straight";

export interface FlipConfig {
  /** 2..6, seated clockwise: player i+1 is on player i's left. */
  players: number;
  /** 2..6: a grid x grid square of cards, card index = row * grid + col. */
  grid: number;
  /** "flip": the Master answers the opposite, 10 questions; "straight": truthful, 6 questions. */
  mode: FlipMode;
  /** docs/rules.md 4 Decision: the Master keys the true answer and the unit shows it flipped ("flip" mode only). */
  unitFlips: boolean;
}

/** A round's phases (numbers, like the codebreaker's: see core/types.ts): the Master picks, players ask, over (see FlipRound.result). */
export const FLIP_PICK = 0;
export const FLIP_ASK = 1;
export const FLIP_OVER = 2;
export const FLIP_PHASE_NAMES = ["pick", "ask", "over"];
export type FlipPhase = typeof FLIP_PICK | typeof FLIP_ASK | typeof FLIP_OVER;
/** A log entry's kind. */
export const FLIP_ANSWER = 0;
export const FLIP_GUESS = 1;
export const FLIP_KIND_NAMES = ["answer", "guess"];
/** How a round ended: still running, the card found, not found, the Master's mistake. */
export const RESULT_NONE = 0;
export const RESULT_FOUND = 1;
export const RESULT_UNFOUND = 2;
export const RESULT_MISTAKE = 3;
export const FLIP_RESULT_NAMES = ["", "found", "unfound", "mistake"];

export interface FlipEntry {
  player: number;
  /** FLIP_ANSWER or FLIP_GUESS. */
  kind: number;
  /** An answer as shown to the players; for a guess, whether it was right. */
  yes: boolean;
  /** The card guessed; -1 for an answer. */
  card: number;
}

export interface FlipRound {
  master: number;
  /** The Master's hidden pick; -1 until picked. */
  pick: number;
  /** Whose turn it is to ask or guess (never the Master). */
  turn: number;
  /** Questions used, guesses included. */
  asked: number;
  log: FlipEntry[];
  /** Per player: guessed wrong this round, so cannot score. */
  barred: boolean[];
  /** Cards guessed wrong this round (lit out). */
  wrongCards: number[];
  phase: FlipPhase;
  /** How the round ended (RESULT_*); RESULT_NONE while it runs. */
  result: number;
  /** The player who found the card, -1 otherwise. */
  finder: number;
}

export interface FlipState {
  config: FlipConfig;
  scores: number[];
  round: FlipRound;
  over: boolean;
  /** -1 until the game is over. */
  winner: number;
  /** The number of the current round, from 1. */
  rounds: number;
}

/** The game ends when a player reaches this many points. */
export const FLIP_TARGET = 3;

/** Questions in all per round, guesses included: 10 under Brain Flip rules, 6 playing it straight. */
export function questionLimit(mode: FlipMode): number {
  return mode === "flip" ? 10 : 6;
}

/** Why `c` cannot start a game (a message for the players), or null when it can. */
export function checkFlipConfig(c: FlipConfig): string | null {
  if (!whole(c.players, 2, 6)) return "players must be 2 to 6";
  if (!whole(c.grid, 2, 6)) return "grid must be 2 to 6";
  if (c.mode !== "flip" && c.mode !== "straight") return "unknown mode " + c.mode;
  return null;
}

/** `n` copies of `value`. */
function filled<T>(n: number, value: T): T[] {
  const list: T[] = [];
  for (let i = 0; i < n; i++) list.push(value);
  return list;
}

function freshRound(players: number, master: number): FlipRound {
  // Nobody is barred yet, so the first turn is simply the Master's left.
  return {
    master: master,
    pick: -1,
    turn: (master + 1) % players,
    asked: 0,
    log: [],
    barred: filled(players, false),
    wrongCards: [],
    phase: FLIP_PICK,
    result: RESULT_NONE,
    finder: -1,
  };
}

/** A new game, round 1 waiting for the pick of `firstMaster` (0..players-1). Trusts `c` (see checkFlipConfig). */
export function newFlipGame(c: FlipConfig, firstMaster: number): FlipState {
  return {
    config: copy(c),
    scores: filled(c.players, 0),
    round: freshRound(c.players, firstMaster),
    over: false,
    winner: -1,
    rounds: 1,
  };
}

/** May `player` ask or guess in this round: not the Master and not barred. */
export function eligible(s: FlipState, player: number): boolean {
  return player !== s.round.master && s.round.barred[player] === false;
}

/** The refusal for playing `card` now, or null: the round must be in `phase`, the card on the grid and not lit out. */
function refusedCard(s: FlipState, phase: FlipPhase, card: number): Result<FlipState> | null {
  if (s.round.phase !== phase) return refuse(REFUSED_PHASE);
  if (!whole(card, 0, s.config.grid * s.config.grid - 1)) return refuse(REFUSED_RANGE, [card]);
  if (s.round.wrongCards.indexOf(card) >= 0) return refuse(REFUSED_REPEAT, [card]);
  return null;
}

/** A copy whose round is a copy too: reducers then replace the parts they change, never writing into `s`. */
function copyState(s: FlipState): FlipState {
  const next = copy(s);
  next.round = copy(s.round);
  return next;
}

/** Ends the round: `player` gains `points` (never below 0) and wins the game on reaching the target. */
function endRound(next: FlipState, result: number, player: number, points: number): Result<FlipState> {
  const scores = next.scores.slice();
  scores[player] = Math.max(0, scores[player] + points);
  next.scores = scores;
  next.round.phase = FLIP_OVER;
  next.round.result = result;
  if (scores[player] >= FLIP_TARGET) {
    next.over = true;
    next.winner = player;
  }
  return accept(next);
}

/** Logs the current player's question (answer or guess: the FlipEntry fields) and passes the turn, or ends the round: found, or unfound when no question or player is left. */
function afterQuestion(next: FlipState, kind: number, yes: boolean, card: number): Result<FlipState> {
  const round = next.round;
  round.log = round.log.concat([{ player: round.turn, kind: kind, yes: yes, card: card }]);
  round.asked++;
  if (round.finder >= 0) return endRound(next, RESULT_FOUND, round.finder, 1);
  const players = next.config.players;
  // k up to players: the current player comes round again when everyone else is out.
  let k = 1;
  while (k <= players && !eligible(next, (round.turn + k) % players)) k++;
  if (k > players || round.asked >= questionLimit(next.config.mode)) return endRound(next, RESULT_UNFOUND, round.master, 1);
  round.turn = (round.turn + k) % players;
  return accept(next);
}

/** The Master picks the secret card (FLIP_PICK); then the player on the Master's left asks first. */
export function pickCard(s: FlipState, card: number): Result<FlipState> {
  const refusal = refusedCard(s, FLIP_PICK, card);
  if (refusal) return refusal;
  const next = copyState(s);
  next.round.pick = card;
  next.round.phase = FLIP_ASK;
  return accept(next);
}

/**
 * The Master answers the current player's spoken question (FLIP_ASK). With the unit flipping, the
 * Master keys the true answer and the opposite is shown. Uses a question; the turn passes on.
 */
export function answerQuestion(s: FlipState, keyedYes: boolean): Result<FlipState> {
  if (s.round.phase !== FLIP_ASK) return refuse(REFUSED_PHASE);
  const shown = s.config.mode === "flip" && s.config.unitFlips ? !keyedYes : keyedYes;
  return afterQuestion(copyState(s), FLIP_ANSWER, shown, -1);
}

/**
 * "Got it!": the current player guesses `card` (FLIP_ASK). It uses a question and is judged truthfully.
 * Right: the player scores and the round ends. Wrong: the player is barred and the card lit out; a card
 * already guessed wrong is refused and costs nothing.
 */
export function guessCard(s: FlipState, card: number): Result<FlipState> {
  const refusal = refusedCard(s, FLIP_ASK, card);
  if (refusal) return refusal;
  const next = copyState(s);
  const round = next.round;
  const right = card === round.pick;
  if (right) round.finder = round.turn;
  else {
    round.barred = round.barred.slice();
    round.barred[round.turn] = true;
    round.wrongCards = round.wrongCards.concat([card]);
  }
  return afterQuestion(next, FLIP_GUESS, right, card);
}

/**
 * A Master mistake corrected at once has no consequence (docs/rules.md 4): flips the shown answer of the
 * last log entry. Refused unless the round is running and that entry is an answer (not a guess).
 */
export function correctLastAnswer(s: FlipState): Result<FlipState> {
  const log = s.round.log.slice();
  const last = log.pop();
  if (s.round.phase !== FLIP_ASK || !last || last.kind !== FLIP_ANSWER) return refuse(REFUSED_PHASE);
  const next = copyState(s);
  const fixed = copy(last);
  fixed.yes = !fixed.yes;
  next.round.log = log.concat([fixed]);
  return accept(next);
}

/** A Master mistake that made the card impossible to find: the Master loses 1 point (never below 0) and the round ends. */
export function masterMistake(s: FlipState): Result<FlipState> {
  if (s.round.phase !== FLIP_ASK) return refuse(REFUSED_PHASE);
  return endRound(copyState(s), RESULT_MISTAKE, s.round.master, -1);
}

/** After a round is over, and the game is not: the Master role moves clockwise and a fresh round waits for the pick. */
export function nextRound(s: FlipState): Result<FlipState> {
  if (s.over || s.round.phase !== FLIP_OVER) return refuse(REFUSED_PHASE);
  const next = copy(s);
  next.round = freshRound(s.config.players, (s.round.master + 1) % s.config.players);
  next.rounds = s.rounds + 1;
  return accept(next);
}

/** Does the game hold a secret (the Master's card, picked, while the round is asked)? */
export function flipHoldsSecret(s: FlipState): boolean {
  return !s.over && s.round.phase === FLIP_ASK;
}

/** Checks that data read back from Storage is a Brain Flip game this firmware can play on; what is wrong, or null. */
export function checkFlipState(data: unknown): string | null {
  const s = data as FlipState;
  // (Anything but an object, a number or a string say, has no config either.)
  if (!s || !s.config || !s.round) return "not a Brain Flip game";
  const bad = checkFlipConfig(s.config);
  if (bad) return bad;
  const n = s.config.players;
  const cards = s.config.grid * s.config.grid;
  const r = s.round;
  if (!wholes(s.scores, n, 0, FLIP_TARGET)) return "bad scores";
  if (!whole(r.master, 0, n - 1) || !whole(r.turn, 0, n - 1) || !whole(r.pick, -1, cards - 1)) return "bad round";
  if (!whole(r.asked, 0, questionLimit(s.config.mode)) || !Array.isArray(r.log) || r.log.length > r.asked) return "bad questions";
  if (!Array.isArray(r.barred) || r.barred.length !== n || !wholes(r.wrongCards, -1, 0, cards - 1)) return "bad guesses";
  for (let i = 0; i < r.log.length; i++) {
    const e = r.log[i];
    if (
      !e ||
      !whole(e.player, 0, n - 1) ||
      !whole(e.kind, FLIP_ANSWER, FLIP_GUESS) ||
      typeof e.yes !== "boolean" ||
      !whole(e.card, -1, cards - 1)
    )
      return "bad log";
  }
  if (!whole(r.phase, FLIP_PICK, FLIP_OVER) || !whole(r.result, RESULT_NONE, RESULT_MISTAKE) || (r.phase !== FLIP_PICK && r.pick < 0))
    return "bad phase";
  return null;
}
