import { conflictingRowsNow } from "./conflict";
import { feedback } from "./feedback";
import { PRESET_IDS, rulesFor } from "./presets";
import { Code, Feedback, GamePhase, GameRecord, MatchConfig, MatchMode, MatchState, Result, Row, Rules } from "./types";
import { PHASE_FAILED, PHASE_FEEDBACK, PHASE_GUESS, PHASE_SECRET, PHASE_SOLVED, REFUSED_FEEDBACK_RANGE, REFUSED_PHASE } from "./types";
import { ROLE_BREAKER, ROLE_MAKER, ROLE_NONE } from "./types";
import { accept, checkCode, copy, refuse, whole, wholes } from "./validate";

/** The match modes, in the menu's order (ui/menu.ts MODE_MENU is this list). */
export const MODES: MatchMode[] = ["referee", "manual", "unit-makes", "unit-breaks"];

/** Why `config` cannot start a match (a message for the player), or null when it can. */
export function checkConfig(config: MatchConfig): string | null {
  if (PRESET_IDS.indexOf(config.preset) < 0) return "unknown preset " + config.preset;
  if (MODES.indexOf(config.mode) < 0) return "unknown mode " + config.mode;
  if (config.preset !== "race") {
    // Scored in points (race, the one scored in holes, has no number of games): an even number,
    // so that both players make codes equally often (docs/rules.md 1).
    if (!(config.games >= 2)) return "a match needs at least 2 games";
    if (config.games % 2 !== 0) return "games must be even";
  }
  return null;
}

/** A copy of `m` whose current game is the one given: reducers never write into `m`. */
function withGame(m: MatchState, secret: Code | null, rows: Row[], pending: Code | null, phase: GamePhase): MatchState {
  const next = copy(m);
  next.game = { secret: secret, rows: rows, pending: pending, phase: phase };
  return next;
}

/**
 * A new match, first game waiting for the secret. Trusts `config` (see checkConfig). In unit modes
 * player 1 is the unit, so the first codemaker is player 1 in "unit-makes" and player 0 otherwise.
 */
export function newMatch(config: MatchConfig): MatchState {
  return {
    config: copy(config),
    scores: [0, 0],
    maker: config.mode === "unit-makes" ? 1 : 0,
    game: { secret: null, rows: [], pending: null, phase: PHASE_SECRET },
    history: [],
    wrongInfo: null,
    over: false,
    winner: -1,
  };
}

/** The rules the match is played under. */
export function rulesOf(m: MatchState): Rules {
  // Asked on every key and frame; a match's states share one config object (they are copied shallowly), so the
  // last config's rules are kept.
  const c = m.config;
  if (c !== lastConfig) {
    lastRules = rulesFor(c.preset, c.harder);
    lastConfig = c;
  }
  return lastRules;
}
let lastConfig: MatchConfig | null = null;
let lastRules: Rules;

/** The codebreaker of the current game (0 or 1). */
export function breaker(m: MatchState): number {
  return 1 - m.maker;
}

/**
 * Does the match hold a secret the codebreaker must not read (the console lock)? In a two-player game
 * (refereed or manual) while it is set and not yet revealed.
 */
export function matchHoldsSecret(m: MatchState): boolean {
  if (m.over || m.wrongInfo || (m.config.mode !== "referee" && m.config.mode !== "manual")) return false;
  const g = m.game;
  return g.secret !== null && (g.phase === PHASE_GUESS || g.phase === PHASE_FEEDBACK);
}

/** The unit's role in the current game (it is player 1): ROLE_MAKER, ROLE_BREAKER, or ROLE_NONE in two-player modes. */
export function unitRole(m: MatchState): number {
  if (m.config.mode !== "unit-makes" && m.config.mode !== "unit-breaks") return ROLE_NONE;
  return m.maker === 1 ? ROLE_MAKER : ROLE_BREAKER;
}

/** Games that count towards the agreed number: those not replayed after wrong information. */
export function gamesPlayed(m: MatchState): number {
  let played = 0;
  for (let i = 0; i < m.history.length; i++) if (!m.history[i].replayed) played++;
  return played;
}

/** Has the current game ended (solved, failed, or ended by wrong information)? The one definition: the ui's play mode asks it too. */
export function gameEnded(m: MatchState): boolean {
  return m.wrongInfo !== null || m.game.phase >= PHASE_SOLVED; // (solved and failed, the last phases)
}

