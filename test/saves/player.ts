/**
 * A player who knows the rules: from the unit's saved state it picks the next meaningful action and
 * the keys that do it (set up a game on the menu, enter a secret, guess, answer, pick a card, ask...).
 * Mostly sensible moves, sometimes wrong ones (refused codes, wrong feedback, Master mistakes), so
 * that every path of the rules is played. Used by the power-cut test and the fuzzer.
 */
import type { Profile } from "../../hardware/profile.ts";
import type { Prng } from "../../firmware/tools/prng.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { defaultSettings, FLIP_GRID_MENU, FLIP_PLAYERS_MENU, GAMES_MENU, MODE_MENU } from "../../firmware/ui/settings.ts";
import { GAME_IDS } from "../../firmware/ui/games.ts";
import { G_BLANK, G_COLOUR, G_MENU, G_OK } from "../../firmware/ui/layout.ts";
import type { Code, MatchMode, MatchState, PresetId, Row } from "../../firmware/core/types.ts";
import type { FlipState } from "../../firmware/core/brainflip.ts";
import { randomSecret } from "../../firmware/core/random.ts";
import { checkGuess } from "../../firmware/core/validate.ts";
import { firstConsistent } from "../../firmware/core/codes.ts";
import { codeSpaceSize } from "../../firmware/core/presets.ts";
import { gameEnded, referenceFeedback, rulesOfMatch, unitRoleOf } from "./invariants.ts";
import { PHASE_FEEDBACK, PHASE_GUESS, PHASE_SECRET, ROLE_BREAKER, ROLE_MAKER } from "../../firmware/core/types.ts";
import { FLIP_OVER, FLIP_PICK } from "../../firmware/core/brainflip.ts";

/** Grid key id at a grid position (0..35, reading order) on the R1 pad. */
export const gridKey = (g: number) => `p${Math.floor(g / 6) + 1}${(g % 6) + 1}`;
const G_RESUME = 34;
const G_UNIT_FLIPS = 23;

/** A game to play: a codebreaker preset with its variant and mode, or Brain Flip with its settings. */
export type Goal =
  | { game: PresetId; harder: boolean; mode: MatchMode; games: number }
  | { game: "brainflip"; flipMode: "flip" | "straight"; players: number; grid: number; unitFlips: boolean };

export interface Move {
  label: string;
  keys: string[];
}

export const CODEBREAKER_PRESETS: PresetId[] = ["brainiac", "travel", "race"];

/** A short name for a goal, e.g. "travel/manual" or "brainflip". */
export function goalName(g: Goal): string {
  return g.game === "brainflip" ? "brainflip" : `${g.game}/${g.mode}`;
}

/** A random goal: any preset, variant and mode, or Brain Flip with any settings. */
export function randomGoal(rng: Prng): Goal {
  const i = rng.int(0, 3);
  if (i === 3)
    return {
      game: "brainflip",
      flipMode: rng.next() < 0.5 ? "flip" : "straight",
      players: rng.int(2, 6),
      grid: rng.int(2, 6),
      unitFlips: rng.next() < 0.3,
    };
  return { game: CODEBREAKER_PRESETS[i], harder: rng.next() < 0.4, mode: MODE_MENU[rng.int(0, 3)], games: rng.next() < 0.7 ? 2 : 4 };
}

/** Does a game in the saved state play this goal? */
export function playsGoal(s: SavedState | null, goal: Goal): boolean {
  if (!s) return false;
  if (goal.game === "brainflip") {
    const f = s.flip;
    return f !== null && s.settings.preset === "brainflip" && f.config.mode === goal.flipMode && f.config.players === goal.players;
  }
  const m = s.match;
  return m !== null && s.settings.preset === goal.game && m.config.mode === goal.mode && m.config.harder === goal.harder;
}

/** The state's game is one to go on with (not over). */
function resumable(s: SavedState): boolean {
  if (s.settings.preset === "brainflip") return s.flip !== null && !s.flip.over;
  return s.match !== null && !s.match.over && s.match.config.preset === s.settings.preset;
}

