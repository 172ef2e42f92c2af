/**
 * npm run bench:real [-- --json]: the unit's speed and memory on the real Espruino interpreter
 * (../shared/tools/espruino), against the bounds of DESIGN.md 5 (issue 13). One run:
 *
 * - picoFactor: a fixed workload (100,000 iterations of the Leibniz loop for pi, whose million took
 *   458 s on an Espruino Pico, Espruino forum 2017) timed here; a Pico estimate is a figure here times it.
 * - Time, on `espruino` with the code run from RAM (the prelude holds the solver tables in RAM, as a
 *   Pico's memory-mapped flash would): full matches of every preset in roles 1 and 2, and roles 4 then 3
 *   (race advanced included), and a 6x6 Brain Flip game, played through keys and LEDs. The board prelude
 *   times every task of the event loop with the interpreter's own clock:
 *   keyMs: median, from the start of a key scan that changed the picture to its neopixel.write;
 *   renderMs: median, from the start of any other task (a blink, a thinking slice) to its write;
 *   stallMaxMs: the longest task of all after boot, each game played TIME_PASSES times and its longest task the
 *   least of its passes' (the clock is the wall's, and a task the OS preempts times longer: the interpreter also
 *   runs at niceness TIME_NICENESS where allowed);
 *   (none of these count the time the prelude spends in its JavaScript model of what a Pico does in C:
 *   digitalWrite/digitalRead on the key matrix, pinMode, setWatch, clearWatch, analogRead/Write; that
 *   time is printed apart as boardModelMs, the total over the time runs);
 *   moveMeanMs / moveMaxMs: the unit's moves as codebreaker, busy time of the event loop from the start
 *   of the task that takes the OK asking for a move (the secret's or an answer's) to the frame that shows
 *   the move (the first from which the board's code pegs stay as the watcher reads them), so the OK's own
 *   task, the key scans while it is held and the thinking light's renders in between count too.
 * - Memory, on `espruino-5100` (a Pico's 5,100 JsVars), with the firmware flashed by `npm run flash` over
 *   telnet and booted from Storage: jsvarsBoot after boot, jsvarsPeak the most in use after any task of a
 *   Brainiac match and a race-advanced game against the unit; both less what the prelude itself holds.
 *
 * BENCH_MOVES=1 lists every move's figure on stderr (variant, game, row).
 *
 * Exits 1 when a bound is not met or the interpreter is missing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildFirmware } from "../../firmware/tools/build.ts";
import type { PresetId } from "../../firmware/core/types.ts";
import { espruinoBinary, espruinoMissing } from "../../sim/espruino/binary.ts";
import { EspruinoBoard, type FrameReport } from "../../sim/espruino/engine.ts";
import { parseScript, runCommandsAsync, SCRIPT_BOOT_MS } from "../../sim/play/script.ts";
import { watchRealTime, type WatchEvent } from "../../sim/play/watch.ts";
import { playKeyedMatch } from "../engines/play.ts";

const { values } = parseArgs({ options: { json: { type: "boolean" }, quick: { type: "boolean" } } });
const log = (s: string) => {
  if (!values.json) console.log(s);
};

/**
 * The time runs' interpreter runs at this niceness where the system allows it: on a shared machine a task the OS
 * preempts (for the host process that reads the board, or anything else) times as a longer task of the firmware's.
 */
const TIME_NICENESS = -10;
const BOUNDS = { keyMs: 1.5, renderMs: 1.5, stallMaxMs: 5, moveMeanMs: 15, moveMaxMs: 60, jsvarsPeak: 3500 };
/** The Leibniz loop: 1,000,000 iterations took 458 s on an Espruino Pico. */
const PICO_LEIBNIZ_S_PER_ITERATION = 458 / 1_000_000;
const CALIBRATION_ITERATIONS = 100_000;

const missing = espruinoMissing("espruino") || espruinoMissing("espruino-5100");
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

