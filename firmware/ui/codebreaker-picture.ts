/**
 * The codebreaker screen's picture (ui/codebreaker.ts): the rows played, the scores, the secret when
 * shown, the row or secret being keyed, the pad, the thinking light, the hint and whose move it is,
 * drawn from what the screen holds (PlayView). It keeps what stays put between frames.
 */
import { PHASE_FAILED, PHASE_FEEDBACK, PHASE_SECRET, PHASE_SOLVED, ROLE_MAKER, ROLE_NONE } from "../core/types";
import type { Code, Feedback, MatchState, Rules } from "../core/types";
import { rulesOf, unitRole } from "../core/match";
import type { SolverState } from "../core/solver";
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_HINT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "./layout";
import type { Layout } from "./layout";
import { BLINK_ON, BLINK_PERIOD, Clock, codeColours, drawCode, drawFeedback } from "./frame";
import { BLUE, CYAN, GREEN, HOLE, OFF, ORANGE, PEG_COLOURS, PINK, RED, VIOLET, WHITE } from "./palette";
import { FLASH_ENTRY, FLASH_FEEDBACK, FLASH_SECRET } from "./screen";
import type { Host } from "./host";
import type { PlayMode } from "./play-mode";
import { CHECKING, GAME_ENDED, KEY_FEEDBACK, KEY_GUESS, KEY_SECRET, MATCH_OVER, UNIT_THINKING } from "./play-mode";

/** Player colours on the track and status LEDs: player 0 red, player 1 (the unit, in unit modes) blue. */
export const PLAYER_COLOURS = [RED, BLUE];
const TRACK_HALF = 15;
/** Builds without a track show the hint's count on the pad's rows 4 and 5 (free while a guess is keyed). */
const PAD_HINT_BAR = 18;
const PAD_HINT_LEN = 12;
/**
 * The thinking light's step. Work that ends within the first step (a move from the table, a small
 * candidate list) shows none; the frame is drawn again only when the light moves, not after every slice.
 */
export const CHASE_MS = 150;

/** What the picture reads of the screen. */
export interface PlayView {
  readonly app: Host;
  readonly match: MatchState | null;
  /** The row (or secret) being keyed, and its cursor. */
  readonly entry: Code;
  readonly cursor: number;
  /** Holes filled so far in the entry. */
  readonly placed: number[];
  /** Feedback being keyed in by the codemaker. */
  readonly fb: Feedback;
  /** Background work in hand, since when, and its solver (the hint's count). */
  readonly busy?: boolean;
  readonly busySince: number;
  readonly solver: SolverState | null;
  /** The solver was started on new rows and has not yet stepped: its example and count are of the old rows. */
  readonly fresh?: boolean;
  /** The hint shows until then. */
  readonly hintUntil: number;
  /** The answer being checked, if any (the mode follows it and the match). */
  readonly checking?: unknown;
  mode(): PlayMode;
}

export class CodebreakerPicture {
  /**
   * What stays put between commits, drawn once (the interpreter runs source text: a frame drawn from
   * scratch costs a few ms there, ~0.3 s on a Pico): the rows played so far, the scores, the status LEDs and
   * the pad's keys for the mode, copied natively into every frame. The rows are valid while the last row drawn
   * is still the game's row (rows only grow within a game) and the shift, rules and scores are the same.
   */
  private readonly base: Uint8Array;
  /**
   * The frame's plan, worked out again only when the match state or the answer's check changes (what the mode
   * follows): where the code being keyed shows (the board's row or the secret's holes; -1: nowhere), the pad's first slot key while a code is keyed on the grid (-1: none), whether the hint may
   * show, whether the secret's holes are lit under the shield, and whether anything else is drawn over the base
   * (drawMore). A key's frame then copies the base and draws the code being keyed.
   */
  private entryAt = -1;
  private slotAt = -1;
  private hintable = false;
  private covered = false;
  private more = false;
  /** Two players, no peg keyed yet: status LED 2 blinks blue (close the shield). */
  private shieldHint = false;
  private planOf?: MatchState;
  private planChecking?: unknown;
  private mode: PlayMode = KEY_GUESS;
  private rules?: Rules;
  /** The symbols' colours under the rules (frame.ts codeColours). */
  private colours?: Uint8Array;
  private row = 0;
  private shift = 0;
  private baseRows = 0;
  /** The match state the base was last brought up to date for. */
  private baseOf?: MatchState;
  private baseLast: unknown;
  private baseShift?: number;
  private baseRules?: Rules;
  private baseScores?: number;
  private baseSecret?: Code | null;
  /** What the pad's keys in the base show (drawPad's kind; 0: nothing yet), and under which rules. */
  private padKind = 0;
  private padRules?: Rules;

