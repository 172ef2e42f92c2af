/** POST /api/watch's start request: checked field by field, then turned into the watcher's options. */
import { PRESET_IDS } from "../../firmware/core/presets.ts";
import type { WatchOptions } from "../play/watch.ts";
import type { PresetId } from "../../firmware/core/types.ts";

/** What is wrong with a POST /api/watch start request, or null. */
export function watchProblem(d: Record<string, unknown>): string | null {
  const optional = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || v === null || v === "" || ok(v);
  const whole = (min: number, max: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if (!optional(d.preset, (v) => PRESET_IDS.includes(v as PresetId))) return `preset must be one of ${PRESET_IDS.join(", ")}`;
  if (!optional(d.harder, (v) => typeof v === "boolean")) return "harder must be true or false";
  if (!optional(d.games, whole(1, 1000))) return "games must be a whole number from 1";
  if (!optional(d.secret, (v) => v === "keyed" || v === "head")) return 'secret must be "keyed" or "head"';
  if (!optional(d.seed, whole(0, 2 ** 32 - 1))) return "seed must be a whole number >= 0";
  for (const k of ["pressMs", "rowPauseMs", "gamePauseMs"])
    if (!optional(d[k], whole(0, 60_000))) return `${k} must be a whole number of ms from 0 to 60000`;
  return null;
}

/** The watcher's options from a start request that passed watchProblem. */
export function watchOptions(data: Record<string, unknown>): WatchOptions {
  return {
    preset: (data.preset || undefined) as PresetId | undefined,
    harder: data.harder as boolean | undefined,
    games: (data.games || undefined) as number | undefined,
    secret: data.secret as "keyed" | "head" | undefined,
    seed: data.seed as number | undefined,
    pressMs: data.pressMs as number | undefined,
    rowPauseMs: data.rowPauseMs as number | undefined,
    gamePauseMs: data.gamePauseMs as number | undefined,
  };
}