export class Player {
  private readonly maker: NonNullable<Profile["keymap"]["maker"]>;

  constructor(
    readonly profile: Profile,
    readonly rng: Prng,
    /** How often a move is a deliberate mistake (a refused code, wrong feedback...). */
    readonly mistakes = 0.1,
  ) {
    const mk = profile.keymap.maker;
    if (!mk) throw new Error(`the player needs a codemaker pad (profile ${profile.id} has none)`);
    this.maker = mk;
  }

  private chance(p: number): boolean {
    return this.rng.next() < p;
  }

  /** The next action toward playing `goal` from the saved state (null = a unit that just started). */
  next(state: SavedState | null, goal: Goal): Move {
    const s = state ?? { v: 1, screen: "menu", settings: defaultSettings(), match: null, flip: null };
    if (s.screen === "play" && s.match) {
      if (!playsGoal(s, goal) && s.match.over) return { label: "match over: OK to the menu", keys: [gridKey(G_OK)] };
      if (!playsGoal(s, goal)) return { label: "menu", keys: [gridKey(G_MENU)] };
      return this.play(s.match);
    }
    if (s.screen === "flip" && s.flip) {
      if (!playsGoal(s, goal)) return { label: "menu", keys: [this.maker.colours[0]] };
      return this.flip(s.flip);
    }
    return this.menu(s, goal);
  }

  /** On the menu: the goal's settings, then OK (or resume the goal's game). */
  menu(s: SavedState, goal: Goal): Move {
    if (playsGoal(s, goal) && resumable(s) && s.settings.preset === goal.game) return { label: "resume", keys: [gridKey(G_RESUME)] };
    const keys: string[] = [gridKey(GAME_IDS.indexOf(goal.game))];
    const set = s.settings;
    if (goal.game === "brainflip") {
      keys.push(gridKey(6 + (goal.flipMode === "flip" ? 0 : 1)));
      keys.push(gridKey(12 + FLIP_PLAYERS_MENU.indexOf(goal.players)));
      keys.push(gridKey(18 + FLIP_GRID_MENU.indexOf(goal.grid)));
      if (set.unitFlips !== goal.unitFlips) keys.push(gridKey(G_UNIT_FLIPS));
      keys.push(gridKey(G_OK));
      // A game begun and not over is replaced only on a confirming OK.
      if (s.flip && !s.flip.over) keys.push(gridKey(G_OK));
      return { label: `start ${goalName(goal)}`, keys };
    }
    keys.push(gridKey(6 + (goal.harder ? 1 : 0)));
    keys.push(gridKey(12 + MODE_MENU.indexOf(goal.mode)));
    if (goal.game !== "race") keys.push(gridKey(18 + GAMES_MENU.indexOf(goal.games)));
    keys.push(gridKey(G_OK));
    if (s.match && !s.match.over) keys.push(gridKey(G_OK));
    return { label: `start ${goalName(goal)}${goal.harder ? " (harder)" : ""}`, keys };
  }

  /** Keys for a code on the main pad (a guess), then OK. */
  private guessKeys(code: Code, colours: number): string[] {
    return code.map((s) => gridKey(s === colours ? G_BLANK : G_COLOUR + s)).concat([gridKey(G_OK)]);
  }

  /** Keys for a code on the codemaker pad (a secret), then OK. */
  private secretKeys(code: Code, colours: number): string[] {
    return code.map((s) => (s === colours ? this.maker.blank : this.maker.colours[s])).concat([this.maker.ok]);
  }

  /** A code that is probably refused: a repeat where the preset forbids it, or a short row. */
  private badCode(m: MatchState): Code {
    const rules = rulesOfMatch(m);
    if (this.chance(0.5)) return [0, 0, 0, 0, 0].slice(0, rules.pegs);
    return [1, 2].slice(0, rules.pegs - 1);
  }

