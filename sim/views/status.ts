/**
 * What the unit shows now, in words, for the page's status line and panel: the screen, what to do
 * next, the scores and the match so far as numbers, and what every key does on this screen.
 *
 * A view, not a second copy of the rules: everything comes from what the firmware holds. The game's
 * state is the firmware's own latest save in the virtual Storage (it saves at every committed action,
 * docs/reliability.md), read with the save decoder (one import below); what is not saved (a refusal,
 * the hint being shown, the resume key) is read off its LEDs; counts come from the core's functions.
 */
import type { VirtualBoard } from "../board/board.ts";
import { newestCopy, type SaveSource } from "../board/saves.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { defaultSettings, settingsByName, type NamedSettings } from "../../firmware/ui/settings.ts";
import { REFUSAL_COLOURS } from "../../firmware/ui/render.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { REFUSAL_NAMES } from "../../firmware/core/types.ts";
import { CONFIRM_MS, G_RESUME } from "../../firmware/ui/menu.ts";
import { gamesPlayed, rulesOf, unitRole } from "../../firmware/core/match.ts";
import { countConsistent } from "../../firmware/core/codes.ts";
import { questionLimit, FLIP_TARGET, type FlipState } from "../../firmware/core/brainflip.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import type { MatchState, Rules } from "../../firmware/core/types.ts";
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
} from "../../hardware/key-legends.ts";
import {
  PHASE_FAILED,
  PHASE_FEEDBACK,
  PHASE_GUESS,
  PHASE_SECRET,
  PHASE_SOLVED,
  ROLE_BREAKER,
  ROLE_MAKER,
} from "../../firmware/core/types.ts";
import { FLIP_ANSWER, FLIP_ASK, FLIP_PICK, RESULT_FOUND, RESULT_MISTAKE } from "../../firmware/core/brainflip.ts";
import { ROLE_NONE } from "../../firmware/core/types.ts";

export interface PanelScore {
  /** "you", "the unit", "player 1"... */
  name: string;
  value: number;
  /** "points", "holes" */
  unit: string;
}

/**
 * What of the board the game uses: the first `pegs` holes of rows 1..`rows` (and `keyPegs` key pixels of
 * each), the rest out of play. From the game being played, or on the menu the game chosen.
 */
export interface BoardInPlay {
  pegs: number;
  rows: number;
  keyPegs: number;
  /** In words, for the page's model line: "travel unit: 4 holes × 9 rows (board of 5 × 12)". */
  about: string;
}

/** A screen's status, before the board in play is added. */
type ScreenStatus = Omit<UnitStatus, "board">;

export interface UnitStatus {
  /** What is on the unit: switched off, asleep, the self-test (OK held at power-on), or one of its screens. */
  screen: "off" | "asleep" | "selftest" | ScreenId;
  /** The part of the board in play. */
  board: BoardInPlay;
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
  /** A person is to break the code now: the secret must not show (the page's shield closes itself). */
  secretHidden?: boolean;
  /** The latest row played, in words ("row 3: 2 exact, 1 near"), for screen readers; absent before the first. */
  lastRow?: string;
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

  /** What the unit shows; `shieldOpen`: the codemaker's shield is open already (no need to ask for it). */
  status(shieldOpen = false): UnitStatus {
    const b = this.board;
    const profile = b.profile;
    const saved = this.latest();
    const settings = settingsByName(saved?.settings ?? defaultSettings());
    const leds: Record<string, string[]> = {};
    for (const s of segmentsOf(b)) leds[s] = b.colours(s);
    const base = { alert: "", game: "", scores: [] as PanelScore[], facts: [] as UnitStatus["facts"], history: [] as string[] };
    if (!b.isOn || !b.ledsPowered) this.selfTest = false;
    else this.selfTest = selfTestFrame(leds, this.selfTest);
    const board = this.selfTest ? wholeBoard(profile) : boardInPlay(profile, saved, settings);
    if (!b.isOn) return { ...base, screen: "off", board, line: "The unit is switched off. Switch it on (Power, Switch on).", keys: {} };
    if (!b.ledsPowered)
      return {
        ...base,
        screen: "asleep",
        board,
        line: "The unit is asleep: press any key to wake it (that press does nothing else).",
        keys: {},
      };
    if (this.selfTest) return selfTestStatus(profile, board);
    const alertLed = (leds.status ?? [])[1];
    const screen = saved?.screen ?? "menu";
    if (screen === "flip" && saved?.flip) return { ...flipStatus(saved.flip, profile), board };
    if (screen === "play" && saved?.match) {
      const m = saved.match;
      // An answer being checked is not saved: the light running along the row's key pegs says so.
      if (this.checkedFor !== this.savedText) this.checking = false;
      this.checkedFor = this.savedText;
      this.checking = checkingLight(m, profile, leds, this.checking);
      const st = playStatus(m, profile, leds, (m) => this.codesThatFit(m), this.checking, shieldOpen);
      if (refusal(alertLed) && !(alertLed === "red" && m.wrongInfo)) st.alert = refusal(alertLed);
      return { ...st, board };
    }
    const st = menuStatus(settings, leds, saved);
    st.keys = legendsByKey(
      profile,
      menuLegends(settings.preset === "brainflip" ? "brainflip" : "codebreaker", saved?.settings ?? defaultSettings()),
    );
    if (alertLed === "red") st.alert = refusal(alertLed);
    return { ...st, board };
  }

