/**
 * The unit's ui: key presses in, core actions and frames out. Pure: no I/O and no clock; the time
 * is an argument, randomness is injected, and effects (a tune to play, state to save) are handed
 * to the device layer through takeTune() and takeSave().
 */
import { EMPTY } from "../core/types";
import type { Code, Feedback, MatchMode, MatchState, PresetId, Refusal, Result } from "../core/types";
import {
  answer,
  checkConfig,
  checkMatchState,
  keepSecretInHead,
  newMatch,
  nextGame,
  rulesOf,
  setSecret,
  submitGuess,
  unitRole,
} from "../core/match";
import { randomSecret } from "../core/random";
import { rulesFor } from "../core/presets";
import { createSolver, solverTableName } from "../core/solver";
import type { SolverState } from "../core/solver";
import { createConflictSearch } from "../core/conflict";
import type { ConflictSearch } from "../core/conflict";
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "./layout";
import { FlipScreen, maxFlipGrid } from "./flip";
import type { FlipSettings } from "./flip";
import type { FlipState } from "../core/brainflip";
import { checkFlipConfig, checkFlipState } from "../core/brainflip";
import type { Layout } from "./layout";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_FAILED, TUNE_MATCH_OVER, TUNE_REFUSE, TUNE_SOLVED, TUNE_WRONG_INFO } from "./tunes";

/** Evaluations per slice of background work (the unit's thinking, hints): about 0.3 s on the Pico (600 a second). */
export const SOLVER_SLICE = 180;
/** The hint key of a human codebreaker (grid position): how many codes still fit, and one of them in the row. */
export const G_HINT = 11;
/** How long a hint shows after the key is pressed. */
export const HINT_MS = 5000;
export const SAVE_VERSION = 1;
/** The games on the menu's first row: the three codebreaker sheets and Brain Flip. */
export type GameId = PresetId | "brainflip";
export const PRESET_MENU: GameId[] = ["brainiac", "travel", "race", "brainflip"];
export const FLIP_PLAYERS_MENU = [2, 3, 4, 5, 6];
export const FLIP_GRID_MENU = [2, 3, 4, 5, 6];
/** Idle minutes before the unit sleeps, cycled by one menu key. */
export const SLEEP_MENU = [2, 5, 15];
/** Menu keys (grid positions) for the unit's settings. */
export const G_SLEEP = 28;
export const G_SOUND = 29;
export const G_LOCK = 31;
export const G_RESUME = 34;
export const MODE_MENU: MatchMode[] = ["referee", "manual", "unit-makes", "unit-breaks"];
export const GAMES_MENU = [2, 4, 6, 8, 10];
export const BRIGHTNESS_STEPS = 4;
/** How long a refused action flashes the pegs at fault. */
export const FLASH_MS = 1200;

export interface Settings extends FlipSettings {
  preset: GameId;
  harder: boolean;
  mode: MatchMode;
  games: number;
  /** 0 (dimmest) .. BRIGHTNESS_STEPS-1 */
  brightness: number;
  sound: boolean;
  /** Idle minutes before sleep (one of SLEEP_MENU). */
  sleepMin: number;
  /** Lock the USB console while a two-player game holds a secret. */
  lockConsole: boolean;
}
export type Screen = "menu" | "play" | "flip" | "selftest";
/** What survives a power loss. */
export interface SavedState {
  v: number;
  screen: Screen;
  settings: Settings;
  match: MatchState | null;
  flip: FlipState | null;
}
/** Where a refusal is shown. */
export type FlashTarget = "entry" | "secret" | "feedback" | "rows";

export function defaultSettings(): Settings {
  return {
    preset: "brainiac",
    harder: false,
    mode: "referee",
    games: 4,
    brightness: 1,
    sound: true,
    sleepMin: 5,
    lockConsole: true,
    flipMode: "flip",
    players: 3,
    flipGrid: 6,
    unitFlips: false,
  };
}

/** Can this build show the preset? (The five-peg race needs five holes per row.) */
export function presetFits(layout: Layout, preset: GameId): boolean {
  return preset === "brainflip" || rulesFor(preset, false).pegs <= layout.pegs;
}