/** Records the finished game of `next` (a copy, see withGame), adds its points or holes, and decides whether the match is over. */
function recordGame(next: MatchState, solved: boolean, replayed: boolean, gained: [number, number]): MatchState {
  const rules = rulesOf(next);
  next.scores = [next.scores[0] + gained[0], next.scores[1] + gained[1]];
  const record: GameRecord = { maker: next.maker, rowsPlayed: next.game.rows.length, solved: solved, replayed: replayed, gained: gained };
  next.history = next.history.concat([record]);
  if (rules.scoring === "race") {
    // First to the target wins; the score keeps the real sum even past it.
    for (let p = 0; p < 2; p++) {
      if (next.scores[p] >= rules.raceTarget) {
        next.over = true;
        next.winner = p;
      }
    }
  } else if (gamesPlayed(next) >= next.config.games) {
    next.over = true;
    next.winner = next.scores[0] > next.scores[1] ? 0 : next.scores[1] > next.scores[0] ? 1 : -1;
  }
  return next;
}

/** The state after a row with standing feedback was added: the game goes on, is solved, or failed. */
function afterRow(m: MatchState, rows: Row[]): MatchState {
  const rules = rulesOf(m);
  const solved = rows[rows.length - 1].feedback.exact === rules.pegs;
  const phase = solved ? PHASE_SOLVED : rows.length >= rules.rows ? PHASE_FAILED : PHASE_GUESS;
  const next = withGame(m, m.game.secret, rows, null, phase);
  if (phase === PHASE_GUESS) return next;
  const gained: [number, number] = [0, 0];
  if (rules.scoring === "points") gained[m.maker] = solved ? rows.length : rules.unsolvedPoints;
  else if (solved) gained[breaker(m)] = rules.raceAdvance[rows.length - 1];
  return recordGame(next, solved, false, gained);
}

/**
 * The codemaker gave wrong information (docs/rules.md 1 and 2): the game ends (PHASE_FAILED with
 * `wrongInfo` set), is recorded as replayed, and the codebreaker gets the bonus.
 */
function wrongInformation(m: MatchState, rows: Row[], wrongRows: number[], correct: Feedback | null): MatchState {
  const rules = rulesOf(m);
  const gained: [number, number] = [0, 0];
  gained[breaker(m)] = rules.wrongInfoBonus;
  const next = recordGame(withGame(m, m.game.secret, rows, null, PHASE_FAILED), false, true, gained);
  next.wrongInfo = { rows: wrongRows, correct: correct };
  return next;
}

/** The refusal of `code` played in `phase` as the secret (forSecret) or a guess, or null. */
function refusedCode(m: MatchState, phase: number, code: Code, forSecret: boolean): Result<MatchState> | null {
  if (m.over || m.game.phase !== phase) return refuse(REFUSED_PHASE);
  const invalid = checkCode(rulesOf(m), code, forSecret);
  return invalid && refuse(invalid.reason, invalid.positions);
}

/** The codemaker sets the secret (PHASE_SECRET only); an invalid secret is refused with its holes. */
export function setSecret(m: MatchState, code: Code): Result<MatchState> {
  const refusal = refusedCode(m, PHASE_SECRET, code, true);
  if (refusal) return refusal;
  return accept(withGame(m, code.slice(), [], null, PHASE_GUESS));
}

/** Unit breaks: the player keeps the secret in their head (it stays null) and the unit starts guessing. */
export function keepSecretInHead(m: MatchState): Result<MatchState> {
  if (m.over || m.game.phase !== PHASE_SECRET || unitRole(m) !== ROLE_BREAKER) return refuse(REFUSED_PHASE);
  return accept(withGame(m, null, [], null, PHASE_GUESS));
}

/**
 * The codebreaker plays a guess (PHASE_GUESS). An invalid guess is refused with its holes and
 * costs no row. When the unit gives feedback (referee mode, or the unit is the codemaker) the row
 * is added at once; otherwise the guess waits in `pending` for the codemaker's answer.
 */
export function submitGuess(m: MatchState, code: Code): Result<MatchState> {
  const refusal = refusedCode(m, PHASE_GUESS, code, false);
  if (refusal) return refusal;
  const guess = code.slice();
  const secret = m.game.secret;
  return accept(
    (m.config.mode === "referee" || unitRole(m) === ROLE_MAKER) && secret !== null
      ? afterRow(m, m.game.rows.concat([{ guess: guess, feedback: feedback(guess, secret) }]))
      : withGame(m, secret, m.game.rows, guess, PHASE_FEEDBACK),
  );
}

/**
 * The codemaker's feedback for the pending guess (PHASE_FEEDBACK). Counts that no code can give
 * are refused (REFUSED_FEEDBACK_RANGE). A wrong answer against a known secret, or feedback that leaves no
 * valid secret consistent with the rows (secret kept in the head), is wrong information: the row is
 * added as given, the game ends (PHASE_FAILED with `wrongInfo` set, which names the rows at fault),
 * the codebreaker gets the bonus and nextGame replays it. With the secret in the head, `conflicts`
 * is the conflict search's answer for the rows with this one (createConflictSearch, which the unit
 * runs in slices beforehand); without it the search runs here, at once.
 */