  constructor(L: Layout) {
    this.base = new Uint8Array(L.ledCount);
  }

  draw(v: PlayView, frame: Uint8Array, clock: Clock, flashOff: boolean): void {
    const m = v.match as MatchState;
    if (m !== this.planOf || v.checking !== this.planChecking) this.plan(v, m);
    // (clock.blink(BLINK_PERIOD, BLINK_ON), inline: a call less in every frame.)
    const now = clock.now;
    const t = (now - clock.epoch) % BLINK_PERIOD;
    const cursorOn = t < BLINK_ON;
    const toggle = now - t + (cursorOn ? BLINK_ON : BLINK_PERIOD);
    if (clock.next < 0 || toggle < clock.next) clock.next = toggle;
    frame.set(this.base);
    v.app.secretCovered = this.covered;
    // The row (or secret) being keyed: its pegs, the cursor's hole and slot key blinking, the holes at fault of a
    // refusal dark.
    const at = this.entryAt;
    if (at >= 0) {
      // (drawCode, inline: the symbols' colours are the plan's.)
      const colours = this.colours as Uint8Array;
      let i = at;
      // eslint-disable-next-line @typescript-eslint/ban-ts-comment
      // @ts-ignore (for-of over an array: see drawCode)
      for (const s of v.entry) frame[i++] = colours[s + 1];
      if (!cursorOn) frame[at + v.cursor] = OFF;
      if (flashOff && v.app.flashTarget === (this.mode === KEY_GUESS ? FLASH_ENTRY : FLASH_SECRET)) this.flashEntry(v, frame, at);
    }
    if (!cursorOn && this.slotAt >= 0) frame[this.slotAt + v.cursor] = OFF;
    if (this.hintable && now < v.hintUntil) this.drawHint(v, frame, v.app.layout, clock);
    if (this.more) this.drawMore(v, frame, clock, flashOff, cursorOn);
  }

  /** The plan for the match state (see entryAt), and the base brought up to date for it. */
  private plan(v: PlayView, m: MatchState): void {
    const L = v.app.layout;
    const mode = v.mode();
    const rules = rulesOf(m);
    const current = m.game.rows.length;
    const ended = mode === GAME_ENDED || mode === MATCH_OVER;
    // A board with fewer rows than the preset shows the latest rows (the row being played at the top).
    const shift = Math.max(0, Math.min(current, rules.rows - 1) + 1 - L.rows);
    const row = current - shift;
    // The secret: revealed at the end; under the shield it shows to the (human) codemaker only, and is keyed there.
    // Shown as it is, it is part of the base (it changes only when a game begins or ends).
    const secretStart = L.seg.secret;
    const role = unitRole(m);
    const shielded = secretStart >= 0 && L.secretShielded && role !== ROLE_MAKER;
    const secretShown = secretStart >= 0 && (ended || (shielded && mode !== KEY_SECRET));
    this.planOf = m;
    this.planChecking = v.checking;
    this.mode = mode;
    this.rules = rules;
    this.colours = codeColours(rules);
    this.row = row;
    this.shift = shift;
    this.covered = shielded && !ended;
    this.hintable = mode === KEY_GUESS && current < rules.rows;
    this.entryAt = this.hintable ? L.seg.board + row * L.pegs : shielded && mode === KEY_SECRET ? secretStart : -1;
    // (A code keyed on the grid: a guess, or a secret on a build without a codemaker pad.)
    const keyed = mode === KEY_GUESS || (mode === KEY_SECRET && !L.maker);
    this.slotAt = keyed && L.seg.pad >= 0 ? L.seg.pad + G_SLOT : -1;
    this.shieldHint = shielded && !current && mode === KEY_GUESS && role === ROLE_NONE && L.segLen.status > 1;
    this.more = this.shieldHint || !!m.wrongInfo || !keyed;
    this.drawBase(m, L, rules, shift, secretShown ? m.game.secret : null);
    this.drawPad(m, L, rules, mode, keyed);
  }