  /** The self-test shows (it is not saved, and is left only by switching off): read off the LEDs. */
  private selfTest = false;
  /** An answer is being checked (seen on the LEDs since the save `checkedFor`). */
  private checking = false;
  private checkedFor = "";
}

/** The board's size in words: "board of 5 × 12". */
function boardOf(profile: StatusBoard["profile"]): string {
  return `board of ${profile.pegs} × ${profile.rows}`;
}

function wholeBoard(profile: StatusBoard["profile"]): BoardInPlay {
  return { pegs: profile.pegs, rows: profile.rows, keyPegs: profile.pegs, about: `self-test: every hole of the ${boardOf(profile)}` };
}

/** A codebreaker game's board: its holes of its rows; a board with fewer rows shows the latest ones (ui/codebreaker.ts draw). */
function codebreakerBoard(profile: StatusBoard["profile"], rules: Rules): BoardInPlay {
  const pegs = Math.min(rules.pegs, profile.pegs);
  const rows = Math.min(rules.rows, profile.rows);
  const latest = rules.rows > profile.rows ? `, the latest ${profile.rows} on the board` : "";
  const name = `${GAME_NAMES[rules.preset]}${rules.harder ? ", harder" : ""}`;
  return { pegs, rows, keyPegs: pegs, about: `${name}: ${rules.pegs} holes × ${rules.rows} rows${latest} (${boardOf(profile)})` };
}

/** Brain Flip's board: a bar per question, one row each, the asker's colour on the row's first key pixel (ui/flip.ts draw). */
function flipBoard(profile: StatusBoard["profile"], mode: FlipState["config"]["mode"]): BoardInPlay {
  const rows = Math.min(questionLimit(mode), profile.rows);
  return {
    pegs: profile.pegs,
    rows,
    keyPegs: 1,
    about: `Brain Flip: a row per question, ${rows} rows, the asker's colour on the first key peg (${boardOf(profile)})`,
  };
}

/** The board of the game on the unit: the one played, or on the menu the one chosen. */
function boardInPlay(profile: StatusBoard["profile"], saved: SavedState | null, s: NamedSettings): BoardInPlay {
  const screen = saved?.screen ?? "menu";
  if (screen === "play" && saved?.match) return codebreakerBoard(profile, rulesOf(saved.match));
  if (screen === "flip" && saved?.flip) return flipBoard(profile, saved.flip.config.mode);
  return s.preset === "brainflip" ? flipBoard(profile, s.flipMode) : codebreakerBoard(profile, rulesFor(s.preset, s.harder));
}

/**
 * Does the frame show the self-test (ui/selftest.ts)? One whole segment white, or all of them, and
 * nothing else lit but held keys' green echoes on the pad and the track; once seen (`was`), a dark frame
 * (a segment this build lacks) is still the self-test. No screen of the unit's lights a frame like it.
 */
function selfTestFrame(leds: Record<string, string[]>, was: boolean): boolean {
  const names = Object.keys(leds);
  let whole = 0;
  for (const name of names) {
    const px = leds[name];
    const echo = name === "pad" || name === "track";
    let white = 0;
    let off = 0;
    for (const c of px) {
      if (c === "white") white++;
      else if (c === "off") off++;
      else if (!(c === "green" && echo)) return false;
    }
    if (white > 0 && off > 0) return false;
    if (white > 0) whole++;
  }
  return whole === 0 ? was : whole === 1 || whole === names.length;
}

