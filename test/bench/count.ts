/**
 * Counted, not timed: the instructions the real interpreter executes for one piece of the unit's work, with valgrind's
 * callgrind (Debian's `valgrind`): the interpreter's own thread (the first) executes exactly the same instructions from
 * run to run however loaded the machine is. A piece (test/bench/firmware/count.ts) is counted as the difference between a run that does it `n` times and
 * one that only prepares it, over `n`. The Leibniz loop for pi (a million iterations took 458 s on an Espruino Pico)
 * is counted in the same way, and gives the conversion to a Pico's milliseconds.
 *
 * The build counted is `espruino` (64-bit): its counts repeat as well as `espruino-pico`'s and it runs about three
 * times faster under valgrind; the Pico conversion comes from the same build's Leibniz count, so it cancels out.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { loadProfile } from "../../hardware/profile.ts";
import { codeAt } from "../../firmware/core/codes.ts";
import { createSolver, solverTableName } from "../../firmware/core/solver.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import type { Code, Row } from "../../firmware/core/types.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { espruinoBinary, espruinoMissing, type EspruinoBuild } from "../../sim/espruino/binary.ts";
import { preludeSource } from "../../sim/espruino/prelude.ts";

/** The Leibniz loop on an Espruino Pico: 458 s for 1,000,000 iterations (Espruino forum, 2017). */
export const PICO_MS_PER_LEIBNIZ_ITERATION = 458_000 / 1_000_000;
const LEIBNIZ_ITERATIONS = 100_000;
/** The build whose instructions are counted. */
export const COUNT_BUILD: EspruinoBuild = "espruino";
/**
 * The race advanced game the hint and move pieces play: this secret (its index among race advanced secrets), whose 5th
 * move is a long search (the table's book ends at three rows, and the unit enumerates).
 */
const RACE_SECRET_INDEX = 38024;

/**
 * Repetitions per piece: enough that the cost of the piece's own preparation, counted in the run that does it n times
 * and not in the other, is small beside n pieces.
 */
const REPEATS: Record<string, number> = {
  "scan (idle)": 40,
  "scan (key held)": 40,
  "scan (takes a key)": 40,
  "scan's pin stubs (a row)": 400,
  "ui key (colour or undo)": 40,
  "render (menu)": 40,
  "render (game in play)": 40,
  "pixels.show (changed)": 40,
  "pixels.show (same)": 40,
  "re-render (a blink: render, show)": 40,
  "pixels.show's LED write stand-in": 40,
  "scheduler's task (run)": 40,
  "key's frame (ui, render, show)": 40,
  "OK game start vs unit (ui, render, show)": 10,
  "OK game start vs unit (whole key task)": 10,
  "OK game start vs unit: after its frame (a task of its own)": 10,
  "game start: the unit's secret (slice, render, show)": 10,
  "game start: the unit's solver made (slice)": 10,
  "game start (manual): the hints' solver made (slice)": 10,
  "game start (manual): the hints' first search (slice)": 10,
  "OK guess row 1 vs unit (ui, render, show)": 10,
  "OK guess row 6 vs unit (ui, render, show)": 10,
  "OK answer row 1 (ui, render, show)": 10,
  "OK's save (guess row 6 vs unit)": 10,
  "OK answer row 1 (ui only)": 10,
  "OK guess row 6 vs unit (ui only)": 10,
  "game start: the unit's secret (slice only)": 10,
  "OK answer row 1 to the unit's guess (whole)": 10,
  "OK's save JSON only (guess row 6 vs unit)": 10,
  "hint race+ after row 1 (example)": 10,
  "hint race+ after row 2 (example)": 6,
  "move slice race+ row 5": 20,
};
/** Pieces not named above (hints, moves) are long: once is enough. */
const DEFAULT_REPEATS = 1;

export interface CountedPiece {
  name: string;
  /** Interpreter instructions for one piece (the difference of the two runs, over n). */
  instructions: number;
  /** The same in a Pico's milliseconds (instructions over the Leibniz loop's per iteration, times a Pico's 0.458 ms). */
  picoMs: number;
  /** With `profile`: where they go, the interpreter's C functions by their own instructions a piece, the most first. */
  profile?: ProfileLine[];
  /** With `profile`: the native functions the piece calls (Espruino's jswrap_*), with all they call, the most first. */
  natives?: ProfileLine[];
}

