/**
 * Core state -> frame: one logical colour (palette index) per LED of the chain. Pure; the time is
 * an argument and render() returns when the picture next changes (a blink), or -1 if it is still.
 */
import { EMPTY } from "../core/types";
import type { Code, Feedback, MatchState, Rules } from "../core/types";
import { rulesOf, unitRole } from "../core/match";
import { BLUE, CYAN, GREEN, HOLE, OFF, ORANGE, PEG_COLOURS, RED, VIOLET, WHITE, YELLOW, PINK } from "./palette";
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "./layout";
import type { Layout } from "./layout";
import { BLINK_ON, BLINK_PERIOD, Clock, pad } from "./frame";
import { G_HINT, G_LOCK, G_RESUME, G_SLEEP, G_SOUND, SLEEP_MENU } from "./app";
import { App, BRIGHTNESS_STEPS, FLIP_GRID_MENU, FLIP_PLAYERS_MENU, GAMES_MENU, MODE_MENU, PRESET_MENU, presetFits } from "./app";
import { maxFlipGrid } from "./flip";

/** Pegs at fault flash this fast while a refusal shows. */
export const FLASH_HALF = 120;
/** Player colours on the track and status LEDs: player 0 red, player 1 (the unit, in unit modes) blue. */
export const PLAYER_COLOURS = [RED, BLUE];
/** Menu option colours per row; the chosen option shows white. */
const MENU_COLOURS = [YELLOW, GREEN, ORANGE, BLUE, YELLOW];
const TRACK_HALF = 15;
/** Builds without a track show the hint's count on the pad's rows 4 and 5 (free while a guess is keyed). */
const PAD_HINT_BAR = 18;
const PAD_HINT_LEN = 12;

/** Colour of a code symbol on the LEDs: the blank is an unlit hole. */
export function symbolColour(rules: Rules, s: number): number {
  if (s === EMPTY) return HOLE;
  return s < rules.colours ? PEG_COLOURS[s] : OFF;
}

/** Draws one row's feedback on its key pixels in the preset's look (never in peg order). */
export function drawFeedback(frame: Uint8Array, start: number, width: number, rules: Rules, fb: Feedback): void {
  if (rules.look === "arms") {
    // Indicator arms: the red arm grows from the left by exact, the white arm from the right by near.
    for (let i = 0; i < fb.exact; i++) frame[start + i] = RED;
    for (let i = 0; i < fb.near; i++) frame[start + width - 1 - i] = WHITE;
  } else {
    // Key pegs: all black (shown violet) first, then all white.
    for (let i = 0; i < fb.exact; i++) frame[start + i] = VIOLET;
    for (let i = 0; i < fb.near; i++) frame[start + fb.exact + i] = WHITE;
  }
}

export function render(app: App, frame: Uint8Array, now: number): number {
  frame.fill(OFF);
  const clock = new Clock(now, Math.min(app.blinkEpoch, now));
  const L = app.layout;
  const flashing = now < app.flashUntil;
  if (flashing) clock.at(app.flashUntil);
  const flashOff = flashing && !clock.blink(FLASH_HALF * 2, FLASH_HALF);
  // Status LED 2 shows alerts first: a refusal (red), a warning (yellow), a stuck key (yellow,
  // blinking), a low battery (orange, blinking); the screens use it only when it is free.
  if (L.seg.status >= 0 && L.segLen.status > 1) {
    const alert = L.seg.status + 1;
    if (flashing) frame[alert] = RED;
    else if (now < app.warnUntil) {
      frame[alert] = YELLOW;
      clock.at(app.warnUntil);
    } else if (app.keysStuck || app.lowBattery) {
      if (clock.blink(BLINK_PERIOD, BLINK_ON)) frame[alert] = app.keysStuck ? YELLOW : ORANGE;
    }
  }
  if (app.screen === "selftest") drawSelfTest(app, frame, L, clock);
  else if (app.screen === "flip" && app.flip.state) app.flip.draw(frame, clock);
  else if (app.screen === "menu" || !app.match) drawMenu(app, frame, L, clock);
  else drawPlay(app, app.match, frame, L, clock, flashOff);
  return clock.next;
}

