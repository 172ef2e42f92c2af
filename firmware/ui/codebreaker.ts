/**
 * The codebreaker games on the unit (RULES.md 1-3): a match of Brainiac, the travel unit or the
 * five-peg race, with the unit as referee, codemaker or codebreaker. What the screen does with a key
 * and what it draws both follow one named mode (mode()), derived from the match and the work in hand.
 */
import { EMPTY, PHASE_FAILED, PHASE_FEEDBACK, PHASE_GUESS, PHASE_SECRET, PHASE_SOLVED } from "../core/types";
import { REFUSED_BLANK, REFUSED_FEEDBACK_RANGE, ROLE_BREAKER, ROLE_MAKER } from "../core/types";
import type { Code, Feedback, MatchState, Refusal, Result, Rules } from "../core/types";
import {
  answer,
  checkConfig,
  gameEnded,
  keepSecretInHead,
  newMatch,
  nextGame,
  rulesOf,
  setSecret,
  submitGuess,
  unitRole,
} from "../core/match";
import { randomSecret } from "../core/random";
import { createSolver, solverTableName } from "../core/solver";
import type { SolverState } from "../core/solver";
import { createConflictSearch } from "../core/conflict";
import type { ConflictSearch } from "../core/conflict";
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "./layout";
import type { Layout } from "./layout";
import { BLINK_ON, BLINK_PERIOD, Clock, drawCode, drawFeedback } from "./frame";
import { BLUE, CYAN, GREEN, HOLE, OFF, ORANGE, PEG_COLOURS, PINK, RED, VIOLET, WHITE } from "./palette";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_FAILED, TUNE_MATCH_OVER, TUNE_SOLVED, TUNE_WRONG_INFO } from "./tunes";
import type { GameScreen } from "./screen";
import type { App } from "./app";
import type { FlashTarget } from "./screen";
import { FLASH_ENTRY, FLASH_FEEDBACK, FLASH_SECRET } from "./screen";
import type { Settings } from "./menu";
import { matchConfig, S_GAME } from "./menu";

/** Evaluations per slice of background work (the unit's thinking, hints): about 0.3 s on the Pico (600 a second). */
export const SOLVER_SLICE = 180;
/** The hint key of a human codebreaker (grid position): how many codes still fit, and one of them in the row. */
export const G_HINT = 11;
/** How long a hint shows after the key is pressed. */
export const HINT_MS = 5000;
/** Player colours on the track and status LEDs: player 0 red, player 1 (the unit, in unit modes) blue. */
export const PLAYER_COLOURS = [RED, BLUE];
const TRACK_HALF = 15;
/** Builds without a track show the hint's count on the pad's rows 4 and 5 (free while a guess is keyed). */
const PAD_HINT_BAR = 18;
const PAD_HINT_LEN = 12;
/**
 * The thinking light's step. Work that ends within the first step (a move from the table, a small
 * candidate list) shows none; the frame is drawn again only when the light moves, not after every slice.
 */
export const CHASE_MS = 150;

/**
 * Where a match stands, for keys and drawing alike (mode()): the unit making its secret, a human keying
 * the secret or a guess, the unit choosing its guess, a human keying feedback, an answer being checked
 * for a contradiction, a game ended (OK for the next), the match over (OK for the menu). Numbers in the
 * bundle (a name string costs bytes at every comparison); PLAY_MODE_NAMES names them.
 */
export type PlayMode = number;
export const UNIT_SECRET = 0;
export const KEY_SECRET = 1;
export const KEY_GUESS = 2;
export const UNIT_THINKING = 3;
export const KEY_FEEDBACK = 4;
export const CHECKING = 5;
export const GAME_ENDED = 6;
export const MATCH_OVER = 7;
/** The modes' names, by number (for views and tests; not in the bundle). */
export const PLAY_MODE_NAMES = [UNIT_SECRET, KEY_SECRET, KEY_GUESS, UNIT_THINKING, KEY_FEEDBACK, CHECKING, GAME_ENDED, MATCH_OVER];

function emptyCode(n: number): Code {
  const c: Code = [];
  for (let i = 0; i < n; i++) c.push(EMPTY);
  return c;
}

