/**
 * "Watch the unit play itself" (GitHub issue 8): the simulator plays the human side of a match
 * against the unit, so that a person can watch the unit break codes. It works through the board's
 * keys and LEDs only, as a person at the unit would: it chooses the game on the menu, starts a match
 * in the "you against the unit, the unit breaks first" role, and then, game after game:
 *
 * - when the unit breaks: draws a random valid secret (seeded), keys it on the codemaker pad (or, on a
 *   build without one, on the grid), or keeps it in its head (OK on an empty secret); then reads each
 *   guess of the unit back from the board's LED colours and keys the true feedback (exact and near
 *   presses, then OK);
 * - when the roles switch and the unit makes the code: breaks it with the unit's own solver
 *   (firmware/core/solver.ts, from the same tables), keying its guesses on the grid and reading the
 *   unit's feedback off the key LEDs. The match is then a real one, scores and all.
 *
 * It paces its presses so a person can follow (400 ms between presses, 1.5 s after each row), in
 * board time, and it only ever acts at a board time it asked for: run() plays in virtual time (the
 * command line, the tests), and a real-time loop calls poll() as the board's clock reaches wakeAt
 * (the simulator page). It stops when asked (stop()), after the games asked for, or at the end of
 * the match, and reports what happens as events with a line of text each.
 *
 * Player 0 is the simulated person ("you"), player 1 the unit, as in the firmware.
 */
import { feedback } from "../../firmware/core/feedback.ts";
import { PRESET_IDS, rulesFor } from "../../firmware/core/presets.ts";
import { randomSecret } from "../../firmware/core/random.ts";
import { createSolver, solverTableName } from "../../firmware/core/solver.ts";
import type { Code, Feedback, PresetId, Row, Rules } from "../../firmware/core/types.ts";
import { GAMES_MENU, MODE_MENU } from "../../firmware/ui/settings.ts";
import { GAME_IDS } from "../../firmware/ui/games.ts";
import { G_BLANK, G_COLOUR, G_EXACT, G_MENU, G_NEAR, G_OK } from "../../firmware/ui/layout.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { UnitLeds, WatchError, type WatchedBoard } from "./unit-leds.ts";
import { codeText, feedbackText, plural, presetName, variantName } from "./watch-text.ts";

export { WatchError, type WatchedBoard } from "./unit-leds.ts";
export { codeText, feedbackText, variantName } from "./watch-text.ts";

export interface WatchOptions {
  /** The game; default: the one chosen on the unit's menu (Brainiac when that is Brain Flip). */
  preset?: PresetId;
  /** The harder variant; default: the menu's choice. */
  harder?: boolean;
  /**
   * Stop after this many games (both roles count). The menu's match length is set to the shortest
   * that holds them; when a match ends first, another one starts. Default: play to the end of the match.
   */
  games?: number;
  /** Seeds the secrets drawn. Default 1. */
  seed?: number;
  /** Key the secret on the unit (default), or keep it in the head (OK on an empty secret). */
  secret?: "keyed" | "head";
  /** From one key press to the next, ms of board time (default 400). */
  pressMs?: number;
  /** The pause after each row, so the row can be looked at (default 1500 ms). */
  rowPauseMs?: number;
  /** The pause after each game before the next one starts (default 3000 ms). */
  gamePauseMs?: number;
  /** The longest wait for the unit (its guess, its answer), in board time, before giving up (default 120 s). */
  timeoutMs?: number;
}

export type Side = "unit" | "you";

interface EventBase {
  /** Board time (ms). */
  at: number;
  /** The event as one line for people. */
  text: string;
}

