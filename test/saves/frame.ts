/**
 * What the unit should show for a saved state, from the firmware's pure ui (TypeScript source, run in
 * Node): an App restored from the state and rendered at the board's time, as palette names per LED.
 * Compared with what the virtual board's LEDs show, it says whether the unit resumed that state.
 */
import type { VirtualBoard } from "../../sim/board/board.ts";
import { colourName } from "../../sim/views/colours.ts";
import { compileProfile, segmentOffsets, SEGMENT_NAMES, type Profile, type SegmentName } from "../../hardware/profile.ts";
import { App, type SavedState } from "../../firmware/ui/app.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { render } from "../../firmware/ui/render.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import type { Layout } from "../../firmware/ui/layout.ts";

/** The ui's view of a build: the compiled profile, as the bundle holds it. */
export function layoutFor(p: Profile): Layout {
  return compileProfile(p);
}

/**
 * An App holding `state` (null: a unit that starts afresh), as the firmware restores it at boot, with
 * the solver tables flashed beside it. A move the unit was choosing when the power went is chosen
 * again: here at once, on the board within a few slices of the boot.
 */
export function restoredApp(p: Profile, state: SavedState | null, now = 0): { app: App; refused: string } {
  const app = new App(layoutFor(p), () => 0.5);
  const tables = solverTablesFor(p.pegs);
  app.readTable = (name) => tables.find((t) => t.name === name)?.bytes;
  const refused = state ? app.restore(structuredClone(state), now) : "";
  while (app.worker.working()) app.worker.think(now);
  return { app, refused };
}

/** The state a unit booted with `state` saves and shows: that state, plus the guess the unit makes at once when it was its turn. */
export function resumedState(p: Profile, state: SavedState | null): SavedState | null {
  if (!state) return null;
  return JSON.parse(JSON.stringify(restoredApp(p, state).app.snapshot())) as SavedState;
}

/** Palette names of a rendered frame, LED by LED. */
export function frameNames(app: App, now: number): string[] {
  const frame = new Uint8Array(app.layout.ledCount);
  render(app, frame, now);
  return Array.from(frame, (c) => COLOUR_NAMES[c] ?? `#${c}`);
}

export interface ExpectedFrameOptions {
  /** The boot warning on status LED 2 (a save was found but not used) shows until 3 s after boot. */
  warned?: boolean;
}

/** What a unit booted with `state` shows `now` ms after boot (no key pressed since). */
export function expectedBootFrame(p: Profile, state: SavedState | null, now: number, opts: ExpectedFrameOptions = {}): string[] {
  const { app } = restoredApp(p, state, 0);
  if (opts.warned) app.warnUntil = Math.max(app.warnUntil, 3000);
  return frameNames(app, now);
}

/** What the board's LEDs show, LED by LED, as palette names. */
export function boardFrame(board: VirtualBoard): string[] {
  return board.pixels().map(colourName);
}

/** The segment and index of LED `i` of the chain. */
export function ledName(p: Profile, i: number): string {
  const seg = segmentOffsets(p);
  for (const name of SEGMENT_NAMES) {
    const s = seg[name];
    if (s.start >= 0 && i >= s.start && i < s.start + s.count) return `${name}[${i - s.start}]`;
  }
  return `led ${i}`;
}

/** The LEDs that differ, as "segment[i] expected X, saw Y" (at most `limit` of them). */
export function frameDiff(p: Profile, expected: string[], actual: string[], limit = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(expected.length, actual.length) && out.length < limit; i++)
    if (expected[i] !== actual[i]) out.push(`${ledName(p, i)} expected ${expected[i]}, saw ${actual[i]}`);
  return out;
}

/** The LEDs of one segment out of a whole-chain frame. */
export function segmentOf(p: Profile, frame: string[], name: SegmentName): string[] {
  const s = segmentOffsets(p)[name];
  return s.start < 0 ? [] : frame.slice(s.start, s.start + s.count);
}
