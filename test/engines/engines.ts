/**
 * Runs the same play on both engines, the simulator (virtual time) and the real Espruino
 * interpreter (sim/espruino/engine.ts, real time), and records what each showed, so the tests can
 * hold them to agree. The real engine is in $BRAINBOARD_ESPRUINO_DIR; where it is missing the tests
 * that need it say so and skip.
 */
import { readFileSync } from "node:fs";
import { SEGMENT_NAMES, type SegmentName } from "../../hardware/profile.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { espruinoMissing } from "../../sim/espruino/binary.ts";
import { ExpectFailure, parseScript, runCommandsAsync, SCRIPT_BOOT_MS, type Command } from "../../sim/play/script.ts";
import { firmwareBundle } from "../device/helpers.ts";

/** Why the real interpreter cannot run here ("" when it can). */
export const ESPRUINO_MISSING = espruinoMissing("espruino");

export type Engine = "sim" | "espruino";
export type AnyBoard = VirtualBoard | EspruinoBoard;

/** Every segment's colour names, joined in SEGMENT_NAMES order. */
export type Picture = Partial<Record<SegmentName, string[]>>;

export function picture(board: AnyBoard): Picture {
  const have = new Set(board.profile.leds.segments.map((s) => s.name));
  const out: Picture = {};
  for (const s of SEGMENT_NAMES) if (have.has(s)) out[s] = board.colours(s);
  return out;
}

export interface ScriptRun {
  engine: Engine;
  /** The LEDs after each expect and show line. */
  checkpoints: { line: number; at: number; picture: Picture }[];
  /** Every distinct picture with its board time (the simulator's only: for blink phases). */
  history: { at: number; picture: Picture }[];
  console: string[];
  errors: string[];
  expectFailure: string | null;
}

/** A board of either engine, flashed with the built bundle, booted as scripts expect it. */
export async function bootEngine(engine: Engine, opts: { profile?: string; seed?: number } = {}): Promise<AnyBoard> {
  const firmware = firmwareBundle();
  const board: AnyBoard = engine === "sim" ? new VirtualBoard({ firmware, ...opts }) : new EspruinoBoard({ firmware, ...opts });
  await board.powerOn();
  await board.advance(SCRIPT_BOOT_MS);
  return board;
}

export async function closeEngine(board: AnyBoard): Promise<void> {
  if (board instanceof EspruinoBoard) await board.close();
  else board.powerOff();
}

/** Runs a script file on one engine and records its checkpoints. */
export async function runScriptOn(engine: Engine, file: string): Promise<ScriptRun> {
  const commands: Command[] = parseScript(readFileSync(file, "utf8"));
  const board = await bootEngine(engine);
  const run: ScriptRun = { engine, checkpoints: [], history: [], console: [], errors: [], expectFailure: null };
  const off = board.on("leds", () => run.history.push({ at: board.now, picture: picture(board) }));
  run.history.push({ at: board.now, picture: picture(board) });
  try {
    await runCommandsAsync(board, commands, undefined, (cmd) => {
      if (cmd.op === "expect" || cmd.op === "show") run.checkpoints.push({ line: cmd.line, at: board.now, picture: picture(board) });
    });
  } catch (e) {
    if (!(e instanceof ExpectFailure)) {
      await closeEngine(board);
      throw e;
    }
    run.expectFailure = e.message;
  }
  // The simulator runs on a little, so a checkpoint near the end has both phases of a blink to match.
  if (engine === "sim") await board.advance(BLINK_WINDOW_MS);
  off();
  run.console = [...board.consoleLog];
  run.errors = [...board.errors];
  await closeEngine(board);
  return run;
}

/** How far either side of a checkpoint the simulator's pictures count, so a blink's other phase is allowed. */
export const BLINK_WINDOW_MS = 600;

/** The pictures an engine showed within BLINK_WINDOW_MS of a checkpoint, and the one in force at it. */
function around(run: ScriptRun, at: number, atCheckpoint: Picture): Picture[] {
  const near = run.history.filter((h) => Math.abs(h.at - at) <= BLINK_WINDOW_MS).map((h) => h.picture);
  const before = [...run.history].reverse().find((h) => h.at <= at);
  if (before) near.push(before.picture);
  near.push(atCheckpoint);
  return near;
}

/**
 * Where the real engine's checkpoints disagree with the simulator's. Blinks run on each engine's own
 * clock, and real time runs a little longer than the script's, so a checkpoint may catch a blinking
 * pixel in another phase: a pixel agrees when some colour shows there on both engines within
 * BLINK_WINDOW_MS of the same checkpoint. Returns one line per disagreeing pixel.
 */
export function pictureDifferences(sim: ScriptRun, real: ScriptRun): string[] {
  const out: string[] = [];
  if (sim.checkpoints.length !== real.checkpoints.length)
    out.push(`the simulator reached ${sim.checkpoints.length} checkpoints, the interpreter ${real.checkpoints.length}`);
  const n = Math.min(sim.checkpoints.length, real.checkpoints.length);
  for (let i = 0; i < n; i++) {
    const s = sim.checkpoints[i];
    const r = real.checkpoints[i];
    const nearSim = around(sim, s.at, s.picture);
    const nearReal = around(real, r.at, r.picture);
    for (const seg of Object.keys(r.picture) as SegmentName[])
      r.picture[seg]!.forEach((c, px) => {
        const seen = new Set(nearSim.map((p) => p[seg]?.[px]));
        if (!nearReal.some((p) => seen.has(p[seg]?.[px])))
          out.push(`line ${s.line}: ${seg}[${px}] is ${c} on the interpreter, ${s.picture[seg]?.[px]} on the simulator`);
      });
  }
  return out;
}