export type WatchEvent = EventBase &
  (
    | { type: "setup"; profile: string; preset: PresetId; harder: boolean; games: number | null }
    | { type: "match"; match: number }
    /** A match was in progress on the unit: the watcher confirmed leaving it (the menu's second OK). */
    | { type: "left-match" }
    /** A game begins: you make the code (`secret`, keyed or kept in the head) and the unit breaks it, or the other way round. */
    | { type: "game-start"; game: number; breaker: Side; secret: Code | null; kept: "keyed" | "head" | "unit" }
    /** The unit's guess has appeared on the board (its answer follows, as a "row"). */
    | { type: "guess"; game: number; row: number; guess: Code }
    /** A row is played: the unit's guess and your answer, or your guess and the unit's answer. */
    | { type: "row"; game: number; breaker: Side; row: number; guess: Code; feedback: Feedback }
    | { type: "game"; game: number; breaker: Side; solved: boolean; rows: number; secret: Code | null; scores: Scores }
    | { type: "match-over"; match: number; winner: Side | "draw"; scores: Scores }
    | { type: "stopped"; reason: "done" | "asked" | "error"; games: number }
  );

export interface Scores {
  you: number;
  unit: number;
}

/** The watcher's summary for views: whether it runs, the latest line, the recent lines. */
export interface WatchStatus {
  running: boolean;
  line: string;
  log: string[];
}

/** How often the watcher looks at the LEDs while it waits (board ms). */
export const POLL_MS = 50;
/** How long a key is held down for a press. */
export const HOLD_MS = 90;

type Script = Generator<number, void, void>;

export class Watcher {
  readonly events: WatchEvent[] = [];
  private readonly opts: Required<Omit<WatchOptions, "preset" | "harder" | "games">> & Pick<WatchOptions, "preset" | "harder" | "games">;
  private readonly prng: Prng;
  private readonly script: Script;
  private readonly held = new Set<string>();
  private readonly listeners = new Set<(e: WatchEvent) => void>();
  /** What the unit shows, read off its LEDs. */
  private readonly leds: UnitLeds;
  private wake: number;
  private finished = false;
  private stopWanted = false;
  private stopWhy = "";
  private inside = false;
  private gamesPlayed = 0;
  private errorsAtStart: number;

  constructor(
    readonly board: WatchedBoard,
    options: WatchOptions = {},
  ) {
    const games = options.games;
    if (games !== undefined && !(Number.isInteger(games) && games >= 1)) throw new Error(`games must be a whole number >= 1, got ${games}`);
    if (options.preset !== undefined && !PRESET_IDS.includes(options.preset))
      throw new Error(`unknown preset "${options.preset}" (presets: ${PRESET_IDS.join(", ")})`);
    this.opts = {
      preset: options.preset,
      harder: options.harder,
      games,
      seed: options.seed ?? 1,
      secret: options.secret ?? "keyed",
      pressMs: Math.max(HOLD_MS + 30, options.pressMs ?? 400),
      rowPauseMs: Math.max(0, options.rowPauseMs ?? 1500),
      gamePauseMs: Math.max(0, options.gamePauseMs ?? 3000),
      timeoutMs: options.timeoutMs ?? 120_000,
    };
    this.prng = new Prng(this.opts.seed);
    this.leds = new UnitLeds(board);
    this.script = this.play();
    this.wake = board.now;
    this.errorsAtStart = board.errors.length;
  }