function selfTestStatus(profile: StatusBoard["profile"], board: BoardInPlay): UnitStatus {
  const maker = profile.keymap.maker ? " (a codemaker-pad key: a track LED)" : "";
  const about = `self-test: held, it lights its own pad LED green${maker}; the USB console prints key <n> down, key <n> up`;
  const keys: Record<string, KeyLegend> = {};
  for (const id of profile.keymap.grid) keys[id] = { label: "", about };
  for (const id of Object.values(profile.keymap.maker ?? {}).flat()) keys[String(id)] = { label: "", about };
  return {
    screen: "selftest",
    board,
    line:
      "Self-test (OK was held at power-on): each LED segment lights white in turn (board, key pegs, secret, pad, track, status), " +
      `then all of them; press and hold any key to see it: its pad LED lights green${maker}, and the USB console prints key <n> down. ` +
      "Switch off or power cycle to leave.",
    alert: "",
    game: "",
    scores: [],
    facts: [],
    history: [],
    keys,
  };
}

/**
 * Is the unit checking an answer for a contradiction (ui/codebreaker.ts CHECKING, not saved)? It waits on
 * an answer to its guess with the secret in the head; a light runs along the row's key pixels, so they
 * show no answer as keyed (the answer's marks, then the empty holes all alike, nothing past the game's
 * holes). Once seen (`was`) it holds until the next save. (The light shows after its first step.)
 */