/** The calibration workload's time here, in seconds (the best of three). */
function calibrate(): number {
  const dir = mkdtempSync(join(tmpdir(), "brainboard-calibrate-"));
  try {
    const file = join(dir, "leibniz.js");
    writeFileSync(
      file,
      `var t=getTime();var pi=1,x=1;for(var i=2;i<=${CALIBRATION_ITERATIONS};i++){x=x*-1;pi=pi+(x/(2*i-1));}print("LEIBNIZ "+(getTime()-t));quit();\n`,
    );
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      const r = spawnSync(espruinoBinary("espruino")!, [file], { cwd: dir, encoding: "latin1", timeout: 120_000 });
      const m = /LEIBNIZ ([\d.]+)/.exec(r.stdout ?? "");
      if (!m) throw new Error(`the calibration run printed no time:\n${r.stdout}${r.stderr}`);
      times.push(Number(m[1]));
    }
    return Math.min(...times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const calibrationS = calibrate();
const picoFactor = (PICO_LEIBNIZ_S_PER_ITERATION * CALIBRATION_ITERATIONS) / calibrationS;
log(
  `calibration: ${CALIBRATION_ITERATIONS} Leibniz iterations in ${round(calibrationS * 1000, 1)} ms here; picoFactor ${round(picoFactor, 1)}`,
);

const firmware = (await buildFirmware({ out: join(mkdtempSync(join(tmpdir(), "brainboard-bench-")), "firmware.js") })).code;

const keyTimes: number[] = [];
const renderTimes: number[] = [];
const moves: number[] = [];
let stallMax = 0;
/** Time the prelude spent modelling the board's native functions (pins, watches), kept out of every figure above. */
let boardModelMs = 0;
const problems: string[] = [];

/**
 * Each game is played TIME_PASSES times, and a game's longest task is the least of its passes': a task the firmware
 * makes long is long in every pass, while the OS preempts the interpreter at random (with another process wanting the
 * machine's cores, an idle interpreter's clock shows gaps of 4-6 ms). Keys, renders and moves count from every pass.
 */
const TIME_PASSES = 2;

async function timed(what: string, play: (b: EspruinoBoard) => Promise<void>): Promise<void> {
  let longest = Infinity;
  for (let pass = 0; pass < TIME_PASSES; pass++) longest = Math.min(longest, await timedPass(what, play));
  stallMax = Math.max(stallMax, longest);
  log(`  ${what}: longest task ${round(longest)} ms (least of ${TIME_PASSES} passes)`);
}

/** One pass of a game; its longest task (ms). */
async function timedPass(what: string, play: (b: EspruinoBoard) => Promise<void>): Promise<number> {
  const b = new EspruinoBoard({ firmware, niceness: TIME_NICENESS });
  try {
    await b.powerOn();
    await b.advance(SCRIPT_BOOT_MS);
    await b.stats(true);
    const from = b.frames.length;
    await play(b);
    const s = await b.stats();
    boardModelMs += s.hw;
    for (const f of b.frames.slice(from)) {
      if (f.toWrite < 0) continue;
      (f.scan ? keyTimes : renderTimes).push(f.toWrite);
    }
    if (b.errors.length) problems.push(`${what}: ${b.errors.join("; ")}`);
    return s.stallMax;
  } catch (e) {
    problems.push(`${what}: ${(e as Error).message}`);
    return 0;
  } finally {
    await b.close();
  }
}

/** Busy time of the event loop at host time `at`: from the last frame reported by then. */
function busyAt(frames: FrameReport[], at: number): number {
  let busy = 0;
  for (const f of frames) if (f.at <= at) busy = f.busyAt;
  return busy;
}

log("time (espruino, code from RAM):");
const presets: PresetId[] = values.quick ? ["brainiac"] : ["brainiac", "travel", "race"];
for (const preset of presets)
  for (const mode of ["referee", "manual"] as const)
    await timed(`${preset}, role ${mode === "referee" ? 1 : 2}`, (b) => playKeyedMatch(b, preset, mode).then(() => {}));
for (const preset of presets)
  for (const harder of [false, true]) {
    if (values.quick && harder) continue;
    await timed(`${preset}${harder ? " (harder)" : ""}, roles 4 then 3`, async (b) => {
      const okPresses: number[] = [];
      // The board's code pegs after every frame, with the busy time at its write.
      const boards: { busy: number; pegs: string }[] = [];
      const stopWatching = b.on("leds", () => {
        boards.push({ busy: b.frames[b.frames.length - 1].busyAt, pegs: b.colours("board").join() });
      });
      const press = b.press.bind(b);
      b.press = (key: string) => {
        if (key === b.profile.keymap.maker?.ok || key === "p66") okPresses.push(b.now);
        press(key);
      };
      const events: WatchEvent[] = await watchRealTime(b, {
        preset,
        harder,
        games: 2,
        pressMs: 150,
        rowPauseMs: 100,
        gamePauseMs: 300,
        timeoutMs: 60_000,
      });
      stopWatching();
      const end = events[events.length - 1];
      if (end.type !== "stopped" || end.reason !== "done") throw new Error(end.text);
      for (const e of events) {
        if (e.type !== "guess") continue;
        const asked = okPresses.filter((t) => t <= e.at).pop();
        if (asked === undefined) continue;
        // From the start of the task that took the OK (the first key frame after the press): the busy time of the last
        // frame before the press would also hold the scans of the keys before it, held without a frame.
        const okFrame = b.frames.find((f) => f.at >= asked && f.scan);
        const from = okFrame && okFrame.at <= e.at ? okFrame.busyBefore : busyAt(b.frames, asked);
        const seen = busyAt(b.frames, e.at);
        // Back from the frame the watcher read the move in, while the code pegs were already as it read them.
        let k = boards.length - 1;
        while (k >= 0 && boards[k].busy > seen) k--;
        while (k > 0 && boards[k - 1].busy > from && boards[k - 1].pegs === boards[k].pegs) k--;
        moves.push((k >= 0 ? boards[k].busy : seen) - from);
        if (process.env.BENCH_MOVES)
          console.error(`${preset}${harder ? "+" : ""} game ${e.game} row ${e.row}: ${round(moves[moves.length - 1])} ms`);
      }
    });
  }
await timed("Brain Flip 6x6", async (b) => {
  await runCommandsAsync(b, parseScript(readFileSync(new URL("../../sim/scripts/brainflip-game.txt", import.meta.url), "utf8")));
});

log("memory (espruino-5100, flashed with npm run flash over telnet, booted from Storage):");
let jsvarsBoot = NaN;
let jsvarsPeak = NaN;
let jsvarsTotal = NaN;
{
  const base = spawnSync(espruinoBinary("espruino-5100")!, ["-e", 'print("USAGE "+process.memory().usage);quit();'], {
    cwd: mkdtempSync(join(tmpdir(), "brainboard-base-")),
    encoding: "latin1",
    timeout: 30_000,
  });
  const baseline = Number(/USAGE (\d+)/.exec(base.stdout ?? "")?.[1] ?? 0);
  const b = new EspruinoBoard({ firmware, mode: "flash", build: "espruino-5100", trackMemory: true });
  try {
    await b.powerOn();
    await b.advance(500);
    const prelude = b.preludeUsage - baseline;
    const booted = await b.stats(true);
    jsvarsBoot = booted.usage - prelude;
    jsvarsTotal = booted.total;
    await playKeyedMatch(b, "brainiac", "referee");
    const events = await watchRealTime(b, {
      preset: "race",
      harder: true,
      games: 1,
      pressMs: 200,
      rowPauseMs: 100,
      gamePauseMs: 300,
      timeoutMs: 120_000,
    });
    const end = events[events.length - 1];
    if (end.type !== "stopped" || end.reason !== "done") problems.push(`memory run: ${end.text}`);
    const s = await b.stats();
    jsvarsPeak = Math.max(s.memPeak, booted.usage) - prelude;
    log(`  baseline ${baseline}, prelude ${prelude}, boot ${jsvarsBoot}, peak ${jsvarsPeak} of ${jsvarsTotal}`);
    if (b.errors.length) problems.push(`memory run: ${b.errors.join("; ")}`);
  } catch (e) {
    problems.push(`memory run: ${(e as Error).message}`);
  } finally {
    await b.close();
  }
}

const figures = {
  keyMs: round(median(keyTimes), 3),
  renderMs: round(median(renderTimes), 3),
  stallMaxMs: round(stallMax, 3),
  moveMeanMs: round(moves.reduce((a, b) => a + b, 0) / Math.max(1, moves.length), 3),
  moveMaxMs: round(Math.max(0, ...moves), 3),
  jsvarsBoot,
  jsvarsPeak,
};
const pico = {
  keyMs: round(figures.keyMs * picoFactor, 1),
  renderMs: round(figures.renderMs * picoFactor, 1),
  stallMaxMs: round(figures.stallMaxMs * picoFactor, 1),
  moveMeanMs: round(figures.moveMeanMs * picoFactor, 1),
  moveMaxMs: round(figures.moveMaxMs * picoFactor, 1),
};
const checks = Object.entries(BOUNDS).map(([k, bound]) => ({
  what: k,
  value: figures[k as keyof typeof figures],
  bound,
  ok: figures[k as keyof typeof figures] <= bound,
}));
const ok = checks.every((c) => c.ok) && problems.length === 0;
const result = {
  where: "real Espruino 2v29 interpreter (Linux build); time from RAM on espruino, memory from Storage on espruino-5100",
  picoFactor: round(picoFactor, 1),
  ...figures,
  jsvarsTotal,
  boardModelMs: round(boardModelMs, 1),
  samples: { keys: keyTimes.length, renders: renderTimes.length, moves: moves.length },
  pico,
  bounds: BOUNDS,
  ok,
  problems,
};
if (values.json) console.log(JSON.stringify(result, null, 1));
else {
  console.log("\nfigure        here (ms)   Pico estimate (x" + round(picoFactor, 1) + ")   bound here");
  for (const c of checks) {
    const p = (pico as Record<string, number>)[c.what];
    console.log(
      `${c.what.padEnd(12)}  ${String(c.value).padStart(9)}   ${String(p ?? "").padStart(12)}            <= ${c.bound}  ${c.ok ? "ok" : "OVER"}`,
    );
  }
  console.log(`jsvarsBoot    ${jsvarsBoot} of ${jsvarsTotal}`);
  for (const p of problems) console.log(`problem: ${p}`);
}
process.exit(ok ? 0 : 1);
