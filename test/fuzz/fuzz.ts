/**
 * npm run fuzz -- [--events N] [--seed S] [--board-events B] [--jobs J] [--segment K[,K...]] [--trace-from I]
 *                 [--guarded] [--no-build] [--json]
 *
 * Builds the bundle (unless --no-build), then runs the fuzzer (test/fuzz/fuzzer.ts): N events (default
 * 100,000) from seed S (default: the time), on boards of B events each (default 20,000), in J child
 * processes (default: one per core). Prints what it covered. On the first broken invariant it prints the
 * seed, the event index, the recent events and a replay command, and exits 1.
 *
 * Boards run without the wall-clock guard on firmware calls (it costs ~0.17 ms a call); a call that never
 * returns is caught from outside (no progress for 60 s: the child is killed, reported as a hang). --guarded
 * puts the guard back (slower; use it to replay a hang). --segment K runs only board K of the run, and
 * --trace-from I prints every event from global index I on: together they replay a failure in seconds.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { buildFirmware, DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { DEFAULT_PROFILE } from "../../hardware/profile.ts";
import { FuzzHang, FuzzViolation, runFuzzInChildren, type FuzzStats } from "./fuzzer.ts";

function table(rec: Record<string, number>): string {
  return Object.entries(rec)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `    ${String(v).padStart(9)}  ${k}`)
    .join("\n");
}

export function report(s: FuzzStats, wallMs: number): string {
  const hours = (s.virtualMs / 3600000).toFixed(1);
  return [
    `events: ${s.events} on ${s.boards} boards, ${hours} h of virtual time, in ${(wallMs / 1000).toFixed(1)} s (${((wallMs * 1000) / Math.max(1, s.events)).toFixed(0)} us/event)`,
    `events by kind:\n${table(s.byKind)}`,
    `goals played toward: ${Object.keys(s.goals).length}\n${table(s.goals)}`,
    `presets / variants / modes and Brain Flip settings reached (saves in each): ${Object.keys(s.reached).length}\n${table(s.reached)}`,
    `games finished: ${s.gamesFinished} (${Object.entries(s.gamesByEnd)
      .map(([k, v]) => `${v} ${k}`)
      .join(", ")}); matches finished: ${s.matchesFinished}`,
    `Brain Flip rounds finished: ${s.flipRoundsFinished}; Brain Flip games finished: ${s.flipGamesFinished}`,
    `saves: ${s.saves}; power cuts: ${s.powerCuts} (${s.powerCutsMidWrite} in the middle of a write); resumes checked LED by LED: ${s.resumesChecked}`,
    `cut writes by stage:\n${table(s.cutStages)}`,
    `frames checked: ${s.framesChecked} (${s.secretFramesLit} with the secret segment lit); LED row checks: ${s.ledRowChecks}`,
    `secrecy: ${s.differentialChecks} differential renders (${s.differentialSkipped} skipped: no other consistent secret), ${s.consoleScans} console scans`,
    `invariant checks passed: ${s.invariantChecks + s.differentialChecks + s.framesChecked}`,
  ].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: "string", default: "100000" },
      seed: { type: "string" },
      "board-events": { type: "string", default: "20000" },
      jobs: { type: "string" },
      segment: { type: "string" },
      "trace-from": { type: "string" },
      guarded: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      profile: { type: "string", default: DEFAULT_PROFILE },
    },
  });
  const events = Number(values.events);
  const seed = values.seed === undefined ? Date.now() % 1000000 : Number(values.seed);
  const boardEvents = Number(values["board-events"]);
  if (!(events > 0 && boardEvents > 0 && Number.isInteger(seed))) throw new Error("--events, --board-events and --seed must be numbers");
  if (!values["no-build"]) await buildFirmware({ profile: values.profile });
  const segments = values.segment?.split(",").map(Number);
  const boards = Math.ceil(events / boardEvents);
  const jobs = Math.min(values.jobs ? Number(values.jobs) : availableParallelism(), segments ? segments.length : boards);
  console.log(`fuzz: seed ${seed}, ${events} events, boards of ${boardEvents}, ${jobs} jobs${values.guarded ? ", guarded" : ""}`);
  const t0 = Date.now();
  let lastShown = 0;
  try {
    const stats = await runFuzzInChildren(
      {
        seed,
        events,
        boardEvents,
        firmwarePath: DEFAULT_OUT,
        profile: values.profile,
        fast: !values.guarded,
        traceFrom: values["trace-from"] === undefined ? undefined : Number(values["trace-from"]),
      },
      {
        jobs,
        segments,
        log: (line) => console.log(line),
        progress: (done, total) => {
          if (Date.now() - lastShown < 10000 && done < total) return;
          lastShown = Date.now();
          console.log(`  ${done} / ${total} events (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
        },
      },
    );
    console.log(values.json ? JSON.stringify(stats, null, 1) : report(stats, Date.now() - t0));
  } catch (e) {
    if (e instanceof FuzzViolation || e instanceof FuzzHang) {
      console.error(`\nFAILED (seed ${seed}, event ${e instanceof FuzzViolation ? e.eventIndex : e.lastIndex}):\n${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}

await main();