function emptyCode(n: number): Code {
  const c: Code = [];
  for (let i = 0; i < n; i++) c.push(EMPTY);
  return c;
}

export class App {
  screen: Screen = "menu";
  settings: Settings = defaultSettings();
  match: MatchState | null = null;
  /** The row (or secret) being keyed in, with EMPTY holes. */
  entry: Code = [];
  cursor = 0;
  /** Holes filled, in order, so undo takes back the last peg placed. */
  placed: number[] = [];
  /** Feedback being keyed in by the codemaker, and the order of the presses for undo. */
  fb: Feedback = { exact: 0, near: 0 };
  fbPresses: number[] = [];
  flashUntil = 0;
  flashTarget: FlashTarget = "entry";
  flashPositions: number[] = [];
  /** A message-less alert (status LED) until this time, e.g. after resuming from a bad save. */
  warnUntil = 0;
  private tune: number[] | null = null;
  private saveWanted = false;
  /** Asked during background work: is the time slice over? The device layer sets it from its clock (the work also stops after SOLVER_SLICE evaluations). */
  sliceOver: (() => boolean) | undefined;
  /** Reads a solver table by its Storage name; the device layer sets it (tests may leave none: the unit then searches). */
  tableReader: (name: string) => Uint8Array | string | undefined = function () {
    return undefined;
  };
  /**
   * Background work for the current game, in slices: the unit's next guess when it breaks, else the
   * hints for the human codebreaker (kept up to date after every row). `busy` while it works, for
   * `slices` slices so far; `solverFor` is the match it works on.
   */
  solver: SolverState | null = null;
  private solverFor: MatchState | null = null;
  private solverHints = false;
  busy = false;
  slices = 0;
  /** The answer just given to the unit (secret in the head), being checked for a contradiction before it counts. */
  checking: ConflictSearch | null = null;
  /** The hint shows until then (the count on the track, an example in an empty row). */
  hintUntil = 0;
  /** key index -> grid position (0..35) or -1 */
  readonly gridPos: Int8Array;
  readonly flip: FlipScreen;
  /** What the Brain Flip screen may do to the app. */
  private readonly flipEffects = {
    tune: (t: number[]) => {
      this.tune = t;
    },
    save: () => {
      this.saveWanted = true;
    },
    refuse: (now: number) => this.refuse("entry", [], now),
    menu: () => {
      this.screen = "menu";
      this.tune = TUNE_CLICK;
      this.saveWanted = true;
    },
  };

  constructor(
    readonly layout: Layout,
    private readonly rand: () => number,
  ) {
    this.gridPos = new Int8Array(layout.keyCount);
    this.gridPos.fill(-1);
    for (let g = 0; g < 36; g++) this.gridPos[layout.grid[g]] = g;
    this.flip = new FlipScreen(layout);
  }

  /** Resumes from saved data; returns "" or why the data could not be used (the unit then starts afresh). */
  restore(data: unknown, now: number): string {
    const s = data as SavedState;
    if (data === undefined) return ""; // nothing saved yet
    if (!s || typeof s !== "object") {
      this.warnUntil = now + 3000;
      return "saved state refused: not an object";
    }
    const set = s.settings;
    const problem =
      s.v !== SAVE_VERSION || !set || !this.settingsValid(set)
        ? "unknown version or settings"
        : s.match
          ? checkMatchState(s.match)
          : s.flip
            ? checkFlipState(s.flip)
            : null;
    if (problem) {
      this.warnUntil = now + 3000;
      return "saved state refused: " + problem;
    }
    this.settings = set;
    this.match = s.match || null;
    this.flip.state = s.flip || null;
    this.screen = s.screen === "play" && this.match ? "play" : s.screen === "flip" && this.flip.state ? "flip" : "menu";
    this.resetEntry();
    // A power cut while the unit was thinking: it thinks again (and a move made at once is saved).
    const before = this.match;
    if (before) this.runUnit();
    this.saveWanted = this.match !== before;
    return "";
  }