export class CodebreakerScreen implements GameScreen {
  readonly name = "play";
  /** draw() starts from the rows played, a picture of the whole chain. */
  readonly opaque = true;
  match: MatchState | null = null;
  // (Set by resetEntry() whenever a match is entered, before any key or frame can read them.)
  /** The row (or secret) being keyed in, with EMPTY holes. */
  entry!: Code;
  cursor!: number;
  /** Holes filled, in order, so undo takes back the last peg placed. */
  placed!: number[];
  /** Feedback being keyed in by the codemaker, and the order of the presses for undo. */
  fb!: Feedback;
  fbPresses!: number[];
  /**
   * Background work for the current game, in slices: the unit's next guess when it breaks, else the
   * hints for the human codebreaker (kept up to date after every row). `busy` while it works, for
   * `slices` slices so far; `solverFor` is the match it works on.
   */
  solver: SolverState | null = null;
  private solverFor?: MatchState | null;
  private solverHints?: boolean;
  /** The work in hand has not begun: think() makes the secret, or sets the solver up, first. */
  private fresh?: boolean;
  /** The solver's work in hand is done (its guess or hint is ready), and waits for a slice with time to use it. */
  private stepped?: boolean;
  busy?: boolean;
  /**
   * The unit's guess is played and the player answers it: meanwhile the solver goes on with the work its next move needs
   * (the enumeration its guess came before), in the same slices, with no light.
   */
  pondering?: boolean;
  /** When the work in hand began (ms): the thinking light steps along with the time it takes. */
  busySince!: number;
  /** The answer just given to the unit (secret in the head), being checked for a contradiction before it counts. */
  checking?: ConflictSearch | null;
  /** The hint shows until then (the count on the track, an example in an empty row); undefined before the first, which no time is below. */
  hintUntil!: number;
  /** Asked during background work: is the time slice over? The device layer sets it from its clock (the work also stops after SOLVER_SLICE evaluations). */
  sliceOver: (() => boolean) | undefined;
  /** Reads a solver table by its Storage name; the device layer sets it (tests may leave none: the unit then searches). */
  tableReader: (name: string) => Uint8Array | string | undefined = function () {
    return undefined;
  };

  /**
   * What stays put between commits, drawn once (the interpreter runs source text: a frame drawn from
   * scratch costs a few ms there, ~0.3 s on a Pico): the rows played so far and the scores, copied
   * natively into every frame. Valid while the last row drawn is still the game's row (rows only grow
   * within a game) and the shift, rules and scores are the same.
   */
  private readonly base: Uint8Array;
  private baseRows = 0;
  private baseLast: unknown;
  private baseShift?: number;
  private baseRules?: Rules;
  private baseScores?: number;
  private baseSecret?: Code | null;
  /** The pad while a code is keyed, per rules (colour keys, blank, slots, controls), copied natively. */
  private padImage: Uint8Array;
  private padRules?: Rules;

  constructor(
    readonly app: App,
    private readonly rand: () => number,
  ) {
    this.base = new Uint8Array(app.layout.ledCount);
    this.padImage = new Uint8Array(36);
  }

  mode(): PlayMode {
    const m = this.match as MatchState;
    // Asked by every key and every frame: worked out again only when the match or the check changed.
    if (m === this.modeOf && this.checking === this.modeChecking) return this.modeIs;
    const phase = m.game.phase;
    const role = unitRole(m);
    this.modeOf = m;
    this.modeChecking = this.checking;
    return (this.modeIs = this.checking
      ? CHECKING
      : m.over
        ? MATCH_OVER
        : gameEnded(m)
          ? GAME_ENDED
          : phase === PHASE_SECRET
            ? role === ROLE_MAKER
              ? UNIT_SECRET
              : KEY_SECRET
            : phase === PHASE_FEEDBACK
              ? KEY_FEEDBACK
              : role === ROLE_BREAKER
                ? UNIT_THINKING
                : KEY_GUESS);
  }
  private modeOf?: MatchState | null;
  private modeChecking?: ConflictSearch | null;
  private modeIs: PlayMode = KEY_GUESS;

