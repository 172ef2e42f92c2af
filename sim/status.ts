/**
 * What the unit shows now, in words, for the page's status line and panel: the screen, what to do
 * next, the scores and the match so far as numbers, and what every key does on this screen.
 *
 * A view, not a second copy of the rules: everything comes from what the firmware holds. The game's
 * state is the firmware's own latest save in the virtual Storage (it saves at every committed action,
 * README "Reliability"), read with the save decoder (one import below); what is not saved (a refusal,
 * the hint being shown, the resume key) is read off its LEDs; counts come from the core's functions.
 */
import type { VirtualBoard } from "./board.ts";
import { newestCopy, type SaveSource } from "./saves.ts";
import { defaultSettings, type SavedState } from "../firmware/ui/app.ts";
import { settingsByName, type NamedSettings } from "../firmware/ui/menu.ts";
import { REFUSAL_COLOURS } from "../firmware/ui/render.ts";
import { COLOUR_NAMES } from "../firmware/ui/palette.ts";
import { REFUSAL_NAMES } from "../firmware/core/types.ts";
import { G_RESUME } from "../firmware/ui/app.ts";
import { gamesPlayed, rulesOf, unitRole } from "../firmware/core/match.ts";
import { countConsistent } from "../firmware/core/codes.ts";
import { questionLimit, FLIP_TARGET, type FlipState } from "../firmware/core/brainflip.ts";
import type { MatchState } from "../firmware/core/types.ts";
import { segmentsOf } from "./view.ts";
import {
  brainFlipLegends,
  codebreakerLegends,
  GAME_NAMES,
  legendsByKey,
  menuLegends,
  MODE_NAMES,
  type KeyLegend,
  type ScreenId,
} from "./screens.ts";
import { PHASE_FAILED, PHASE_GUESS, PHASE_SECRET, PHASE_SOLVED, ROLE_BREAKER, ROLE_MAKER } from "../firmware/core/types.ts";
import { FLIP_ANSWER, FLIP_ASK, FLIP_PICK, RESULT_FOUND, RESULT_MISTAKE } from "../firmware/core/brainflip.ts";
import { ROLE_NONE } from "../firmware/core/types.ts";

export interface PanelScore {
  /** "you", "the unit", "player 1"... */
  name: string;
  value: number;
  /** "points", "holes" */
  unit: string;
}

export interface UnitStatus {
  /** What is on the unit: switched off, asleep, or one of its screens. */
  screen: "off" | "asleep" | ScreenId;
  /** What the unit shows and what to do next, in plain words (the page's role="status" line). */
  line: string;
  /** A passing alert read off status LED 2 (a refusal), or "". */
  alert: string;
  /** The game being played or chosen ("Brainiac, normal, 4 games"), or "". */
  game: string;
  scores: PanelScore[];
  /** Facts as numbers: game 2 of 4, row 3 of 12, codes that still fit (while the hint shows), questions left... */
  facts: { label: string; value: string }[];
  /** The match so far, one line per game or round. */
  history: string[];
  /** What each key does on this screen, by key id (empty labels for keys that do nothing here). */
  keys: Record<string, KeyLegend>;
}

/** What the status reads of a board, on either engine (the real one mirrors the save slots: sim/espruino/engine.ts). */
export type StatusBoard = Pick<VirtualBoard, "profile" | "colours" | "isOn" | "ledsPowered"> & { readonly storage: SaveSource };

/** The firmware's saved state, decoded; null before its first save. (The one use of the save format.) */
function savedState(board: StatusBoard): SavedState | null {
  return newestCopy(board.storage)?.state ?? null;
}

const FLIP_COLOURS = ["red", "blue", "green", "yellow", "orange", "pink"];

/** Follows one board; caches the decoded save and the hint count (both change only when the firmware saves). */
export class StatusReader {
  private savedText = "";
  private saved: SavedState | null = null;
  private hintFor = "";
  private hintCount = 0;

  constructor(readonly board: StatusBoard) {}

  private latest(): SavedState | null {
    const st = this.board.storage;
    const text = (st.readString("bb.s0") ?? "") + "\u0000" + (st.readString("bb.s1") ?? "");
    if (text !== this.savedText) {
      this.savedText = text;
      this.saved = savedState(this.board);
    }
    return this.saved;
  }

  private codesThatFit(m: MatchState): number {
    if (this.hintFor !== this.savedText) {
      this.hintFor = this.savedText;
      this.hintCount = countConsistent(rulesOf(m), m.game.rows);
    }
    return this.hintCount;
  }

