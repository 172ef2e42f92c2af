/**
 * npm run flash -- --port /dev/ttyACM0 [--profile NAME|PATH] [--dry-run] [--out-dir DIR] [--bundle FILE] [--timeout S] [--baud N]
 *
 * Builds the firmware for a profile and writes it with the espruino CLI into the board's Storage as `.bootcde`, which
 * runs at every boot (ESPRUINO.md 2.3, 6.2), with the solver's decision tables beside it (firmware/tools/tables.ts:
 * one Storage file per codebreaker variant the build can play; `--no-tables` leaves them out and the unit then
 * searches on its own, weaker and slower on the big variants). `--dry-run` needs no board: it writes exactly what would be sent to
 * <out-dir>/upload.js with the CLI's -o. The CLI (EspruinoTools 0.1.67) has known faults, worked around here:
 * - BLE crashes it without D-Bus: always --no-ble;
 * - its minifier breaks classes and its module loader goes online: the bundle is already one minified file, the board
 *   file (offline, hardware/boards/) tells it neopixel and Storage are built in, and minification/compilation are off;
 * - uploads of 512 bytes or less never finish: the CLI runs under a timeout that explains this;
 * - it exits 0 when the port cannot be opened: its output is watched for that;
 * - on Linux it finds even an explicitly named serial port through `udevadm info -e`: checked first.
 * `save()` is never used: 2v29 refuses it while .bootcde exists, so the two methods must not be mixed.
 *
 * Exit codes: 0 done; 1 the build, the size check or the upload failed; 2 something to fix before flashing
 * (arguments, no port, port missing or not openable, serialport or udevadm missing).
 */
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BOARDS, type BoardInfo } from "../../hardware/boards.ts";
import { DEFAULT_PROFILE, loadProfile, ProfileError } from "../../hardware/profile.ts";
import { BUNDLE_BOUND_BYTES, BuildError, buildFirmware, ROOT } from "./build.ts";
import { solverTablesFor, storageUse, type SolverTable } from "./tables.ts";

export const HARDWARE_DIR = ROOT + "hardware/";
export const DEFAULT_OUT_DIR = ROOT + "dist/";
/** Storage kept free for what the firmware saves (the match across power loss) and the journal's slack. */
export const STATE_RESERVE_BYTES = 4 * 1024;
/** The CLI's short-upload bug: a payload of this many bytes or fewer never reports completion (ESPRUINO.md 6.2). */
export const CLI_SHORT_UPLOAD_BYTES = 512;
export const BOOT_FILE = ".bootcde";

/** The CLI settings that keep it from touching the bundle or going online for modules or compilation. */
// LOAD_STORAGE_FILE=1: the upload ends with load(), a restart as at power-on (.boot0-.boot3, then .bootcde), not
// load(".bootcde"), which skips the boot files (a test board's pins live in .boot0: sim/espruino/prelude.ts).
const CLI_CONFIG = [
  "MINIFICATION_LEVEL=",
  "MODULE_MINIFICATION_LEVEL=",
  "COMPILATION=false",
  "PRETOKENISE=0",
  "MODULE_URL=",
  "LOAD_STORAGE_FILE=1",
].flatMap((c) => ["--config", c]);

/** Output lines of the CLI that mean the upload did not happen, although it may still exit 0. */
const CLI_FAILURES: { pattern: RegExp; why: string }[] = [
  { pattern: /Unable to connect!|Unable to open device/, why: "the CLI could not open the port" },
  { pattern: /serial: Port .* not found/, why: "the CLI did not find the port among the serial ports udevadm lists" },
  { pattern: /Prompt not detected - upload failed/, why: "the board did not answer with a prompt after the upload" },
  { pattern: /Cannot save: \.bootcde/, why: "save() was refused because .bootcde exists (do not mix save() with this upload)" },
  { pattern: /Module .* not found/, why: "the CLI tried to resolve a module; the bundle should need only built-ins" },
  { pattern: /Uncaught /, why: "the firmware reported an error when it started (see the output above); the upload itself completed" },
];

export class FlashError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "FlashError";
  }
}