  private settingsValid(set: Settings): boolean {
    if (
      SLEEP_MENU.indexOf(set.sleepMin) < 0 ||
      typeof set.lockConsole !== "boolean" ||
      !(set.brightness >= 0 && set.brightness < BRIGHTNESS_STEPS)
    )
      return false;
    const flipOk = !checkFlipConfig({ players: set.players, grid: set.flipGrid, mode: set.flipMode, unitFlips: set.unitFlips });
    if (set.preset === "brainflip") return flipOk;
    return flipOk && !checkConfig({ preset: set.preset, harder: set.harder, mode: set.mode, games: set.games });
  }

  snapshot(): SavedState {
    return { v: SAVE_VERSION, screen: this.screen, settings: this.settings, match: this.match, flip: this.flip.state };
  }

  /** The tune the device should play now, if any (taken once). */
  takeTune(): number[] | null {
    const t = this.tune;
    this.tune = null;
    return t;
  }

  /** True once after every committed action: the device then saves snapshot(). */
  takeSave(): boolean {
    const s = this.saveWanted;
    this.saveWanted = false;
    return s;
  }

  /** Alerts the device layer reports: the battery is low; a key is stuck down (and ignored). */
  lowBattery = false;
  keysStuck = false;
  /** Blinks restart, lit, at every key press, so what a press changed shows at once. */
  blinkEpoch = 0;
  /** Keys held down, for the self-test's echo. */
  held: Uint8Array = new Uint8Array(0);
  selfTestSince = 0;

  /** The wiring check: LED segments light in turn and every key is echoed. Left by power-cycling. */
  enterSelfTest(now: number): void {
    this.screen = "selftest";
    this.selfTestSince = now;
    this.held = new Uint8Array(this.layout.keyCount);
    this.tune = TUNE_ACCEPT;
  }

  /** Handles one debounced key event. Only presses act (releases matter only to the self-test). */
  key(k: number, down: boolean, now: number): void {
    if (this.screen === "selftest") {
      this.held[k] = down ? 1 : 0;
      if (down) this.tune = TUNE_CLICK;
      return;
    }
    if (!down) return;
    this.blinkEpoch = now;
    if (this.screen === "menu") this.menuKey(k, now);
    else if (this.screen === "flip") this.flip.key(k, this.gridPos[k], now, this.flipEffects);
    else this.playKey(k, now);
  }

  // ---- menu ----

  private menuKey(k: number, now: number): void {
    const g = this.gridPos[k];
    const s = this.settings;
    const row = g >= 0 ? (g / 6) | 0 : -1;
    const col = g % 6;
    const flip = s.preset === "brainflip";
    let changed = true;
    if (row === 0 && col < PRESET_MENU.length && presetFits(this.layout, PRESET_MENU[col])) s.preset = PRESET_MENU[col];
    else if (row === 1 && col < 2) {
      if (flip) s.flipMode = col === 0 ? "flip" : "straight";
      else s.harder = col === 1;
    } else if (row === 2 && flip && col < FLIP_PLAYERS_MENU.length) s.players = FLIP_PLAYERS_MENU[col];
    else if (row === 2 && !flip && col < MODE_MENU.length) s.mode = MODE_MENU[col];
    else if (row === 3 && flip && col < FLIP_GRID_MENU.length && FLIP_GRID_MENU[col] <= maxFlipGrid(this.layout))
      s.flipGrid = FLIP_GRID_MENU[col];
    else if (row === 3 && flip && col === 5) s.unitFlips = !s.unitFlips;
    else if (row === 3 && !flip && col < GAMES_MENU.length && s.preset !== "race") s.games = GAMES_MENU[col];
    else if (row === 4 && col < BRIGHTNESS_STEPS) s.brightness = col;
    else if (g === G_SOUND) s.sound = !s.sound;
    else if (g === G_SLEEP) s.sleepMin = SLEEP_MENU[(SLEEP_MENU.indexOf(s.sleepMin) + 1) % SLEEP_MENU.length];
    else if (g === G_LOCK) s.lockConsole = !s.lockConsole;
    else if (g === G_RESUME && this.resumable()) {
      this.screen = flip ? "flip" : "play";
      this.resetEntry();
      if (!flip) this.runUnit();
    } else if (g === G_OK) {
      this.startMatch(now);
      return;
    } else changed = false;
    if (!changed) {
      this.refuse("entry", [], now);
      return;
    }
    this.tune = TUNE_CLICK;
    this.saveWanted = true;
  }