  status(): UnitStatus {
    const b = this.board;
    const profile = b.profile;
    const saved = this.latest();
    const settings = settingsByName(saved?.settings ?? defaultSettings());
    const leds: Record<string, string[]> = {};
    for (const s of segmentsOf(b)) leds[s] = b.colours(s);
    const base = { alert: "", game: "", scores: [] as PanelScore[], facts: [] as UnitStatus["facts"], history: [] as string[] };
    if (!b.isOn) return { ...base, screen: "off", line: "The unit is switched off. Switch it on (Power, Switch on).", keys: {} };
    if (!b.ledsPowered)
      return { ...base, screen: "asleep", line: "The unit is asleep: press any key to wake it (that press does nothing else).", keys: {} };
    const alertLed = (leds.status ?? [])[1];
    const screen = saved?.screen ?? "menu";
    if (screen === "flip" && saved?.flip) return flipStatus(saved.flip, profile);
    if (screen === "play" && saved?.match) {
      const st = playStatus(saved.match, profile, leds, (m) => this.codesThatFit(m));
      if (refusal(alertLed) && !(alertLed === "red" && saved.match.wrongInfo)) st.alert = refusal(alertLed);
      return st;
    }
    const st = menuStatus(settings, leds, saved);
    st.keys = legendsByKey(profile, menuLegends(settings.preset === "brainflip" ? "brainflip" : "codebreaker"));
    if (alertLed === "red") st.alert = refusal(alertLed);
    return st;
  }
}

/** What a refusal's colour on status LED 2 says (ui/render.ts REFUSAL_COLOURS), or "" for another colour. */
function refusal(colour: string | undefined): string {
  const why: Record<string, string> = {
    phase: "that key does nothing now",
    incomplete: "the row has empty holes (they flash)",
    repeat: "a colour is used twice, which this game does not allow (the pegs flash)",
    blank: "this game has no blanks",
    "feedback-range": "no code gives that answer (too many marks, or all but one exact with one near)",
  };
  const i = REFUSAL_COLOURS.findIndex((c) => COLOUR_NAMES[c] === colour);
  return i < 0 ? "" : `Refused: ${why[REFUSAL_NAMES[i]]}. Nothing was used.`;
}

function settingsText(s: NamedSettings): string {
  if (s.preset === "brainflip")
    return `Brain Flip, ${s.flipMode === "flip" ? "Brain Flip rules (answers flipped)" : "played straight"}, ${s.players} players, ${s.flipGrid}x${s.flipGrid} cards${s.unitFlips ? ", the unit flips the answers" : ""}`;
  const games = s.preset === "race" ? "first to hole 30" : `${s.games} games`;
  return `${GAME_NAMES[s.preset]}, ${s.harder ? "harder" : "normal"}, ${MODE_NAMES[s.mode].about}, ${games}`;
}

function menuStatus(s: NamedSettings, leds: Record<string, string[]>, saved: SavedState | null): UnitStatus {
  const flip = s.preset === "brainflip";
  const resumable = (leds.pad ?? [])[G_RESUME] === "cyan";
  const rows = flip
    ? "row 1 the game, row 2 the rules, row 3 the players, row 4 the grid, row 5 brightness"
    : "row 1 the game, row 2 normal or harder, row 3 the roles, row 4 the match length, row 5 brightness";
  // OK over a game begun and not over asks for a second press (ui/menu.ts): status LED 2 yellow meanwhile.
  const unfinished = flip ? !!saved?.flip && !saved.flip.over : !!saved?.match && !saved.match.over;
  const asking = unfinished && (leds.status ?? [])[1] === "yellow";
  const line = asking
    ? "Press OK again to start a new game: the game in progress will be lost. Any other key keeps it (resume goes back to it)."
    : `Menu: ${settingsText(s)}. Each pad row is one setting (${rows}); the chosen option is white. ` +
      `OK (bottom right, blinking green) starts a new match` +
      (unfinished ? " (twice: a game is in progress)" : "") +
      (resumable ? "; resume (row 6, column 5, cyan) goes back to the game in progress." : ".");
  const st: UnitStatus = {
    screen: "menu",
    line,
    alert: "",
    game: settingsText(s),
    scores: [],
    facts: [],
    history: [],
    keys: {},
  };
  // The game kept in Storage, if the menu can resume it.
  if (resumable && saved?.match && !flip) addMatchNumbers(st, saved.match);
  if (resumable && saved?.flip && flip) addFlipNumbers(st, saved.flip);
  return st;
}

