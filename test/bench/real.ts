/**
 * npm run bench:real [-- --json] [--quick] [--write]: the unit's speed and memory on the real Espruino interpreter
 * ($BRAINBOARD_ESPRUINO_DIR), held to bounds in a Pico's terms (docs/performance.md). One run:
 *
 * - picoFactor: a fixed workload (CALIBRATION_ITERATIONS of the Leibniz loop for pi, whose million took 458 s on an
 *   Espruino Pico, Espruino forum 2017) timed here before every game played for time; the factor is the median of
 *   those samples (one sample moves with the machine's load: between 43 and 78 in one day), and a Pico estimate is a
 *   figure here times it.
 * - Time, on `espruino` with the code run from RAM (the prelude holds the solver tables in RAM, as a Pico's
 *   memory-mapped flash would): full matches of every preset in roles 1 and 2, roles 4 then 3 in every variant (race
 *   advanced included), and a 6x6 Brain Flip game, played through keys and LEDs. The board prelude times every task
 *   of the event loop with the interpreter's own clock:
 *   keyMs: median, from the start of a key scan that changed the picture to its neopixel.write;
 *   renderMs: median, from the start of any other task (a blink, a thinking slice) to its write;
 *   stallMaxMs: the longest task of all after boot, each game played TIME_PASSES times and its longest task the
 *   least of its passes' (a task the OS preempts times longer; the interpreter also runs at niceness TIME_NICENESS
 *   where allowed);
 *   (none of these count the time the prelude spends in its JavaScript model of what a Pico does in C:
 *   digitalWrite/digitalRead on the key matrix, pinMode, setWatch, clearWatch, analogRead/Write; that time is
 *   printed apart as boardModelMs, the total over the time runs);
 *   moveMeanMs / moveMaxMs: the unit's moves as codebreaker, hintMeanMs / hintMaxMs: the hints asked at every row of
 *   your games (test/bench/real-play.ts says from when to when), also per variant in `hints`.
 * - Memory, on `espruino-pico` (a Pico's 5,100 JsVars of 13 bytes), with the firmware flashed by `npm run flash` over
 *   telnet and booted from Storage: jsvarsBoot after boot, jsvarsPeak the most in use after any task of a Brainiac
 *   match and a race advanced game each way against the unit (hints asked); both less what the prelude holds.
 *
 * BENCH_MOVES=1 lists every move's figure on stderr. --quick plays Brainiac and race advanced only (one pass). --memory
 * does the memory run alone (the time figures are then not measured, so the run never passes).
 * --write puts the figures into docs/performance.md. Exits 1 when a bound is missed or the interpreter is missing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildFirmware } from "../../firmware/tools/build.ts";
import type { PresetId } from "../../firmware/core/types.ts";
import { espruinoBinary, espruinoMissing, type EspruinoBuild } from "../../sim/espruino/binary.ts";
import { EspruinoBoard, type EngineStats } from "../../sim/espruino/engine.ts";
import { parseScript, runCommandsAsync, SCRIPT_BOOT_MS } from "../../sim/play/script.ts";
import { playKeyedMatch } from "../engines/play.ts";
import { playAgainstUnit } from "./real-play.ts";
import { measuredOn, table, writeBlock } from "./docs-block.ts";

const { values } = parseArgs({
  options: { json: { type: "boolean" }, quick: { type: "boolean" }, write: { type: "boolean" }, memory: { type: "boolean" } },
});
const log = (s: string) => {
  if (!values.json) console.log(s);
};

/**
 * The time runs' interpreter runs at this niceness where the system allows it: on a shared machine a task the OS
 * preempts (for the host process that reads the board, or anything else) times as a longer task of the firmware's.
 */
const TIME_NICENESS = -10;
/** The bounds, each a Pico estimate (ms) but JsVars (docs/performance.md says why these). */
export const BOUNDS = {
  keyMs: 60,
  renderMs: 50,
  stallMaxMs: 250,
  moveMeanMs: 600,
  moveMaxMs: 2500,
  hintMaxMs: 3000,
  jsvarsPeak: 3500,
};
/** The Leibniz loop: 1,000,000 iterations took 458 s on an Espruino Pico. */
const PICO_LEIBNIZ_S_PER_ITERATION = 458 / 1_000_000;
const CALIBRATION_ITERATIONS = 100_000;
/** Where JsVars are counted: a Pico's layout (13-byte JsVars, 5,100 of them). */
const MEMORY_BUILD: EspruinoBuild = "espruino-pico";

