/**
 * What must always hold of the unit's saved state, and between that state and the LEDs: rows within
 * the preset, scores that follow from the history, and the feedback on every row equal to the
 * reference feedback of the guess the LEDs show against the secret. Each check returns the problems
 * it found, as sentences ([] when all is well).
 */
import type { Profile } from "../../hardware/profile.ts";
import { segmentOffsets } from "../../hardware/profile.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import type { Code, Feedback, MatchState, Row, Rules } from "../../firmware/core/types.ts";
import type { FlipState } from "../../firmware/core/brainflip.ts";
import { FLIP_TARGET, questionLimit } from "../../firmware/core/brainflip.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { COLOUR_NAMES, PEG_COLOURS } from "../../firmware/ui/palette.ts";
import { PHASE_FAILED, PHASE_FEEDBACK, PHASE_GUESS, PHASE_SOLVED } from "../../firmware/core/types.ts";
import { ROLE_BREAKER, ROLE_MAKER, ROLE_NONE } from "../../firmware/core/types.ts";
import { FLIP_PHASE_NAMES, FLIP_PICK } from "../../firmware/core/brainflip.ts";

/** LED colour names of the code symbols (black pegs show violet); a blank is an unlit hole. */
export const SYMBOL_LEDS = PEG_COLOURS.map((c) => COLOUR_NAMES[c]);

/**
 * The feedback of docs/rules.md section 1, written independently of firmware/core/feedback.ts so that a bug
 * there cannot hide itself: mark the exact pegs, then match each other guess peg with the first unused,
 * non-exact secret peg of its colour.
 */
export function referenceFeedback(guess: Code, secret: Code): Feedback {
  const used = secret.map(() => false);
  const matched = guess.map(() => false);
  let exact = 0;
  for (let i = 0; i < secret.length; i++)
    if (guess[i] === secret[i]) {
      exact++;
      used[i] = matched[i] = true;
    }
  let near = 0;
  for (let i = 0; i < guess.length; i++) {
    if (matched[i]) continue;
    const j = secret.findIndex((s, k) => !used[k] && s === guess[i]);
    if (j >= 0) {
      used[j] = true;
      near++;
    }
  }
  return { exact, near };
}

/** Does `code`, as the secret, give every row the feedback recorded for it (by the reference)? */
export function consistentWith(code: Code, rows: Row[]): boolean {
  return rows.every((r) => {
    const f = referenceFeedback(r.guess, code);
    return f.exact === r.feedback.exact && f.near === r.feedback.near;
  });
}

export function rulesOfMatch(m: MatchState): Rules {
  return rulesFor(m.config.preset, m.config.harder);
}

/** Has the current game of a match ended (the secret may then be shown)? */
export function gameEnded(m: MatchState): boolean {
  return m.over || m.wrongInfo !== null || m.game.phase === PHASE_SOLVED || m.game.phase === PHASE_FAILED;
}

/** The unit's role in the current game, or ROLE_NONE in two-player modes (player 1 is the unit). */
export function unitRoleOf(m: MatchState): number {
  if (m.config.mode !== "unit-makes" && m.config.mode !== "unit-breaks") return ROLE_NONE;
  return m.maker === 1 ? ROLE_MAKER : ROLE_BREAKER;
}

function isCode(c: unknown, rules: Rules): c is Code {
  return (
    Array.isArray(c) &&
    c.length === rules.pegs &&
    c.every((s) => Number.isInteger(s) && s >= 0 && s < rules.colours + (rules.blanks ? 1 : 0))
  );
}

