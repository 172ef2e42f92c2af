/**
 * bench:real's games against the unit on the real interpreter (roles 4 then 3: the unit breaks, then you break with
 * the unit's hints), played by the watcher (sim/play/watch.ts) through keys and LEDs, with two figures taken on the
 * way, both as busy time of the event loop (the interpreter's own clock, from the prelude's frame reports):
 *
 * - a move: from the start of the task that takes the OK asking for it (the secret's or an answer's) to the frame that
 *   shows it (the first from which the board's code pegs stay as the watcher reads them): the OK's own task, the key
 *   scans while it is held and the thinking light's renders in between count too;
 * - a hint: asked with every row of your game but the last: the hint key is tapped just before the row's OK, as a
 *   player does who wants the next row's hint at once (the hint shows for HINT_MS, so the OK's commit brings the
 *   example into the next row as soon as it is found). The figure runs from the start of the task that took the row's
 *   OK to the frame that shows the example in the empty row (the OK's own task, the key scans while it is held, the
 *   save and the search's slices count too); then the row is cleared and the watcher plays on.
 */
import type { PresetId } from "../../firmware/core/types.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { G_CLEAR, G_HINT, G_OK } from "../../firmware/ui/layout.ts";
import type { EspruinoBoard, FrameReport } from "../../sim/espruino/engine.ts";
import { watchRealTime, type WatchEvent } from "../../sim/play/watch.ts";
import { gridKey } from "../scenarios/driver.ts";

/** Busy time of the event loop at host time `at`: from the last frame reported by then. */
function busyAt(frames: FrameReport[], at: number): number {
  let busy = 0;
  for (const f of frames) if (f.at <= at) busy = f.busyAt;
  return busy;
}

/** The busy time before the task that took a key pressed at host time `pressed` (the first key frame after it). */
function busyBeforeKey(frames: FrameReport[], pressed: number, by: number): number {
  const f = frames.find((x) => x.at >= pressed && x.scan);
  return f && f.at <= by ? f.busyBefore : busyAt(frames, pressed);
}

export interface AgainstUnit {
  /** Each move's busy ms, in play order. */
  moves: number[];
  /** Each hint's busy ms (rows of your game). */
  hints: number[];
}

/** How long to wait for a hint's example on the LEDs (host ms) before giving up on it, by default. */
const HINT_TIMEOUT_MS = 60_000;

/**
 * Plays `games` games against the unit (roles 4 then 3 alternate, the unit breaking first) and returns its moves and,
 * with `hints`, the hints asked at every row of your games. Throws when the match does not end as asked.
 */
