/**
 * npm run sim -- --script FILE [--json] [--profile NAME] [--bounce MS] [--seed N] [--storage FILE]
 *                [--show-secret] [--firmware FILE] [--no-color]
 *
 * Runs a script (sim/script.ts) against the firmware on the virtual board, headless: the bundle is
 * built for the profile (or --firmware FILE is used), the board is powered on and booted, the
 * commands run in virtual time, and the board is printed as text at the end and at every `show`
 * (or, with --json, as one JSON document). Exit status 1 when the script is bad, an `expect`
 * failed, or the firmware recorded errors.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadProfile, ProfileError, type Profile } from "../hardware/profile.ts";
import { BuildError } from "../firmware/tools/build.ts";
import type { VirtualBoard } from "./board.ts";
import { bundleFor, readBundle } from "./bundle.ts";
import { bootBoard, ExpectFailure, parseScript, runCommands, ScriptError, type Command } from "./script.ts";
import { formatBoard } from "./text.ts";
import { segmentViews, type PixelView } from "./view.ts";

const USAGE = `usage: npm run sim -- --script FILE [options]

  --script FILE     the commands to run (- for standard input); see README "Play on a laptop"
  --json            print the result as JSON (every segment's pixels as palette names and RGB)
  --profile NAME    hardware profile (default r1-pico); the bundle is built for it
  --firmware FILE   run this bundle instead of building one
  --bounce MS       key contact bounce in ms (default 5; 0 for clean edges)
  --seed N          seed for key bounce and the firmware's randomness (default 1)
  --storage FILE    keep the unit's Storage in this JSON file (default: in memory)
  --show-secret     print the secret segment (hidden by default, as under the shield)
  --no-color        plain text even on a terminal`;

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

export function boardJson(board: VirtualBoard): BoardJson {
  const segments: Record<string, PixelView[]> = segmentViews(board);
  return { now: board.now, on: board.isOn, segments, tone: board.tone };
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
    console.error(red(msg, errColour));
    return 1;
  };
  if (!values.script) return fail(`--script FILE is required\n\n${USAGE}`);
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
    const text = values.script === "-" ? readFileSync(0, "utf8") : readFileSync(values.script, "utf8");
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

  const board = bootBoard({ profile, firmware, bounceMs, seed, storageFile: values.storage });
  const shows: (BoardJson & { line: number })[] = [];
  let expectFailure: ExpectFailure | null = null;
  try {
    runCommands(board, commands, (cmd) => {
      if (values.json) shows.push({ line: cmd.line, ...boardJson(board) });
      else
        console.log(formatBoard(board, { showSecret: values["show-secret"], colour: outColour, title: `show (line ${cmd.line})` }) + "\n");
    });
  } catch (e) {
    if (!(e instanceof ExpectFailure)) throw e;
    expectFailure = e;
  }

  if (values.json) {
    const out: CliJson = {
      profile: profile.id,
      ...boardJson(board),
      battery: board.battery,
      console: board.consoleLog,
      errors: board.errors,
      warnings: board.warnings,
      shows,
      expectFailure: expectFailure && { line: expectFailure.line, message: expectFailure.message },
    };
    console.log(JSON.stringify(out, null, 1));
  } else {
    console.log(formatBoard(board, { showSecret: values["show-secret"], colour: outColour, title: "end" }));
    for (const line of board.consoleLog) if (!board.errors.includes(line)) console.log(`console: ${line}`);
  }
  let status = 0;
  for (const e of board.errors) status = fail(`firmware error: ${e}`);
  if (expectFailure) status = fail(`${values.script}: ${expectFailure.message}`);
  return status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await main();