  /** A new match from the settings; false when they do not make one. */
  start(s: Settings): boolean {
    const config = matchConfig(s);
    if (checkConfig(config)) return false;
    this.match = newMatch(config);
    this.enter();
    return true;
  }

  /** Shown again (a new match, resume, or restored after a power cut): a fresh entry, and the unit takes its turn. */
  enter(): void {
    this.resetEntry();
    if (this.match) this.runUnit();
  }

  resumable(): boolean {
    return this.unfinished() && (this.match as MatchState).config.preset === this.app.settings[S_GAME];
  }

  unfinished(): boolean {
    const m = this.match;
    return m !== null && !m.over;
  }

  /**
   * While a two-player game (referee or manual) holds a secret that the codebreaker must not read:
   * set and not yet revealed.
   */
  holdsSecret(): boolean {
    const m = this.match;
    if (!m || m.over || m.wrongInfo || (m.config.mode !== "referee" && m.config.mode !== "manual")) return false;
    const g = m.game;
    return g.secret !== null && (g.phase === PHASE_GUESS || g.phase === PHASE_FEEDBACK);
  }

  key(k: number, g: number, down: boolean): void {
    const app = this.app;
    const m = this.match as MatchState;
    const mk = app.layout.maker;
    if (!down) return;
    if (g === G_MENU) {
      app.go(app.menu);
      return;
    }
    const ok = g === G_OK || (mk !== undefined && k === mk.ok);
    switch (this.mode()) {
      case MATCH_OVER:
        if (ok) app.go(app.menu);
        else app.refuse();
        return;
      case GAME_ENDED:
        if (ok) this.commit(nextGame(m), FLASH_ENTRY);
        else app.refuse();
        return;
      case KEY_SECRET:
        this.entryKeyGrid(mk ? this.makerAsGrid(k, false) : g, FLASH_SECRET);
        return;
      case KEY_GUESS:
        // On a build with a codemaker pad, its keys are not the codebreaker's.
        if (mk && g < 0) app.refuse();
        else this.entryKeyGrid(g, FLASH_ENTRY);
        return;
      case KEY_FEEDBACK:
        this.feedbackKey(k, g);
        return;
      case CHECKING:
        app.refuse(FLASH_FEEDBACK);
        return;
      default:
        app.refuse();
    }
  }

  /** Colour, blank, slot, undo, clear and OK keys of the grid, for a guess (FLASH_ENTRY) or a secret (FLASH_SECRET; on a codemaker pad, as makerAsGrid gives its keys). */
  private entryKeyGrid(g: number, what: FlashTarget): void {
    const rules = rulesOf(this.match as MatchState);
    const app = this.app;
    if (g >= G_COLOUR && g < G_COLOUR + rules.colours) this.place(g - G_COLOUR);
    else if (g === G_BLANK) {
      if (rules.blanks) this.place(rules.colours);
      else app.refuse(what, REFUSED_BLANK);
    } else if (g >= G_SLOT && g < G_SLOT + rules.pegs) {
      this.cursor = g - G_SLOT;
      app.tune = TUNE_CLICK;
    } else if (g === G_UNDO) this.undo();
    else if (g === G_CLEAR) {
      this.resetEntry();
      app.tune = TUNE_CLICK;
    } else if (g === G_OK) this.submitEntry(what);
    else if (g === G_HINT && what === FLASH_ENTRY) {
      this.hintUntil = app.now + HINT_MS;
      this.hintExample();
      app.tune = TUNE_CLICK;
    } else app.refuse(what);
  }

  /**
   * A key of the codemaker pad as the grid position that does the same (-1: none), so that one handler
   * serves both pads: in feedback its exact, near, undo and OK keys; else its colours, blank, undo and OK
   * (the exact and blank keys may be one key).
   */
  private makerAsGrid(k: number, feedback: boolean): number {
    const mk = this.app.layout.maker as NonNullable<Layout["maker"]>;
    const colour = mk.colours.indexOf(k);
    return k === mk.ok
      ? G_OK
      : k === mk.undo
        ? G_UNDO
        : feedback
          ? k === mk.exact
            ? G_EXACT
            : k === mk.near
              ? G_NEAR
              : -1
          : colour >= 0
            ? G_COLOUR + colour
            : k === mk.blank
              ? G_BLANK
              : -1;
  }