  /**
   * Should the USB console be locked? While a two-player game holds a secret that the codebreaker
   * must not read: a codebreaker match in the referee or manual mode with its secret set and not yet
   * revealed, or a Brain Flip round whose card is picked.
   */
  consoleLockWanted(): boolean {
    if (!this.settings.lockConsole) return false;
    const m = this.match;
    const g = m ? m.game : null;
    const codebreaker = m !== null && g !== null && !m.over && !m.wrongInfo && (m.config.mode === "referee" || m.config.mode === "manual");
    const flip = this.flip.state;
    return (
      (codebreaker && g !== null && g.secret !== null && (g.phase === "guess" || g.phase === "feedback")) ||
      (flip !== null && !flip.over && flip.round.phase === "ask")
    );
  }

  /** Is there a game of the chosen kind to go back to? */
  resumable(): boolean {
    if (this.settings.preset === "brainflip") return this.flip.state !== null && !this.flip.state.over;
    return this.match !== null && !this.match.over && this.match.config.preset === this.settings.preset;
  }

  private startMatch(now: number): void {
    const s = this.settings;
    if (s.preset === "brainflip") {
      this.flip.start(s);
      this.screen = "flip";
      this.tune = TUNE_ACCEPT;
      this.saveWanted = true;
      return;
    }
    const config = { preset: s.preset, harder: s.harder, mode: s.mode, games: s.games };
    if (checkConfig(config)) {
      this.refuse("entry", [], now);
      return;
    }
    this.match = newMatch(config);
    this.screen = "play";
    this.resetEntry();
    this.runUnit();
    this.tune = TUNE_ACCEPT;
    this.saveWanted = true;
  }

  // ---- play ----

  private playKey(k: number, now: number): void {
    const m = this.match as MatchState;
    const g = this.gridPos[k];
    const mk = this.layout.maker;
    if (g === G_MENU) {
      this.screen = "menu";
      this.tune = TUNE_CLICK;
      this.saveWanted = true;
      return;
    }
    const ok = g === G_OK || (mk !== undefined && k === mk.ok);
    const phase = m.game.phase;
    if (this.checking) {
      this.refuse("feedback", [], now);
      return;
    }
    if (m.over) {
      if (ok) {
        this.screen = "menu";
        this.tune = TUNE_CLICK;
        this.saveWanted = true;
      } else this.refuse("entry", [], now);
      return;
    }
    if (m.wrongInfo || phase === "solved" || phase === "failed") {
      if (ok) this.commit(nextGame(m), "entry", now);
      else this.refuse("entry", [], now);
      return;
    }
    const role = unitRole(m);
    if (phase === "secret" && role !== "maker") {
      if (mk) this.entryKeyMaker(k, now);
      else this.entryKeyGrid(g, now, "secret");
    } else if (phase === "guess" && role !== "breaker") {
      if (mk && this.isMakerKey(k)) this.refuse("entry", [], now);
      else this.entryKeyGrid(g, now, "guess");
    } else if (phase === "feedback") {
      this.feedbackKey(k, g, now);
    } else this.refuse("entry", [], now);
  }

  private isMakerKey(k: number): boolean {
    return this.gridPos[k] < 0;
  }

  /** Colour, blank, slot, undo, clear and OK keys of the grid, for a guess (or a secret on one-pad builds). */
  private entryKeyGrid(g: number, now: number, what: "guess" | "secret"): void {
    const rules = rulesOf(this.match as MatchState);
    if (g >= G_COLOUR && g < G_COLOUR + rules.colours) this.place(g - G_COLOUR);
    else if (g === G_BLANK && rules.blanks) this.place(rules.colours);
    else if (g >= G_SLOT && g < G_SLOT + rules.pegs) {
      this.cursor = g - G_SLOT;
      this.tune = TUNE_CLICK;
    } else if (g === G_UNDO) this.undo(now);
    else if (g === G_CLEAR) {
      this.resetEntry();
      this.tune = TUNE_CLICK;
    } else if (g === G_OK) this.submitEntry(what, now);
    else if (g === G_HINT && what === "guess") {
      this.hintUntil = now + HINT_MS;
      if (!this.busy) this.hintExample();
      this.tune = TUNE_CLICK;
    } else this.refuse(what === "secret" ? "secret" : "entry", [], now);
  }