/** How long each step of the self-test's LED walk lasts. */
export const SELFTEST_STEP_MS = 800;
const SEGMENT_ORDER: (keyof Layout["seg"])[] = ["board", "keys", "secret", "pad", "track", "status"];

/**
 * Self-test: each segment in turn lights white, then the whole chain (the lamp test, at the current
 * cap); a held grid key lights its pad LED green and a held codemaker key lights a track LED, in key order.
 */
function drawSelfTest(app: App, frame: Uint8Array, L: Layout, clock: Clock): void {
  const steps = SEGMENT_ORDER.length + 1;
  const since = clock.now - app.selfTestSince;
  const step = Math.floor(since / SELFTEST_STEP_MS) % steps;
  clock.at(app.selfTestSince + (Math.floor(since / SELFTEST_STEP_MS) + 1) * SELFTEST_STEP_MS);
  if (step === steps - 1) frame.fill(WHITE);
  else {
    const name = SEGMENT_ORDER[step];
    if (L.seg[name] >= 0) frame.fill(WHITE, L.seg[name], L.seg[name] + L.segLen[name]);
  }
  let other = 0;
  for (let k = 0; k < app.held.length; k++) {
    const g = app.gridPos[k];
    if (g >= 0) {
      if (app.held[k]) pad(frame, L, g, GREEN);
    } else {
      if (app.held[k] && L.seg.track >= 0 && other < L.segLen.track) frame[L.seg.track + other] = GREEN;
      other++;
    }
  }
}

function drawMenu(app: App, frame: Uint8Array, L: Layout, clock: Clock): void {
  const s = app.settings;
  const flip = s.preset === "brainflip";
  // Each row is one setting; its options light in the row's colour and the chosen one white.
  const chosen = flip
    ? [
        PRESET_MENU.indexOf(s.preset),
        s.flipMode === "flip" ? 0 : 1,
        FLIP_PLAYERS_MENU.indexOf(s.players),
        FLIP_GRID_MENU.indexOf(s.flipGrid),
        s.brightness,
      ]
    : [PRESET_MENU.indexOf(s.preset), s.harder ? 1 : 0, MODE_MENU.indexOf(s.mode), GAMES_MENU.indexOf(s.games), s.brightness];
  const counts = flip
    ? [PRESET_MENU.length, 2, FLIP_PLAYERS_MENU.length, maxFlipGrid(L) - 1, BRIGHTNESS_STEPS]
    : [PRESET_MENU.length, 2, MODE_MENU.length, s.preset === "race" ? 0 : GAMES_MENU.length, BRIGHTNESS_STEPS];
  for (let row = 0; row < 5; row++)
    for (let col = 0; col < counts[row]; col++)
      if (row > 0 || presetFits(L, PRESET_MENU[col])) pad(frame, L, row * 6 + col, col === chosen[row] ? WHITE : MENU_COLOURS[row]);
  if (flip) pad(frame, L, 23, s.unitFlips ? GREEN : RED);
  pad(frame, L, G_SOUND, s.sound ? GREEN : RED);
  pad(frame, L, G_SLEEP, [CYAN, BLUE, VIOLET][SLEEP_MENU.indexOf(s.sleepMin)]);
  pad(frame, L, G_LOCK, s.lockConsole ? GREEN : RED);
  if (app.resumable()) pad(frame, L, G_RESUME, CYAN);
  pad(frame, L, G_OK, clock.blink(BLINK_PERIOD, BLINK_ON) ? GREEN : OFF);
}

function drawCode(frame: Uint8Array, start: number, rules: Rules, code: Code): void {
  for (let i = 0; i < code.length; i++) frame[start + i] = symbolColour(rules, code[i]);
}