  /** Listens to the events; returns a function that stops listening. */
  on(fn: (e: WatchEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The board time at which the watcher next acts (Infinity once it has stopped). */
  get wakeAt(): number {
    return this.finished ? Infinity : this.wake;
  }

  get done(): boolean {
    return this.finished;
  }

  status(): WatchStatus {
    const log = this.events.filter((e) => e.type !== "guess").map((e) => e.text);
    const last = this.events[this.events.length - 1];
    const before = this.events[this.events.length - 2];
    // Once done, the line keeps the result it ended on.
    const line = !last
      ? "starting"
      : last.type === "stopped" && last.reason === "done" && before
        ? `${before.text} · ${last.text}`
        : last.text;
    return { running: !this.finished, line, log: log.slice(-14) };
  }

  /** Acts if the board's clock has reached wakeAt: presses, releases, looks, until its next wait. */
  poll(): void {
    if (this.inside) return;
    this.inside = true;
    try {
      while (!this.finished && !this.stopWanted && this.board.now >= this.wake) {
        let r: IteratorResult<number, void>;
        try {
          r = this.script.next();
        } catch (e) {
          // Whatever went wrong ends the watch with a reason, never the loop that runs the board.
          this.finish("error", e instanceof WatchError ? e.message : `${(e as Error)?.message ?? e}`);
          return;
        }
        if (r.done) this.finish("done");
        else this.wake = this.board.now + r.value;
      }
      if (this.stopWanted && !this.finished) this.finish("asked", this.stopWhy);
    } finally {
      this.inside = false;
    }
  }

  /**
   * Stops now (or, from inside an event listener, as soon as the current step is over): held keys are
   * released. `why` goes into the last line ("stopped: why (after 2 games)").
   */
  stop(why = ""): void {
    if (this.stopWanted) return;
    this.stopWanted = true;
    this.stopWhy = why;
    if (!this.inside && !this.finished) this.finish("asked", why);
  }

  /** Plays in virtual time until it stops (or `limitMs` of board time have passed: it then stops as if asked). */
  run(limitMs = 3_600_000): WatchEvent[] {
    const end = this.board.now + limitMs;
    while (!this.finished) {
      const next = Math.min(this.wakeAt, end);
      if (next > this.board.now) this.board.advance(next - this.board.now);
      if (this.board.now >= end) this.stop(`the time limit of ${limitMs / 1000} s of board time`);
      else this.poll();
    }
    return this.events;
  }

  // ---------------------------------------------------------------- the play

  private *play(): Script {
    const board = this.board;
    const profile = board.profile;
    if (!board.isOn) {
      board.powerOn();
      yield 300;
    }
    if (!board.ledsPowered) {
      // Asleep: a key wakes the unit and does nothing else.
      yield* this.tap(this.gridKey(G_MENU));
      yield 200;
    }
    yield* this.toMenu();
    const menu = this.leds.readMenu();
    const preset = this.opts.preset ?? (menu.preset === "brainflip" ? "brainiac" : menu.preset);
    const harder = this.opts.harder ?? (menu.preset === "brainflip" ? false : menu.harder);
    const rules = rulesFor(preset, harder);
    if (rules.pegs > profile.pegs)
      throw new WatchError(`${profile.name} cannot play ${presetName(preset)}: it needs ${rules.pegs} holes a row`);
    const wanted = this.opts.games;
    const length =
      rules.scoring === "race" ? null : wanted ? (GAMES_MENU.find((g) => g >= wanted) ?? GAMES_MENU[GAMES_MENU.length - 1]) : menu.games;
    this.emit({
      type: "setup",
      profile: profile.id,
      preset,
      harder,
      games: wanted ?? null,
      text:
        `watching ${variantName(rules)} on ${profile.name}: ${length ? `a match of ${length} games` : "a race to hole 30"}, ` +
        `the unit breaks first${wanted ? `; stopping after ${plural(wanted, "game")}` : ""}`,
    });

    for (let match = 1; ; match++) {
      yield* this.startMatch(preset, harder, length);
      this.emit({ type: "match", match, text: `match ${match}: you make the first code, the unit breaks it` });
      const scores: [number, number] = [0, 0];
      let played = 0;
      for (let maker = 0; ; maker = 1 - maker) {
        const game = this.gamesPlayed + 1;
        const result = maker === 0 ? yield* this.unitBreaks(rules, game) : yield* this.youBreak(rules, game);
        const gained: [number, number] = [0, 0];
        if (rules.scoring === "points") gained[maker] = result.solved ? result.rows : rules.unsolvedPoints;
        else if (result.solved) gained[1 - maker] = rules.raceAdvance[result.rows - 1];
        scores[0] += gained[0];
        scores[1] += gained[1];
        played++;
        this.gamesPlayed++;
        const breaker: Side = maker === 0 ? "unit" : "you";
        const who = breaker === "unit" ? "the unit" : "you";
        this.emit({
          type: "game",
          game,
          breaker,
          solved: result.solved,
          rows: result.rows,
          secret: result.secret,
          scores: { you: scores[0], unit: scores[1] },
          text:
            `game ${game}: ${result.solved ? `${who} solved it in ${plural(result.rows, "row")}` : `${who} did not solve it in ${plural(result.rows, "row")}`}` +
            ` (${rules.scoring === "race" ? "holes" : "points"}: you ${scores[0]}, unit ${scores[1]})`,
        });
        const over =
          rules.scoring === "race" ? scores[0] >= rules.raceTarget || scores[1] >= rules.raceTarget : played >= (length as number);
        if (over) {
          const winner: Side | "draw" = scores[0] > scores[1] ? "you" : scores[1] > scores[0] ? "unit" : "draw";
          yield* this.waitFor(
            () => board.colours("status")[0] === { you: "red", unit: "blue", draw: "white" }[winner],
            "the winner's colour on status LED 1",
            2000,
          );
          this.emit({
            type: "match-over",
            match,
            winner,
            scores: { you: scores[0], unit: scores[1] },
            text: `match ${match} over: ${winner === "draw" ? "a draw" : winner === "unit" ? "the unit wins" : "you win"}, you ${scores[0]}, unit ${scores[1]}`,
          });
        }
        if (wanted ? this.gamesPlayed >= wanted : over) return;
        yield this.opts.gamePauseMs;
        yield* this.tap(this.gridKey(G_OK));
        if (over) break;
      }
    }
  }

  /** Chooses the game, the variant, the role "you against the unit, it breaks first" and the match length; OK. */
  private *startMatch(preset: PresetId, harder: boolean, length: number | null): Script {
    yield* this.toMenu();
    yield* this.tap(this.gridKey(GAME_IDS.indexOf(preset)));
    yield* this.tap(this.gridKey(6 + (harder ? 1 : 0)));
    yield* this.tap(this.gridKey(12 + MODE_MENU.indexOf("unit-breaks")));
    if (length !== null && this.leds.readMenu().games !== length) yield* this.tap(this.gridKey(18 + GAMES_MENU.indexOf(length)));
    const m = this.leds.readMenu();
    if (m.preset !== preset || m.harder !== harder || m.mode !== "unit-breaks" || (length !== null && m.games !== length))
      throw new WatchError(
        `the menu did not take the choices (it shows ${m.preset}, ${m.harder ? "harder" : "normal"}, ${m.mode}, ${m.games} games)`,
      );
    yield* this.tap(this.gridKey(G_OK));
    // A match in progress (even one not started): the menu asks for OK again, within its confirmation time.
    yield 200;
    if (!this.leds.onPlayScreen() && this.leds.onMenu()) {
      this.emit({ type: "left-match", text: "a match was in progress: the watcher pressed OK again to leave it and start its own" });
      yield* this.tap(this.gridKey(G_OK));
    }
    yield* this.waitFor(() => this.leds.onPlayScreen(), "the play screen", 3000);
  }

  /** A game where you make the code and the unit breaks it. */
  private *unitBreaks(rules: Rules, game: number): Generator<number, GameResult, void> {
    const board = this.board;
    const maker = board.profile.keymap.maker;
    yield* this.waitFor(() => this.leds.onPlayScreen() && board.colours("status")[0] === "red", "your turn to make a code");
    const secret = randomSecret(rules, () => this.prng.next());
    const kept = this.opts.secret;
    if (kept === "keyed") {
      for (const s of secret) {
        if (maker) yield* this.tap(s === rules.colours ? maker.blank : maker.colours[s]);
        else yield* this.tap(this.gridKey(s === rules.colours ? G_BLANK : G_COLOUR + s));
      }
    }
    yield* this.tap(maker ? maker.ok : this.gridKey(G_OK));
    this.emit({
      type: "game-start",
      game,
      breaker: "unit",
      secret,
      kept,
      text: `game ${game}: you make the code ${codeText(rules, secret)}${kept === "head" ? " (kept in your head)" : ""}; the unit breaks it`,
    });
    const rows: Row[] = [];
    const exactKey = maker ? maker.exact : this.gridKey(G_EXACT);
    const nearKey = maker ? maker.near : this.gridKey(G_NEAR);
    const okKey = maker ? maker.ok : this.gridKey(G_OK);
    while (rows.length < rules.rows) {
      const n = rows.length;
      // The unit's guess is on the board once its row's key holes blink, and (on a board that scrolls)
      // the row before stands below it with its answer.
      yield* this.waitFor(() => this.leds.pendingRow(rules, rows), `the unit's guess for row ${n + 1}`);
      const guess = this.leds.readCode(rules, "board", this.leds.rowAt(rules, n, n + 1));
      this.emit({
        type: "guess",
        game,
        row: n + 1,
        guess,
        text: `game ${game}, row ${n + 1}: the unit guesses ${codeText(rules, guess)}…`,
      });
      const fb = feedback(guess, secret);
      yield this.opts.rowPauseMs;
      for (let i = 0; i < fb.exact; i++) yield* this.tap(exactKey);
      for (let i = 0; i < fb.near; i++) yield* this.tap(nearKey);
      yield* this.tap(okKey);
      rows.push({ guess, feedback: fb });
      this.emit({
        type: "row",
        game,
        breaker: "unit",
        row: n + 1,
        guess,
        feedback: fb,
        text: `game ${game}, row ${n + 1}: the unit guesses ${codeText(rules, guess)} → ${feedbackText(fb)}`,
      });
      if (fb.exact === rules.pegs) break;
    }
    const solved = rows[rows.length - 1].feedback.exact === rules.pegs;
    yield* this.waitFor(
      () => this.leds.rowShows(rules, rows, rows.length - 1) && board.colours("status")[1] === (solved ? "green" : "orange"),
      solved ? "the unit's solve on the LEDs" : "the failed game on the LEDs",
    );
    return { solved, rows: rows.length, secret };
  }

  /** A game where the unit makes the code and you break it, with the unit's own solver. */
  private *youBreak(rules: Rules, game: number): Generator<number, GameResult, void> {
    const board = this.board;
    yield* this.waitFor(
      () => this.leds.onPlayScreen() && board.colours("status")[0] === "red" && board.colours("pad")[G_COLOUR] === "red",
      "the unit's code (the colour keys lit for your guess)",
    );
    this.emit({
      type: "game-start",
      game,
      breaker: "you",
      secret: null,
      kept: "unit",
      text: `game ${game}: the unit made a code; you break it (with the unit's own solver)`,
    });
    const table = solverTablesFor(board.profile.pegs).find((t) => t.name === solverTableName(rules));
    const solver = createSolver(rules, table?.bytes);
    const rows: Row[] = [];
    while (rows.length < rules.rows) {
      const n = rows.length;
      solver.start(rows);
      while (!solver.step(1_000_000));
      const guess = solver.guess();
      if (!guess) throw new WatchError(`no code fits the unit's answers after row ${n}`);
      yield* this.waitFor(() => this.leds.entryReady(rules, n), `the empty row ${n + 1} to key your guess in`, 5000);
      for (const s of guess) yield* this.tap(this.gridKey(s === rules.colours ? G_BLANK : G_COLOUR + s));
      yield* this.tap(this.gridKey(G_OK));
      // The row is played once it stands on the board and the next row waits (or the game is over).
      yield* this.waitFor(
        () => {
          const at = this.leds.rowAt(rules, n, n + 1);
          if (this.leds.readCode(rules, "board", at, true).join() !== guess.join()) return false;
          const status = board.colours("status")[1];
          return status === "green" || status === "orange" || this.leds.entryReady(rules, n + 1);
        },
        `your row ${n + 1} on the board`,
        5000,
      );
      const fb = this.leds.readFeedback(rules, this.leds.rowAt(rules, n, n + 1));
      rows.push({ guess, feedback: fb });
      this.emit({
        type: "row",
        game,
        breaker: "you",
        row: n + 1,
        guess,
        feedback: fb,
        text: `game ${game}, row ${n + 1}: you guess ${codeText(rules, guess)} → the unit answers ${feedbackText(fb)}`,
      });
      if (fb.exact === rules.pegs) break;
      yield this.opts.rowPauseMs;
    }
    const solved = rows[rows.length - 1].feedback.exact === rules.pegs;
    yield* this.waitFor(() => board.colours("status")[1] === (solved ? "green" : "orange"), "the end of your game on the LEDs", 3000);
    // The reveal: the secret on the pad's slot row; every answer of the unit must fit it.
    const secret = this.leds.readCode(rules, "pad", -1);
    for (const r of rows) {
      const truth = feedback(r.guess, secret);
      if (truth.exact !== r.feedback.exact || truth.near !== r.feedback.near)
        throw new WatchError(
          `the unit answered ${feedbackText(r.feedback)} to ${codeText(rules, r.guess)}, but its code ${codeText(rules, secret)} gives ${feedbackText(truth)}`,
        );
    }
    return { solved, rows: rows.length, secret };
  }

  // ---------------------------------------------------------------- keys

  private *tap(key: string): Script {
    this.board.press(key);
    this.held.add(key);
    yield HOLD_MS;
    this.board.release(key);
    this.held.delete(key);
    yield this.opts.pressMs - HOLD_MS;
  }

  private gridKey(g: number): string {
    return this.board.profile.keymap.grid[g];
  }

  /** Goes to the menu from the play screen (menu key) or Brain Flip (its menu key). */
  private *toMenu(): Script {
    const maker = this.board.profile.keymap.maker;
    for (let tries = 0; tries < 3; tries++) {
      yield 20;
      if (this.leds.onMenu()) return;
      if (this.leds.onPlayScreen() || !maker) yield* this.tap(this.gridKey(G_MENU));
      else yield* this.tap(maker.colours[0]);
    }
    yield 20;
    if (!this.leds.onMenu()) throw new WatchError("the unit's menu does not show (is it in its self-test? power-cycle it)");
  }

  /** Waits (looking every POLL_MS) until `cond` holds; gives up after `timeoutMs`, or at once when the unit is off or failed. */
  private *waitFor(cond: () => boolean, what: string, timeoutMs = this.opts.timeoutMs): Script {
    const start = this.board.now;
    for (;;) {
      if (!this.board.isOn) throw new WatchError(`the unit was switched off while waiting for ${what}`);
      if (this.board.errors.length > this.errorsAtStart)
        throw new WatchError(`the firmware failed: ${this.board.errors[this.board.errors.length - 1]}`);
      if (cond()) return;
      if (this.board.now - start >= timeoutMs) throw new WatchError(`gave up waiting for ${what} after ${(timeoutMs / 1000).toFixed(1)} s`);
      yield POLL_MS;
    }
  }

  // ---------------------------------------------------------------- events

  private emit(e: DistributiveOmit<WatchEvent, "at">): void {
    const event = { at: this.board.now, ...e } as WatchEvent;
    this.events.push(event);
    for (const fn of [...this.listeners]) fn(event);
  }

  private finish(reason: "done" | "asked" | "error", message?: string): void {
    if (this.finished) return;
    this.finished = true;
    for (const key of this.held) this.board.release(key);
    this.held.clear();
    const games = plural(this.gamesPlayed, "game");
    const text =
      reason === "error"
        ? `stopped: ${message}`
        : reason === "asked"
          ? message
            ? `stopped: ${message} (after ${games})`
            : `stopped after ${games}`
          : `done: ${games} played`;
    this.emit({ type: "stopped", reason, games: this.gamesPlayed, text });
  }
}

interface GameResult {
  solved: boolean;
  rows: number;
  secret: Code | null;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Plays in virtual time and returns the events: the command line's and the tests' way. */
export function watch(board: WatchedBoard, options: WatchOptions = {}, onEvent?: (e: WatchEvent) => void): WatchEvent[] {
  const w = new Watcher(board, options);
  if (onEvent) w.on(onEvent);
  return w.run();
}

/**
 * Plays in real time on a board whose `advance` waits (the real interpreter): the watcher acts when
 * the board's clock reaches wakeAt. Resolves with the events when it stops.
 */
export async function watchRealTime(
  board: WatchedBoard,
  options: WatchOptions = {},
  onEvent?: (e: WatchEvent) => void,
  limitMs = 3_600_000,
): Promise<WatchEvent[]> {
  const w = new Watcher(board, options);
  if (onEvent) w.on(onEvent);
  const end = board.now + limitMs;
  while (!w.done) {
    if (board.now >= end) w.stop(`the time limit of ${limitMs / 1000} s`);
    const wait = Math.min(w.wakeAt, end) - board.now;
    await board.advance(Math.max(0, wait));
    w.poll();
  }
  return w.events;
}