  /** The codemaker pad while the secret is entered. */
  private entryKeyMaker(k: number, now: number): void {
    const rules = rulesOf(this.match as MatchState);
    const mk = this.layout.maker as NonNullable<Layout["maker"]>;
    const colour = mk.colours.indexOf(k);
    if (colour >= 0 && colour < rules.colours) this.place(colour);
    else if (k === mk.blank && rules.blanks) this.place(rules.colours);
    else if (k === mk.undo) this.undo(now);
    else if (k === mk.ok) this.submitEntry("secret", now);
    else this.refuse("secret", [], now);
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
    this.tune = TUNE_CLICK;
  }

  private undo(now: number): void {
    const pos = this.placed.pop();
    if (pos === undefined) {
      this.refuse("entry", [], now);
      return;
    }
    this.entry[pos] = EMPTY;
    this.cursor = pos;
    this.tune = TUNE_CLICK;
  }

  private submitEntry(what: "guess" | "secret", now: number): void {
    const m = this.match as MatchState;
    const code = this.entry.slice();
    let allEmpty = true;
    for (let i = 0; i < code.length; i++) if (code[i] !== EMPTY) allEmpty = false;
    // Playing against the unit, the codemaker may keep the code in their head: OK on an empty secret.
    if (what === "secret" && allEmpty && unitRole(m) === "breaker") this.commit(keepSecretInHead(m), "secret", now);
    else this.commit(what === "secret" ? setSecret(m, code) : submitGuess(m, code), what === "secret" ? "secret" : "entry", now);
  }

  /** Exact/near keys, undo and OK while the codemaker gives feedback. */
  private feedbackKey(k: number, g: number, now: number): void {
    const mk = this.layout.maker;
    const pegs = rulesOf(this.match as MatchState).pegs;
    const isExact = mk ? k === mk.exact : g === G_EXACT;
    const isNear = mk ? k === mk.near : g === G_NEAR;
    const isUndo = mk ? k === mk.undo : g === G_UNDO;
    const isOk = mk ? k === mk.ok : g === G_OK;
    if (isExact || isNear) {
      if (this.fb.exact + this.fb.near >= pegs) {
        this.refuse("feedback", [], now);
        return;
      }
      if (isExact) this.fb.exact++;
      else this.fb.near++;
      this.fbPresses.push(isExact ? 1 : 0);
      this.tune = TUNE_CLICK;
    } else if (isUndo) {
      const last = this.fbPresses.pop();
      if (last === undefined) this.refuse("feedback", [], now);
      else {
        if (last) this.fb.exact--;
        else this.fb.near--;
        this.tune = TUNE_CLICK;
      }
    } else if (isOk) {
      const m = this.match as MatchState;
      const r = answer(m, this.fb, []);
      if (r.ok && !m.game.secret) {
        // With the secret in the head, the answer counts once it is checked against the others, in slices (think()).
        this.checking = createConflictSearch(rulesOf(m), m.game.rows.concat([{ guess: m.game.pending as Code, feedback: this.fb }]));
        this.solverFor = m;
        this.busy = true;
        this.slices = 0;
        this.think(now);
      } else this.commit(r, "feedback", now);
    } else this.refuse("feedback", [], now);
  }

  /** Applies a core result: on success the new state is saved and the unit takes its turn; a refusal costs nothing. */
  private commit(r: Result<MatchState>, target: FlashTarget, now: number): void {
    if (!r.ok) {
      this.refuseWith(r.refusal, target, now);
      return;
    }
    const before = this.match as MatchState;
    this.match = r.state;
    this.resetEntry();
    this.runUnit();
    this.tune = this.tuneFor(before, this.match as MatchState);
    this.saveWanted = true;
  }

