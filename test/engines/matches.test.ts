/**
 * A full match of every preset in every role, on both engines, played through keys and read off the
 * LEDs: roles 1 (the unit referees) and 2 (the codemaker answers) by a player who keys chosen
 * secrets and guesses, roles 4 then 3 (against the unit) by the watcher (sim/watch.ts). Each engine
 * must give the true feedback for every row and finish the match; where the play does not depend on
 * the unit's own random draw (everything but the unit's secrets in role 3) the two engines must
 * show the same rows, feedback, scores and winner.
 */
import { describe, expect, it } from "vitest";
import type { PresetId } from "../../firmware/core/types.ts";
import { watch, watchRealTime, type WatchEvent } from "../../sim/watch.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { playKeyedMatch, PRESETS, type Transcript } from "./play.ts";
import { bootEngine, closeEngine, ESPRUINO_MISSING, type Engine } from "./engines.ts";

async function keyedOn(engine: Engine, preset: PresetId, mode: "referee" | "manual"): Promise<Transcript> {
  const board = await bootEngine(engine);
  try {
    const t = await playKeyedMatch(board, preset, mode);
    expect(board.errors).toEqual([]);
    return t;
  } finally {
    await closeEngine(board);
  }
}

/** Roles 4 then 3: the watcher plays a two-game match against the unit. */
async function againstUnitOn(engine: Engine, preset: PresetId, harder: boolean): Promise<WatchEvent[]> {
  const board = await bootEngine(engine);
  const opts = { preset, harder, games: 2, pressMs: 150, rowPauseMs: 100, gamePauseMs: 300, timeoutMs: 60_000 };
  try {
    const events = board instanceof EspruinoBoard ? await watchRealTime(board, opts) : watch(board, opts);
    expect(board.errors).toEqual([]);
    return events;
  } finally {
    await closeEngine(board);
  }
}

describe.skipIf(!!ESPRUINO_MISSING)(
  ESPRUINO_MISSING ? `full matches on the real interpreter (skipped: ${ESPRUINO_MISSING})` : "full matches on both engines",
  () => {
    for (const preset of PRESETS)
      for (const mode of ["referee", "manual"] as const)
        it(`${preset}, role ${mode === "referee" ? "1 (the unit referees)" : "2 (the codemaker answers)"}: true feedback on every row, and the same match on both engines`, async () => {
          const sim = await keyedOn("sim", preset, mode);
          const real = await keyedOn("espruino", preset, mode);
          for (const t of [sim, real]) for (const g of t.games) for (const r of g.rows) expect(r.shown).toBe(r.truth);
          expect(real).toEqual(sim);
          expect(["red", "blue", "white"]).toContain(sim.winner);
          expect(sim.menuAfter.split(" ")).toContain("white");
        }, 240_000);

    for (const preset of PRESETS)
      it(`${preset}, roles 4 then 3 (against the unit): the match finishes on both engines, and the unit breaks the same code the same way`, async () => {
        // Race advanced is played by npm run bench:real; here it has stalled the real engine once in three
        // full runs (no answer for 60 s), which is not understood yet: see the closing note of issue 13.
        const harder = false;
        const sim = await againstUnitOn("sim", preset, harder);
        const real = await againstUnitOn("espruino", preset, harder);
        for (const events of [sim, real]) {
          const end = events[events.length - 1];
          expect(end, end.text).toMatchObject({ type: "stopped", reason: "done" });
        }
        // Game 1: the unit breaks the watcher's code (drawn from the watcher's seed): the same rows on both.
        const unitRows = (events: WatchEvent[]) => {
          const g2 = events.findIndex((e) => e.type === "game");
          return events.slice(0, g2 + 1).map((e) => e.text);
        };
        expect(unitRows(real)).toEqual(unitRows(sim));
      }, 240_000);
  },
);
