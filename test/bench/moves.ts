/**
 * npm run bench:moves [-- --json] [--only KEY,KEY] [--games N] [--worst N] [--runs N] [--what move,check,hint]
 *
 * The unit's moves as codebreaker on the real Espruino 2v29 interpreter ($BRAINBOARD_ESPRUINO_DIR),
 * against docs/design.md 5 (issue 13): the solver alone (test/bench/moves-entry.ts, bundled and minified
 * as the firmware is) run from RAM on `espruino`, the tables held in RAM as strings (as a Pico's
 * memory-mapped Storage gives them), sliced as firmware/main.ts slices background work (the solver
 * set up in the key's task, no work there; then slices of SLICE_MS, SOLVER_SLICE evaluations at most,
 * each a task of its own whose first question to stop says "go on").
 *
 * Per variant: `--games` secrets of a fixed uniform sample (the mean is over their moves), plus the
 * `--worst` games with the most evaluations in one move among a larger sample played in Node (for
 * the max). Every game is played `--runs` times and each move's least time is kept (the machine is
 * shared). Figures: busy ms per move, mean and max; the longest uninterrupted piece of work (between
 * two questions to the stop callback, or a slice's start or end); the longest slice. A move is the work
 * after the answer: the unit's pondering between a move and the answer (the rest of an enumeration its
 * guess came before) is the `ponder` row, which a player answering at once would wait for too. Also, with
 * --what: the check of an answer given with the secret in the head (conflict.ts), and the hints
 * after each row. Renders are not included (the firmware re-renders between slices).
 *
 * Exits 1 when a bound is over or the interpreter is missing. Times are the interpreter's clock on
 * this machine ("real interpreter, from RAM"), about 60-100x less than on a Pico.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { codeAt } from "../../firmware/core/codes.ts";
import { codeSpaceSize } from "../../firmware/core/presets.ts";
import { createSolver, solverTableName } from "../../firmware/core/solver.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import type { Code, Row } from "../../firmware/core/types.ts";
import { SOLVER_SLICE } from "../../firmware/ui/codebreaker.ts";
import { sampleSecrets } from "../../firmware/tools/solver/play.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { VARIANTS, variantOf, type Variant } from "../../firmware/tools/solver/variants.ts";
import { espruinoBinary, espruinoMissing } from "../../sim/espruino/binary.ts";

/** firmware/main.ts: SLICE_MS. */
const SLICE_MS = 0.1;
export const MOVE_BOUNDS = { meanMs: 15, maxMs: 60, pieceMs: 2 };
const SEED = 13;