function names(m: MatchState): [string, string] {
  return unitRole(m) === ROLE_NONE ? ["player 1 (red)", "player 2 (blue)"] : ["you", "the unit"];
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function addMatchNumbers(st: UnitStatus, m: MatchState): void {
  const rules = rulesOf(m);
  const who = names(m);
  const unit = rules.scoring === "race" ? "holes" : "points";
  st.scores = [0, 1].map((p) => ({ name: who[p], value: m.scores[p], unit }));
  st.facts.push(
    rules.scoring === "race"
      ? { label: "race", value: `first to hole ${rules.raceTarget}` }
      : { label: "game", value: `${Math.min(gamesPlayed(m) + (m.over ? 0 : 1), m.config.games)} of ${m.config.games}` },
  );
  st.game = `${GAME_NAMES[rules.preset]}${rules.harder ? ", harder" : ""}: ${rules.pegs} holes, ${rules.rows} rows, ${MODE_NAMES[m.config.mode].about}`;
  st.history = m.history.map((g, i) => {
    const maker = who[g.maker];
    const breaker = who[1 - g.maker];
    const what = g.replayed
      ? `wrong information, replayed: ${breaker} +${g.gained[1 - g.maker]}`
      : g.solved
        ? `${breaker} solved it in ${g.rowsPlayed} row${g.rowsPlayed === 1 ? "" : "s"}`
        : `not solved in ${g.rowsPlayed} rows`;
    const gained = [0, 1].map((p) => `${who[p]} +${g.gained[p]}`).join(", ");
    return `Game ${i + 1}: ${maker} made the code; ${what} (${gained}).`;
  });
}

function playStatus(
  m: MatchState,
  profile: VirtualBoard["profile"],
  leds: Record<string, string[]>,
  fit: (m: MatchState) => number,
): UnitStatus {
  const rules = rulesOf(m);
  const who = names(m);
  const role = unitRole(m);
  const game = m.game;
  const maker = who[m.maker];
  const breaker = who[1 - m.maker];
  const row = game.rows.length + 1;
  const makerPad = !!profile.keymap.maker;
  const keysFor = (n: number) => `${n} colour${n === 1 ? "" : "s"}`;
  let line: string;
  const last = m.history[m.history.length - 1];
  const next = m.over ? "" : " Press OK for the next game (the roles switch).";
  if (m.over) {
    const score = `${m.scores[0]} to ${m.scores[1]}`;
    line =
      m.winner < 0
        ? `Match over: a draw, ${score}. OK returns to the menu.`
        : `Match over: ${who[m.winner]} ${who[m.winner] === "you" ? "win" : "wins"}, ${score}. OK returns to the menu.`;
  } else if (m.wrongInfo) {
    const rowsAt = m.wrongInfo.rows.map((r) => r + 1).join(" and ");
    const bonus = `+${rules.wrongInfoBonus} to ${breaker}`;
    line = m.wrongInfo.correct
      ? `Wrong answer on row ${rowsAt}: it should be ${m.wrongInfo.correct.exact} exact, ${m.wrongInfo.correct.near} near (the row alternates between the two). ${cap(bonus)}.` +
        " Press OK to replay the game."
      : `${role === ROLE_BREAKER ? "Your answers contradict" : "The answers contradict"} row ${rowsAt}: ${bonus}. Press OK to replay the game.`;
  } else if (game.phase === PHASE_SOLVED && last) {
    const gain = rules.scoring === "race" ? `${breaker} +${last.gained[1 - m.maker]}` : `${maker} +${last.gained[m.maker]}`;
    line = `Solved in ${game.rows.length} row${game.rows.length === 1 ? "" : "s"}: ${gain}.${next}`;
  } else if (game.phase === PHASE_FAILED && last) {
    const gain = rules.scoring === "race" ? `${breaker} advances 0` : `${maker} +${last.gained[m.maker]}`;
    line = `Not solved in ${rules.rows} rows: ${gain}. The secret shows on the pad's row 3.${next}`;
  } else if (game.phase === PHASE_SECRET) {
    const where = makerPad ? "on the codemaker pad" : "on the pad";
    // A build with a codemaker pad or a secret segment has a shield over them (sim/geometry.ts).
    const shield = makerPad || profile.leds.segments.some((sg) => sg.name === "secret") ? "open the shield, " : "";
    line =
      role === ROLE_BREAKER
        ? `You make the code: ${shield}key ${keysFor(rules.pegs)} ${where}, then OK; or press OK on an empty secret to keep it in your head.`
        : `${cap(maker)} makes the code: ${shield}key ${keysFor(rules.pegs)} ${where}, then OK. ${cap(breaker)}, look away.`;
  } else if (game.phase === PHASE_GUESS) {
    line =
      role === ROLE_BREAKER
        ? `The unit is choosing its guess for row ${row} of ${rules.rows}.`
        : `${role === ROLE_MAKER ? "Break the unit's code" : cap(breaker)}: key ${keysFor(rules.pegs)} on the pad for row ${row} of ${rules.rows}, then OK. The white key at the end of row 2 gives a hint.`;
  } else {
    const where = makerPad ? "on the codemaker pad" : "on the pad";
    line =
      role === ROLE_BREAKER
        ? `Answer the unit's guess on row ${row}: exact, near, then OK ${where}.`
        : `${cap(maker)}: answer row ${row}: exact, near, then OK ${where}.`;
  }
  const st: UnitStatus = { screen: "codebreaker", line, alert: "", game: "", scores: [], facts: [], history: [], keys: {} };
  addMatchNumbers(st, m);
  if (!m.over && !m.wrongInfo && game.phase !== PHASE_SOLVED && game.phase !== PHASE_FAILED)
    st.facts.push({ label: "row", value: `${Math.min(row, rules.rows)} of ${rules.rows}` });
  st.facts.push({ label: "codemaker", value: maker }, { label: "codebreaker", value: breaker });
  // The hint, while the unit shows it (green or orange on the track, or on the pad's rows 4 and 5 without a track).
  const hintLeds = leds.track ?? (leds.pad ?? []).slice(18, 30);
  if (game.phase === PHASE_GUESS && role !== ROLE_BREAKER) {
    const shown =
      hintLeds.some((c) => c === "green" || c === "orange") ||
      (hintLeds[0] === "red" && hintLeds.slice(1).every((c) => c === "off") && fit(m) === 0);
    if (shown) {
      const n = fit(m);
      st.facts.push({ label: "codes that still fit", value: String(n) });
      st.line += n === 0 ? " Hint: no code fits: the answers contradict each other." : ` Hint: ${n} code${n === 1 ? "" : "s"} still fit.`;
    }
  }
  st.keys = legendsByKey(profile, codebreakerLegends(profile, rules));
  return st;
}

function flipName(p: number): string {
  return `player ${p + 1} (${FLIP_COLOURS[p]})`;
}

function addFlipNumbers(st: UnitStatus, f: FlipState): void {
  st.scores = f.scores.map((v, p) => ({ name: flipName(p), value: v, unit: "points" }));
  st.facts.push(
    { label: "round", value: String(f.rounds) },
    { label: "Brain Master", value: flipName(f.round.master) },
    { label: "questions left", value: `${questionLimit(f.config.mode) - f.round.asked} of ${questionLimit(f.config.mode)}` },
    { label: "wins", value: `first to ${FLIP_TARGET} points` },
  );
  st.game = `Brain Flip: ${f.config.players} players, ${f.config.grid}x${f.config.grid} cards, ${f.config.mode === "flip" ? "Brain Flip rules (the Master answers the opposite)" : "played straight"}`;
  st.history = f.round.log.map(
    (e, i) =>
      `Question ${i + 1}: ${flipName(e.player)} ${e.kind === FLIP_ANSWER ? `asked, answer ${e.yes ? "yes" : "no"}` : `guessed card ${e.card + 1}: ${e.yes ? "right" : "wrong"}`}.`,
  );
}

function flipStatus(f: FlipState, profile: VirtualBoard["profile"]): UnitStatus {
  const round = f.round;
  const master = flipName(round.master);
  const makerPad = !!profile.keymap.maker;
  const where = makerPad ? "the codemaker pad" : "the pad's last column";
  let line: string;
  if (f.over) line = `Game over: ${flipName(f.winner)} wins with ${f.scores[f.winner]} points. OK (${where}) returns to the menu.`;
  else if (round.phase === FLIP_PICK)
    line = `Round ${f.rounds}: ${master} is the Brain Master: pick a card on the pad while the others look away. Nothing lights.`;
  else if (round.phase === FLIP_ASK) {
    const left = questionLimit(f.config.mode) - round.asked;
    const lastEntry = round.log[round.log.length - 1];
    const lastAnswer = lastEntry && lastEntry.kind === FLIP_ANSWER ? `Last answer: ${lastEntry.yes ? "yes" : "no"}. ` : "";
    const how = f.config.unitFlips
      ? "the true answer (the unit shows it flipped)"
      : f.config.mode === "flip"
        ? "the opposite answer"
        : "the answer";
    line =
      `${lastAnswer}${cap(flipName(round.turn))}: ask a yes/no question aloud; the Master keys ${how} on ${where} (yes, no). ` +
      `Or press a card: "Got it!". ${left} question${left === 1 ? "" : "s"} left.`;
  } else {
    const result =
      round.result === RESULT_FOUND
        ? `${cap(flipName(round.finder))} found the card: +1.`
        : round.result === RESULT_MISTAKE
          ? `The Master's mistake: ${master} -1.`
          : `Nobody found the card: ${master} (the Master) +1.`;
    line = `${result} OK (${where}) starts the next round.`;
  }
  const st: UnitStatus = { screen: "brainflip", line, alert: "", game: "", scores: [], facts: [], history: [], keys: {} };
  addFlipNumbers(st, f);
  st.keys = legendsByKey(profile, brainFlipLegends(profile, f.config.grid));
  return st;
}
