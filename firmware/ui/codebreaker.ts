/**
 * The codebreaker games on the unit (docs/rules.md 1-3): a match of Brainiac, the travel unit or the
 * five-peg race, with the unit as referee, codemaker or codebreaker. What the screen does with a key
 * and what it draws both follow one named mode (mode(), ui/play-mode.ts), derived from the match and
 * the work in hand. Its picture is ui/codebreaker-picture.ts.
 */
import { EMPTY, PHASE_FAILED, PHASE_FEEDBACK, PHASE_GUESS, PHASE_SECRET, PHASE_SOLVED } from "../core/types";
import { REFUSED_BLANK, REFUSED_FEEDBACK_RANGE, ROLE_BREAKER, ROLE_MAKER } from "../core/types";
import type { Code, Feedback, MatchState, Refusal, Result, Rules } from "../core/types";
import {
  answer,
  checkConfig,
  gameEnded,
  keepSecretInHead,
  matchHoldsSecret,
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
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_HINT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "./layout";
import type { Layout } from "./layout";
import type { Clock } from "./frame";
import { CodebreakerPicture } from "./codebreaker-picture";
import type { PlayMode } from "./play-mode";
import { CHECKING, GAME_ENDED, KEY_FEEDBACK, KEY_GUESS, KEY_SECRET, MATCH_OVER, UNIT_SECRET, UNIT_THINKING } from "./play-mode";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_FAILED, TUNE_MATCH_OVER, TUNE_SOLVED, TUNE_WRONG_INFO } from "./tunes";
import type { GameScreen } from "./screen";
import type { Host } from "./host";
import type { FlashTarget } from "./screen";
import { FLASH_ENTRY, FLASH_FEEDBACK, FLASH_SECRET } from "./screen";
import type { Settings } from "./settings";
import { matchConfig } from "./settings";

/**
 * Evaluations per slice of background work (the unit's thinking, hints), a bound on its work even where the clock never
 * ends it: an evaluation counts 0.4 to 1.2 million interpreter instructions with 1 to 4 rows (`bench:micro -- --count`),
 * 2.3 million with 8 and 3.1 million with 12, and a Pico runs about 100 million a second, so a slice is 0.1 s of a Pico
 * (0.25 s with 12 rows) at most. On a Pico the clock (SLICE_MS) ends a slice after its first ASK_EVERY evaluations anyway.
 */