  private place(symbol: number): void {
    const n = this.entry.length;
    this.entry[this.cursor] = symbol;
    this.placed.push(this.cursor);
    // Move on to the next empty hole, if any, so a row can be keyed in colour after colour.
    for (let i = 1; i <= n; i++) {
      const j = (this.cursor + i) % n;
      if (this.entry[j] === EMPTY) {
        this.cursor = j;
        break;
      }
    }
    this.app.tune = TUNE_CLICK;
  }

  private undo(): void {
    const pos = this.placed.pop();
    if (pos === undefined) {
      this.app.refuse();
      return;
    }
    this.entry[pos] = EMPTY;
    this.cursor = pos;
    this.app.tune = TUNE_CLICK;
  }

  /** OK on a guess (FLASH_ENTRY) or a secret (FLASH_SECRET). */
  private submitEntry(what: FlashTarget): void {
    const m = this.match as MatchState;
    const code = this.entry.slice();
    let allEmpty = true;
    for (let i = 0; i < code.length; i++) if (code[i] !== EMPTY) allEmpty = false;
    // Playing against the unit, the codemaker may keep the code in their head: OK on an empty secret.
    if (what === FLASH_SECRET && allEmpty && unitRole(m) === ROLE_BREAKER) this.commit(keepSecretInHead(m), what);
    else this.commit(what === FLASH_SECRET ? setSecret(m, code) : submitGuess(m, code), what);
  }

  /** Exact/near keys, undo and OK while the codemaker gives feedback. */
  private feedbackKey(k: number, g: number): void {
    const app = this.app;
    const m = this.match as MatchState;
    const pegs = rulesOf(m).pegs;
    const f = app.layout.maker ? this.makerAsGrid(k, true) : g;
    const isExact = f === G_EXACT;
    const isNear = f === G_NEAR;
    if (isExact || isNear) {
      if (this.fb.exact + this.fb.near >= pegs) {
        app.refuse(FLASH_FEEDBACK, REFUSED_FEEDBACK_RANGE);
        return;
      }
      if (isExact) this.fb.exact++;
      else this.fb.near++;
      this.fbPresses.push(isExact ? 1 : 0);
      app.tune = TUNE_CLICK;
    } else if (f === G_UNDO) {
      const last = this.fbPresses.pop();
      if (last === undefined) app.refuse(FLASH_FEEDBACK);
      else {
        if (last) this.fb.exact--;
        else this.fb.near--;
        app.tune = TUNE_CLICK;
      }
    } else if (f === G_OK) {
      const r = answer(m, this.fb, []);
      if (r.ok && !m.game.secret) {
        // With the secret in the head, the answer counts once it is checked against the others, in slices (think()).
        this.checking = createConflictSearch(rulesOf(m), m.game.rows.concat([{ guess: m.game.pending as Code, feedback: this.fb }]));
        this.solverFor = m;
        this.busy = true;
        this.busySince = app.now;
      } else this.commit(r, FLASH_FEEDBACK);
    } else app.refuse(FLASH_FEEDBACK);
  }

  /** Applies a core result: on success the new state is saved and the unit takes its turn; a refusal costs nothing. */
  private commit(r: Result<MatchState>, target: FlashTarget): void {
    if (!r.ok) {
      this.refuseWith(r.refusal, target);
      return;
    }
    const before = this.match as MatchState;
    this.match = r.state;
    this.enter();
    this.app.tune = this.tuneFor(before, this.match as MatchState);
    this.app.saveWanted = this.settled();
  }

  /**
   * Is the state worth saving now? Not while the unit is about to make its secret (in the next task): a
   * save then would hold a game the unit has not set up, and a power cut after it would resume with
   * another secret; the save comes with the secret.
   */
  settled(): boolean {
    return !this.fresh || this.mode() !== UNIT_SECRET;
  }