  /** What most frames do not draw (see `more`): wrong information, an answer keyed or checked, a game's end, the thinking light, the shield's reminder. */
  private drawMore(v: PlayView, frame: Uint8Array, clock: Clock, flashOff: boolean, cursorOn: boolean): void {
    const m = v.match as MatchState;
    const L = v.app.layout;
    const mode = this.mode;
    const rules = this.rules as Rules;
    if (m.wrongInfo && !cursorOn) this.drawWrong(m, frame, L, rules, this.shift);
    if ((mode === KEY_FEEDBACK || mode === CHECKING) && m.game.pending) this.drawPending(v, frame, L, rules, this.row, cursorOn, flashOff);
    // At a game's end, OK (for the next) blinks.
    if ((mode === GAME_ENDED || mode === MATCH_OVER) && L.seg.pad >= 0) frame[L.seg.pad + G_OK] = cursorOn ? GREEN : OFF;
    // Background work: a light runs along the unit's row while it chooses its guess, or along the row's
    // key pegs while an answer is checked, one step every CHASE_MS once the work outlasts the first.
    if (v.busy && (mode === UNIT_THINKING || mode === CHECKING))
      this.chase(v, frame, (mode === CHECKING ? L.seg.keys : L.seg.board) + this.row * L.pegs, rules.pegs, clock);
    // Two players: the secret lies lit under the shield; until the codebreaker keys a first peg, status LED 2
    // blinks blue: close the shield (the unit cannot see it).
    if (this.shieldHint && !v.placed.length) frame[L.seg.status + 1] = cursorOn ? BLUE : OFF;
  }

  /** A refused entry's holes at fault, dark in the flash's off half. */
  private flashEntry(v: PlayView, frame: Uint8Array, at: number): void {
    const positions = v.app.flashPositions;
    for (let i = 0; i < positions.length; i++) frame[at + positions[i]] = OFF;
  }

  /** Wrong information, in the blink's off half: the rows at fault show the true answer (when known), status LED 2 dark. */
  private drawWrong(m: MatchState, frame: Uint8Array, L: Layout, rules: Rules, shift: number): void {
    const wi = m.wrongInfo!;
    for (let i = 0; i < wi.rows.length; i++) {
      const at = L.seg.keys + (wi.rows[i] - shift) * L.pegs;
      if (wi.rows[i] < shift) continue;
      frame.fill(OFF, at, at + L.pegs);
      if (wi.correct) drawFeedback(frame, at, rules, wi.correct);
    }
    if (L.seg.status >= 0 && L.segLen.status > 1) frame[L.seg.status + 1] = OFF;
  }

  /** The row awaiting the codemaker's answer: its guess, and the feedback keyed so far (unless flashing off). */
  private drawPending(v: PlayView, frame: Uint8Array, L: Layout, rules: Rules, row: number, cursorOn: boolean, flashOff: boolean): void {
    drawCode(frame, L.seg.board + row * L.pegs, rules, (v.match as MatchState).game.pending as Code);
    const keysStart = L.seg.keys + row * L.pegs;
    if (flashOff && v.app.flashTarget === FLASH_FEEDBACK) return;
    drawFeedback(frame, keysStart, rules, v.fb);
    // Unfilled key holes of the row awaiting feedback blink (the preset's holes only), so the codemaker sees it is their turn.
    if (cursorOn) for (let i = 0; i < rules.pegs; i++) if (frame[keysStart + i] === OFF) frame[keysStart + i] = HOLE;
  }