  /** A valid secret consistent with the rows so far, from a random place in the enumeration. */
  private consistent(m: MatchState, rows: Row[]): Code | null {
    const rules = rulesOfMatch(m);
    return firstConsistent(rules, rows, this.rng.int(0, codeSpaceSize(rules, true) - 1));
  }

  play(m: MatchState): Move {
    const rules = rulesOfMatch(m);
    const g = m.game;
    const role = unitRoleOf(m);
    if (m.over) return { label: "match over: OK", keys: [gridKey(G_OK)] };
    if (gameEnded(m)) return { label: "next game", keys: [gridKey(G_OK)] };
    if (this.chance(0.02)) return { label: "menu", keys: [gridKey(G_MENU)] };
    if (g.phase === PHASE_SECRET && role !== ROLE_MAKER) {
      if (role === ROLE_BREAKER && this.chance(0.4)) return { label: "keep the secret in my head", keys: [this.maker.ok] };
      if (this.chance(this.mistakes)) return { label: "bad secret", keys: this.secretKeys(this.badCode(m), rules.colours) };
      return {
        label: "secret",
        keys: this.secretKeys(
          randomSecret(rules, () => this.rng.next()),
          rules.colours,
        ),
      };
    }
    if (g.phase === PHASE_GUESS && role !== ROLE_BREAKER) {
      if (this.chance(this.mistakes)) return { label: "bad guess", keys: this.guessKeys(this.badCode(m), rules.colours) };
      let guess: Code | null = null;
      const r = this.rng.next();
      if (g.secret && r < 0.08) guess = g.secret.slice();
      else if (r < 0.45) guess = this.consistent(m, g.rows);
      for (let i = 0; !guess && i < 50; i++) {
        const c = randomSecret({ ...rules, secretRepeats: rules.guessRepeats }, () => this.rng.next());
        if (!checkGuess(rules, c)) guess = c;
      }
      return { label: "guess", keys: this.guessKeys(guess ?? this.badCode(m), rules.colours) };
    }
    if (g.phase === PHASE_FEEDBACK && g.pending) {
      // The codemaker answers: truly (against the secret, or one kept in the head), or sometimes not.
      const secret = g.secret ?? firstConsistent(rules, g.rows) ?? g.pending;
      let fb = referenceFeedback(g.pending, secret);
      let label = "answer";
      if (this.chance(this.mistakes)) {
        const exact = this.rng.int(0, rules.pegs);
        fb = { exact, near: this.rng.int(0, rules.pegs - exact) };
        label = "answer (maybe wrong)";
      }
      const keys: string[] = [];
      for (let i = 0; i < fb.exact; i++) keys.push(this.maker.exact);
      for (let i = 0; i < fb.near; i++) keys.push(this.maker.near);
      keys.push(this.maker.ok);
      return { label, keys };
    }
    return { label: "menu (nothing to do)", keys: [gridKey(G_MENU)] };
  }

  private cardKey(f: FlipState, card: number): string {
    const n = f.config.grid;
    return gridKey(Math.floor(card / n) * 6 + (card % n));
  }

  flip(f: FlipState): Move {
    const r = f.round;
    const n = f.config.grid;
    const mk = this.maker;
    if (f.over || r.phase === FLIP_OVER) return { label: f.over ? "game over: OK" : "next round", keys: [mk.ok] };
    if (this.chance(0.02)) return { label: "menu", keys: [mk.colours[0]] };
    if (r.phase === FLIP_PICK) return { label: "pick", keys: [this.cardKey(f, this.rng.int(0, n * n - 1))] };
    const x = this.rng.next();
    if (x < 0.5) return { label: "answer", keys: [this.chance(0.5) ? mk.yes : mk.no] };
    if (x < 0.62) return { label: "guess right", keys: [this.cardKey(f, r.pick)] };
    if (x < 0.85) return { label: "guess", keys: [this.cardKey(f, this.rng.int(0, n * n - 1))] };
    if (x < 0.95) return { label: "correct the last answer", keys: [mk.undo] };
    return { label: "Master mistake", keys: [mk.colours[7]] };
  }
}
