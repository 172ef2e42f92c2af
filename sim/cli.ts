/**
 * npm run sim -- --script FILE [--engine sim|espruino] [--json] [--profile NAME] [--bounce MS] [--seed N] [--storage FILE]
 *                [--show-secret] [--firmware FILE] [--no-color]
 * npm run sim -- --watch [--preset brainiac|travel|race] [--harder] [--games N] [--head] [--seed N] [--json] ...
 *
 * Runs a script (sim/play/script.ts) against the firmware on the virtual board, headless: the bundle is
 * built for the profile (or --firmware FILE is used), the board is powered on and booted, the
 * commands run in virtual time, and the board is printed as text at the end and at every `show`
 * (or, with --json, as one JSON document). Exit status 1 when the script is bad, an `expect`
 * failed, or the firmware recorded errors.
 *
 * --watch plays the person's side of a match against the unit instead (sim/play/watch.ts), in virtual
 * time, and prints every row and every game's result as it goes (or, with --json, one JSON event a
 * line). Exit status 1 when the watcher had to stop on something it could not play on from.
 */
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadProfile, ProfileError, type Profile } from "../hardware/profile.ts";
import { BuildError } from "../firmware/tools/build.ts";
import { EspruinoBoard } from "./espruino/engine.ts";
import type { LedBoard } from "./views/view.ts";
import { bundleFor, readBundle } from "./board/firmware-bundle.ts";
import {
  bootBoard,
  CapExceeded,
  ExpectFailure,
  parseScript,
  runCommands,
  runCommandsAsync,
  SCRIPT_BOOT_MS,
  ScriptError,
  type Command,
} from "./play/script.ts";
import { formatBoard } from "./views/text.ts";
import { segmentViews, type PixelView } from "./views/view.ts";
import { Watcher, type WatchEvent } from "./play/watch.ts";
import { PRESET_IDS } from "../firmware/core/presets.ts";
import type { PresetId } from "../firmware/core/types.ts";

const USAGE = `usage: npm run sim -- --script FILE [options]
       npm run sim -- --watch [--preset NAME] [--harder] [--games N] [--head] [options]

  --script FILE     the commands to run (- for standard input); see docs/playing.md
  --engine NAME     sim (default: the simulator, virtual time) or espruino (the real interpreter where
                    BRAINBOARD_ESPRUINO_DIR points, from RAM, in real time)
  --json            print the result as JSON (every segment's pixels as palette names and RGB)
  --profile NAME    hardware profile (default r1-pico); the bundle is built for it
  --firmware FILE   run this bundle instead of building one
  --bounce MS       key contact bounce in ms (default 5; 0 for clean edges)
  --seed N          seed for key bounce and the firmware's randomness (default 1)
  --storage FILE    keep the unit's Storage in this JSON file (default: in memory)
  --show-secret     print the secret segment (hidden by default, as under the shield)
  --no-color        plain text even on a terminal

  --watch           watch the unit play: the simulator plays your side of a match against the unit
                    (the unit breaks first; when the roles switch, it breaks the unit's code with the
                    unit's own solver), in virtual time; prints every row and every game's result
  --preset NAME     with --watch: brainiac, travel or race (default: the unit's menu choice)
  --harder          with --watch: the harder variant (extra challenge, expert, advanced)
  --games N         with --watch: stop after N games (default: the end of the match)
  --head            with --watch: keep the code in the head (OK on an empty secret) instead of keying it
  --json            with --watch: one JSON event a line`;

/** One JSON snapshot of the board (the --json form; `shows` holds one per `show` command). */
export interface BoardJson {
  now: number;
  on: boolean;
  segments: Record<string, { name: string; rgb: [number, number, number] }[]>;
  tone: { freq: number } | null;
}

export interface CliJson extends BoardJson {
  profile: string;
  battery: { volts: number; usb: boolean };
  console: string[];
  errors: string[];
  warnings: string[];
  shows: (BoardJson & { line: number })[];
  expectFailure: { line: number; message: string } | null;
}

/** The board as JSON; the segments under the codemaker's shield are reported off unless `showSecret` (as the text form hides them). */
export function boardJson(board: LedBoard, showSecret = false): BoardJson {
  const segments: Record<string, PixelView[]> = segmentViews(board);
  if (!showSecret)
    for (const sg of board.profile.leds.segments)
      if (sg.shielded && segments[sg.name]) segments[sg.name] = segments[sg.name].map((): PixelView => ({ name: "off", rgb: [0, 0, 0] }));
  return { now: board.now, on: board.isOn, segments, tone: board.tone };
}