  /** The rows played, the scores and the secret shown (or null), brought up to date (usually: nothing, or the one new row). */
  private drawBase(m: MatchState, L: Layout, rules: Rules, shift: number, secret: Code | null): Uint8Array {
    const base = this.base;
    // A match's state is never changed in place (a move makes a new one): the same state and secret, the same base.
    if (m === this.baseOf && secret === this.baseSecret) return base;
    this.baseOf = m;
    const rows = m.game.rows;
    let n = this.baseRows;
    if (shift !== this.baseShift || rules !== this.baseRules || n > rows.length || (n > 0 && rows[n - 1] !== this.baseLast)) {
      // (All but the pad's keys, which drawPad keeps.)
      const p = L.seg.pad;
      base.fill(OFF, 0, p < 0 ? base.length : p);
      if (p >= 0) base.fill(OFF, p + 36);
      n = 0;
      this.baseScores = -1;
      this.baseSecret = null;
    }
    // (Only its own holes: a reveal at a game's end comes in a task that is long already.)
    if (secret !== this.baseSecret) {
      this.baseSecret = secret;
      if (secret) drawCode(base, L.seg.secret, rules, secret);
      else if (L.seg.secret >= 0) base.fill(OFF, L.seg.secret, L.seg.secret + L.pegs);
    }
    for (; n < rows.length; n++)
      if (n >= shift) {
        drawCode(base, L.seg.board + (n - shift) * L.pegs, rules, rows[n].guess);
        drawFeedback(base, L.seg.keys + (n - shift) * L.pegs, rules, rows[n].feedback);
      }
    this.baseRows = n;
    this.baseLast = n > 0 ? rows[n - 1] : null;
    this.baseShift = shift;
    this.baseRules = rules;
    const scores = m.scores[0] * 4096 + m.scores[1];
    if (scores !== this.baseScores) {
      this.baseScores = scores;
      this.drawScores(base, L, rules, m.scores);
    }
    // The status LEDs follow the match's state alone: whose move (the codemaker's colour while the secret or feedback
    // is awaited, else the codebreaker's; at the match's end the winner's), and on LED 2 wrong information (red, dark
    // in the blink's off half: drawWrong), a solve (green) or a failed game (orange).
    const st = L.seg.status;
    if (st < 0) return base;
    const phase = m.game.phase;
    base[st] = m.over
      ? m.winner >= 0
        ? PLAYER_COLOURS[m.winner]
        : WHITE
      : PLAYER_COLOURS[phase === PHASE_SECRET || phase === PHASE_FEEDBACK ? m.maker : 1 - m.maker];
    if (L.segLen.status > 1) base[st + 1] = m.wrongInfo ? RED : phase === PHASE_SOLVED ? GREEN : phase === PHASE_FAILED ? ORANGE : OFF;
    return base;
  }

  /**
   * The pad's keys for the mode, in the base: while a code is keyed on the grid (`keyed`) the colour keys, blank,
   * hole-coloured slot keys, undo, clear, OK, hint (a guess only) and menu; else menu, and at a game's end the secret on
   * the slot keys, or while an answer is keyed on the grid its keys.
   */
  private drawPad(m: MatchState, L: Layout, rules: Rules, mode: PlayMode, keyed: boolean): void {
    const base = this.base;
    const p = L.seg.pad;
    const ended = mode === GAME_ENDED || mode === MATCH_OVER;
    // What the pad shows: a code keyed on the grid (a guess, with the hint key, or a secret), a game's end, an answer
    // keyed on the grid, or the menu key alone. The same keys as in the base already are not drawn again (a game's
    // end is, for its secret).
    const kind = keyed ? (mode === KEY_GUESS ? 1 : 2) : ended ? 3 : (mode === KEY_FEEDBACK || mode === CHECKING) && !L.maker ? 4 : 5;
    if (p < 0 || (kind === this.padKind && rules === this.padRules && !ended)) return;
    this.padKind = kind;
    this.padRules = rules;
    base.fill(OFF, p, p + 36);
    base[p + G_MENU] = BLUE;
    if (keyed) {
      for (let c = 0; c < rules.colours; c++) base[p + G_COLOUR + c] = PEG_COLOURS[c];
      if (rules.blanks) base[p + G_BLANK] = CYAN;
      base.fill(HOLE, p + G_SLOT, p + G_SLOT + rules.pegs);
      base[p + G_UNDO] = ORANGE;
      base[p + G_CLEAR] = RED;
      base[p + G_OK] = GREEN;
      if (kind === 1) base[p + G_HINT] = WHITE;
    } else if (ended) {
      // The reveal: the secret on the slot row (and OK for the next game, blinking: drawMore).
      if (m.game.secret) drawCode(base, p + G_SLOT, rules, m.game.secret);
    } else if (kind === 4) {
      base[p + G_EXACT] = rules.look === "arms" ? RED : VIOLET;
      base[p + G_NEAR] = WHITE;
      base[p + G_UNDO] = ORANGE;
      base[p + G_OK] = GREEN;
    }
  }

