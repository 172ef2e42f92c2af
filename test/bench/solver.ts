/**
 * npm run bench:solver [-- --json [FILE]] [--only KEY,KEY] [--ponder N]
 *
 * The unit as codebreaker (GitHub issue 8), per variant: the committed table played by the unit's
 * own solver (firmware/core/solver.ts) against every secret (or, for a variant that states one, the
 * generator's fixed uniform sample), in slices of SLICE evaluations. Prints average and worst guesses, mean and max feedback
 * evaluations per move done on the unit, table bytes and the published figure, with PASS/FAIL
 * against the targets; --json writes the same as JSON to stdout or FILE. Counts only (guesses,
 * evaluations, bytes): no timing. Exits 1 when a target is not met.
 *
 * With --ponder N it also plays the same games with a player who answers once the unit has pondered N evaluations
 * (a Pico ponders a few hundred in a player's few seconds; 0: the player answers at once), and prints per variant the
 * guesses and the moves' Pico ms (evaluations priced as an enumeration's, work.ts) beside those with the pondering
 * done: what the moves cost when the player is quicker than the unit (no targets of its own).
 */
import * as esbuild from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildFirmware, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";
import { STATE_RESERVE_BYTES } from "../../firmware/tools/flash.ts";
import { solverTablesFor, storageUse } from "../../firmware/tools/tables.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { SOLVER_SLICE } from "../../firmware/ui/codebreaker.ts";
import { codeSpaceSize } from "../../firmware/core/presets.ts";
import { measuredSecrets } from "../../firmware/tools/solver/generate.ts";
import { playAll } from "../../firmware/tools/solver/play.ts";
import {
  MOVE_EVALS_MAX,
  MOVE_EVALS_MEAN,
  TABLES_BYTES_MAX,
  TABLES_DIR,
  VARIANTS,
  variantOf,
  type Variant,
} from "../../firmware/tools/solver/variants.ts";

/** Evaluations per solverStep call, as the firmware slices its work. */
const SLICE = SOLVER_SLICE;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface BenchRow {
  key: string;
  name: string;
  games: number;
  allSecrets: boolean;
  averageGuesses: number;
  worstGuesses: number;
  unsolved: number;
  meanEvalsPerMove: number;
  maxEvalsPerMove: number;
  /** The moves' Pico ms, their evaluations priced as an enumeration's (work.ts). */
  meanMoveMs: number;
  maxMoveMs: number;
  sliceOverruns: number;
  tableBytes: number;
  published: string;
  targets: { average: string; worst: string; evals: string };
  pass: { average: boolean; worst: boolean; evals: boolean };
}

export function benchVariant(v: Variant): BenchRow {
  const table = new Uint8Array(readFileSync(TABLES_DIR + v.storageName + ".bin"));
  const secrets = measuredSecrets(v, codeSpaceSize(v.rules, true));
  const s = playAll(v.rules, table, { secrets, slice: SLICE });
  const average = s.guesses / s.games;
  const meanEvals = s.evals / s.moves;
  const plainEntropyOnly = v.key === "travel+" || v.key === "race+";
  return {
    key: v.key,
    name: v.name,
    games: s.games,
    allSecrets: !secrets,
    averageGuesses: average,
    worstGuesses: s.worst,
    unsolved: s.unsolved,
    meanEvalsPerMove: meanEvals,
    maxEvalsPerMove: s.maxMoveEvals,
    meanMoveMs: s.moveMs / s.moves,
    maxMoveMs: s.maxMoveMs,
    sliceOverruns: s.budgetOverruns,
    tableBytes: table.length,
    published: v.published,
    targets: {
      average: plainEntropyOnly ? `< ${v.targetAverage} (plain entropy)` : `<= ${v.targetAverage}`,
      worst: v.targetWorst ? `<= ${v.targetWorst}` : "-",
      evals: `mean <= ${MOVE_EVALS_MEAN}, max <= ${MOVE_EVALS_MAX}`,
    },
    pass: {
      average: s.unsolved === 0 && (plainEntropyOnly ? average < v.targetAverage : average <= v.targetAverage + 1e-9),
      worst: !v.targetWorst || s.worst <= v.targetWorst,
      evals: meanEvals <= MOVE_EVALS_MEAN && s.maxMoveEvals <= MOVE_EVALS_MAX && s.budgetOverruns === 0,
    },
  };
}

/** What the unit imports of the solver: the state's methods do the rest (the wrapper functions are for tools and tests). */
export const UNIT_API = ["createSolver", "createHintState", "solverTableName"];