  private tuneFor(before: MatchState, after: MatchState): number[] {
    if (after.over && !before.over) return TUNE_MATCH_OVER;
    if (after.wrongInfo && !before.wrongInfo) return TUNE_WRONG_INFO;
    if (after.game.phase === "solved" && before.game.phase !== "solved") return TUNE_SOLVED;
    if (after.game.phase === "failed" && before.game.phase !== "failed") return TUNE_FAILED;
    return TUNE_ACCEPT;
  }

  /**
   * The unit's moves: it makes its secret at once; when it breaks, it starts choosing its guess
   * (played at once from the table, or by think() in idle time). A human codebreaker's hints start
   * the same way.
   */
  private runUnit(): void {
    for (let guard = 0; guard < 4; guard++) {
      const m = this.match as MatchState;
      const role = unitRole(m);
      const rules = rulesOf(m);
      const rows = m.game.rows;
      let r: Result<MatchState> | null = null;
      this.busy = false;
      if (role === "maker" && m.game.phase === "secret") r = setSecret(m, randomSecret(rules, this.rand));
      else if (m.game.phase === "guess") {
        const hints = role !== "breaker";
        // One solver per game (it only grows with the rows): a new one when a game starts or after a restore.
        if (!this.solver || !rows.length || hints !== this.solverHints)
          this.solver = createSolver(rules, hints ? undefined : this.tableReader(solverTableName(rules)), hints);
        this.solverHints = hints;
        this.solver.start(rows);
        this.solverFor = m;
        this.slices = 0;
        this.busy = !this.solver.step(SOLVER_SLICE, this.sliceOver);
        if (this.busy || hints) return;
        const guess = this.solver.guess();
        if (guess) r = submitGuess(m, guess);
      }
      if (!r || !r.ok) return;
      this.match = r.state;
    }
  }

  /** Idle time: one more slice of the background work; true when it finished (render, play the tune, save). */
  think(now: number): boolean {
    // The match moved on (a new match): what was being worked out no longer matters.
    if (this.match !== this.solverFor) this.busy = false;
    if (!this.busy) return false;
    this.slices++;
    const checking = this.checking;
    if (checking) {
      if (!checking.step(SOLVER_SLICE, this.sliceOver)) return false;
      this.busy = false;
      this.commit(answer(this.match as MatchState, this.fb, checking.rows()), "feedback", now);
      return true;
    }
    if (!this.solver || !this.solver.step(SOLVER_SLICE, this.sliceOver)) return false;
    this.busy = false;
    if (this.solverHints) {
      if (now < this.hintUntil) this.hintExample();
      return true;
    }
    // The same rows again: runUnit takes the guess the solver found and plays it.
    this.runUnit();
    this.tune = TUNE_ACCEPT;
    this.saveWanted = true;
    return true;
  }

  /** The hint's example goes into the row being keyed, if it is still empty (undo takes it back peg by peg). */
  private hintExample(): void {
    const example = this.solver && this.solver.example();
    if (!example || this.placed.length) return;
    this.entry = example;
    for (let i = 0; i < example.length; i++) this.placed.push(i);
  }

  private refuseWith(refusal: Refusal, target: FlashTarget, now: number): void {
    const m = this.match as MatchState;
    if (refusal.refused === "feedback-range") target = "feedback";
    this.refuse(target, refusal.positions.length ? refusal.positions : target === "feedback" ? [m.game.rows.length] : [], now);
  }

  /** A refused action: a low tone and the offending pegs (or the whole row) flash; nothing changes. */
  private refuse(target: FlashTarget, positions: number[], now: number): void {
    this.flashTarget = target;
    this.flashPositions = positions;
    this.flashUntil = now + FLASH_MS;
    this.tune = TUNE_REFUSE;
  }

  resetEntry(): void {
    const pegs = this.match ? rulesOf(this.match).pegs : 0;
    this.entry = emptyCode(pegs);
    this.cursor = 0;
    this.placed = [];
    this.fb = { exact: 0, near: 0 };
    this.fbPresses = [];
    this.checking = null;
  }
}
