/**
 * The fuzzer: random key events (taps, presses and releases, holds, chords, bursts), waits and power
 * cuts (at random instants, and in the middle of saves) on the bundle running on virtual boards, with
 * the invariants of issue 7 checked after every event:
 *
 *   (a) the feedback each played row shows equals the reference feedback of the guess the LEDs show
 *       against the secret of the saved state (unless the state records wrong information there);
 *   (b) no game has more rows than its preset;
 *   (c) scores follow from the history (Brain Flip: 0..3, never negative);
 *   (d) no exception escapes (board.errors stays empty) or is caught and logged by the firmware's
 *       scheduler, the unit never resets (watchdog), and after a power cut it resumes the last
 *       committed state, LED for LED;
 *   (e) the secret stays secret: rendering the saved state with the secret swapped for another code
 *       consistent with every row (Brain Flip: another card) changes no public pixel until the reveal;
 *       the secret segment stays dark on every frame while the unit is the codemaker; and the secret
 *       is not reachable from the console (no global named secret, no global value holding it).
 *
 * Keys are chosen by screen, from the saved state: a Player (test/saves/player.ts) plays
 * toward a goal (a preset, variant and mode, or Brain Flip) that changes regularly, and random keys
 * of the screen, stray keys, holds and chords come in between. Everything is seeded: the same seed
 * and options replay the same events. Boards are used in sequence ("segments" of `boardEvents`
 * events, each with its own seed), so a run can be split across workers and one segment replayed.
 */
import { emptyStats, type FuzzOptions, type FuzzStats } from "./stats.ts";
import { Segment } from "./segment.ts";
import { segmentsOf } from "./segment.ts";
export { segmentsOf };

export * from "./stats.ts";
export * from "./parallel.ts";

/** Runs one segment of a run. Throws FuzzViolation on the first invariant broken. */
export function runSegment(opts: FuzzOptions, segment: number, firstIndex: number, count: number, stats = emptyStats()): FuzzStats {
  const seg = new Segment(opts, segment, firstIndex, stats);
  try {
    for (let i = 0; i < count; i++) seg.step();
  } finally {
    seg.finish();
  }
  return stats;
}

/** Runs the whole fuzz (or its chosen segments) in this thread. */
export function runFuzz(opts: FuzzOptions): FuzzStats {
  const stats = emptyStats();
  for (const [segment, first, count] of segmentsOf(opts.events, opts.boardEvents ?? 20000))
    if (!opts.segments || opts.segments.includes(segment)) runSegment(opts, segment, first, count, stats);
  return stats;
}

// ------------------------------------------------------------------ in child processes
