/**
 * A full match of every preset in roles 1 (the unit referees) and 2 (the codemaker answers), on both
 * engines, played through keys and read off the LEDs by a player who keys chosen secrets and guesses.
 * Each engine must give the true feedback for every row and finish the match, and the two must show
 * the same rows, feedback, scores and winner. (Roles 4 then 3 against the unit: against-unit.test.ts.)
 */
import { describe, expect, it } from "vitest";
import type { PresetId } from "../../firmware/core/types.ts";
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
  },
);