  private tuneFor(before: MatchState, after: MatchState): number[] {
    if (after.over && !before.over) return TUNE_MATCH_OVER;
    if (after.wrongInfo && !before.wrongInfo) return TUNE_WRONG_INFO;
    if (after.game.phase === PHASE_SOLVED && before.game.phase !== PHASE_SOLVED) return TUNE_SOLVED;
    if (after.game.phase === PHASE_FAILED && before.game.phase !== PHASE_FAILED) return TUNE_FAILED;
    return TUNE_ACCEPT;
  }

  /**
   * The unit's moves: its secret, and its guesses when it breaks (and for a human codebreaker, the hints'
   * solver), are worked out by think() in tasks of their own, never in the task of the key that asked (its
   * frame goes out first): the secret in one, a solver set up in one and run in slices after. With
   * `ready`, think() has the secret or the guess: it is played.
   */
  runUnit(ready?: boolean): void {
    for (let guard = 0; guard < 4; guard++) {
      const m = this.match as MatchState;
      let r: Result<MatchState> | null = null;
      this.busy = false;
      const making = unitRole(m) === ROLE_MAKER && m.game.phase === PHASE_SECRET;
      if (!making && m.game.phase !== PHASE_GUESS) return;
      if (!ready) {
        this.solverFor = m;
        this.busySince = this.app.now;
        this.busy = this.fresh = true;
        return;
      }
      ready = false;
      if (making) r = setSecret(m, randomSecret(rulesOf(m), this.rand));
      else {
        const guess = (this.solver as SolverState).guess();
        if (guess) r = submitGuess(m, guess);
        this.pondering = true;
      }
      if (!r || !r.ok) return;
      this.match = r.state;
    }
  }

  /** Idle time: one more slice of the background work; true when it finished (render, play the tune, save). */
  think(now: number): boolean {
    this.app.now = now;
    const m = this.match as MatchState;
    // The match moved on (a new match): what was being worked out no longer matters.
    if (m !== this.solverFor) this.busy = false;
    if (!this.busy) {
      // Until the answer comes (the next move goes on with what is left then).
      if (this.pondering && (this.mode() !== KEY_FEEDBACK || (this.solver as SolverState).ponder(SOLVER_SLICE, this.sliceOver)))
        this.pondering = false;
      return false;
    }
    const checking = this.checking;
    if (checking) {
      if (!checking.step(SOLVER_SLICE, this.sliceOver)) return false;
      this.busy = false;
      this.commit(answer(m, this.fb, checking.rows()), FLASH_FEEDBACK);
      return true;
    }
    if (this.fresh) {
      this.fresh = false;
      if (this.mode() === UNIT_SECRET) {
        this.runUnit(true);
        this.app.saveWanted = true;
        return true;
      }
      // One solver per game (it only grows with the rows): a new one when a game starts or after a restore.
      const rules = rulesOf(m);
      const hints = unitRole(m) !== ROLE_BREAKER;
      const made = !this.solver || !m.game.rows.length || hints !== this.solverHints;
      if (made) this.solver = createSolver(rules, hints ? undefined : this.tableReader(solverTableName(rules)), hints);
      this.solverHints = hints;
      (this.solver as SolverState).start(m.game.rows);
      this.stepped = false;
      // A new solver (its arrays, the table's header) is this slice's work: the search starts in the next one.
      if (made) return false;
    }
    const solver = this.solver as SolverState;
    if (!this.stepped) {
      if (!solver.step(SOLVER_SLICE, this.sliceOver)) return false;
      this.stepped = true;
      // Hints: a code that fits is found (it fills the row if a hint shows); the count goes on in the next slices.
      if (this.solverHints) {
        if (now < this.hintUntil) this.hintExample();
        return true;
      }
      // The guess is played in a slice of its own unless this one has time left (playing it is a key's work).
      if (this.sliceOver && this.sliceOver()) return false;
    }
    if (this.solverHints && !solver.ponder(SOLVER_SLICE, this.sliceOver)) return false;
    this.busy = false;
    if (this.solverHints) return true;
    this.runUnit(true);
    this.app.tune = TUNE_ACCEPT;
    this.app.saveWanted = true;
    return true;
  }

