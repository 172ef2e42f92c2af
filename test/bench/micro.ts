/**
 * npm run bench:micro [-- --runs N] [--json]: the pieces of a key press and a frame, timed one by one on the
 * real Espruino interpreter ($BRAINBOARD_ESPRUINO_DIR/espruino, code from RAM): test/bench/firmware/micro.ts,
 * bundled as the firmware is, with the board prelude. Each figure is the best of many calls, and the best
 * of N runs of the interpreter, so it holds even on a loaded machine; it is a guide for work on the hot
 * paths (what a change bought), not a bound: bench:real measures the unit as it plays.
 *
 * npm run bench:micro -- --count [--json] [--write] [--only TEXT,TEXT] [--parallel N] [--profile]: the pieces (and a hint, and a
 * move and its slice) counted in interpreter instructions with valgrind's callgrind, and converted to a Pico's milliseconds
 * (test/bench/count.ts). The counts repeat exactly from run to run whatever the machine's load: compare commits
 * with them; --write puts them into docs/performance.md. JSON: { build, leibnizInstructions, instructionsPerPicoSecond, pieces: [{ name, instructions, picoMs }] }.
 * --profile adds, per piece, the interpreter's C functions that take the most of it (their own instructions a piece, as
 * `profile` in the JSON), and the native calls it makes with all they call (`natives`: E.mapInPlace, E.sum...): where a
 * piece's cost goes (the lexer, property lookups, typed-array iterators...). It needs
 * an interpreter built with its symbols (`npm run espruino:build -- --symbols`, with BRAINBOARD_ESPRUINO_DIR naming it).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { espruinoBinary, espruinoMissing } from "../../sim/espruino/binary.ts";
import { benchPrelude, COUNT_BUILD, countMissing, countPieces, strippedProfile, type ProfileLine } from "./count.ts";
import { measuredOn, table, writeBlock } from "./docs-block.ts";

const { values } = parseArgs({
  options: {
    runs: { type: "string" },
    json: { type: "boolean" },
    count: { type: "boolean" },
    only: { type: "string" },
    parallel: { type: "string" },
    write: { type: "boolean" },
    profile: { type: "boolean" },
  },
});
/** The functions shown per piece with --profile. */
const PROFILE_TOP = 12;
if (values.count) {
  const missing = countMissing(values.profile);
  if (missing) {
    console.error(`bench:micro: ${missing}`);
    process.exit(1);
  }
  if (!values.json)
    console.log(`counting instructions with callgrind on ${COUNT_BUILD} (each piece: a run doing it n times less one that does not)`);
  const result = await countPieces({
    only: values.only?.split(",").map((s) => s.trim()),
    parallel: Number(values.parallel ?? 2),
    profile: values.profile ? PROFILE_TOP : undefined,
    progress: (p) => {
      if (values.json) return;
      console.log(`  ${p.name.padEnd(34)} ${String(p.instructions).padStart(12)} instructions  ${p.picoMs.toFixed(2).padStart(9)} Pico ms`);
      const share = (f: ProfileLine) =>
        `      ${f.fn.padEnd(40)} ${String(f.instructions).padStart(10)}  ${((100 * f.instructions) / p.instructions).toFixed(1).padStart(5)}%`;
      if (p.profile) console.log("    its own instructions, by function:");
      for (const f of p.profile ?? []) console.log(share(f));
      if (p.natives?.length) console.log("    native calls, with what they call:");
      for (const f of p.natives ?? []) console.log(share(f));
    },
  });
  const profiled = result.pieces.flatMap((p) => p.profile ?? []);
  if (values.profile && strippedProfile(profiled))
    console.error(
      `bench:micro: ${COUNT_BUILD} is stripped, so its functions are addresses: build one with its symbols (npm run espruino:build -- --source ESPRUINO_CHECKOUT --out DIR --only espruino --symbols) and set BRAINBOARD_ESPRUINO_DIR=DIR`,
    );
  if (values.json) console.log(JSON.stringify(result, null, 1));
  else
    console.log(
      `Leibniz loop: ${result.leibnizInstructions} instructions an iteration, so ${(result.instructionsPerPicoSecond / 1e8).toFixed(3)}e8 instructions a Pico second`,
    );
  if (values.write) {
    if (values.only) throw new Error("bench:micro: --write takes every piece (no --only)");
    await writeBlock(
      "micro",
      `Counted by \`npm run bench:micro -- --count --write\` on ${measuredOn()}: \`${result.build}\` under callgrind, ` +
        `${result.leibnizInstructions.toLocaleString("en")} instructions a Leibniz iteration, so ${(result.instructionsPerPicoSecond / 1e8).toFixed(3)}e8 a Pico second.\n\n` +
        table(
          ["piece", "instructions", "on a Pico"],
          result.pieces.map((p) => [
            p.name,
            p.instructions.toLocaleString("en"),
            p.picoMs >= 1000 ? `${(p.picoMs / 1000).toFixed(2)} s` : `${p.picoMs.toFixed(1)} ms`,
          ]),
        ),
    );
  }
  process.exit(0);
}
const missing = espruinoMissing("espruino");
if (missing) {
  console.error(`bench:micro: ${missing}`);
  process.exit(1);
}
/** Runs run.js until it prints "BENCH END" (then stops it: the prelude's timers would keep it running), 120 s at most. */
function runUntilEnd(dir: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(espruinoBinary("espruino")!, ["run.js"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill();
      fail(new Error(`the interpreter did not finish within 120 s:\n${out.slice(-2000)}`));
    }, 120_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("latin1");
      if (out.includes("BENCH END")) {
        clearTimeout(timer);
        child.kill();
        done(out);
      }
    });
    child.on("exit", () => {
      clearTimeout(timer);
      done(out);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "brainboard-micro-"));
try {
  const bundle = await buildFirmware({ entry: ROOT + "test/bench/firmware/micro.ts", out: join(dir, "micro.js") });
  const prelude = benchPrelude();
  writeFileSync(join(dir, "run.js"), prelude + bundle.code);
  const best: Record<string, number> = {};
  for (let run = 0; run < Number(values.runs ?? 5); run++) {
    const stdout = await runUntilEnd(dir);
    for (const line of stdout.split("\n")) {
      const m = /^BENCH (.+) ([\d.]+)$/.exec(line.trim());
      if (m) best[m[1]] = Math.min(best[m[1]] ?? Infinity, Number(m[2]));
      else if (/Uncaught|Error/.test(line)) throw new Error(`the interpreter said: ${line}`);
    }
  }
  if (values.json) console.log(JSON.stringify({ where: "real interpreter (espruino, Linux build), from RAM; ms, best of runs", ...best }));
  else {
    console.log("real interpreter (Linux build), code from RAM; best time of each piece, ms:");
    for (const [what, ms] of Object.entries(best)) console.log(`  ${what.padEnd(24)} ${ms.toFixed(3)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
