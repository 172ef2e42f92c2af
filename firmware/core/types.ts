/**
 * The rules engine's data. Everything here is plain, JSON-serialisable data (numbers, strings,
 * booleans, arrays, plain objects): match and game state are saved to Storage as they are.
 */

/** A code: one symbol per hole. Symbols 0..colours-1 are the colours; `colours` itself is the blank. */
export type Code = number[];
/** A hole with no peg yet, while a row is being entered (never part of a complete code). */
export const EMPTY = -1;

export interface Feedback {
  /** Right colour, right position (black key peg / red arm). */
  exact: number;
  /** Right colour, wrong position (white key peg / white arm). */
  near: number;
}

export type PresetId = "brainiac" | "travel" | "race";

/** The rules a game is played under: a preset with its variant resolved (docs/rules.md section 2). Shared and read-only (presets.ts makes each variant's once). */
export interface Rules {
  readonly preset: PresetId;
  /** The harder variant: Brainiac's extra challenge, the travel unit's expert variant, the race's advanced option. */
  readonly harder: boolean;
  readonly pegs: number;
  /** Real colours; with blanks allowed the blank is symbol `colours`, so there are colours + 1 symbols. */
  readonly colours: number;
  readonly rows: number;
  readonly blanks: boolean;
  /** May a real colour appear more than once in the secret? (A blank may always repeat where blanks are allowed.) */
  readonly secretRepeats: boolean;
  /** May a real colour appear more than once in a guess? */
  readonly guessRepeats: boolean;
  /** How feedback is shown: black/white key pegs, or red/white indicator arms. */
  readonly look: "pegs" | "arms";
  /** Points for the codemaker per row (Brainiac, travel unit), or holes on the race track for the codebreaker. */
  readonly scoring: "points" | "race";
  /** Codemaker's points when the last row fails (13 Brainiac, 9 travel unit; 0 unused for the race). */
  readonly unsolvedPoints: number;
  /** Race: holes advanced for a solve in row r (index r-1); 0 when unsolved. */
  readonly raceAdvance: readonly number[];
  /** Race: the hole that wins. */
  readonly raceTarget: number;
  /** Points (or holes) the codebreaker gets when the codemaker gave wrong information. */
  readonly wrongInfoBonus: number;
}

/**
 * Why an action was refused. Reasons, phases and roles are numbers, not names: the unit compares them on
 * every key and frame and keeps them in its saves, and a name costs bytes at every use in the bundle.
 * The *_NAMES tables name them for views, tests and tools (not in the bundle).
 */
/** The action does not belong to the game's phase (a key that does nothing now). */
export const REFUSED_PHASE = 0;
export const REFUSED_INCOMPLETE = 1;
export const REFUSED_REPEAT = 2;
export const REFUSED_BLANK = 3;
export const REFUSED_RANGE = 4;
/** Feedback counts that no code can give. */
export const REFUSED_FEEDBACK_RANGE = 5;
export const REFUSAL_NAMES = ["phase", "incomplete", "repeat", "blank", "range", "feedback-range"];
/** A code's fault: incomplete, repeat, blank or range. */
export type InvalidReason = number;
/** Why a code was refused, and the positions (0-based holes) at fault. */
export interface Invalid {
  reason: InvalidReason;
  positions: number[];
}

/**
 * Who does what (docs/rules.md section 3):
 * - referee: two players, the unit computes feedback;
 * - manual: two players, the codemaker keys in the feedback and the unit checks it;
 * - unit-makes / unit-breaks: one player against the unit; the named side is the unit's role in the
 *   first game, and roles switch after every game like any match.
 */
export type MatchMode = "referee" | "manual" | "unit-makes" | "unit-breaks";

export interface MatchConfig {
  preset: PresetId;
  harder: boolean;
  mode: MatchMode;
  /** Agreed number of games (even) for the points presets; ignored by the race (first to the target). */
  games: number;
}

/** One row played: the guess and the feedback that stands for it. */
export interface Row {
  guess: Code;
  feedback: Feedback;
}

/** Waiting for the codemaker's secret. */
export const PHASE_SECRET = 0;
/** Waiting for a guess. */
export const PHASE_GUESS = 1;
/** Manual / unit-breaks: a guess is on the board, waiting for the codemaker's feedback. */
export const PHASE_FEEDBACK = 2;
export const PHASE_SOLVED = 3;
export const PHASE_FAILED = 4;
export const PHASE_NAMES = ["secret", "guess", "feedback", "solved", "failed"];
export type GamePhase = typeof PHASE_SECRET | typeof PHASE_GUESS | typeof PHASE_FEEDBACK | typeof PHASE_SOLVED | typeof PHASE_FAILED;

/** The unit's role in the current game (unitRole): none (two players), codemaker, codebreaker. */
export const ROLE_NONE = 0;
export const ROLE_MAKER = 1;
export const ROLE_BREAKER = 2;

export interface GameState {
  /** null until set; in unit-breaks mode it may stay null (the player keeps the code in their head). */
  secret: Code | null;
  rows: Row[];
  /** The guess awaiting feedback (PHASE_FEEDBACK). */
  pending: Code | null;
  phase: GamePhase;
}

/** Why a game ended without a normal finish: the codemaker's wrong information (docs/rules.md 1). */
export interface WrongInfo {
  /** The rows (0-based) whose feedback is wrong (with a known secret) or that contradict each other. */
  rows: number[];
  /** With a known secret: the correct feedback of the row where the wrong answer was given. */
  correct: Feedback | null;
}

export interface GameRecord {
  /** Player (0 or 1) who made the code. */
  maker: number;
  rowsPlayed: number;
  solved: boolean;
  /** Replayed because of wrong information: does not count towards the agreed number of games. */
  replayed: boolean;
  /** Points (or holes) this game gave to each player. */
  gained: [number, number];
}

export interface MatchState {
  config: MatchConfig;
  /** Points, or race holes, per player. In unit modes player 1 is the unit. */
  scores: [number, number];
  /** The codemaker of the current game (0 or 1). */
  maker: number;
  game: GameState;
  history: GameRecord[];
  /** Set when the game just ended by wrong information, until the next game starts. */
  wrongInfo: WrongInfo | null;
  over: boolean;
  /** At the end: 0 or 1, or -1 for a draw. */
  winner: number;
}

/** A refused action: why, and which holes (or rows) are at fault. Never changes the state. */
export interface Refusal {
  /** REFUSED_*. */
  refused: number;
  positions: number[];
}

/** Every reducer returns the next state (a new object) or a refusal; it never mutates its input. */
export type Result<T> = { ok: true; state: T } | { ok: false; refusal: Refusal };
