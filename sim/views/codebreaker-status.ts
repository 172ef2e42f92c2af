/**
 * The codebreaker games' status in words (sim/views/game-status.ts): the match on the board, what to do
 * next, the scores, the game and row, and a hint's count while the unit shows it.
 */
import type { MatchState, Rules } from "../../firmware/core/types.ts";
import {
  PHASE_FAILED,
  PHASE_FEEDBACK,
  PHASE_GUESS,
  PHASE_SECRET,
  PHASE_SOLVED,
  ROLE_BREAKER,
  ROLE_MAKER,
  ROLE_NONE,
  type PresetId,
} from "../../firmware/core/types.ts";
import { gamesPlayed, rulesOf, unitRole } from "../../firmware/core/match.ts";
import { countConsistent } from "../../firmware/core/codes.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { CODEBREAKER } from "../../firmware/ui/codebreaker-game.ts";
import type { Settings } from "../../firmware/ui/settings.ts";
import { codebreakerLegends, GAME_NAMES, legendsByKey, menuLegends, MODE_NAMES } from "../../hardware/key-legends.ts";
import {
  boardOf,
  cap,
  refusal,
  screenStatus,
  type BoardInPlay,
  type GameStatus,
  type ScreenStatus,
  type StatusContext,
  type StatusProfile,
} from "./game-status.ts";

/** A codebreaker game's board: its holes of its rows; a board with fewer rows shows the latest ones (ui/codebreaker.ts draw). */
function codebreakerBoard(profile: StatusProfile, rules: Rules): BoardInPlay {
  const pegs = Math.min(rules.pegs, profile.pegs);
  const rows = Math.min(rules.rows, profile.rows);
  const latest = rules.rows > profile.rows ? `, the latest ${profile.rows} on the board` : "";
  const name = `${GAME_NAMES[rules.preset]}${rules.harder ? ", harder" : ""}`;
  return { pegs, rows, keyPegs: pegs, about: `${name}: ${rules.pegs} holes × ${rules.rows} rows${latest} (${boardOf(profile)})` };
}

/**
 * Is the unit checking an answer for a contradiction (ui/codebreaker.ts CHECKING, not saved)? It waits on
 * an answer to its guess with the secret in the head; a light runs along the row's key pixels, so they
 * show no answer as keyed (the answer's marks, then the empty holes all alike, nothing past the game's
 * holes). Once seen (`was`) it holds until the next save. (The light shows after its first step.)
 */
function checkingLight(m: MatchState, profile: StatusProfile, leds: Record<string, string[]>, was: boolean): boolean {
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

function names(m: MatchState): [string, string] {
  return unitRole(m) === ROLE_NONE ? ["player 1 (red)", "player 2 (blue)"] : ["you", "the unit"];
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
  profile: StatusProfile,
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
  const st = screenStatus("codebreaker", line);
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

/** The codebreaker games' entry: the screen "play", the match under the saved state's `match`. */
export const CODEBREAKER_STATUS: GameStatus = {
  kind: CODEBREAKER,
  screen: "play",
  menuRows: "row 1 the game, row 2 normal or harder, row 3 the roles, row 4 the match length, row 5 brightness",
  chosen: (s: Settings) =>
    `${GAME_NAMES[s.preset]}, ${s.harder ? "harder" : "normal"}, ${MODE_NAMES[s.mode].about}, ${s.preset === "race" ? "first to hole 30" : `${s.games} games`}`,
  board: (profile, state, s) => codebreakerBoard(profile, state ? rulesOf(state as MatchState) : rulesFor(s.preset as PresetId, s.harder)),
  playing(state, ctx: StatusContext) {
    const m = state as MatchState;
    const memo = ctx.memo;
    // An answer being checked is not saved: the light running along the row's key pegs says so.
    memo.checking = checkingLight(m, ctx.profile, ctx.leds, !!memo.checking);
    const fit = (m: MatchState) => (memo.fit ??= countConsistent(rulesOf(m), m.game.rows)) as number;
    const st = playStatus(m, ctx.profile, ctx.leds, fit, !!memo.checking, ctx.shieldOpen);
    const alertLed = (ctx.leds.status ?? [])[1];
    // (Red with wrong information in play is the game's own light, not a refusal.)
    if (refusal(alertLed) && !(alertLed === "red" && m.wrongInfo)) st.alert = refusal(alertLed);
    return st;
  },
  unfinished: (state) => !!state && !(state as MatchState).over,
  kept: (st, state) => addMatchNumbers(st, state as MatchState),
  menuKeys: (s) => menuLegends("codebreaker", s),
};
