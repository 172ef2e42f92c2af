/**
 * bench:real's games against the unit on the real interpreter (roles 4 then 3: the unit breaks, then you break with
 * the unit's hints), played by the watcher (sim/play/watch.ts) through keys and LEDs, with two figures taken on the
 * way, both as busy time of the event loop (the interpreter's own clock, from the prelude's frame reports):
 *
 * - a move: from the start of the task that takes the OK asking for it (the secret's or an answer's) to the frame that
 *   shows it (the first from which the board's code pegs stay as the watcher reads them): the OK's own task, the key
 *   scans while it is held and the thinking light's renders in between count too;
 * - a hint: asked at every row of your game as soon as the row stands on the board: the hint key is pressed (and again
 *   every REPRESS_MS until the hint shows), and the figure runs from the start of the task that took the row's OK
 *   (the unit starts on the hints then) to the frame that shows the hint's example in the empty row; then the row is
 *   cleared, and once the hint has stopped showing (HINT_MS after the last press: until then the next row's hint
 *   would fill the row the watcher keys next) the watcher plays on. The presses' own tasks count too (a key's task
 *   every REPRESS_MS).
 */
import type { PresetId } from "../../firmware/core/types.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { G_CLEAR, G_OK } from "../../firmware/ui/layout.ts";
import { G_HINT, HINT_MS } from "../../firmware/ui/codebreaker.ts";
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
/** The hint key is pressed again this often (host ms) while the hint is worked out (HINT_MS is 5 s). */
const REPRESS_MS = 2_000;

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
  const holes = () => b.colours("board").filter((c) => c === "hole").length;
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
  b.press = (key: string) => {
    if (okKeys.has(key)) okPresses.push(b.now);
    press(key);
  };
  const hints: number[] = [];
  let hintAfter: number | null = null;
  const advance = b.advance.bind(b);
  const problems: string[] = [];
  /** Asks for the hint once your row stands on the board (before the watcher keys the next one), then clears the row. */
  b.advance = async (ms: number) => {
    if (hintAfter !== null) {
      const okAt = hintAfter;
      hintAfter = null;
      const from = busyBeforeKey(b.frames, okAt, b.now);
      const before = holes();
      const asked = b.now;
      const start = Date.now();
      // The example shows if the work is done within HINT_MS of a press: on the interpreter a long hint's slices take
      // far longer than that in wall time (idle between slices), so the key is pressed again now and then.
      let pressed = -Infinity;
      let lastPress = b.now;
      while (holes() > before - (rules.pegs - 1) && Date.now() - start < timeoutMs) {
        if (Date.now() - pressed > REPRESS_MS) {
          pressed = Date.now();
          lastPress = b.now;
          await b.tap(gridKey(G_HINT), 60, 0);
        } else await advance(20);
      }
      const shown = boards.find((x) => x.at >= asked && x.holes <= before - (rules.pegs - 1));
      if (shown) {
        hints.push(shown.busy - from);
        opts.log?.(`${preset}${harder ? "+" : ""} hint: ${Math.round((shown.busy - from) * 100) / 100} ms`);
      } else problems.push(`no hint's example on the board within ${timeoutMs / 1000} s`);
      await b.tap(gridKey(G_CLEAR), 60, 0);
      while (holes() <= before - (rules.pegs - 1) && Date.now() - start < 2 * timeoutMs) await advance(20);
      // While the hint shows, the next row's hint would fill the row the watcher is about to key: let it go out first.
      await advance(Math.max(0, lastPress + HINT_MS + 300 - b.now));
    }
    return advance(ms);
  };
  try {
    const events: WatchEvent[] = await watchRealTime(
      b,
      { preset, harder, games: opts.games, pressMs: opts.pressMs ?? 150, rowPauseMs: 100, gamePauseMs: 300, timeoutMs: 60_000 },
      (e) => {
        opts.log?.(`  ${e.text}`);
        if (opts.hints && e.type === "row" && e.breaker === "you" && e.feedback.exact < rules.pegs && e.row < rules.rows)
          hintAfter = okPresses[okPresses.length - 1] ?? null;
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