function drawPlay(app: App, m: MatchState, frame: Uint8Array, L: Layout, clock: Clock, flashOff: boolean): void {
  const rules = rulesOf(m);
  const game = m.game;
  const role = unitRole(m);
  const ended = game.phase === "solved" || game.phase === "failed" || m.wrongInfo !== null;
  const current = game.rows.length;
  const cursorOn = clock.blink(BLINK_PERIOD, BLINK_ON);
  // A board with fewer rows than the preset shows the latest rows (the row being played at the top).
  const shift = Math.max(0, Math.min(current, rules.rows - 1) + 1 - L.rows);
  const wi = m.wrongInfo;
  for (let r = shift; r < game.rows.length; r++) {
    const row = game.rows[r];
    const at = r - shift;
    drawCode(frame, L.seg.board + at * L.pegs, rules, row.guess);
    // Wrong information: the row at fault alternates between the answer given and the true one (when known).
    const wrong = wi !== null && wi.rows.indexOf(r) >= 0;
    const shown = wrong && !cursorOn ? wi.correct : row.feedback;
    if (shown) drawFeedback(frame, L.seg.keys + at * L.pegs, L.pegs, rules, shown);
  }
  const entryOnBoard = game.phase === "guess" && role !== "breaker" && current < rules.rows;
  if (entryOnBoard) {
    const start = L.seg.board + (current - shift) * L.pegs;
    drawCode(frame, start, rules, app.entry);
    if (!cursorOn) frame[start + app.cursor] = OFF;
    if (flashOff && app.flashTarget === "entry")
      for (let i = 0; i < app.flashPositions.length; i++) frame[start + app.flashPositions[i]] = OFF;
  }
  if (game.phase === "feedback" && game.pending) {
    drawCode(frame, L.seg.board + (current - shift) * L.pegs, rules, game.pending);
    const keysStart = L.seg.keys + (current - shift) * L.pegs;
    if (flashOff && app.flashTarget === "feedback") for (let i = 0; i < L.pegs; i++) frame[keysStart + i] = OFF;
    else {
      drawFeedback(frame, keysStart, L.pegs, rules, app.fb);
      // Unfilled key holes of the row awaiting feedback blink, so the codemaker sees it is their turn.
      if (cursorOn) for (let i = 0; i < L.pegs; i++) if (frame[keysStart + i] === OFF) frame[keysStart + i] = HOLE;
    }
  }
  // The secret: revealed at the end; under the shield it shows to the (human) codemaker only.
  const humanMaker = role !== "maker";
  const secretStart = L.seg.secret;
  if (secretStart >= 0) {
    if (ended && game.secret) drawCode(frame, secretStart, rules, game.secret);
    else if (L.secretShielded && humanMaker) {
      if (game.phase === "secret") {
        drawCode(frame, secretStart, rules, app.entry);
        if (!cursorOn) frame[secretStart + app.cursor] = OFF;
        if (flashOff && app.flashTarget === "secret")
          for (let i = 0; i < app.flashPositions.length; i++) frame[secretStart + app.flashPositions[i]] = OFF;
      } else if (game.secret) drawCode(frame, secretStart, rules, game.secret);
    }
  }
  drawPlayPad(app, m, rules, frame, L, ended, cursorOn);
  drawScores(m, rules, frame, L);
  // Background work: the unit choosing its guess (its row), checking an answer (the row's key pegs).
  const row = current - shift;
  if (app.busy && !ended) {
    if (role === "breaker" && game.phase === "guess") chase(frame, L.seg.board + row * L.pegs, L.pegs, app.slices);
    if (app.checking) chase(frame, L.seg.keys + row * L.pegs, L.pegs, app.slices);
  }
  if (entryOnBoard && clock.now < app.hintUntil) drawHint(app, frame, L, clock);
  if (L.seg.status >= 0) {
    // Whose move: the codemaker's colour while the secret or feedback is awaited, else the codebreaker's.
    const mover = game.phase === "secret" || game.phase === "feedback" ? m.maker : 1 - m.maker;
    frame[L.seg.status] = m.over ? (m.winner >= 0 ? PLAYER_COLOURS[m.winner] : WHITE) : PLAYER_COLOURS[mover];
    if (L.segLen.status > 1 && frame[L.seg.status + 1] === OFF) {
      if (m.wrongInfo) frame[L.seg.status + 1] = cursorOn ? RED : OFF;
      else if (game.phase === "solved") frame[L.seg.status + 1] = GREEN;
      else if (game.phase === "failed") frame[L.seg.status + 1] = ORANGE;
    }
  }
}