/** The invariants of a codebreaker match. */
export function matchProblems(m: MatchState): string[] {
  const out: string[] = [];
  const rules = rulesOfMatch(m);
  const g = m.game;
  if (!Array.isArray(g.rows)) return ["game.rows is not a list"];
  if (g.rows.length > rules.rows) out.push(`${g.rows.length} rows played, the ${rules.preset} preset has ${rules.rows}`);
  g.rows.forEach((row, r) => {
    if (!isCode(row.guess, rules)) out.push(`row ${r + 1}: guess ${JSON.stringify(row.guess)} is not a code of the preset`);
    const fb = row.feedback;
    if (!fb || !(fb.exact >= 0 && fb.near >= 0 && fb.exact + fb.near <= rules.pegs))
      out.push(`row ${r + 1}: feedback ${JSON.stringify(fb)} out of range`);
  });
  if (g.secret !== null && !isCode(g.secret, rules)) out.push(`secret ${JSON.stringify(g.secret)} is not a code of the preset`);
  if (g.phase === PHASE_FEEDBACK && !isCode(g.pending, rules)) out.push(`pending guess ${JSON.stringify(g.pending)} is not a code`);
  if ((g.phase === PHASE_GUESS || g.phase === PHASE_FEEDBACK) && g.rows.length >= rules.rows) out.push(`still playing after the last row`);
  for (let p = 0; p < 2; p++) {
    const sum = m.history.reduce((a, h) => a + h.gained[p], 0);
    if (m.scores[p] !== sum) out.push(`player ${p} has ${m.scores[p]} points but the history gives ${sum}`);
    if (m.scores[p] < 0) out.push(`player ${p} has a negative score`);
  }
  if (m.maker !== 0 && m.maker !== 1) out.push(`maker ${m.maker}`);
  if (!m.over && rules.scoring === "points" && m.history.filter((h) => !h.replayed).length >= m.config.games)
    out.push(`all ${m.config.games} games played but the match is not over`);
  return out;
}

/** The invariants of a Brain Flip game. */
export function flipProblems(f: FlipState): string[] {
  const out: string[] = [];
  const n = f.config.grid;
  if (f.scores.length !== f.config.players) out.push(`${f.scores.length} scores for ${f.config.players} players`);
  f.scores.forEach((s, p) => {
    if (!(Number.isInteger(s) && s >= 0 && s <= FLIP_TARGET)) out.push(`player ${p} has ${s} points (0..${FLIP_TARGET})`);
  });
  const r = f.round;
  if (r.asked > questionLimit(f.config.mode)) out.push(`${r.asked} questions asked, the limit is ${questionLimit(f.config.mode)}`);
  if (!(r.pick === -1 || (r.pick >= 0 && r.pick < n * n))) out.push(`pick ${r.pick} is not a card of the ${n}x${n} grid`);
  if (r.phase !== FLIP_PICK && r.pick < 0) out.push(`round in phase ${FLIP_PHASE_NAMES[r.phase] ?? r.phase} without a pick`);
  if (r.wrongCards.some((c) => !(c >= 0 && c < n * n) || c === r.pick)) out.push(`wrong cards ${JSON.stringify(r.wrongCards)}`);
  if (f.over !== f.scores.some((s) => s >= FLIP_TARGET)) out.push(`over is ${f.over} with scores ${JSON.stringify(f.scores)}`);
  return out;
}

/** Invariants (b) and (c) of the saved state. */
export function stateProblems(s: SavedState | null): string[] {
  if (!s) return [];
  const out: string[] = [];
  if (s.match) out.push(...matchProblems(s.match));
  if (s.flip) out.push(...flipProblems(s.flip));
  return out;
}

/** The code a board row shows (null if a hole is not a code symbol). */
export function codeFromLeds(names: string[], rules: Rules): Code | null {
  const code: Code = [];
  for (const n of names) {
    if (n === "off" && rules.blanks) code.push(rules.colours);
    else {
      const s = SYMBOL_LEDS.indexOf(n);
      if (s < 0 || s >= rules.colours) return null;
      code.push(s);
    }
  }
  return code;
}

/** The feedback a row's key LEDs show in the preset's look, or why they show none. */
export function feedbackFromLeds(names: string[], rules: Rules): Feedback | string {
  const w = names.length;
  if (rules.look === "arms") {
    // Red arm from the left (exact), white arm from the right (near).
    let exact = 0;
    while (exact < w && names[exact] === "red") exact++;
    let near = 0;
    while (near < w - exact && names[w - 1 - near] === "white") near++;
    for (let i = exact; i < w - near; i++) if (names[i] !== "off") return `arms ${names.join(",")}`;
    return { exact, near };
  }
  // Key pegs: all exact (violet) first, then all near (white), then unlit.
  let i = 0;
  while (i < w && names[i] === "violet") i++;
  const exact = i;
  while (i < w && names[i] === "white") i++;
  const near = i - exact;
  for (; i < w; i++) if (names[i] !== "off") return `key pegs ${names.join(",")}`;
  return { exact, near };
}