/** The most bytes a script file may have: it is refused before it is read (the server takes 64 KB a request). */
export const MAX_SCRIPT_BYTES = 1 << 20;

/** Text for the terminal: control characters (a script's escapes, bells) shown as \xHH, not sent raw. */
export function terminalSafe(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
}

function red(text: string, colour: boolean): string {
  return colour ? `\x1b[31m${text}\x1b[0m` : text;
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        script: { type: "string" },
        json: { type: "boolean" },
        profile: { type: "string" },
        firmware: { type: "string" },
        bounce: { type: "string" },
        seed: { type: "string" },
        storage: { type: "string" },
        "show-secret": { type: "boolean" },
        "no-color": { type: "boolean" },
        watch: { type: "boolean" },
        preset: { type: "string" },
        harder: { type: "boolean" },
        games: { type: "string" },
        head: { type: "boolean" },
        engine: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const errColour = !!process.stderr.isTTY && !values["no-color"] && !process.env.NO_COLOR;
  const outColour = !!process.stdout.isTTY && !values["no-color"] && !process.env.NO_COLOR;
  const fail = (msg: string) => {
    console.error(red(terminalSafe(msg), errColour));
    return 1;
  };
  if (values.watch) {
    if (values.script) return fail(`--watch and --script do not go together\n\n${USAGE}`);
    return watchMain(values, fail);
  }
  if (!values.script) return fail(`--script FILE (or --watch) is required\n\n${USAGE}`);
  const number = (name: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number >= 0, got "${v}"`);
    return n;
  };

  let profile: Profile;
  let commands: Command[];
  let bounceMs: number | undefined;
  let seed: number | undefined;
  try {
    bounceMs = number("bounce", values.bounce);
    seed = number("seed", values.seed);
    profile = loadProfile(values.profile);
    if (values.script !== "-" && statSync(values.script).size > MAX_SCRIPT_BYTES)
      return fail(`${values.script}: ${statSync(values.script).size} bytes; a script may have at most ${MAX_SCRIPT_BYTES} bytes`);
    const text = values.script === "-" ? readFileSync(0, "utf8") : readFileSync(values.script, "utf8");
    if (text.length > MAX_SCRIPT_BYTES) return fail(`${values.script}: a script may have at most ${MAX_SCRIPT_BYTES} bytes`);
    commands = parseScript(text, profile);
  } catch (e) {
    if (e instanceof ScriptError) return fail(e.message.replace(/^line /gm, `${values.script}: line `));
    if (e instanceof ProfileError) return fail(e.message);
    return fail(`error: ${(e as Error).message}`);
  }

  let firmware: string;
  try {
    firmware = values.firmware ? readBundle(values.firmware) : (await bundleFor(values.profile)).code;
  } catch (e) {
    if (e instanceof BuildError) return fail(`build failed: ${e.message}`);
    return fail(`error: ${(e as Error).message}`);
  }

  const report = { profile, script: values.script, json: !!values.json, showSecret: !!values["show-secret"], outColour, fail };
  const engine = values.engine ?? "sim";
  if (engine !== "sim" && engine !== "espruino") return fail(`--engine needs sim or espruino, got "${engine}"`);
  if (engine === "espruino") {
    if (values.storage) return fail("--storage is for the simulator's engine: the real interpreter keeps Storage in its own flash file");
    return espruinoScript({ ...report, firmware, bounceMs, seed, commands });
  }
  const board = bootBoard({ profile, firmware, bounceMs, seed, storageFile: values.storage });
  return runAndReport(board, (onShow) => runCommands(board, commands, onShow), report);
}

/** What the report reads of a board, on either engine. */
type ReportBoard = LedBoard & { consoleLog: string[]; errors: string[]; warnings: string[] };

/** Runs a script through `run` and prints the board at each show and at the end; the exit status. */
async function runAndReport(
  board: ReportBoard,
  run: (onShow: (cmd: Command) => void) => void | Promise<void>,
  o: { profile: Profile; script: string; json: boolean; showSecret: boolean; outColour: boolean; fail: (msg: string) => number },
): Promise<number> {
  const shows: (BoardJson & { line: number })[] = [];
  let expectFailure: ExpectFailure | null = null;
  try {
    await run((cmd) => {
      if (o.json) shows.push({ line: cmd.line, ...boardJson(board, o.showSecret) });
      else console.log(formatBoard(board, { showSecret: o.showSecret, colour: o.outColour, title: `show (line ${cmd.line})` }) + "\n");
    });
  } catch (e) {
    if (e instanceof CapExceeded) return o.fail(`${o.script}: ${e.message}`);
    if (!(e instanceof ExpectFailure)) return o.fail(`error: ${(e as Error).message}`);
    expectFailure = e;
  }
  if (o.json) {
    const out: CliJson = {
      profile: o.profile.id,
      ...boardJson(board, o.showSecret),
      battery: board.battery,
      console: board.consoleLog,
      errors: board.errors,
      warnings: board.warnings,
      shows,
      expectFailure: expectFailure && { line: expectFailure.line, message: expectFailure.message },
    };
    console.log(JSON.stringify(out, null, 1));
  } else {
    console.log(formatBoard(board, { showSecret: o.showSecret, colour: o.outColour, title: "end" }));
    for (const line of board.consoleLog) if (!board.errors.includes(line)) console.log(`console: ${terminalSafe(line)}`);
  }
  let status = 0;
  for (const e of board.errors) status = o.fail(`firmware error: ${e}`);
  if (expectFailure) status = o.fail(`${o.script}: ${expectFailure.message}`);
  return status;
}

/** --engine espruino: the script on the real interpreter, from RAM, in real time; the same output. */
async function espruinoScript(a: {
  profile: Profile;
  firmware: string;
  bounceMs?: number;
  seed?: number;
  commands: Command[];
  script: string;
  json: boolean;
  showSecret: boolean;
  outColour: boolean;
  fail: (msg: string) => number;
}): Promise<number> {
  let board: EspruinoBoard;
  try {
    board = new EspruinoBoard({ profile: a.profile, firmware: a.firmware, bounceMs: a.bounceMs, seed: a.seed });
  } catch (e) {
    return a.fail(`error: ${(e as Error).message}`);
  }
  try {
    return await runAndReport(
      board,
      async (onShow) => {
        await board.powerOn();
        await board.advance(SCRIPT_BOOT_MS);
        await runCommandsAsync(board, a.commands, onShow);
      },
      a,
    );
  } finally {
    await board.close();
  }
}

interface WatchArgs {
  json?: boolean;
  profile?: string;
  firmware?: string;
  bounce?: string;
  seed?: string;
  storage?: string;
  preset?: string;
  harder?: boolean;
  games?: string;
  head?: boolean;
}

/** --watch: the watcher plays a match against the unit in virtual time and prints what happens. */
async function watchMain(values: WatchArgs, fail: (msg: string) => number): Promise<number> {
  const whole = (name: string, v: string | undefined, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} needs a whole number >= ${min}, got "${v}"`);
    return n;
  };
  let profile: Profile;
  let games: number | undefined;
  let seed: number | undefined;
  let bounceMs: number | undefined;
  try {
    if (values.preset !== undefined && !PRESET_IDS.includes(values.preset as PresetId))
      throw new Error(`--preset needs one of ${PRESET_IDS.join(", ")}, got "${values.preset}"`);
    games = whole("games", values.games, 1);
    seed = whole("seed", values.seed, 0);
    bounceMs = whole("bounce", values.bounce, 0);
    profile = loadProfile(values.profile);
  } catch (e) {
    return fail(e instanceof ProfileError ? e.message : `error: ${(e as Error).message}`);
  }
  let firmware: string;
  try {
    firmware = values.firmware ? readBundle(values.firmware) : (await bundleFor(values.profile)).code;
  } catch (e) {
    if (e instanceof BuildError) return fail(`build failed: ${e.message}`);
    return fail(`error: ${(e as Error).message}`);
  }
  const board = bootBoard({ profile, firmware, bounceMs, seed, storageFile: values.storage });
  let watcher: Watcher;
  try {
    watcher = new Watcher(board, {
      preset: values.preset as PresetId | undefined,
      harder: values.harder,
      games,
      seed,
      secret: values.head ? "head" : "keyed",
    });
  } catch (e) {
    return fail(`error: ${(e as Error).message}`);
  }
  let status = 0;
  watcher.on((e: WatchEvent) => {
    if (values.json) console.log(JSON.stringify(e));
    else if (e.type === "guess")
      return; // the row's line follows, with the answer
    else if (e.type === "stopped" && e.reason === "error") status = fail(e.text);
    else console.log(`${(e.at / 1000).toFixed(1).padStart(7)} s  ${e.text}`);
    if (e.type === "stopped" && e.reason === "error") status = 1;
  });
  watcher.run();
  for (const e of board.errors) status = fail(`firmware error: ${e}`);
  return status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