export async function playAgainstUnit(
  b: EspruinoBoard,
  preset: PresetId,
  harder: boolean,
  opts: { games: number; hints: boolean; pressMs?: number; hintTimeoutMs?: number; log?: (line: string) => void },
): Promise<AgainstUnit> {
  const rules = rulesFor(preset, harder);
  const timeoutMs = opts.hintTimeoutMs ?? HINT_TIMEOUT_MS;
  const okKeys = new Set([b.profile.keymap.maker?.ok, gridKey(G_OK)]);
  const okPresses: number[] = [];
  // The board's code pegs after every frame, with the busy time at its write, and the empty holes on the board.
  const boards: { busy: number; at: number; pegs: string; holes: number }[] = [];
  const stopWatching = b.on("leds", () => {
    const pegs = b.colours("board");
    boards.push({
      busy: b.frames[b.frames.length - 1].busyAt,
      at: b.now,
      pegs: pegs.join(),
      holes: pegs.filter((c) => c === "hole").length,
    });
  });
  const press = b.press.bind(b);
  const hints: number[] = [];
  const okKey = gridKey(G_OK);
  /** Your game is on (the hints are asked with your rows' OKs). */
  let youBreaking = false;
  /** Your row's OK, held back until the hint key has been tapped. */
  let okHeld: string | null = null;
  /** Your last row's OK (board time) and when it was pressed (host ms), until the hint's example shows or the game ends. */
  let hintOk: { at: number; wall: number } | null = null;
  /** The hook's own taps go straight through. */
  let hooking = false;
  b.press = (key: string) => {
    if (opts.hints && youBreaking && key === okKey && !hooking) {
      okHeld = key;
      return;
    }
    if (okKeys.has(key)) okPresses.push(b.now);
    press(key);
  };
  const advance = b.advance.bind(b);
  const problems: string[] = [];
  /**
   * The frame that shows the hint's example for the row committed by the OK pressed at `okAt`: the first frame with the
   * next row's holes filled, after the first that shows that row empty (its holes, the cursor's blinking off or not).
   */
  const exampleAfter = (okAt: number) => {
    const i = boards.findIndex((x) => x.at >= okAt && x.holes >= rules.pegs - 1);
    return i < 0 ? undefined : boards.slice(i + 1).find((x) => x.holes === 0);
  };
  /** Asks for the hint with each of your rows (tapped just before its OK), and clears the row once the example fills it. */
  b.advance = async (ms: number) => {
    if (hooking) return advance(ms);
    hooking = true;
    try {
      if (okHeld !== null) {
        const key = okHeld;
        okHeld = null;
        await b.tap(gridKey(G_HINT), 60, 30);
        okPresses.push(b.now);
        hintOk = { at: b.now, wall: Date.now() };
        press(key);
      } else if (hintOk !== null) {
        const shown = exampleAfter(hintOk.at);
        if (shown) {
          const from = busyBeforeKey(b.frames, hintOk.at, shown.at);
          hints.push(shown.busy - from);
          opts.log?.(`${preset}${harder ? "+" : ""} hint: ${Math.round((shown.busy - from) * 100) / 100} ms`);
          hintOk = null;
          await b.tap(gridKey(G_CLEAR), 60, 30);
        } else if (Date.now() - hintOk.wall > timeoutMs) {
          problems.push(`no hint's example on the board within ${timeoutMs / 1000} s`);
          hintOk = null;
        }
      }
    } finally {
      hooking = false;
    }
    return advance(ms);
  };
  try {
    const events: WatchEvent[] = await watchRealTime(
      b,
      { preset, harder, games: opts.games, pressMs: opts.pressMs ?? 150, rowPauseMs: 100, gamePauseMs: 300, timeoutMs: 60_000 },
      (e) => {
        opts.log?.(`  ${e.text}`);
        if (e.type === "game-start") youBreaking = e.breaker === "you";
        if (e.type === "game") youBreaking = false;
        // The game's last row: no next row for an example.
        if (e.type === "row" && e.breaker === "you" && (e.feedback.exact === rules.pegs || e.row >= rules.rows)) hintOk = null;
      },
    );
    const end = events[events.length - 1];
    if (end.type !== "stopped" || end.reason !== "done") throw new Error(end.text);
    if (problems.length) throw new Error(problems.join("; "));
    const moves: number[] = [];
    for (const e of events) {
      if (e.type !== "guess") continue;
      const asked = okPresses.filter((t) => t <= e.at).pop();
      if (asked === undefined) continue;
      const from = busyBeforeKey(b.frames, asked, e.at);
      const seen = busyAt(b.frames, e.at);
      // Back from the frame the watcher read the move in, while the code pegs were already as it read them.
      let k = boards.length - 1;
      while (k >= 0 && boards[k].busy > seen) k--;
      while (k > 0 && boards[k - 1].busy > from && boards[k - 1].pegs === boards[k].pegs) k--;
      moves.push((k >= 0 ? boards[k].busy : seen) - from);
      opts.log?.(`${preset}${harder ? "+" : ""} game ${e.game} row ${e.row}: move ${Math.round(moves[moves.length - 1] * 100) / 100} ms`);
    }
    return { moves, hints };
  } finally {
    stopWatching();
    b.press = press;
    b.advance = advance;
  }
}