export interface FlashOptions {
  port?: string;
  profile?: string;
  dryRun?: boolean;
  /** Where firmware.js and upload.js go (default dist/). */
  outDir?: string;
  /** Flash this file instead of building one. */
  bundle?: string;
  /** Seconds before the CLI is stopped (default: from the upload size). */
  timeoutS?: number;
  baud?: number;
  /** Where to look for serial ports to suggest (default /dev). */
  devDir?: string;
  /** The CLI script to run (tests substitute a stand-in). */
  cli?: string;
  /** Leave the solver's tables out (default: written with the firmware). */
  noTables?: boolean;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

export interface FlashResult {
  exitCode: number;
  bundle: string;
  bundleBytes: number;
  /** The solver tables written (or that would be). */
  tables?: SolverTable[];
  /** The dry run's output file and its size. */
  upload?: string;
  uploadBytes?: number;
}

/** The most a bundle may take: the DESIGN.md bound, and the board's Storage less what saved state needs. */
export function storageBudget(board: BoardInfo): number {
  return Math.min(BUNDLE_BOUND_BYTES, board.storageBytes - STATE_RESERVE_BYTES);
}

/**
 * Everything the flash writes to Storage, each file with its header: what is left must still hold the saved state.
 * Returns the bytes used, or throws naming what does not fit.
 */
export function checkStorageFit(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): number {
  const tableBytes = tables.reduce((sum, t) => sum + t.bytes.length, 0);
  const used = storageUse(bundleBytes, tables);
  if (used > board.storageBytes - STATE_RESERVE_BYTES)
    throw new FlashError(
      [
        `the firmware (${bundleBytes} bytes) and the solver tables (${tables.length} files, ${tableBytes} bytes) take ${used} bytes of the ${board.name}'s ${board.storageBytes}-byte Storage,`,
        `  leaving less than the ${STATE_RESERVE_BYTES} bytes kept for saved state; flash with --no-tables to leave the tables out`,
      ].join("\n"),
      1,
    );
  return used;
}

/** The espruino CLI's entry script, from the installed npm package. */
export function espruinoCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve("espruino/package.json")), "bin/espruino-cli.js");
}

/** Serial devices that look like a Pico (USB CDC) or a USB-UART (ESP32 DevKit), to suggest as --port. */
export function serialPortCandidates(devDir = "/dev"): string[] {
  try {
    return readdirSync(devDir)
      .filter((n) => /^(ttyACM\d+|ttyUSB\d+|cu\.usbmodem.*|cu\.usbserial.*|cu\.SLAB_USBtoUART.*)$/.test(n))
      .sort()
      .map((n) => join(devDir, n));
  } catch {
    return [];
  }
}

function noPortMessage(devDir?: string): string {
  const seen = serialPortCandidates(devDir);
  return [
    "no --port given: name the board's serial port, e.g. npm run flash -- --port /dev/ttyACM0",
    seen.length
      ? `  serial ports present now: ${seen.join(", ")}`
      : `  no serial port is present in ${devDir ?? "/dev"} now: is the board plugged in (with a data cable)?`,
    "  a Pico shows up as /dev/ttyACM* (USB CDC), an ESP32 DevKit as /dev/ttyUSB* (its USB-UART); macOS: /dev/cu.usbmodem*",
    "  `npx espruino --list --no-ble` lists ports too, but on Linux it needs udevadm (Debian/Ubuntu package udev)",
    "  to see what would be sent without a board: npm run flash -- --dry-run",
  ].join("\n");
}

/** Checks a serial port before the CLI gets it; returns the path the CLI must be given. tcp:// ports pass as they are. */
export function checkPort(
  port: string,
  env: { devDir?: string; hasModule?: (name: string) => boolean; hasCommand?: (name: string) => boolean; platform?: string } = {},
): string {
  if (port.startsWith("tcp://")) return port;
  const hasModule = env.hasModule ?? ((name: string) => canResolveFromCli(name));
  const hasCommand = env.hasCommand ?? commandExists;
  if (!hasModule("serialport"))
    throw new FlashError(
      [
        "the espruino CLI needs its optional dependency `serialport` for USB serial, and it is not installed",
        "  (was npm install run with --omit=optional?) run: npm install, or npm install --no-save serialport@^10",
      ].join("\n"),
      2,
    );
  if (!existsSync(port)) {
    const seen = serialPortCandidates(env.devDir);
    throw new FlashError(
      [
        `port ${port} not found: is the board plugged in, and is this its port?`,
        seen.length ? `  serial ports present now: ${seen.join(", ")}` : "  no /dev/ttyACM* or /dev/ttyUSB* is present now",
        "  unplug and replug the board and see which device appears (ls /dev/tty*), or try `npx espruino --list --no-ble` (needs udevadm)",
      ].join("\n"),
      2,
    );
  }
  let real = port;
  if (lstatSync(port).isSymbolicLink()) real = realpathSync(port); // the CLI matches ports by their udev device name
  if (!statSync(real).isCharacterDevice()) throw new FlashError(`port ${port} is not a serial device`, 2);
  try {
    accessSync(real, constants.R_OK | constants.W_OK);
  } catch {
    throw new FlashError(
      [
        `port ${real} cannot be opened for reading and writing (permission denied)`,
        "  on Linux, add yourself to its group and log in again: sudo usermod -aG dialout $USER (Arch: uucp)",
      ].join("\n"),
      2,
    );
  }
  if ((env.platform ?? process.platform) === "linux" && !hasCommand("udevadm"))
    throw new FlashError(
      [
        "udevadm is missing: the espruino CLI (serialport 10 on Linux) finds even an explicitly named port with `udevadm info -e`,",
        "  and without it reports the port as not found. Install it (Debian/Ubuntu: apt-get install udev) and try again",
      ].join("\n"),
      2,
    );
  return real;
}