const missing = espruinoMissing("espruino") || espruinoMissing(MEMORY_BUILD);
if (missing) {
  console.error(`bench:real: ${missing}`);
  process.exit(1);
}

function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
/** Of no samples: NaN (reported as not measured, never as a figure that meets its bound). */
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const max = (xs: number[]) => (xs.length ? Math.max(...xs) : NaN);

/** Pico factors, one per calibration run through the bench. */
const factors: number[] = [];
/** Times the calibration workload once and keeps its Pico factor. */
function calibrate(): void {
  const dir = mkdtempSync(join(tmpdir(), "brainboard-calibrate-"));
  try {
    const file = join(dir, "leibniz.js");
    writeFileSync(
      file,
      `var t=getTime();var pi=1,x=1;for(var i=2;i<=${CALIBRATION_ITERATIONS};i++){x=x*-1;pi=pi+(x/(2*i-1));}print("LEIBNIZ "+(getTime()-t));quit();\n`,
    );
    // At the time runs' niceness (where allowed; else nice says so and runs it as it is): on a loaded machine a
    // calibration run at a lower priority than the runs it converts waits for a core far more often, and a factor
    // from it comes out several times too low.
    const r = spawnSync("nice", ["-n", String(TIME_NICENESS), espruinoBinary("espruino")!, file], {
      cwd: dir,
      encoding: "latin1",
      timeout: 120_000,
    });
    const m = /LEIBNIZ ([\d.]+)/.exec(r.stdout ?? "");
    if (!m) throw new Error(`the calibration run printed no time:\n${r.stdout}${r.stderr}`);
    factors.push((PICO_LEIBNIZ_S_PER_ITERATION * CALIBRATION_ITERATIONS) / Number(m[1]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const firmware = (await buildFirmware({ out: join(mkdtempSync(join(tmpdir(), "brainboard-bench-")), "firmware.js") })).code;

const keyTimes: number[] = [];
const renderTimes: number[] = [];
const moves: number[] = [];
/** Hint ms here, per variant ("race+"...). */
const hintsByVariant: Record<string, number[]> = {};
let stallMax = 0;
/** Which task the longest was: the game, and what was going on (see describeStall). */
let stallTask = "";
/** Time the prelude spent modelling the board's native functions (pins, watches), kept out of every figure above. */
let boardModelMs = 0;
const problems: string[] = [];

/**
 * Each game is played TIME_PASSES times, and a game's longest task is the least of its passes': a task the firmware
 * makes long is long in every pass, while the OS preempts the interpreter at random (with another process wanting the
 * machine's cores, an idle interpreter's clock shows gaps of 4-6 ms). Keys, renders, moves and hints count from every pass.
 */
const TIME_PASSES = values.quick ? 1 : 2;

/** What the host did during a game, by the LED frames reported by then: the keys pressed and the watcher's events. */
type Notes = { n: number; text: string }[];
/** A game's play: `note` records what it is doing (a key, a row, a hint), to say which task was the longest. */
type Play = (b: EspruinoBoard, note: (text: string) => void) => Promise<void>;

async function timed(what: string, play: Play): Promise<void> {
  let longest = { ms: Infinity, task: "" };
  for (let pass = 0; pass < TIME_PASSES; pass++) {
    calibrate();
    const p = await timedPass(what, play);
    if (p.ms < longest.ms) longest = p;
  }
  if (longest.ms > stallMax) {
    stallMax = longest.ms;
    stallTask = `${what}: ${longest.task}`;
  }
  log(`  ${what}: longest task ${round(longest.ms)} ms (least of ${TIME_PASSES} passes): ${longest.task}`);
}

/**
 * Which task was the longest, from the prelude's stats (stallAt: the LED frames written by its end) and what the host
 * was doing by then: the task that wrote that frame (a key's scan, or another task: a render, a slice of thought, a
 * save) or one after it, with the last key pressed and the watcher's last event before it.
 */
function describeStall(b: EspruinoBoard, s: EngineStats, notes: Notes): string {
  const at = s.stallAt;
  const f = b.frames.find((x) => x.n === at);
  // (The prelude says whether the longest task wrote a frame: one that did may have run on well after its write.)
  const kind = !f
    ? `a task before the first LED frame`
    : s.stallWrote
      ? `the task that wrote LED frame ${at} (${f.scan ? "a key's scan" : "not a key's: a render, a slice of thought or a save"}; ${round(f.busyAt - f.busyBefore, 3)} ms here to its write, ${round(s.stallMax, 3)} ms in all)`
      : `a task after LED frame ${at}, writing none (a slice of thought, a save or a scan)`;
  const before = notes.filter((x) => x.n <= at);
  const key = [...before].reverse().find((x) => x.text.startsWith("key "));
  const event = [...before].reverse().find((x) => !x.text.startsWith("key "));
  return [kind, key && `after ${key.text}`, event && `after "${event.text}"`].filter(Boolean).join(", ");
}

/** One pass of a game; its longest task (ms) and which it was. */
async function timedPass(what: string, play: Play): Promise<{ ms: number; task: string }> {
  const b = new EspruinoBoard({ firmware, niceness: TIME_NICENESS });
  const notes: Notes = [];
  const note = noteTaker(b, notes);
  try {
    await b.powerOn();
    await b.advance(SCRIPT_BOOT_MS);
    await b.stats(true);
    const from = b.frames.length;
    await play(b, note);
    const s = await b.stats();
    boardModelMs += s.hw;
    for (const f of b.frames.slice(from)) {
      if (f.toWrite < 0) continue;
      (f.scan ? keyTimes : renderTimes).push(f.toWrite);
    }
    if (b.errors.length) problems.push(`${what}: ${b.errors.join("; ")}`);
    return { ms: s.stallMax, task: describeStall(b, s, notes) };
  } catch (e) {
    problems.push(`${what}: ${(e as Error).message}`);
    return { ms: 0, task: "failed" };
  } finally {
    await b.close();
  }
}

/** Records into `notes` each key pressed on `b`, and returns a function that records what the play is doing. */
function noteTaker(b: EspruinoBoard, notes: Notes): (text: string) => void {
  const frameN = () => (b.frames.length ? b.frames[b.frames.length - 1].n : 0);
  const note = (text: string) => {
    notes.push({ n: frameN(), text });
  };
  const press = b.press.bind(b);
  b.press = (key: string) => {
    note(`key ${key}`);
    press(key);
  };
  return note;
}

const moveLog = process.env.BENCH_MOVES ? (line: string) => console.error(line) : undefined;

if (!values.memory) await timeRuns();

async function timeRuns(): Promise<void> {
  log("time (espruino, code from RAM):");
  const presets: PresetId[] = values.quick ? ["brainiac"] : ["brainiac", "travel", "race"];
  for (const preset of presets)
    for (const mode of ["referee", "manual"] as const)
      await timed(`${preset}, role ${mode === "referee" ? 1 : 2}`, (b) => playKeyedMatch(b, preset, mode).then(() => {}));
  const variants: [PresetId, boolean][] = values.quick
    ? [["race", true]]
    : (["brainiac", "travel", "race"] as PresetId[]).flatMap((p) => [false, true].map((h) => [p, h] as [PresetId, boolean]));
  for (const [preset, harder] of variants)
    await timed(`${preset}${harder ? " (harder)" : ""}, roles 4 then 3`, async (b, note) => {
      const log = (line: string) => {
        note(line.trim());
        moveLog?.(line);
      };
      const r = await playAgainstUnit(b, preset, harder, { games: 2, hints: true, log });
      moves.push(...r.moves);
      (hintsByVariant[preset + (harder ? "+" : "")] ??= []).push(...r.hints);
    });
  if (!values.quick)
    await timed("Brain Flip 6x6", async (b) => {
      await runCommandsAsync(b, parseScript(readFileSync(new URL("../../sim/scripts/brainflip-game.txt", import.meta.url), "utf8")));
    });
  calibrate();
}

log(`memory (${MEMORY_BUILD}, flashed with npm run flash over telnet, booted from Storage):`);
let jsvarsBoot = NaN;
let jsvarsPeak = NaN;
let jsvarsTotal = NaN;
/** When the memory's peak came (the LED frame by then, the last key and event). */
let jsvarsPeakTask = "";
/** Why the memory run gave no figures (its first line), when it failed. */
let memoryFailure = "";
{
  const base = spawnSync(espruinoBinary(MEMORY_BUILD)!, ["-e", 'print("USAGE "+process.memory().usage);quit();'], {
    cwd: mkdtempSync(join(tmpdir(), "brainboard-base-")),
    encoding: "latin1",
    timeout: 30_000,
  });
  const baseline = Number(/USAGE (\d+)/.exec(base.stdout ?? "")?.[1] ?? 0);
  const b = new EspruinoBoard({ firmware, mode: "flash", build: MEMORY_BUILD, trackMemory: true, answerTimeoutMs: 180_000 });
  const notes: Notes = [];
  const note = noteTaker(b, notes);
  try {
    await b.powerOn();
    await b.advance(500);
    const prelude = b.preludeUsage - baseline;
    const booted = await b.stats(true);
    jsvarsBoot = booted.usage - prelude;
    jsvarsTotal = booted.total;
    note("the Brainiac match (role 1)");
    await playKeyedMatch(b, "brainiac", "referee");
    note("race advanced against the unit (roles 4 then 3)");
    await playAgainstUnit(b, "race", true, { games: 2, hints: true, pressMs: 200, hintTimeoutMs: 600_000, log: (l) => note(l.trim()) });
    const s = await b.stats();
    jsvarsPeak = Math.max(s.memPeak, booted.usage) - prelude;
    const at = (s as EngineStats & { memPeakAt?: number }).memPeakAt ?? -1;
    const before = notes.filter((x) => x.n <= at);
    const key = [...before].reverse().find((x) => x.text.startsWith("key "));
    const event = [...before].reverse().find((x) => !x.text.startsWith("key "));
    jsvarsPeakTask = [`after LED frame ${at}`, key && `after ${key.text}`, event && `after "${event.text}"`].filter(Boolean).join(", ");
    log(`  baseline ${baseline}, prelude ${prelude}, boot ${jsvarsBoot}, peak ${jsvarsPeak} of ${jsvarsTotal} (${jsvarsPeakTask})`);
    if (b.errors.length) problems.push(`memory run: ${b.errors.join("; ")}`);
  } catch (e) {
    problems.push(`memory run: ${(e as Error).message}`);
    memoryFailure = (e as Error).message.split("\n")[0];
  } finally {
    await b.close();
  }
}

const picoFactor = median(factors);
const hints = Object.values(hintsByVariant).flat();
const figures = {
  keyMs: round(median(keyTimes), 3),
  renderMs: round(median(renderTimes), 3),
  stallMaxMs: round(stallMax, 3),
  moveMeanMs: round(mean(moves), 3),
  moveMaxMs: round(max(moves), 3),
  hintMeanMs: round(mean(hints), 3),
  hintMaxMs: round(max(hints), 3),
  jsvarsBoot,
  jsvarsPeak,
};
const toPico = (ms: number) => round(ms * picoFactor, 1);
const pico = {
  keyMs: toPico(figures.keyMs),
  renderMs: toPico(figures.renderMs),
  stallMaxMs: toPico(figures.stallMaxMs),
  moveMeanMs: toPico(figures.moveMeanMs),
  moveMaxMs: toPico(figures.moveMaxMs),
  hintMeanMs: toPico(figures.hintMeanMs),
  hintMaxMs: toPico(figures.hintMaxMs),
};
const hintsPico = Object.fromEntries(
  Object.entries(hintsByVariant).map(([v, xs]) => [v, { hints: xs.length, meanMs: toPico(mean(xs)), maxMs: toPico(max(xs)) }]),
);
const checked: Record<string, number> = { ...pico, jsvarsPeak };
/** Why a figure has no value (never NaN in the report): the memory run failed, or nothing of the kind was timed. */
function notMeasured(what: string): string {
  if (what.startsWith("jsvars")) return memoryFailure || "the memory run gave no figure";
  if (values.memory) return "the time runs were left out (--memory)";
  return `nothing of the kind was timed (${problems.length ? "see the problems" : "no samples"})`;
}
/** A figure not measured counts as a missed bound, with the reason. */
const checks = Object.entries(BOUNDS).map(([what, bound]) => {
  const value = checked[what];
  if (!Number.isFinite(value)) return { what, value: null, bound, ok: false, notMeasured: notMeasured(what) };
  return { what, value, bound, ok: value <= bound };
});
if (!hints.length) problems.push("no hint was measured");
const ok = checks.every((c) => c.ok) && problems.length === 0;
const result = {
  where: `real Espruino 2v29 interpreter (Linux builds); time from RAM on espruino, memory from Storage on ${MEMORY_BUILD}`,
  jsvarsBuild: MEMORY_BUILD,
  picoFactor: round(picoFactor, 1),
  picoFactorRange: [round(Math.min(...factors), 1), round(Math.max(...factors), 1)],
  calibrations: factors.length,
  ...figures,
  jsvarsTotal,
  /** Which task was the longest (the game, the frame and what was going on). */
  stallTask,
  /** When the JsVars' peak came. */
  jsvarsPeakTask,
  boardModelMs: round(boardModelMs, 1),
  samples: { keys: keyTimes.length, renders: renderTimes.length, moves: moves.length, hints: hints.length },
  pico,
  hints: hintsPico,
  bounds: BOUNDS,
  checks,
  ok,
  problems,
};
if (values.json) console.log(JSON.stringify(result, null, 1));
else {
  console.log(`\nPico factor ${result.picoFactor} (median of ${factors.length} calibrations, ${result.picoFactorRange.join(" to ")})`);
  console.log("figure        here (ms)   Pico estimate   bound (Pico)");
  for (const c of checks) {
    const here = (figures as Record<string, number>)[c.what];
    console.log(
      `${c.what.padEnd(12)}  ${String(c.what === "jsvarsPeak" || c.value === null ? "" : here).padStart(9)}   ${String(c.value ?? "-").padStart(13)}   <= ${String(c.bound).padEnd(6)} ${c.ok ? "ok" : "MISSED"}${c.notMeasured ? ` (not measured: ${c.notMeasured})` : ""}`,
    );
  }
  for (const [v, h] of Object.entries(hintsPico))
    console.log(`  hints ${v.padEnd(10)} ${h.hints} asked, mean ${h.meanMs} ms, worst ${h.maxMs} ms (Pico)`);
  console.log(`jsvarsBoot    ${Number.isFinite(jsvarsBoot) ? `${jsvarsBoot} of ${jsvarsTotal}` : "not measured"} (${MEMORY_BUILD})`);
  if (stallTask) console.log(`longest task  ${stallTask}`);
  for (const p of problems) console.log(`problem: ${p}`);
}
if (values.write) await writeBlock("real", docsBlock());
process.exit(ok ? 0 : 1);

/** The figures for docs/performance.md. */
function docsBlock(): string {
  const names: Record<string, string> = {
    keyMs: "a key's frame (median)",
    renderMs: "a re-render (median)",
    stallMaxMs: "the longest task",
    moveMeanMs: "the unit's move, mean",
    moveMaxMs: "the unit's move, worst",
    hintMaxMs: "a hint, worst (every variant)",
    jsvarsPeak: "JsVars at the peak",
  };
  const sec = (ms: number) => (!Number.isFinite(ms) ? "not measured" : ms >= 1000 ? `${round(ms / 1000, 2)} s` : `${round(ms, 0)} ms`);
  const rows = checks.map((c) => [
    names[c.what] ?? c.what,
    c.value === null ? "not measured" : c.what === "jsvarsPeak" ? String(c.value) : sec(c.value),
    c.what === "jsvarsPeak" ? String(c.bound) : sec(c.bound),
    c.ok ? "met" : "**missed**",
  ]);
  const hintRows = Object.entries(hintsPico).map(([v, h]) => [v, h.hints, sec(h.meanMs), sec(h.maxMs)]);
  return [
    `Measured by \`npm run bench:real -- --write\`${values.quick ? " (--quick)" : ""} on ${measuredOn()}; Pico factor ${result.picoFactor} (median of ${factors.length} calibrations, ${result.picoFactorRange.join(" to ")}); JsVars on \`${MEMORY_BUILD}\`. ${ok ? "Every bound met." : "Not every bound met."}`,
    "",
    `- A key lights its LEDs about ${sec(pico.keyMs)} after the scan that sees it (the median key; a re-render, ${sec(pico.renderMs)}).`,
    `- Nothing holds the unit up longer than about ${sec(pico.stallMaxMs)}: a key pressed meanwhile waits that long for its frame${stallTask ? ` (the longest task: ${stallTask})` : ""}.`,
    `- As codebreaker the unit takes about ${sec(pico.moveMeanMs)} a move on average and ${sec(pico.moveMaxMs)} at worst, after the answer's OK.`,
    `- A hint asked with a row shows within ${sec(pico.hintMaxMs)} at worst, ${sec(pico.hintMeanMs)} on average.`,
    !Number.isFinite(jsvarsPeak)
      ? `- JsVars not measured: ${notMeasured("jsvarsPeak")}.`
      : `- The firmware holds ${jsvarsBoot} JsVars after boot and ${jsvarsPeak} at the peak (${jsvarsPeakTask}), of ${jsvarsTotal}.`,
    "",
    table(["on a Pico", "estimate", "bound", ""], rows),
    "",
    table(["hints by variant", "asked", "mean", "worst"], hintRows),
    ...(problems.length ? ["", ...problems.map((p) => `- problem: ${p}`)] : []),
  ].join("\n");
}