/** One of the interpreter's C functions: its own instructions (its callees' not counted) in one piece. */
export interface ProfileLine {
  fn: string;
  instructions: number;
}

/** callgrind_annotate, beside valgrind (Debian's valgrind package has both). */
function annotatePath(): string | undefined {
  const v = valgrindPath();
  const p = v && join(dirname(v), "callgrind_annotate");
  return p && existsSync(p) ? p : undefined;
}

/**
 * The functions' own instructions in callgrind_annotate's output (`--auto=no`; with `inclusive`, of `--inclusive=yes`,
 * with all they call): its table's lines
 * `12,345 ( 1.23%)  src/file.c:function [binary]`, by function name (a name seen twice is summed).
 */
export function parseAnnotate(text: string, inclusive = false): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(?:\S*:)?(\S+)(?:\s+\[.*\])?\s*$/.exec(line);
    if (!m || m[2] === "TOTALS") continue;
    // (A recursive function's deeper calls are listed as name'2, name'3...: one function, whose outermost calls hold them
    // all when inclusive.)
    if (inclusive && /'\d+$/.test(m[2])) continue;
    const fn = m[2].replace(/'\d+$/, "");
    out.set(fn, (out.get(fn) ?? 0) + Number(m[1].replace(/,/g, "")));
  }
  return out;
}

/** Per function, what the run doing the piece `n` times has more than the other, over n: the `top` largest. */
export function profileDiff(without: Map<string, number>, withPiece: Map<string, number>, n: number, top: number): ProfileLine[] {
  const lines: ProfileLine[] = [];
  for (const [fn, count] of withPiece) {
    const instructions = Math.round((count - (without.get(fn) ?? 0)) / n);
    if (instructions > 0) lines.push({ fn, instructions });
  }
  return lines.sort((a, b) => b.instructions - a.instructions).slice(0, top);
}

/**
 * The functions in a callgrind file (callgrind_annotate, Debian's valgrind): their own instructions, or (`inclusive`)
 * with all they call.
 */
function annotate(file: string, inclusive: boolean): Promise<Map<string, number>> {
  return new Promise((done, fail) => {
    const child = spawn(annotatePath()!, [`--inclusive=${inclusive ? "yes" : "no"}`, "--threshold=100", "--auto=no", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.on("error", fail);
    child.on("exit", (code) =>
      code === 0 ? done(parseAnnotate(out, inclusive)) : fail(new Error(`callgrind_annotate ${file} failed (exit ${code})`)),
    );
  });
}

/** Function names of a stripped interpreter are addresses: its profile says little. */
export function strippedProfile(lines: ProfileLine[]): boolean {
  return lines.length > 0 && lines.filter((l) => /^0x[0-9a-f]+/.test(l.fn)).length * 2 > lines.length;
}
export interface CountResult {
  build: EspruinoBuild;
  /** Interpreter instructions per Leibniz iteration, and the Pico conversion it gives. */
  leibnizInstructions: number;
  instructionsPerPicoSecond: number;
  pieces: CountedPiece[];
}

export function countMissing(profile?: boolean): string {
  const m = espruinoMissing(COUNT_BUILD);
  if (m) return m;
  if (!valgrindPath()) return "valgrind is not installed (Debian: apt-get install valgrind)";
  return profile && !annotatePath() ? "--profile needs callgrind_annotate beside valgrind (Debian's valgrind has it)" : "";
}

function valgrindPath(): string | undefined {
  return ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].find((p) => existsSync(p));
}

/** Runs `file` (in `dir`) under callgrind; resolves to the instructions counted. */
function callgrind(dir: string, file: string, expect: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(
      valgrindPath()!,
      // (Per thread: the Linux build's console thread polls its input in a loop with pauses, so its count grows with the
      // run's wall time; only the interpreter's own thread, the first, is counted.)
      ["--tool=callgrind", "--separate-threads=yes", `--callgrind-out-file=${join(dir, file + ".cg")}`, espruinoBinary(COUNT_BUILD)!, file],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.stderr.on("data", (d: Buffer) => (err += d.toString("latin1")));
    child.on("error", fail);
    child.on("exit", () => {
      const main = join(dir, file + ".cg-01");
      const m = existsSync(main) ? /^summary: (\d+)$/m.exec(readFileSync(main, "latin1")) : null;
      const bad = /Uncaught|COUNT ERROR/.exec(out);
      if (bad || !out.includes(expect) || !m)
        fail(new Error(`the counted run of ${file} failed:\n${out.slice(-2000)}\n${err.slice(-1000)}`));
      else done(Number(m[1]));
    });
  });
}