function canResolveFromCli(name: string): boolean {
  try {
    createRequire(espruinoCli()).resolve(name);
    return true;
  } catch {
    return false;
  }
}

function commandExists(name: string): boolean {
  return !spawnSync(name, ["--version"], { stdio: "ignore" }).error;
}

/** Seconds the CLI gets: USB uploads take a few seconds (250 ms per 1 KB Storage chunk), the ESP32's UART a little more. */
export function defaultTimeoutS(uploadBytes: number): number {
  return 60 + 2 * Math.ceil(uploadBytes / 1024);
}

/** Runs the CLI, streaming its output; resolves with its exit code, or 1 when its output shows a failure. */
async function runCli(
  cli: string,
  args: string[],
  timeoutS: number,
  bytes: number,
  out: (t: string) => void,
  err: (t: string) => void,
): Promise<number> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const failures: string[] = [];
  const watch = (write: (t: string) => void) => {
    let pending = "";
    return (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        write(line + "\n");
        for (const f of CLI_FAILURES) if (f.pattern.test(line) && !failures.includes(f.why)) failures.push(f.why);
      }
    };
  };
  child.stdout.on("data", watch(out));
  child.stderr.on("data", watch(err));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 2000).unref();
  }, timeoutS * 1000);
  const code = await new Promise<number>((done) => child.on("close", (c) => done(c ?? 1)));
  clearTimeout(timer);
  if (timedOut)
    throw new FlashError(
      [
        `the espruino CLI did not finish within ${timeoutS} s and was stopped`,
        bytes <= CLI_SHORT_UPLOAD_BYTES
          ? `  this upload is ${bytes} bytes: EspruinoTools 0.1.67 never reports uploads of ${CLI_SHORT_UPLOAD_BYTES} bytes or less as done (core/serial.js); it may have arrived all the same`
          : "  is the board still connected and answering? Open a terminal (npx espruino --no-ble -p PORT), press Ctrl-C, then try again",
        "  a longer wait: --timeout SECONDS",
      ].join("\n"),
      1,
    );
  if (failures.length) {
    err(`flash failed: ${failures.join("; ")}\n`);
    return 1;
  }
  return code;
}