  /** The hint's example, once found, goes into the row being keyed if it is still empty (undo takes it back peg by peg). */
  private hintExample(): void {
    const example = this.solver && !this.fresh && this.solver.example();
    if (!example || this.placed.length) return;
    this.entry = example;
    for (let i = 0; i < example.length; i++) this.placed.push(i);
  }

  private refuseWith(refusal: Refusal, target: FlashTarget): void {
    const m = this.match as MatchState;
    if (refusal.refused === REFUSED_FEEDBACK_RANGE) target = FLASH_FEEDBACK;
    this.app.refuse(
      target,
      refusal.refused,
      refusal.positions.length ? refusal.positions : target === FLASH_FEEDBACK ? [m.game.rows.length] : [],
    );
  }

  resetEntry(): void {
    this.entry = emptyCode(this.match ? rulesOf(this.match).pegs : 0);
    this.cursor = 0;
    this.placed = [];
    this.fb = { exact: 0, near: 0 };
    this.fbPresses = [];
    this.checking = null;
  }

  // ---- drawing ----

  draw(frame: Uint8Array, clock: Clock, flashOff: boolean): void {
    const app = this.app;
    const m = this.match as MatchState;
    const L = app.layout;
    const rules = rulesOf(m);
    const game = m.game;
    const mode = this.mode();
    const ended = mode === GAME_ENDED || mode === MATCH_OVER;
    const current = game.rows.length;
    const cursorOn = clock.blink(BLINK_PERIOD, BLINK_ON);
    // A board with fewer rows than the preset shows the latest rows (the row being played at the top).
    const shift = Math.max(0, Math.min(current, rules.rows - 1) + 1 - L.rows);
    const row = current - shift;
    // The secret: revealed at the end; under the shield it shows to the (human) codemaker only, and is keyed there.
    // Shown as it is, it is part of the base (it changes only when a game begins or ends).
    const secretStart = L.seg.secret;
    const shielded = secretStart >= 0 && L.secretShielded && unitRole(m) !== ROLE_MAKER;
    const secretShown = secretStart >= 0 && (ended || (shielded && mode !== KEY_SECRET));
    app.secretCovered = shielded && !ended;
    frame.set(this.drawBase(m, L, rules, shift, secretShown ? game.secret : null));
    // Wrong information: the rows at fault alternate between the answer given and the true one (when known).
    const wi = m.wrongInfo;
    if (wi && !cursorOn)
      for (let i = 0; i < wi.rows.length; i++) {
        const at = L.seg.keys + (wi.rows[i] - shift) * L.pegs;
        if (wi.rows[i] < shift) continue;
        frame.fill(OFF, at, at + L.pegs);
        if (wi.correct) drawFeedback(frame, at, rules, wi.correct);
      }
    const entryOnBoard = mode === KEY_GUESS && current < rules.rows;
    if (entryOnBoard) this.drawEntry(frame, L.seg.board + row * L.pegs, rules, cursorOn, flashOff && app.flashTarget === FLASH_ENTRY);
    if ((mode === KEY_FEEDBACK || mode === CHECKING) && game.pending) {
      drawCode(frame, L.seg.board + row * L.pegs, rules, game.pending);
      const keysStart = L.seg.keys + row * L.pegs;
      if (!(flashOff && app.flashTarget === FLASH_FEEDBACK)) {
        drawFeedback(frame, keysStart, rules, this.fb);
        // Unfilled key holes of the row awaiting feedback blink (the preset's holes only), so the codemaker sees it is their turn.
        if (cursorOn) for (let i = 0; i < rules.pegs; i++) if (frame[keysStart + i] === OFF) frame[keysStart + i] = HOLE;
      }
    }
    if (shielded && mode === KEY_SECRET) this.drawEntry(frame, secretStart, rules, cursorOn, flashOff && app.flashTarget === FLASH_SECRET);
    this.drawPad(frame, L, rules, mode, cursorOn);
    // Background work: a light runs along the unit's row while it chooses its guess, or along the row's
    // key pegs while an answer is checked, one step every CHASE_MS once the work outlasts the first.
    if (this.busy && (mode === UNIT_THINKING || mode === CHECKING))
      this.chase(frame, (mode === CHECKING ? L.seg.keys : L.seg.board) + row * L.pegs, rules.pegs, clock);
    if (entryOnBoard && clock.now < this.hintUntil) this.drawHint(frame, L, clock);
    if (L.seg.status >= 0) {
      // Whose move: the codemaker's colour while the secret or feedback is awaited, else the codebreaker's.
      const mover = game.phase === PHASE_SECRET || game.phase === PHASE_FEEDBACK ? m.maker : 1 - m.maker;
      frame[L.seg.status] = m.over ? (m.winner >= 0 ? PLAYER_COLOURS[m.winner] : WHITE) : PLAYER_COLOURS[mover];
      const alert = L.seg.status + 1;
      if (L.segLen.status > 1) {
        if (wi) frame[alert] = cursorOn ? RED : OFF;
        else if (game.phase === PHASE_SOLVED) frame[alert] = GREEN;
        else if (game.phase === PHASE_FAILED) frame[alert] = ORANGE;
      }
    }
  }