  private drawScores(frame: Uint8Array, L: Layout, rules: Rules, scores: number[]): void {
    const start = L.seg.track;
    const len = L.segLen.track;
    if (start < 0) return;
    frame.fill(OFF, start, start + len);
    if (rules.scoring === "race") {
      // Each player's scoring peg on its hole (1..30); both on one hole shows pink.
      for (let p = 0; p < 2; p++) {
        const hole = Math.min(scores[p], len);
        if (hole > 0) frame[start + hole - 1] = frame[start + hole - 1] === OFF ? PLAYER_COLOURS[p] : PINK;
      }
      return;
    }
    // Points: a bar per player from each end of its half, one LED a point; after a full lap of 15 the rest of the half
    // is white. (Fills, not a loop over the LEDs: this is drawn in a game's last task, the longest.)
    const half = Math.min(TRACK_HALF, Math.ceil(len / 2));
    for (let p = 0; p < 2; p++) {
      const lit = Math.min(scores[p] % TRACK_HALF, half);
      const end = start + len;
      if (scores[p] >= TRACK_HALF) frame.fill(WHITE, p ? end - half : start, p ? end : start + half);
      frame.fill(PLAYER_COLOURS[p], p ? end - lit : start, p ? end : start + lit);
    }
  }

  /**
   * The thinking light along `len` LEDs from `start`: one step every CHASE_MS of the work in hand, none in
   * its first step; notes when it moves next. (Half a millisecond of slack: a render due at a step's time
   * must count that step, whatever the rounding of the times.) Over a white key peg the light is a gap, so it
   * shows on any answer.
   */
  private chase(v: PlayView, frame: Uint8Array, start: number, len: number, clock: Clock): void {
    const steps = Math.floor((clock.now - v.busySince + 0.5) / CHASE_MS);
    const at = start + ((steps - 1) % len);
    clock.at(v.busySince + (steps + 1) * CHASE_MS);
    if (steps > 0) frame[at] = frame[at] === WHITE ? OFF : WHITE;
  }

  /**
   * The hint on the track (or the pad's free rows): how many codes still fit. Up to the bar's length,
   * one green LED per code; beyond, orange LEDs, each doubling (n LEDs: about 2^n codes); one red LED:
   * no code fits, the answers contradict each other. While it is worked out, the count so far, and a light runs along it.
   */
  private drawHint(v: PlayView, frame: Uint8Array, L: Layout, clock: Clock): void {
    const track = L.seg.track >= 0;
    const start = track ? L.seg.track : L.seg.pad + PAD_HINT_BAR;
    const len = track ? L.segLen.track : PAD_HINT_LEN;
    const n = v.solver && !v.fresh ? v.solver.total() : 0;
    frame.fill(OFF, start, start + len);
    clock.at(v.hintUntil);
    if (n) frame.fill(n > len ? ORANGE : GREEN, start, start + (n > len ? Math.min(len, Math.ceil(Math.log(n) / Math.LN2)) : n));
    else if (!v.busy) frame[start] = RED;
    if (v.busy) this.chase(v, frame, start, len, clock);
  }
}