/** Builds (or takes) the bundle, checks it fits, and uploads it as .bootcde, or writes the upload to a file. */
export async function flash(opts: FlashOptions = {}): Promise<FlashResult> {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const err = opts.err ?? ((t: string) => process.stderr.write(t));
  if (!opts.dryRun && !opts.port) throw new FlashError(noPortMessage(opts.devDir), 2);
  const profile = loadProfile(opts.profile ?? DEFAULT_PROFILE);
  const board = BOARDS[profile.board];
  if (!board.cliBoardFile)
    throw new FlashError(`the ${board.name} has no board file for the espruino CLI (cliBoardFile in hardware/boards.ts)`, 2);
  const boardFile = HARDWARE_DIR + board.cliBoardFile;
  // Checked before building, so a wrong port is reported at once.
  const port = opts.dryRun ? undefined : checkPort(opts.port!, { devDir: opts.devDir });
  const outDir = resolve(opts.outDir ?? DEFAULT_OUT_DIR);

  let bundle: string;
  let bytes: number;
  if (opts.bundle) {
    bundle = resolve(opts.bundle);
    if (!existsSync(bundle)) throw new FlashError(`no bundle at ${bundle}`, 2);
    bytes = statSync(bundle).size;
  } else {
    const built = await buildFirmware({ profile: opts.profile ?? DEFAULT_PROFILE, out: join(outDir, "firmware.js") });
    bundle = built.out;
    bytes = built.bytes;
  }
  const show = (p: string) => relative(process.cwd(), p) || p;
  const tables = opts.noTables ? [] : solverTablesFor(profile.pegs);
  const tableBytes = tables.reduce((sum, t) => sum + t.bytes.length, 0);
  const budget = storageBudget(board);
  if (bytes > budget)
    throw new FlashError(
      [
        `${show(bundle)} is ${bytes} bytes, over the Storage budget of ${budget} bytes for the ${board.name}`,
        `  (the ${BUNDLE_BOUND_BYTES}-byte bound of DESIGN.md 5, and ${board.storageBytes} bytes of Storage less ${STATE_RESERVE_BYTES} kept for saved state)`,
        "  make the firmware smaller, or check that the bundle was minified (npm run build)",
      ].join("\n"),
      1,
    );
  const used = checkStorageFit(board, bytes, tables);
  if (bytes <= CLI_SHORT_UPLOAD_BYTES)
    err(
      `warning: ${bytes} bytes is a short upload; the espruino CLI 0.1.67 never reports those as done, so it will be stopped after the timeout\n`,
    );

  const cli = opts.cli ?? espruinoCli();
  const common = ["--board", boardFile, ...CLI_CONFIG];
  const timeoutS = opts.timeoutS ?? defaultTimeoutS(bytes + tableBytes);
  const tableArgs = tables.flatMap((t) => ["--storage", `${t.name}:${t.path}`]);
  const tablesNote = tables.length
    ? ` and ${tables.length} solver tables (${tableBytes} bytes: ${tables.map((t) => t.name).join(", ")})`
    : "";
  if (opts.dryRun) {
    mkdirSync(outDir, { recursive: true });
    const upload = join(outDir, "upload.js");
    const code = await runCli(
      cli,
      ["--no-ble", ...common, "-o", upload, bundle, "--storage", `${BOOT_FILE}:-`, ...tableArgs],
      timeoutS,
      bytes,
      out,
      err,
    );
    if (code !== 0) return { exitCode: code, bundle, bundleBytes: bytes, tables };
    if (!existsSync(upload)) throw new FlashError(`the espruino CLI exited without writing ${show(upload)}`, 1);
    const uploadBytes = statSync(upload).size;
    const chunks = readFileSync(upload, "latin1").split(`require("Storage").write(${JSON.stringify(BOOT_FILE)},`).length - 1;
    out(
      `dry run: ${show(upload)}: ${uploadBytes} bytes, what would be sent to write ${show(bundle)} (${bytes} bytes) to Storage as ${BOOT_FILE} in ${chunks} chunks${tablesNote}; ${used} of ${board.storageBytes} bytes of Storage used; nothing was sent\n`,
    );
    return { exitCode: 0, bundle, bundleBytes: bytes, tables, upload, uploadBytes };
  }
  const baud = opts.baud ?? board.consoleBaud;
  const args = [
    "--no-ble",
    "-p",
    port!,
    ...common,
    ...(baud ? ["-b", String(baud)] : []),
    bundle,
    "--storage",
    `${BOOT_FILE}:-`,
    ...tableArgs,
  ];
  out(`flashing ${show(bundle)} (${bytes} bytes, profile ${profile.id}) to ${port} as ${BOOT_FILE}${tablesNote}\n`);
  const code = await runCli(cli, args, timeoutS, bytes, out, err);
  if (code === 0)
    out(
      `done: ${profile.id} runs from ${BOOT_FILE} at every boot. Hold OK (grid key p66 on R1, bottom-right of the main pad) at power-on for the self-test.\n`,
    );
  return { exitCode: code, bundle, bundleBytes: bytes, tables };
}

const USAGE =
  "usage: npm run flash -- --port PORT [--profile NAME|PATH] [--dry-run] [--no-tables] [--out-dir DIR] [--bundle FILE] [--timeout SECONDS] [--baud N]";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        profile: { type: "string" },
        "dry-run": { type: "boolean" },
        "no-tables": { type: "boolean" },
        "out-dir": { type: "string" },
        bundle: { type: "string" },
        timeout: { type: "string" },
        baud: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`flash: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const number = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(n > 0)) throw new FlashError(`--${name} must be a positive number, not ${v}`, 2);
    return n;
  };
  try {
    const r = await flash({
      port: values.port,
      profile: values.profile,
      dryRun: values["dry-run"],
      noTables: values["no-tables"],
      outDir: values["out-dir"],
      bundle: values.bundle,
      timeoutS: number(values.timeout, "timeout"),
      baud: number(values.baud, "baud"),
    });
    return r.exitCode;
  } catch (e) {
    if (e instanceof FlashError) {
      console.error(`flash: ${e.message}`);
      return e.exitCode;
    }
    if (e instanceof ProfileError || e instanceof BuildError) {
      console.error(`flash: build failed: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
