import { conflictingRowsNow } from "./conflict";
import { feedback } from "./feedback";
import { PRESET_IDS, rulesFor } from "./presets";
import { Code, Feedback, GameRecord, GameState, MatchConfig, MatchState, Result, Row, Rules } from "./types";
import { PHASE_FAILED, PHASE_FEEDBACK, PHASE_GUESS, PHASE_SECRET, PHASE_SOLVED, REFUSED_FEEDBACK_RANGE, REFUSED_PHASE } from "./types";
import { ROLE_BREAKER, ROLE_MAKER, ROLE_NONE } from "./types";
import { checkGuess, checkSecret, whole } from "./validate";

const MODES = ["referee", "manual", "unit-makes", "unit-breaks"];

/** Why `config` cannot start a match (a message for the player), or null when it can. */
export function checkConfig(config: MatchConfig): string | null {
  if (PRESET_IDS.indexOf(config.preset) < 0) return "unknown preset " + config.preset;
  if (MODES.indexOf(config.mode) < 0) return "unknown mode " + config.mode;
  if (rulesFor(config.preset, false).scoring === "points") {
    // Even, so that both players make codes equally often (RULES.md 1).
    if (!(config.games >= 2)) return "a match needs at least 2 games";
    if (config.games % 2 !== 0) return "games must be even";
  }
  return null;
}

function freshGame(): GameState {
  return { secret: null, rows: [], pending: null, phase: PHASE_SECRET };
}

/**
 * A new match, first game waiting for the secret. Trusts `config` (see checkConfig). In unit modes
 * player 1 is the unit, so the first codemaker is player 1 in "unit-makes" and player 0 otherwise.
 */
export function newMatch(config: MatchConfig): MatchState {
  return {
    config: { preset: config.preset, harder: config.harder, mode: config.mode, games: config.games },
    scores: [0, 0],
    maker: config.mode === "unit-makes" ? 1 : 0,
    game: freshGame(),
    history: [],
    wrongInfo: null,
    over: false,
    winner: -1,
  };
}

/** The rules the match is played under. */
export function rulesOf(m: MatchState): Rules {
  return rulesFor(m.config.preset, m.config.harder);
}