export const SOLVER_SLICE = 8;
/** How long a hint shows after the key is pressed. */
export const HINT_MS = 5000;

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
  fresh?: boolean;
  /** The solver's work in hand is done (its guess or hint is ready), and waits for a slice with time to use it. */
  private stepped?: boolean;
  busy?: boolean;
  /**
   * The unit's guess is played and the player answers it: meanwhile the solver goes on with the work its next move needs
   * (the enumeration its guess came before), in the same slices, with no light.
   */
  pondering?: boolean;
  /** The match as the unit's guess left it, its solver's guess in hand: the answer to it may be known to fit (feedbackKey). */
  private guessed?: MatchState;
  /** When the work in hand began (ms): the thinking light steps along with the time it takes. */
  busySince!: number;
  /** The answer just given to the unit (secret in the head), being checked for a contradiction before it counts. */
  checking?: ConflictSearch | null;
  /** The hint shows until then (the count on the track, an example in an empty row); undefined before the first, which no time is below. */
  hintUntil!: number;

  /** What the screen shows, drawn from the match and the entry (ui/codebreaker-picture.ts). */
  private readonly picture: CodebreakerPicture;

  constructor(
    readonly app: Host,
    private readonly rand: () => number,
  ) {
    this.picture = new CodebreakerPicture(app.layout);
  }

  mode(): PlayMode {
    const m = this.match as MatchState;
    // Asked by every key and every frame: worked out again only when the match or the check changed.
    if (m === this.modeOf && this.checking === this.modeChecking) return this.modeIs;
    const phase = m.game.phase;
    const role = unitRole(m);
    this.modeOf = m;
    this.modeChecking = this.checking;
    this.modeRules = rulesOf(m);
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
  /** The match's rules, with its mode (a key's step reads them: a call less than rulesOf). */
  private modeRules?: Rules;

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

  saved(): MatchState | null {
    return this.match;
  }

  /** A saved match (or none); after a power cut while the unit was thinking, it takes the work up again. */
  load(state: unknown): void {
    this.match = state as MatchState | null;
    this.enter();
  }

  resumable(): boolean {
    return this.unfinished() && (this.match as MatchState).config.preset === this.app.settings.preset;
  }

  unfinished(): boolean {
    const m = this.match;
    return m !== null && !m.over;
  }

  /** While a two-player game holds a secret that the codebreaker must not read (core/match.ts matchHoldsSecret). */
  holdsSecret(): boolean {
    const m = this.match;
    return !!m && matchHoldsSecret(m);
  }

  key(k: number, g: number, down: boolean): void {
    if (!down) return;
    const app = this.app;
    if (g === G_MENU) {
      app.go(app.menu);
      return;
    }
    const mode = this.mode();
    // A guess's key first; the other modes' keys in a function of their own (the interpreter reads through every line of
    // a function it calls, run or not). On a build with a codemaker pad, its keys are not the codebreaker's.
    if (mode !== KEY_GUESS) this.otherKey(k, g, mode);
    else if (g < 0 && app.layout.maker) app.refuse();
    else this.entryKeyGrid(g, FLASH_ENTRY);
  }

  /** A key in any mode but KEY_GUESS. */
  private otherKey(k: number, g: number, mode: PlayMode): void {
    const app = this.app;
    const mk = app.layout.maker;
    switch (mode) {
      case MATCH_OVER:
      case GAME_ENDED:
        if (g !== G_OK && !(mk !== undefined && k === mk.ok)) app.refuse();
        else if (mode === MATCH_OVER) app.go(app.menu);
        else this.commit(nextGame(this.match as MatchState), FLASH_ENTRY);
        return;
      case KEY_SECRET:
        this.entryKeyGrid(mk ? this.makerAsGrid(k, false) : g, FLASH_SECRET);
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
    // (key() has asked for the mode: its rules are the match's.)
    const rules = this.modeRules as Rules;
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
    this.entry[this.cursor] = symbol;
    this.placed.push(this.cursor);
    // Move on to the next empty hole, if any (after the cursor, else from the start), so a row can be keyed in colour
    // after colour. (indexOf: a native search, not a loop of statements.)
    const next = this.entry.indexOf(EMPTY, this.cursor + 1);
    const j = next < 0 ? this.entry.indexOf(EMPTY) : next;
    if (j >= 0) this.cursor = j;
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
      // With the secret in the head, the answer counts once it is checked against the others, in slices (think()); at once
      // where the unit's solver already knows that some secret gives it (it split its candidates while the player answered).
      if (r.ok && !m.game.secret && !(m === this.guessed && (this.solver as SolverState).fits(this.fb.exact, this.fb.near))) {
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

  private tuneFor(before: MatchState, after: MatchState): ArrayLike<number> {
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
      if (!making) this.guessed = r.state;
    }
  }

  /** Work waits: the unit's move or an answer's check (with the light), or the next move's work while the player answers. */
  working(): boolean | undefined {
    return this.busy || this.pondering;
  }

  /**
   * Idle time: one more slice of the background work; true when it finished (render, play the tune, save). The
   * slice ends when the host's sliceOver says so (the device's clock), or after SOLVER_SLICE evaluations.
   */
  think(now: number): boolean {
    const sliceOver = this.app.sliceOver;
    this.app.now = now;
    const m = this.match as MatchState;
    // The match moved on (a new match): what was being worked out no longer matters.
    if (m !== this.solverFor) this.busy = false;
    if (!this.busy) {
      // Until the answer comes (the next move goes on with what is left then).
      if (this.pondering && (this.mode() !== KEY_FEEDBACK || (this.solver as SolverState).ponder(SOLVER_SLICE, sliceOver)))
        this.pondering = false;
      return false;
    }
    const checking = this.checking;
    if (checking) {
      if (!checking.step(SOLVER_SLICE, sliceOver)) return false;
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
      if (made)
        this.solver = createSolver(rules, hints ? undefined : this.app.readTable && this.app.readTable(solverTableName(rules)), hints);
      this.solverHints = hints;
      (this.solver as SolverState).start(m.game.rows);
      this.stepped = false;
      // A new solver (its arrays, the table's header) is this slice's work: the search starts in the next one.
      if (made) return false;
    }
    const solver = this.solver as SolverState;
    if (!this.stepped) {
      if (!solver.step(SOLVER_SLICE, sliceOver)) return false;
      this.stepped = true;
      // Hints: a code that fits is found (it fills the row if a hint shows); the count goes on in the next slices.
      if (this.solverHints) {
        if (now < this.hintUntil) this.hintExample();
        return true;
      }
      // The guess is played in the slice that found it: playing it is a key's work, and a slice's chunk of evaluations and a
      // key's work together take a Pico less than the longest task allowed, where a slice of its own would cost the move
      // a task more.
    }
    if (this.solverHints && !solver.ponder(SOLVER_SLICE, sliceOver)) return false;
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

  draw(frame: Uint8Array, clock: Clock, flashOff: boolean): void {
    this.picture.draw(this, frame, clock, flashOff);
  }
}