/** Runs jobs, at most `parallel` at a time. */
async function pool<T>(jobs: (() => Promise<T>)[], parallel: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return results;
}

/**
 * The scan's pin stand-ins (test/bench/firmware/fixtures.ts's scanner() switches them on): as cheap as a Pico's native
 * digitalWrite and digitalRead, on a matrix with at most one key closed. They are the global pin functions before the
 * bundle runs, because the bundle takes the pin functions into locals of its outer function as it starts
 * (firmware/tools/alias-globals.ts): a replacement made later would not reach its scan. Switched off, they hand on to
 * the board prelude's modelled pins. Their state is an array, BENCH_PINS (the minifier renames properties, not
 * indices): [on, key held, rows driven, the held key's row bit, columns open, columns with the key closed, the
 * prelude's digitalWrite, its digitalRead].
 */
const PIN_STAND_INS =
  "var BENCH_PINS=[0,0,0,0,0,0,digitalWrite,digitalRead];global.BENCH_PINS=BENCH_PINS;" +
  "global.digitalWrite=function(p,v){var s=BENCH_PINS;if(s[0])s[2]=v;else s[6](p,v);};" +
  "global.digitalRead=function(p){var s=BENCH_PINS;if(!s[0])return s[7](p);return s[1]&&!(s[2]&s[3])?s[5]:s[4];};\n";

/**
 * The board prelude of bench:micro's firmware sides (timed and counted): no link, no reports, the code in RAM; then
 * the scan's pin stand-ins.
 */
export function benchPrelude(): string {
  return (
    preludeSource(loadProfile("r1-pico"), {
      bounceMs: 0,
      seed: 1,
      reportFrames: false,
      batteryVolts: 4,
      usb: true,
      ram: true,
      tapHoldMs: 60,
    }) + PIN_STAND_INS
  );
}

/** The race advanced game: the unit's own guesses against RACE_SECRET_INDEX, as [...guess, exact, near] rows. */
export function raceGame(): number[][] {
  const rules = rulesFor("race", true);
  const table = solverTablesFor(5).find((t) => t.name === solverTableName(rules))!.bytes;
  const secret = codeAt(rules, true, RACE_SECRET_INDEX);
  const s = createSolver(rules, table);
  const rows: Row[] = [];
  while (rows.length < rules.rows) {
    s.start(rows);
    s.step(Infinity);
    const g = s.guess() as Code;
    s.ponder(Infinity);
    const fb = feedback(g, secret);
    rows.push({ guess: g, feedback: fb });
    if (fb.exact === rules.pegs) break;
  }
  return rows.map((r) => [...r.guess, r.feedback.exact, r.feedback.near]);
}