/** Minified bytes of the device-side solver API (esbuild, as the firmware build minifies). */
export async function solverCodeBytes(): Promise<number> {
  const entry = `import { ${UNIT_API.join(", ")} } from "./firmware/core/solver"; import { createConflictSearch } from "./firmware/core/conflict"; globalThis.solver = [${UNIT_API.join(", ")}, createConflictSearch];`;
  const out = await esbuild.build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2015",
    write: false,
    logLevel: "silent",
  });
  const base = await esbuild.build({
    stdin: {
      contents: `import { codeSpaceSize } from "./firmware/core/presets"; import { codeAt } from "./firmware/core/codes"; globalThis.x = [codeSpaceSize, codeAt];`,
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2015",
    write: false,
    logLevel: "silent",
  });
  // codeSpaceSize and codeAt are in the firmware already (the unit draws its secrets with them): count only what the solver adds.
  return out.outputFiles[0].contents.length - base.outputFiles[0].contents.length;
}

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { json: { type: "boolean" }, only: { type: "string" }, ponder: { type: "string" } },
    allowPositionals: true,
  });
  const chosen = values.only ? values.only.split(",").map((k) => variantOf(k.trim())) : VARIANTS;
  const rows = chosen.map(benchVariant);
  const tableBytes = rows.reduce((a, r) => a + r.tableBytes, 0);
  const codeBytes = await solverCodeBytes();
  // Issue 8: the bundle (with the solver in it) and all the tables fit R1's Storage with 4 KB left for saved state.
  const built = await buildFirmware();
  const storageTotal = BOARDS.pico.storageBytes;
  // (.bootcde holds the bundle pretokenised: its image's size is what Storage holds.)
  const storageUsed = storageUse(built.imageBytes, solverTablesFor(5), BOARDS.pico.storagePageBytes);
  const report = {
    slice: SLICE,
    rows,
    tables: { bytes: tableBytes, bound: TABLES_BYTES_MAX, pass: tableBytes <= TABLES_BYTES_MAX },
    solverCode: { bytes: codeBytes },
    storage: {
      imageBytes: built.imageBytes,
      imageBound: STORED_BOUND_BYTES,
      used: storageUsed,
      total: storageTotal,
      left: storageTotal - storageUsed,
      reserve: STATE_RESERVE_BYTES,
      pass: built.imageBytes <= STORED_BOUND_BYTES && storageTotal - storageUsed >= STATE_RESERVE_BYTES,
    },
  };
  if (values.json) {
    const text = JSON.stringify(report, null, 2) + "\n";
    if (positionals[0]) writeFileSync(positionals[0], text);
    else process.stdout.write(text);
  } else {
    const lines: string[][] = [
      ["variant", "games", "average", "target", "worst", "target", "evals/move mean", "max", "table bytes", "published", ""],
    ];
    for (const r of rows) {
      lines.push([
        r.key,
        `${r.games}${r.allSecrets ? " (all)" : " (sample)"}`,
        r.averageGuesses.toFixed(4),
        `${r.targets.average} ${verdict(r.pass.average)}`,
        String(r.worstGuesses),
        `${r.targets.worst} ${verdict(r.pass.worst)}`,
        r.meanEvalsPerMove.toFixed(0),
        `${r.maxEvalsPerMove} ${verdict(r.pass.evals)}`,
        String(r.tableBytes),
        r.published,
        r.pass.average && r.pass.worst && r.pass.evals ? "PASS" : "FAIL",
      ]);
    }
    const widths = lines[0].map((_, c) => Math.max(...lines.map((l) => l[c].length)));
    for (const l of lines) console.log(l.map((cell, c) => cell.padEnd(widths[c])).join("  "));
    console.log(`\nslices of ${SLICE} evaluations; evaluation targets: mean <= ${MOVE_EVALS_MEAN}, max <= ${MOVE_EVALS_MAX} per move`);
    console.log(`tables: ${tableBytes} bytes in all (bound ${TABLES_BYTES_MAX}) ${verdict(report.tables.pass)}`);
    console.log(`device-side solver code, minified (esbuild alone): ${codeBytes} bytes`);
    const st = report.storage;
    console.log(
      `R1 Storage: firmware as stored ${st.imageBytes} bytes (bound ${st.imageBound}) + all tables = ${st.used} of ${st.total} bytes; ${st.left} left (at least ${st.reserve}) ${verdict(st.pass)}`,
    );
  }
  if (values.ponder !== undefined) {
    const ponder = Number(values.ponder);
    if (!(ponder >= 0)) throw new Error(`--ponder takes a number of evaluations (0 or more), not "${values.ponder}"`);
    console.log(
      `\nmoves with the pondering done, and with the answer after at most ${ponder} evaluations pondered (Pico ms as work.ts prices them):`,
    );
    console.log("variant     games  guesses (done / quick)  move mean (done / quick)  move worst (done / quick)");
    chosen.forEach((v, i) => {
      // (With the pondering done: the games above.)
      const done = rows[i];
      const table = new Uint8Array(readFileSync(TABLES_DIR + v.storageName + ".bin"));
      const secrets = measuredSecrets(v, codeSpaceSize(v.rules, true));
      const quick = playAll(v.rules, table, { secrets, slice: SLICE, ponder });
      const f = (x: number) => x.toFixed(3);
      const ms = (x: number) => `${Math.round(x)} ms`;
      console.log(
        [
          v.key.padEnd(10),
          String(done.games).padStart(6),
          `${f(done.averageGuesses)} / ${f(quick.guesses / quick.games)}`.padStart(23),
          `${ms(done.meanMoveMs)} / ${ms(quick.moveMs / quick.moves)}`.padStart(25),
          `${ms(done.maxMoveMs)} / ${ms(quick.maxMoveMs)}`.padStart(26),
        ].join("  "),
      );
    });
  }
  const failed = rows.some((r) => !(r.pass.average && r.pass.worst && r.pass.evals)) || !report.tables.pass || !report.storage.pass;
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