/** As moves-entry.ts prints them (arrays, which the minifier leaves alone): per move ms, longest piece, longest slice, slices. */
type Figures = [number[], number[], number[], number[]];
/** Moves, checks, hints, each move's game, and the pondering after each move. */
type RunResult = [Figures, Figures, Figures, number[], Figures];

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The secrets whose games have the most evaluations in one move, among `pool` (played here in Node, with the unit's own code). */
function hardest(v: Variant, pool: ArrayLike<number>, count: number, exclude: Set<number>): number[] {
  const table = solverTablesFor(5).find((t) => t.name === solverTableName(v.rules))!.bytes;
  const scored: { index: number; evals: number }[] = [];
  for (let k = 0; k < pool.length; k++) {
    const index = pool[k];
    if (exclude.has(index)) continue;
    const secret = codeAt(v.rules, true, index);
    const s = createSolver(v.rules, table);
    const rows: Row[] = [];
    let most = 0;
    while (rows.length < v.rules.rows) {
      s.start(rows);
      const before = s.evals();
      s.step(Infinity);
      most = Math.max(most, s.evals() - before);
      const g = s.guess() as Code;
      s.ponder(Infinity);
      const fb = feedback(g, secret);
      rows.push({ guess: g, feedback: fb });
      if (fb.exact === v.rules.pegs) break;
    }
    scored.push({ index, evals: most });
  }
  scored.sort((a, b) => b.evals - a.evals);
  return scored.slice(0, count).map((x) => x.index);
}

function runOnce(code: string, v: Variant, secrets: Code[], what: string): RunResult {
  const dir = mkdtempSync(join(tmpdir(), "brainboard-moves-"));
  try {
    const tables: Record<string, string> = {};
    for (const t of solverTablesFor(5)) tables[t.name] = Buffer.from(t.bytes).toString("base64");
    const bench = [v.rules.preset, v.rules.harder, secrets, {}, what, SOLVER_SLICE, SLICE_MS];
    const prelude =
      `var BENCH=${JSON.stringify(bench)};` +
      Object.entries(tables)
        .map(([n, b]) => `BENCH[3][${JSON.stringify(n)}]=atob(${JSON.stringify(b)});`)
        .join("") +
      "\n";
    const file = join(dir, "moves.js");
    writeFileSync(file, prelude + code + "\n");
    const r = spawnSync(espruinoBinary("espruino")!, [file], { cwd: dir, encoding: "latin1", timeout: 1_800_000, maxBuffer: 64 << 20 });
    const line = (r.stdout ?? "").split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) throw new Error(`${v.key}: the interpreter printed no result:\n${(r.stdout ?? "").slice(-3000)}${r.stderr ?? ""}`);
    return JSON.parse(line.slice(7)) as RunResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Element-wise minimum of the runs' figures (the same moves in the same order every run). */
function least(runs: Figures[]): Figures {
  const min = (k: number) => runs[0][k].map((_, i) => Math.min(...runs.map((r) => r[k][i])));
  return [min(0), min(1), min(2), min(3)];
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export interface Summary {
  moves: number;
  meanMs: number;
  maxMs: number;
  pieceMs: number;
  sliceMs: number;
}
function summary(f: Figures, take: (i: number) => boolean): Summary {
  const idx = f[0].map((_, i) => i).filter(take);
  const ms = idx.map((i) => f[0][i]);
  return {
    moves: ms.length,
    meanMs: r2(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length)),
    maxMs: r2(Math.max(0, ...ms)),
    pieceMs: r2(Math.max(0, ...idx.map((i) => f[1][i]))),
    sliceMs: r2(Math.max(0, ...idx.map((i) => f[2][i]))),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: "boolean" },
      only: { type: "string" },
      games: { type: "string" },
      worst: { type: "string" },
      runs: { type: "string" },
      what: { type: "string" },
    },
  });
  const missing = espruinoMissing("espruino");
  if (missing) {
    console.error(`bench:moves: ${missing}`);
    process.exit(1);
  }
  const games = Number(values.games ?? 20);
  const worst = Number(values.worst ?? 4);
  const runs = Number(values.runs ?? 3);
  const what = values.what ?? "move";
  const chosen = values.only ? values.only.split(",").map((k) => variantOf(k.trim())) : VARIANTS;
  const out = join(mkdtempSync(join(tmpdir(), "brainboard-moves-build-")), "moves.js");
  const built = await buildFirmware({ entry: ROOT + "test/bench/moves-entry.ts", out });
  const log = (s: string) => {
    if (!values.json) console.log(s);
  };
  log(
    `real interpreter, from RAM (espruino 2v29, Linux build; ~60-100x a Pico); ${games} sampled games + ${worst} hard ones per variant, least of ${runs} runs`,
  );
  const report: Record<string, Record<string, Summary>> = {};
  let over = false;
  for (const v of chosen) {
    const size = codeSpaceSize(v.rules, true);
    const sample = Array.from(sampleSecrets(size, games, SEED));
    const pool = size <= 4000 ? Int32Array.from({ length: size }, (_, i) => i) : sampleSecrets(size, 4000, SEED + 1);
    const hard = worst ? hardest(v, pool, worst, new Set(sample)) : [];
    const secrets = [...sample, ...hard].map((i) => codeAt(v.rules, true, i));
    const results: RunResult[] = [];
    for (let k = 0; k < runs; k++) results.push(runOnce(built.code, v, secrets, what));
    const gameOf = results[0][3];
    const inSample = (i: number) => gameOf[i] < sample.length;
    const all = () => true;
    const row: Record<string, Summary> = {};
    const moves = least(results.map((r) => r[0]));
    if (process.env.MOVES_DEBUG) {
      const i = moves[1].indexOf(Math.max(...moves[1]));
      const g = gameOf[i];
      console.log(
        `  (longest piece: game ${g}, move ${i - gameOf.indexOf(g)}, secret ${secrets[g].join("")}, ${moves[0][i].toFixed(2)} ms in ${moves[3][i]} slices)`,
      );
    }
    row.move = {
      ...summary(moves, inSample),
      maxMs: summary(moves, all).maxMs,
      pieceMs: summary(moves, all).pieceMs,
      sliceMs: summary(moves, all).sliceMs,
    };
    row.ponder = summary(least(results.map((r) => r[4])), all);
    if (what.includes("check") && results[0][1][0].length) row.check = summary(least(results.map((r) => r[1])), all);
    if (what.includes("hint")) row.hint = summary(least(results.map((r) => r[2])), all);
    report[v.key] = row;
    for (const [kind, s] of Object.entries(row)) {
      const bad = (kind === "move" && (s.meanMs > MOVE_BOUNDS.meanMs || s.maxMs > MOVE_BOUNDS.maxMs)) || s.pieceMs > MOVE_BOUNDS.pieceMs;
      over ||= bad;
      log(
        `${v.key.padEnd(10)} ${kind.padEnd(5)}  mean ${String(s.meanMs).padStart(7)} ms  max ${String(s.maxMs).padStart(7)} ms  longest piece ${String(s.pieceMs).padStart(6)} ms  longest slice ${String(s.sliceMs).padStart(6)} ms  (${s.moves} ${kind === "move" ? "sampled moves" : "runs"})${bad ? "  OVER" : ""}`,
      );
    }
  }
  log(
    `bounds (move): mean <= ${MOVE_BOUNDS.meanMs} ms, max <= ${MOVE_BOUNDS.maxMs} ms; every kind: longest piece <= ${MOVE_BOUNDS.pieceMs} ms`,
  );
  log(`bundle of this bench (solver, conflict search, driver): ${built.bytes} bytes`);
  if (values.json)
    console.log(
      JSON.stringify({ where: "real interpreter, from RAM", bounds: MOVE_BOUNDS, games, worst, runs, variants: report }, null, 1),
    );
  process.exitCode = over ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