export function answer(m: MatchState, fb: Feedback, conflicts?: number[]): Result<MatchState> {
  const pending = m.game.pending;
  if (m.over || m.game.phase !== PHASE_FEEDBACK || pending === null) return refuse(REFUSED_PHASE);
  const rules = rulesOf(m);
  const exact = fb.exact;
  const near = fb.near;
  const pegs = rules.pegs;
  // At most the holes that exact leaves are near.
  if (!whole(exact, 0, pegs) || !whole(near, 0, pegs - exact) || (exact === pegs - 1 && near === 1)) return refuse(REFUSED_FEEDBACK_RANGE);
  const rows = m.game.rows.concat([{ guess: pending, feedback: { exact: exact, near: near } }]);
  const secret = m.game.secret;
  // The rows at fault: this one if it differs from the truth of a known secret, else those that contradict each other.
  const truth = secret === null ? null : feedback(pending, secret);
  let wrongRows = conflicts;
  if (truth) wrongRows = truth.exact !== exact || truth.near !== near ? [rows.length - 1] : [];
  else if (!wrongRows) wrongRows = conflictingRowsNow(rules, rows);
  return accept(wrongRows.length > 0 ? wrongInformation(m, rows, wrongRows, truth) : afterRow(m, rows));
}

/**
 * Starts the next game once the current one has ended and the match is not over. After wrong
 * information the same codemaker makes a code again (the replay); otherwise the roles switch.
 */
export function nextGame(m: MatchState): Result<MatchState> {
  if (m.over || !gameEnded(m)) return refuse(REFUSED_PHASE);
  const next = withGame(m, null, [], null, PHASE_SECRET);
  if (m.wrongInfo === null) next.maker = 1 - m.maker;
  next.wrongInfo = null;
  return accept(next);
}

/** Is c a code of `pegs` symbols in 0..colours (the blank)? */
function codeShape(c: unknown, rules: Rules): boolean {
  return wholes(c, rules.pegs, 0, rules.colours);
}

/**
 * Checks that data read back from Storage is a match this firmware can play on: the checksum
 * guards against torn or corrupt writes, this against a state no reducer could have produced.
 * Returns what is wrong, or null.
 */
export function checkMatchState(data: unknown): string | null {
  const m = data as MatchState;
  // (Anything but an object, a number or a string say, has no config either.)
  if (!m || !m.config || !m.game) return "not a match";
  const bad = checkConfig(m.config);
  if (bad) return bad;
  const rules = rulesFor(m.config.preset, !!m.config.harder);
  const g = m.game;
  if (!wholes(m.scores, 2, 0, 999)) return "bad scores";
  if (!whole(m.maker, 0, 1) || !Array.isArray(m.history)) return "bad players";
  // The scores must be what the history of games adds up to.
  const sum = [0, 0];
  for (let i = 0; i < m.history.length; i++) {
    const h = m.history[i];
    if (!h || !Array.isArray(h.gained) || !whole(h.gained[0], 0, 99) || !whole(h.gained[1], 0, 99) || !whole(h.maker, 0, 1))
      return "bad history";
    sum[0] += h.gained[0];
    sum[1] += h.gained[1];
  }
  if (sum[0] !== m.scores[0] || sum[1] !== m.scores[1]) return "scores differ from history";
  if (!whole(g.phase, PHASE_SECRET, PHASE_FAILED)) return "bad phase";
  if (!Array.isArray(g.rows) || g.rows.length > rules.rows) return "bad rows";
  for (let i = 0; i < g.rows.length; i++) {
    const r = g.rows[i];
    if (
      !r ||
      !codeShape(r.guess, rules) ||
      !r.feedback ||
      !whole(r.feedback.exact, 0, rules.pegs) ||
      !whole(r.feedback.near, 0, rules.pegs)
    )
      return "bad row " + (i + 1);
  }
  if (g.secret !== null && !codeShape(g.secret, rules)) return "bad secret";
  if (g.phase !== PHASE_SECRET && g.secret === null && unitRole(m) !== ROLE_BREAKER) return "missing secret";
  if (g.pending !== null && !codeShape(g.pending, rules)) return "bad pending guess";
  if ((g.phase === PHASE_FEEDBACK) !== (g.pending !== null)) return "bad pending guess";
  if (m.wrongInfo !== null && !(m.wrongInfo && Array.isArray(m.wrongInfo.rows))) return "bad wrong information";
  return null;
}
