/** The fuzzer's options, its counts of what it did, and how it reports a broken invariant. */
import { Prng } from "../../firmware/tools/prng.ts";
import { type Profile } from "../../hardware/profile.ts";

export interface FuzzOptions {
  seed: number;
  /** Events in all. */
  events: number;
  /** Events per board before a fresh one (default 20,000). */
  boardEvents?: number;
  /** The bundle to flash (the source of dist/firmware.js). */
  firmware: string;
  profile: Profile;
  /** Boards without the wall-clock guard on firmware calls (much faster; a hang then needs an outside watchdog). */
  fast?: boolean;
  /** Only these segments (boards) of the run, e.g. to replay the one that failed. */
  segments?: number[];
  /** Prints every event from this global index on (replays). */
  traceFrom?: number;
  log?: (line: string) => void;
  /** Called every few hundred events with the global index reached. */
  progress?: (eventIndex: number) => void;
}

export interface FuzzStats {
  events: number;
  boards: number;
  virtualMs: number;
  byKind: Record<string, number>;
  /** Codebreaker presets, variants and modes, and Brain Flip settings, seen in play. */
  reached: Record<string, number>;
  goals: Record<string, number>;
  gamesFinished: number;
  gamesByEnd: Record<string, number>;
  matchesFinished: number;
  flipRoundsFinished: number;
  flipGamesFinished: number;
  powerCuts: number;
  powerCutsMidWrite: number;
  cutStages: Record<string, number>;
  resumesChecked: number;
  framesChecked: number;
  secretFramesLit: number;
  differentialChecks: number;
  differentialSkipped: number;
  consoleScans: number;
  ledRowChecks: number;
  invariantChecks: number;
  saves: number;
}

export function emptyStats(): FuzzStats {
  return {
    events: 0,
    boards: 0,
    virtualMs: 0,
    byKind: {},
    reached: {},
    goals: {},
    gamesFinished: 0,
    gamesByEnd: {},
    matchesFinished: 0,
    flipRoundsFinished: 0,
    flipGamesFinished: 0,
    powerCuts: 0,
    powerCutsMidWrite: 0,
    cutStages: {},
    resumesChecked: 0,
    framesChecked: 0,
    secretFramesLit: 0,
    differentialChecks: 0,
    differentialSkipped: 0,
    consoleScans: 0,
    ledRowChecks: 0,
    invariantChecks: 0,
    saves: 0,
  };
}

export function add(rec: Record<string, number>, key: string, n = 1): void {
  rec[key] = (rec[key] ?? 0) + n;
}

/** Adds `b` into `a`. */
export function mergeStats(a: FuzzStats, b: FuzzStats): FuzzStats {
  for (const k of Object.keys(a) as (keyof FuzzStats)[]) {
    const x = a[k];
    const y = b[k];
    if (typeof x === "number" && typeof y === "number") (a[k] as number) = x + y;
    else for (const [kk, v] of Object.entries(y as Record<string, number>)) add(x as Record<string, number>, kk, v);
  }
  return a;
}

/** An invariant broken: everything needed to replay it. */
export class FuzzViolation extends Error {
  constructor(
    readonly seed: number,
    readonly segment: number,
    readonly eventIndex: number,
    readonly invariant: string,
    readonly details: string[],
    readonly recent: string[],
    readonly replay: string,
  ) {
    super(
      `fuzz violation of ${invariant} at event ${eventIndex} (seed ${seed}, board ${segment}):\n  ${details.join("\n  ")}\n` +
        `last events:\n  ${recent.join("\n  ")}\nreplay: ${replay}`,
    );
    this.name = "FuzzViolation";
  }
}

/** The seed of one segment (board) of a run. */
export function segmentSeed(seed: number, segment: number): number {
  return new Prng((seed ^ Math.imul(segment + 1, 0x9e3779b1)) >>> 0).nextUint32();
}