/** The codebreaker of the current game (0 or 1). */
export function breaker(m: MatchState): number {
  return 1 - m.maker;
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

/** A shallow copy: reducers then replace the parts they change, never writing into `m`. */
function copyMatch(m: MatchState): MatchState {
  return Object.assign({}, m);
}

function accept(state: MatchState): Result<MatchState> {
  return { ok: true, state: state };
}

function refuse(reason: number, positions: number[]): Result<MatchState> {
  return { ok: false, refusal: { refused: reason, positions: positions } };
}

/** Has the current game ended (solved, failed, or ended by wrong information)? The one definition: the ui's play mode asks it too. */
export function gameEnded(m: MatchState): boolean {
  return m.wrongInfo !== null || m.game.phase === PHASE_SOLVED || m.game.phase === PHASE_FAILED;
}

/** Records a finished game, adds its points or holes, and decides whether the match is over. */
function recordGame(m: MatchState, game: GameState, record: GameRecord): MatchState {
  const rules = rulesOf(m);
  const next = copyMatch(m);
  next.game = game;
  next.scores = [m.scores[0] + record.gained[0], m.scores[1] + record.gained[1]];
  next.history = m.history.slice();
  next.history.push(record);
  if (rules.scoring === "race") {
    // First to the target wins; the score keeps the real sum even past it.
    for (let p = 0; p < 2; p++) {
      if (next.scores[p] >= rules.raceTarget) {
        next.over = true;
        next.winner = p;
      }
    }
  } else if (gamesPlayed(next) >= m.config.games) {
    next.over = true;
    next.winner = next.scores[0] > next.scores[1] ? 0 : next.scores[1] > next.scores[0] ? 1 : -1;
  }
  return next;
}

/** The state after a row with standing feedback was added: the game goes on, is solved, or failed. */
function afterRow(m: MatchState, rows: Row[]): MatchState {
  const rules = rulesOf(m);
  const solved = rows[rows.length - 1].feedback.exact === rules.pegs;
  const game: GameState = {
    secret: m.game.secret,
    rows: rows,
    pending: null,
    phase: solved ? PHASE_SOLVED : rows.length >= rules.rows ? PHASE_FAILED : PHASE_GUESS,
  };
  if (game.phase === PHASE_GUESS) {
    const next = copyMatch(m);
    next.game = game;
    return next;
  }
  const gained: [number, number] = [0, 0];
  if (rules.scoring === "points") gained[m.maker] = solved ? rows.length : rules.unsolvedPoints;
  else if (solved) gained[breaker(m)] = rules.raceAdvance[rows.length - 1];
  return recordGame(m, game, { maker: m.maker, rowsPlayed: rows.length, solved: solved, replayed: false, gained: gained });
}

/**
 * The codemaker gave wrong information (RULES.md 1 and 2): the game ends (PHASE_FAILED with
 * `wrongInfo` set), is recorded as replayed, and the codebreaker gets the bonus.
 */
function wrongInformation(m: MatchState, rows: Row[], wrongRows: number[], correct: Feedback | null): MatchState {
  const rules = rulesOf(m);
  const gained: [number, number] = [0, 0];
  gained[breaker(m)] = rules.wrongInfoBonus;
  const game: GameState = { secret: m.game.secret, rows: rows, pending: null, phase: PHASE_FAILED };
  const next = recordGame(m, game, { maker: m.maker, rowsPlayed: rows.length, solved: false, replayed: true, gained: gained });
  next.wrongInfo = { rows: wrongRows, correct: correct };
  return next;
}

/** The codemaker sets the secret (PHASE_SECRET only); an invalid secret is refused with its holes. */
export function setSecret(m: MatchState, code: Code): Result<MatchState> {
  if (m.over || m.game.phase !== PHASE_SECRET) return refuse(REFUSED_PHASE, []);
  const invalid = checkSecret(rulesOf(m), code);
  if (invalid !== null) return refuse(invalid.reason, invalid.positions);
  const next = copyMatch(m);
  next.game = { secret: code.slice(), rows: [], pending: null, phase: PHASE_GUESS };
  return accept(next);
}

/** Unit breaks: the player keeps the secret in their head (it stays null) and the unit starts guessing. */
export function keepSecretInHead(m: MatchState): Result<MatchState> {
  if (m.over || m.game.phase !== PHASE_SECRET || unitRole(m) !== ROLE_BREAKER) return refuse(REFUSED_PHASE, []);
  const next = copyMatch(m);
  next.game = { secret: null, rows: [], pending: null, phase: PHASE_GUESS };
  return accept(next);
}

/**
 * The codebreaker plays a guess (PHASE_GUESS). An invalid guess is refused with its holes and
 * costs no row. When the unit gives feedback (referee mode, or the unit is the codemaker) the row
 * is added at once; otherwise the guess waits in `pending` for the codemaker's answer.
 */
export function submitGuess(m: MatchState, code: Code): Result<MatchState> {
  if (m.over || m.game.phase !== PHASE_GUESS) return refuse(REFUSED_PHASE, []);
  const invalid = checkGuess(rulesOf(m), code);
  if (invalid !== null) return refuse(invalid.reason, invalid.positions);
  const guess = code.slice();
  const secret = m.game.secret;
  if ((m.config.mode === "referee" || unitRole(m) === ROLE_MAKER) && secret !== null) {
    const rows = m.game.rows.slice();
    rows.push({ guess: guess, feedback: feedback(guess, secret) });
    return accept(afterRow(m, rows));
  }
  const next = copyMatch(m);
  next.game = { secret: secret, rows: m.game.rows, pending: guess, phase: PHASE_FEEDBACK };
  return accept(next);
}

function isCount(n: number): boolean {
  return typeof n === "number" && Math.floor(n) === n && n >= 0;
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
  if (m.over || m.game.phase !== PHASE_FEEDBACK || pending === null) return refuse(REFUSED_PHASE, []);
  const rules = rulesOf(m);
  const exact = fb.exact;
  const near = fb.near;
  if (!isCount(exact) || !isCount(near) || exact + near > rules.pegs || (exact === rules.pegs - 1 && near === 1)) {
    return refuse(REFUSED_FEEDBACK_RANGE, []);
  }
  const rows = m.game.rows.slice();
  rows.push({ guess: pending, feedback: { exact: exact, near: near } });
  const secret = m.game.secret;
  if (secret !== null) {
    const truth = feedback(pending, secret);
    if (truth.exact !== exact || truth.near !== near) return accept(wrongInformation(m, rows, [rows.length - 1], truth));
  } else {
    if (!conflicts) conflicts = conflictingRowsNow(rules, rows);
    if (conflicts.length > 0) return accept(wrongInformation(m, rows, conflicts, null));
  }
  return accept(afterRow(m, rows));
}

/**
 * Starts the next game once the current one has ended and the match is not over. After wrong
 * information the same codemaker makes a code again (the replay); otherwise the roles switch.
 */
export function nextGame(m: MatchState): Result<MatchState> {
  if (m.over || !gameEnded(m)) return refuse(REFUSED_PHASE, []);
  const next = copyMatch(m);
  if (m.wrongInfo === null) next.maker = 1 - m.maker;
  next.wrongInfo = null;
  next.game = freshGame();
  return accept(next);
}

/** Is c a code of `pegs` symbols in 0..colours (the blank)? */
function codeShape(c: unknown, rules: Rules): boolean {
  if (!Array.isArray(c) || c.length !== rules.pegs) return false;
  for (let i = 0; i < c.length; i++) if (!whole(c[i], 0, rules.colours)) return false;
  return true;
}

/**
 * Checks that data read back from Storage is a match this firmware can play on: the checksum
 * guards against torn or corrupt writes, this against a state no reducer could have produced.
 * Returns what is wrong, or null.
 */
export function checkMatchState(data: unknown): string | null {
  const m = data as MatchState;
  if (!m || typeof m !== "object" || !m.config || !m.game) return "not a match";
  const bad = checkConfig(m.config);
  if (bad) return bad;
  const rules = rulesFor(m.config.preset, !!m.config.harder);
  const g = m.game;
  if (!Array.isArray(m.scores) || m.scores.length !== 2 || !whole(m.scores[0], 0, 999) || !whole(m.scores[1], 0, 999)) return "bad scores";
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
  if (sum[0] !== m.scores[0] || sum[1] !== m.scores[1]) return "scores do not follow from the history";
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
  if (m.wrongInfo !== null && (typeof m.wrongInfo !== "object" || !Array.isArray(m.wrongInfo.rows))) return "bad wrong information";
  return null;
}