  /** The rows played, the scores and the secret shown (or null), brought up to date (usually: nothing, or the one new row). */
  private drawBase(m: MatchState, L: Layout, rules: Rules, shift: number, secret: Code | null): Uint8Array {
    const base = this.base;
    const rows = m.game.rows;
    let n = this.baseRows;
    if (shift !== this.baseShift || rules !== this.baseRules || n > rows.length || (n > 0 && rows[n - 1] !== this.baseLast)) {
      base.fill(OFF);
      n = 0;
      this.baseScores = -1;
      this.baseSecret = null;
    }
    // (Only its own holes: a reveal at a game's end comes in a task that is long already.)
    if (secret !== this.baseSecret) {
      this.baseSecret = secret;
      if (secret) drawCode(base, L.seg.secret, rules, secret);
      else if (L.seg.secret >= 0) base.fill(OFF, L.seg.secret, L.seg.secret + L.pegs);
    }
    for (; n < rows.length; n++)
      if (n >= shift) {
        drawCode(base, L.seg.board + (n - shift) * L.pegs, rules, rows[n].guess);
        drawFeedback(base, L.seg.keys + (n - shift) * L.pegs, rules, rows[n].feedback);
      }
    this.baseRows = n;
    this.baseLast = n > 0 ? rows[n - 1] : null;
    this.baseShift = shift;
    this.baseRules = rules;
    const scores = m.scores[0] * 4096 + m.scores[1];
    if (scores !== this.baseScores) {
      this.baseScores = scores;
      this.drawScores(base, L, rules, m.scores);
    }
    return base;
  }

  /** The row (or secret) being keyed: its pegs, the cursor's hole blinking, the holes at fault of a refusal dark. */
  private drawEntry(frame: Uint8Array, start: number, rules: Rules, cursorOn: boolean, flashOff: boolean): void {
    const app = this.app;
    drawCode(frame, start, rules, this.entry);
    if (!cursorOn) frame[start + this.cursor] = OFF;
    if (flashOff) for (let i = 0; i < app.flashPositions.length; i++) frame[start + app.flashPositions[i]] = OFF;
  }

  private drawPad(frame: Uint8Array, L: Layout, rules: Rules, mode: PlayMode, cursorOn: boolean): void {
    const p = L.seg.pad;
    const game = (this.match as MatchState).game;
    if (p < 0) return;
    frame[p + G_MENU] = BLUE;
    if (mode === GAME_ENDED || mode === MATCH_OVER) {
      // The reveal: the secret on the slot row, and OK for the next game.
      if (game.secret) drawCode(frame, p + G_SLOT, rules, game.secret);
      frame[p + G_OK] = cursorOn ? GREEN : OFF;
    } else if (mode === KEY_GUESS || (mode === KEY_SECRET && !L.maker)) {
      frame.set(this.padFor(rules), p);
      // The cursor's slot key blinks; a secret keyed on the grid has no hint key.
      if (!cursorOn) frame[p + G_SLOT + this.cursor] = OFF;
      if (mode !== KEY_GUESS) frame[p + G_HINT] = OFF;
    } else if ((mode === KEY_FEEDBACK || mode === CHECKING) && !L.maker) {
      frame[p + G_EXACT] = rules.look === "arms" ? RED : VIOLET;
      frame[p + G_NEAR] = WHITE;
      frame[p + G_UNDO] = ORANGE;
      frame[p + G_OK] = GREEN;
    }
  }

