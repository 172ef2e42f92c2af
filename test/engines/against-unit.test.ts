/**
 * Roles 4 then 3, a full match against the unit (of 2 games, the shortest the menu offers; the race to hole 30),
 * on both engines: the watcher (sim/play/watch.ts) plays the
 * person's side through keys and LEDs only, in virtual time on the simulator and in real time on the real
 * interpreter (watchRealTime). It keys a secret drawn from its own seed and the true feedback to every guess
 * of the unit (role 4), then breaks the unit's code with the unit's own solver (role 3) and checks every
 * answer of the unit against the code the unit reveals at the end; it reads the scores' winner off status
 * LED 1. Each engine must finish the match with no firmware error; the games where the unit breaks (its
 * guesses depend only on the watcher's secrets and answers) must be the same, row for row, on both. The
 * unit's own secrets (role 3) come from its random draw, seeded by the time of a key press, so those games,
 * and with them the scores, differ between the engines; on each engine they are checked against the rules.
 */
import { describe, expect, it } from "vitest";
import { rulesFor } from "../../firmware/core/presets.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import type { PresetId } from "../../firmware/core/types.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { watch, watchRealTime, type WatchEvent } from "../../sim/play/watch.ts";
import { bootEngine, closeEngine, ESPRUINO_MISSING, type Engine } from "./engines.ts";
import { PRESETS } from "./play.ts";

const OPTIONS = { pressMs: 150, rowPauseMs: 100, gamePauseMs: 300, timeoutMs: 60_000 };

async function againstUnitOn(engine: Engine, preset: PresetId, harder: boolean): Promise<WatchEvent[]> {
  const board = await bootEngine(engine);
  try {
    // The shortest match the menu offers (2 games: each side breaks once) where it is chosen; the race runs to hole 30.
    const games = rulesFor(preset, harder).scoring === "points" ? 2 : undefined;
    // The unit goes on with its work while the player answers, and sets its table aside where the player answers before a
    // long rest of it (PENDING_MS): the engines ponder at their own pace, so the player here takes long enough for both
    // to finish (the race's rests take the interpreter up to a few seconds), and the unit's games are the same on both.
    const opts = { preset, harder, games, ...OPTIONS, rowPauseMs: preset === "race" ? 4000 : OPTIONS.rowPauseMs };
    const events = board instanceof EspruinoBoard ? await watchRealTime(board, opts) : watch(board, opts);
    expect(board.errors).toEqual([]);
    return events;
  } finally {
    await closeEngine(board);
  }
}

/** The games the unit broke (role 4): the secret, every row and the result, as the watcher told them. */
function unitBreaks(events: WatchEvent[]): string[] {
  const games = new Set<number>();
  for (const e of events) if (e.type === "game-start" && e.breaker === "unit") games.add(e.game);
  const out: string[] = [];
  for (const e of events) {
    if ((e.type === "row" || e.type === "game-start") && games.has(e.game)) out.push(e.text);
    // (The scores in a game's line count the games you broke too: those differ between the engines.)
    if (e.type === "game" && games.has(e.game)) out.push(`game ${e.game}: ${e.solved ? "solved" : "not solved"} in ${e.rows} rows`);
  }
  return out;
}

/** Checks one engine's match against the rules: a finished match, true answers, scores as the rules give them. */
function checkMatch(events: WatchEvent[], preset: PresetId, harder: boolean): void {
  const rules = rulesFor(preset, harder);
  const end = events[events.length - 1];
  expect(end, end.text).toMatchObject({ type: "stopped", reason: "done" });
  const over = events.find((e) => e.type === "match-over");
  expect(over, "the match ends").toBeDefined();
  const scores = { you: 0, unit: 0 };
  for (const g of events.filter((e) => e.type === "game")) {
    if (g.type !== "game") continue;
    const rows = events.filter((e) => e.type === "row" && e.game === g.game);
    expect(rows.length).toBe(g.rows);
    // Every answer fits the secret: the watcher's own (role 4), the one the unit revealed (role 3).
    for (const r of rows) if (r.type === "row" && g.secret) expect(feedback(r.guess, g.secret)).toEqual(r.feedback);
    const last = rows[rows.length - 1];
    expect(last?.type === "row" && last.feedback.exact === rules.pegs).toBe(g.solved);
    const maker = g.breaker === "unit" ? "you" : "unit";
    if (rules.scoring === "points") scores[maker] += g.solved ? g.rows : rules.unsolvedPoints;
    else if (g.solved) scores[g.breaker] += rules.raceAdvance[g.rows - 1];
    expect(g.scores).toEqual(scores);
  }
  if (over?.type === "match-over") {
    expect(over.scores).toEqual(scores);
    expect(over.winner).toBe(scores.you > scores.unit ? "you" : scores.unit > scores.you ? "unit" : "draw");
  }
}

describe.skipIf(!!ESPRUINO_MISSING)(
  ESPRUINO_MISSING ? `roles 4 then 3 on the real interpreter (skipped: ${ESPRUINO_MISSING})` : "roles 4 then 3 on both engines",
  () => {
    for (const preset of PRESETS)
      for (const harder of [false, true])
        it(`${preset}${harder ? " (harder)" : ""}, roles 4 then 3: a full match against the unit on both engines, the unit breaking the same codes the same way`, async () => {
          const sim = await againstUnitOn("sim", preset, harder);
          const real = await againstUnitOn("espruino", preset, harder);
          checkMatch(sim, preset, harder);
          checkMatch(real, preset, harder);
          expect(unitBreaks(real)).toEqual(unitBreaks(sim));
          expect(unitBreaks(sim).length).toBeGreaterThan(0);
        }, 420_000);
  },
);