/** The pieces' names, in the firmware side's order. */
async function pieceNames(dir: string, head: (name: string, n: number, work: number) => string, body: string): Promise<string[]> {
  return new Promise((done, fail) => {
    writeFileSync(join(dir, "list.js"), head("list", 0, 0) + body);
    const child = spawn(espruinoBinary(COUNT_BUILD)!, ["list.js"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.on("exit", () => {
      const m = /COUNT PIECES (.+)/.exec(out);
      if (m) done(JSON.parse(m[1]) as string[]);
      else fail(new Error(`the count bundle listed no pieces:\n${out.slice(-2000)}`));
    });
  });
}

/**
 * Counts the pieces whose names contain one of `only` (all when empty), and the Leibniz loop. `parallel` callgrind
 * runs at a time (the counts do not depend on it). `progress` hears each piece as it is counted.
 */
export async function countPieces(
  opts: { only?: string[]; parallel?: number; progress?: (p: CountedPiece) => void; profile?: number } = {},
): Promise<CountResult> {
  const dir = mkdtempSync(join(tmpdir(), "brainboard-count-"));
  try {
    const bundle = await buildFirmware({ entry: ROOT + "test/bench/firmware/count.ts", out: join(dir, "count.js") });
    const rules = rulesFor("race", true);
    const table = solverTablesFor(5).find((t) => t.name === solverTableName(rules))!.bytes;
    const prelude = benchPrelude();
    const game = JSON.stringify(raceGame());
    const tableText = JSON.stringify(Buffer.from(table).toString("base64"));
    const brainiac = rulesFor("brainiac", false);
    const brainiacTable = solverTablesFor(5).find((t) => t.name === solverTableName(brainiac))!.bytes;
    const brainiacText = JSON.stringify(Buffer.from(brainiacTable).toString("base64"));
    // The clock is fixed (the pieces move it); the name and n are padded so that both runs' files have the same length.
    const head = (name: string, n: number, work: number) =>
      `var COUNT=[${JSON.stringify(name.padEnd(40))}.trim(),${String(n).padStart(6)},${work},${game},atob(${tableText}),atob(${brainiacText})];` +
      `global.__clock=1;global.getTime=function(){return global.__clock;};\n`;
    const body = prelude + bundle.code;
    const names = (await pieceNames(dir, head, body)).filter((n) => !opts.only?.length || opts.only.some((o) => n.includes(o)));
    const leibniz = async (): Promise<number> => {
      const file = (n: number) =>
        `var n=${String(n).padStart(8)};var pi=1,x=1;for(var i=2;i<=n;i++){x=x*-1;pi=pi+(x/(2*i-1));}print("LEIBNIZ DONE");quit();\n`;
      writeFileSync(join(dir, "leibniz-0.js"), file(1));
      writeFileSync(join(dir, "leibniz-n.js"), file(LEIBNIZ_ITERATIONS + 1));
      const [a, b] = await Promise.all([callgrind(dir, "leibniz-0.js", "LEIBNIZ DONE"), callgrind(dir, "leibniz-n.js", "LEIBNIZ DONE")]);
      return (b - a) / LEIBNIZ_ITERATIONS;
    };
    const leibnizInstructions = await leibniz();
    const perPicoMs = PICO_MS_PER_LEIBNIZ_ITERATION / leibnizInstructions;
    const pieces = await pool(
      names.map((name, k) => async (): Promise<CountedPiece> => {
        const n = REPEATS[name] ?? DEFAULT_REPEATS;
        const runs: number[] = [];
        for (const work of [0, 1]) {
          // Each run in a directory of its own: its Storage (the file espruino.flash there) starts empty.
          const runDir = join(dir, `piece-${k}-${work}`);
          mkdirSync(runDir);
          writeFileSync(join(runDir, "piece.js"), head(name, n, work) + body);
          runs.push(await callgrind(runDir, "piece.js", "COUNT DONE"));
        }
        const instructions = Math.round((runs[1] - runs[0]) / n);
        const p: CountedPiece = { name, instructions, picoMs: Math.round(instructions * perPicoMs * 100) / 100 };
        if (opts.profile) {
          const file = (work: number) => join(dir, `piece-${k}-${work}`, "piece.js.cg-01");
          const [without, withPiece, withoutAll, withPieceAll] = await Promise.all([
            annotate(file(0), false),
            annotate(file(1), false),
            annotate(file(0), true),
            annotate(file(1), true),
          ]);
          p.profile = profileDiff(without, withPiece, n, opts.profile);
          const natives = (m: Map<string, number>) => new Map([...m].filter(([fn]) => fn.startsWith("jswrap_")));
          p.natives = profileDiff(natives(withoutAll), natives(withPieceAll), n, opts.profile);
        }
        opts.progress?.(p);
        return p;
      }),
      opts.parallel ?? 2,
    );
    return {
      build: COUNT_BUILD,
      leibnizInstructions: Math.round(leibnizInstructions),
      instructionsPerPicoSecond: Math.round(1000 / perPicoMs),
      pieces,
    };
  } finally {
    if (!process.env.BENCH_COUNT_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}