  /** The pad while a code is keyed under these rules: colour keys, blank, hole-coloured slot keys, undo, clear, OK, hint, menu. */
  private padFor(rules: Rules): Uint8Array {
    const img = this.padImage;
    if (rules === this.padRules) return img;
    img.fill(OFF);
    for (let c = 0; c < rules.colours; c++) img[G_COLOUR + c] = PEG_COLOURS[c];
    if (rules.blanks) img[G_BLANK] = CYAN;
    img.fill(HOLE, G_SLOT, G_SLOT + rules.pegs);
    img[G_UNDO] = ORANGE;
    img[G_CLEAR] = RED;
    img[G_OK] = GREEN;
    img[G_HINT] = WHITE;
    img[G_MENU] = BLUE;
    this.padRules = rules;
    return img;
  }

  private drawScores(frame: Uint8Array, L: Layout, rules: Rules, scores: number[]): void {
    const start = L.seg.track;
    const len = L.segLen.track;
    if (start < 0) return;
    frame.fill(OFF, start, start + len);
    if (rules.scoring === "race") {
      // Each player's scoring peg on its hole (1..30); both on one hole shows pink.
      for (let p = 0; p < 2; p++) {
        const hole = Math.min(scores[p], len);
        if (hole > 0) frame[start + hole - 1] = frame[start + hole - 1] === OFF ? PLAYER_COLOURS[p] : PINK;
      }
      return;
    }
    // Points: a bar per player from each end of its half, one LED a point; after a full lap of 15 the rest of the half
    // is white. (Fills, not a loop over the LEDs: this is drawn in a game's last task, the longest.)
    const half = Math.min(TRACK_HALF, Math.ceil(len / 2));
    for (let p = 0; p < 2; p++) {
      const lit = Math.min(scores[p] % TRACK_HALF, half);
      const end = start + len;
      if (scores[p] >= TRACK_HALF) frame.fill(WHITE, p ? end - half : start, p ? end : start + half);
      frame.fill(PLAYER_COLOURS[p], p ? end - lit : start, p ? end : start + lit);
    }
  }

  /**
   * The thinking light along `len` LEDs from `start`: one step every CHASE_MS of the work in hand, none in
   * its first step; notes when it moves next. (Half a millisecond of slack: a render due at a step's time
   * must count that step, whatever the rounding of the times.) Over a white key peg the light is a gap, so it
   * shows on any answer.
   */
  private chase(frame: Uint8Array, start: number, len: number, clock: Clock): void {
    const steps = Math.floor((clock.now - this.busySince + 0.5) / CHASE_MS);
    const at = start + ((steps - 1) % len);
    clock.at(this.busySince + (steps + 1) * CHASE_MS);
    if (steps > 0) frame[at] = frame[at] === WHITE ? OFF : WHITE;
  }

  /**
   * The hint on the track (or the pad's free rows): how many codes still fit. Up to the bar's length,
   * one green LED per code; beyond, orange LEDs, each doubling (n LEDs: about 2^n codes); one red LED:
   * no code fits, the answers contradict each other. While it is worked out, the count so far, and a light runs along it.
   */
  private drawHint(frame: Uint8Array, L: Layout, clock: Clock): void {
    const track = L.seg.track >= 0;
    const start = track ? L.seg.track : L.seg.pad + PAD_HINT_BAR;
    const len = track ? L.segLen.track : PAD_HINT_LEN;
    const n = this.solver && !this.fresh ? this.solver.total() : 0;
    frame.fill(OFF, start, start + len);
    clock.at(this.hintUntil);
    if (n) frame.fill(n > len ? ORANGE : GREEN, start, start + (n > len ? Math.min(len, Math.ceil(Math.log(n) / Math.LN2)) : n));
    else if (!this.busy) frame[start] = RED;
    if (this.busy) this.chase(frame, start, len, clock);
  }
}