function checkingLight(m: MatchState, profile: StatusBoard["profile"], leds: Record<string, string[]>, was: boolean): boolean {
  const game = m.game;
  if (m.over || m.wrongInfo || game.phase !== PHASE_FEEDBACK || game.secret || unitRole(m) !== ROLE_BREAKER) return false;
  if (was) return true;
  const rules = rulesOf(m);
  const row = game.rows.length - Math.max(0, Math.min(game.rows.length, rules.rows - 1) + 1 - profile.rows);
  const px = (leds.keys ?? []).slice(row * profile.pegs, (row + 1) * profile.pegs);
  if (px.length < rules.pegs) return false;
  if (px.slice(rules.pegs).some((c) => c !== "off")) return true;
  const holes = px.slice(0, rules.pegs);
  const exactColour = rules.look === "arms" ? "red" : "violet";
  let i = 0;
  while (i < holes.length && holes[i] === exactColour) i++;
  let j = holes.length;
  if (rules.look === "arms") while (j > i && holes[j - 1] === "white") j--;
  else while (i < j && holes[i] === "white") i++;
  const rest = holes.slice(i, j);
  return !(rest.every((c) => c === "off") || rest.every((c) => c === "hole"));
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

function menuStatus(s: NamedSettings, leds: Record<string, string[]>, saved: SavedState | null): ScreenStatus {
  const flip = s.preset === "brainflip";
  const resumable = (leds.pad ?? [])[G_RESUME] === "cyan";
  const rows = flip
    ? "row 1 the game, row 2 the rules, row 3 the players, row 4 the grid, row 5 brightness"
    : "row 1 the game, row 2 normal or harder, row 3 the roles, row 4 the match length, row 5 brightness";
  // OK over a game begun and not over asks for a second press (ui/menu.ts): status LED 2 yellow meanwhile.
  const unfinished = flip ? !!saved?.flip && !saved.flip.over : !!saved?.match && !saved.match.over;
  const asking = unfinished && (leds.status ?? [])[1] === "yellow";
  const line = asking
    ? `Press OK again within ${CONFIRM_MS / 1000} seconds to start a new game: the game in progress will be lost. ` +
      "Any other key, or waiting, keeps it (resume goes back to it); status light 2 shows yellow while the unit waits."
    : `Menu: ${settingsText(s)}. Each pad row is one setting (${rows}); the chosen option is white. ` +
      `OK (bottom right, blinking green) starts a new match` +
      (unfinished ? ` (twice within ${CONFIRM_MS / 1000} seconds: a game is in progress)` : "") +
      (resumable ? "; resume (row 6, column 5, cyan) goes back to the game in progress." : ".");
  const st: ScreenStatus = {
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

function addMatchNumbers(st: ScreenStatus, m: MatchState): void {
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
  // Numbered as the panel counts games: a game replayed after wrong information does not count, so its
  // replay keeps its number.
  let counted = 0;
  st.history = m.history.map((g, i) => {
    const number = `${counted + 1}${i > 0 && m.history[i - 1].replayed ? " (replay)" : ""}`;
    if (!g.replayed) counted++;
    const maker = who[g.maker];
    const breaker = who[1 - g.maker];
    const what = g.replayed
      ? `wrong information, replayed: ${breaker} +${g.gained[1 - g.maker]}`
      : g.solved
        ? `${breaker} solved it in ${g.rowsPlayed} row${g.rowsPlayed === 1 ? "" : "s"}`
        : `not solved in ${g.rowsPlayed} rows`;
    const gained = [0, 1].map((p) => `${who[p]} +${g.gained[p]}`).join(", ");
    return `Game ${number}: ${maker} made the code; ${what} (${gained}).`;
  });
}

function playStatus(
  m: MatchState,
  profile: VirtualBoard["profile"],
  leds: Record<string, string[]>,
  fit: (m: MatchState) => number,
  checking = false,
  shieldOpen = false,
): ScreenStatus {
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
    // Who scores and why: in a race the codebreaker advances; otherwise the codemaker scores a point a row used.
    const gain =
      rules.scoring === "race"
        ? `${breaker} ${breaker === "you" ? "advance" : "advances"} ${last.gained[1 - m.maker]}`
        : `${maker}, the codemaker, ${maker === "you" ? "score" : "scores"} ${last.gained[m.maker]}` +
          (last.gained[m.maker] === game.rows.length ? " (a point for each row used)" : "");
    line = `${cap(breaker)} solved it in ${game.rows.length} row${game.rows.length === 1 ? "" : "s"}: ${gain}.${next}`;
  } else if (game.phase === PHASE_FAILED && last) {
    const gain = rules.scoring === "race" ? `${breaker} advances 0` : `${maker} +${last.gained[m.maker]}`;
    line = `Not solved in ${rules.rows} rows: ${gain}. The secret shows on the pad's row 3.${next}`;
  } else if (game.phase === PHASE_SECRET) {
    const where = makerPad ? "on the codemaker pad" : "on the pad";
    // A build with a codemaker pad or a secret segment has a shield over them (hardware/geometry.ts).
    const shielded = makerPad || profile.leds.segments.some((sg) => sg.name === "secret");
    const shield = shielded && !shieldOpen ? "open the shield, " : "";
    line =
      role === ROLE_BREAKER
        ? `You make the code: ${shield}key ${keysFor(rules.pegs)} ${where}, then OK; or press OK on an empty secret to keep it in your head.`
        : `${cap(maker)} makes the code: ${shield}key ${keysFor(rules.pegs)} ${where}, then OK. ${cap(breaker)}, look away.`;
  } else if (game.phase === PHASE_GUESS) {
    line =
      role === ROLE_BREAKER
        ? `The unit is thinking: it is choosing its guess for row ${row} of ${rules.rows} (a light runs along the row while it thinks). Wait for its guess.`
        : `${role === ROLE_MAKER ? "Break the unit's code" : cap(breaker)}: key ${keysFor(rules.pegs)} on the pad for row ${row} of ${rules.rows}, then OK. The white key at the end of row 2 gives a hint.`;
  } else if (checking) {
    line = `The unit is checking your answer to row ${row} against the rows so far (a light runs along the row's key pegs); it counts once no contradiction is found.`;
  } else {
    const where = makerPad ? "on the codemaker pad" : "on the pad";
    line =
      role === ROLE_BREAKER
        ? `Answer the unit's guess on row ${row}: exact, near, then OK ${where}.`
        : `${cap(maker)}: answer row ${row}: exact, near, then OK ${where}.`;
  }
  const st: ScreenStatus = { screen: "codebreaker", line, alert: "", game: "", scores: [], facts: [], history: [], keys: {} };
  if (game.phase === PHASE_GUESS && role !== ROLE_BREAKER && !m.over && !m.wrongInfo) st.secretHidden = true;
  const played = game.rows[game.rows.length - 1];
  if (played) st.lastRow = `row ${game.rows.length}: ${played.feedback.exact} exact, ${played.feedback.near} near`;
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

function addFlipNumbers(st: ScreenStatus, f: FlipState): void {
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

function flipStatus(f: FlipState, profile: VirtualBoard["profile"]): ScreenStatus {
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
  const st: ScreenStatus = { screen: "brainflip", line, alert: "", game: "", scores: [], facts: [], history: [], keys: {} };
  addFlipNumbers(st, f);
  st.keys = legendsByKey(profile, brainFlipLegends(profile, f.config.grid));
  return st;
}