function drawPlayPad(app: App, m: MatchState, rules: Rules, frame: Uint8Array, L: Layout, ended: boolean, cursorOn: boolean): void {
  const game = m.game;
  pad(frame, L, G_MENU, BLUE);
  if (ended || m.over) {
    // The reveal: the secret on the slot row, and OK for the next game.
    if (game.secret) for (let i = 0; i < rules.pegs; i++) pad(frame, L, G_SLOT + i, symbolColour(rules, game.secret[i]));
    pad(frame, L, G_OK, cursorOn ? GREEN : OFF);
    return;
  }
  const role = unitRole(m);
  const gridEntry = (game.phase === "guess" && role !== "breaker") || (game.phase === "secret" && role !== "maker" && !L.maker);
  if (gridEntry) {
    for (let c = 0; c < rules.colours; c++) pad(frame, L, G_COLOUR + c, PEG_COLOURS[c]);
    if (rules.blanks) pad(frame, L, G_BLANK, CYAN);
    // Slot keys: hole colour, the cursor's blinking. A secret keyed on the grid is never shown there.
    for (let i = 0; i < rules.pegs; i++) pad(frame, L, G_SLOT + i, i === app.cursor && !cursorOn ? OFF : HOLE);
    pad(frame, L, G_UNDO, ORANGE);
    pad(frame, L, G_CLEAR, RED);
    pad(frame, L, G_OK, GREEN);
    if (game.phase === "guess") pad(frame, L, G_HINT, WHITE);
  } else if (game.phase === "feedback" && !L.maker) {
    pad(frame, L, G_EXACT, rules.look === "arms" ? RED : VIOLET);
    pad(frame, L, G_NEAR, WHITE);
    pad(frame, L, G_UNDO, ORANGE);
    pad(frame, L, G_OK, GREEN);
  }
}

function drawScores(m: MatchState, rules: Rules, frame: Uint8Array, L: Layout): void {
  const start = L.seg.track;
  const len = L.segLen.track;
  if (start < 0) return;
  if (rules.scoring === "race") {
    // Each player's scoring peg on its hole (1..30); both on one hole shows pink.
    for (let p = 0; p < 2; p++) {
      const hole = Math.min(m.scores[p], len);
      if (hole > 0) frame[start + hole - 1] = frame[start + hole - 1] === OFF ? PLAYER_COLOURS[p] : PINK;
    }
    return;
  }
  // Points: a bar per player from each end, one LED a point; every full lap of 15 turns the bar white-tipped.
  for (let p = 0; p < 2; p++) {
    const score = m.scores[p];
    const laps = Math.floor(score / TRACK_HALF);
    const rest = score % TRACK_HALF;
    for (let i = 0; i < TRACK_HALF && i < len / 2; i++) {
      const lit = i < rest ? PLAYER_COLOURS[p] : laps > 0 ? WHITE : OFF;
      if (lit !== OFF) frame[p === 0 ? start + i : start + len - 1 - i] = lit;
    }
  }
}

/**
 * A light running along `len` LEDs from `start`, one step a slice, for background work still going
 * after its first slice (about 0.3 s on the Pico, 180 evaluations): a move from the table or a small
 * candidate list is done within the slice and shows nothing.
 */
function chase(frame: Uint8Array, start: number, len: number, slices: number): void {
  // (Over a white key peg the light is a gap, so it shows on any answer.)
  const at = start + (slices % len);
  frame[at] = frame[at] === WHITE ? OFF : WHITE;
}

/**
 * The hint on the track (or the pad's free rows): how many codes still fit. Up to the bar's length,
 * one green LED per code; beyond, orange LEDs, each doubling (n LEDs: about 2^n codes); one red LED:
 * no code fits, the answers contradict each other. A light runs along it while it is worked out.
 */
function drawHint(app: App, frame: Uint8Array, L: Layout, clock: Clock): void {
  const track = L.seg.track >= 0;
  const start = track ? L.seg.track : L.seg.pad + PAD_HINT_BAR;
  const len = track ? L.segLen.track : PAD_HINT_LEN;
  const n = app.solver ? app.solver.total() : 0;
  frame.fill(OFF, start, start + len);
  clock.at(app.hintUntil);
  if (app.busy) chase(frame, start, len, app.slices);
  else if (!n) frame[start] = RED;
  else frame.fill(n > len ? ORANGE : GREEN, start, start + (n > len ? Math.min(len, Math.ceil(Math.log(n) / Math.LN2)) : n));
}