/**
 * Invariant (a) and the board half of (b), for a frame showing the play screen of `m`: every played
 * row shows its guess and its feedback, the feedback equals the reference feedback of the guess the
 * LEDs show against the secret (unless the row is recorded as wrong information), and no row past the
 * one being entered is lit (so none past the preset's last, and none that was not saved).
 */
export function playLedProblems(p: Profile, frame: string[], m: MatchState): string[] {
  const out: string[] = [];
  const rules = rulesOfMatch(m);
  const seg = segmentOffsets(p);
  const w = p.pegs;
  if (rules.rows > p.rows) return out; // a build that scrolls rows: not the R1
  const wrongRows = m.wrongInfo ? m.wrongInfo.rows : [];
  m.game.rows.forEach((row, r) => {
    const pegs = frame.slice(seg.board.start + r * w, seg.board.start + r * w + rules.pegs);
    // The feedback fills the preset's holes only; key LEDs past them stay dark.
    const keys = frame.slice(seg.keys.start + r * w, seg.keys.start + r * w + rules.pegs);
    const past = frame.slice(seg.keys.start + r * w + rules.pegs, seg.keys.start + (r + 1) * w);
    if (past.some((c) => c !== "off")) out.push(`row ${r + 1}: key LEDs past the preset's ${rules.pegs} holes lit: ${past.join(",")}`);
    const guess = codeFromLeds(pegs, rules);
    if (!guess) {
      out.push(`row ${r + 1} shows ${pegs.join(",")}, not a code`);
      return;
    }
    if (guess.join() !== row.guess.join()) out.push(`row ${r + 1} shows ${guess.join()} but ${row.guess.join()} was played`);
    if (wrongRows.includes(r)) return; // it blinks between the answer given and the true one
    const shown = feedbackFromLeds(keys, rules);
    if (typeof shown === "string") {
      out.push(`row ${r + 1}: ${shown} is no feedback`);
      return;
    }
    if (shown.exact !== row.feedback.exact || shown.near !== row.feedback.near)
      out.push(`row ${r + 1} shows ${shown.exact} exact ${shown.near} near, the state records ${JSON.stringify(row.feedback)}`);
    if (m.game.secret) {
      const truth = referenceFeedback(guess, m.game.secret);
      if (truth.exact !== shown.exact || truth.near !== shown.near)
        out.push(
          `row ${r + 1}: ${guess.join()} against ${m.game.secret.join()} is ${truth.exact}/${truth.near}, the LEDs show ${shown.exact}/${shown.near}`,
        );
    }
  });
  // Past the rows played and the one being entered, nothing: no row the state does not hold, none past the preset's last.
  for (let r = m.game.rows.length + 1; r < p.rows; r++) {
    const lit = frame
      .slice(seg.board.start + r * w, seg.board.start + (r + 1) * w)
      .concat(frame.slice(seg.keys.start + r * w, seg.keys.start + (r + 1) * w));
    if (lit.some((c) => c !== "off"))
      out.push(
        r >= rules.rows
          ? `board row ${r + 1} is lit, past the ${rules.preset} preset's ${rules.rows} rows`
          : `board row ${r + 1} is lit, but the saved state holds ${m.game.rows.length} rows`,
      );
  }
  return out;
}

/**
 * Invariant (d): what went wrong inside the firmware since console line `fromLine`: uncaught errors,
 * exceptions the firmware's scheduler caught and logged ("brainboard: job N failed: ..."), restarts on
 * an error flag, and resets (the watchdog). [] when all is well.
 */
export function firmwareFailures(
  board: { errors: string[]; consoleLog: string[]; resets: { at: number; reason: string }[] },
  fromLine = 0,
  fromReset = 0,
): string[] {
  const out = board.errors.map((e) => `uncaught: ${e}`);
  for (const line of board.consoleLog.slice(fromLine))
    if (/^brainboard: (job \d+ failed|.*: restarting)/.test(line)) out.push(`console: ${line}`);
  for (const r of board.resets.slice(fromReset)) out.push(`reset at t=${r.at.toFixed(0)}: ${r.reason}`);
  return out;
}
