/**
 * npm run flash -- --port /dev/ttyACM0 [--profile NAME|PATH] [--erase] [--dry-run] [--out-dir DIR] [--bundle FILE] [--timeout S] [--baud N]
 *
 * Builds the firmware for a profile and writes it with the espruino CLI into the board's Storage as `.bootcde`, which
 * runs at every boot (ESPRUINO.md 2.3, 6.2), with the solver's decision tables beside it (firmware/tools/tables.ts:
 * one Storage file per codebreaker variant the build can play; `--no-tables` leaves them out and the unit then
 * searches on its own, weaker and slower on the big variants). `--dry-run` needs no board: it writes exactly what would be sent to
 * <out-dir>/upload.js with the CLI's -o.
 *
 * The files go into Storage in this order: .bootcde first, then the tables that fit in the rest of its last flash page,
 * then a pad file (.bbpad, hardware/boards.ts pageAlignPad) for what is left of that page, then the other tables
 * (tables.ts bootLayout). So the first file after them starts a page, nothing before it ever changes, and no Storage
 * compaction (which the firmware's saves cause every dozen or so) ever erases a page of .bootcde: a power cut during
 * one cannot lose the firmware (nor the tables in its page). That needs .bootcde at the start of Storage, so the tool writes the pad only into
 * Storage that is empty when the upload starts: a new board, --erase, or a board that holds nothing but the files this
 * tool writes and the unit's saved game (it erases those first itself). The saved game is carried across: before the
 * erase the tool reads the save slots (bb.s0, bb.s1) through the console, keeps each usable one in the current save
 * format (save-upgrade.ts: format 1 is brought up to 2, same name and sequence), writes them back after the tables (so
 * they lie on the pages compactions rewrite, never on .bootcde's) and reads them back like every other file; a slot it
 * cannot use is named and not kept. When other files are there, it keeps them (the saves are still carried, after the
 * tables), writes no pad, and says that the firmware is not protected until it is flashed with --erase, which erases
 * everything, the saved game included. A saved two-player game that holds a secret makes the unit lock its console as
 * it starts, so then the upload does not start the firmware: the tool does, once it has read back what it wrote. A pad that would
 * leave less than STATE_RESERVE_BYTES for saved state (on R1 with today's tables: a bundle over 32,008 bytes) is left
 * out with a warning too (tables.ts protectedLayout). After the upload it works out where each file
 * lies from the board's own list and says whether the layout protects .bootcde.
 *
 * The CLI (EspruinoTools 0.1.67) has known faults, worked around here:
 * - BLE crashes it without D-Bus: always --no-ble;
 * - its minifier breaks classes and its module loader goes online: the bundle is already one minified file, the board
 *   file (offline, hardware/boards/) tells it neopixel and Storage are built in, and minification/compilation are off;
 * - uploads of 512 bytes or less never finish: the CLI runs under a timeout that explains this;
 * - it exits 0 when the port cannot be opened: its output is watched for that;
 * - it writes its --storage files before the code it is given (so .bootcde, its code, last), in the reverse of the
 *   order given, and in 384-byte base64 chunks that each cost 250 ms: the tool writes the Storage writes itself
 *   (uploadScript), in its order, and gives the CLI that script to send as it is;
 * - on Linux it finds even an explicitly named serial port through `udevadm info -e`: checked first.
 * `save()` is never used: 2v29 refuses it while .bootcde exists, so the two methods must not be mixed.
 *
 * Around the upload the tool talks to the board's console itself (board-console.ts): before, it checks the board's
 * Espruino version and board and measures its Storage (with --erase it first erases all of it; trash is compacted
 * when the new files need its room); after, it reads back the length and CRC-32 of .bootcde and of every table and
 * compares them with what was sent.
 *
 * Exit codes: 0 done and verified; 1 the build, the size check, the upload or its verification failed, or the board
 * did not answer; 2 something to fix before flashing (arguments, no port, port missing or not openable, nothing
 * listening on a tcp:// port, serialport or udevadm missing, an old Espruino, another board than the profile's).
 *
 * A locked console (a two-player game holds a secret) cannot be flashed: see LOCKED_CONSOLE_HELP in board-console.ts
 * and hardware/README.md for the recovery.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BOARDS, PAD_FILE, storageFootprint, storageOffsets, type BoardInfo } from "../../hardware/boards.ts";
import { DEFAULT_PROFILE, loadProfile, ProfileError } from "../../hardware/profile.ts";
import { BUNDLE_BOUND_BYTES, BuildError, buildFirmware, ROOT } from "./build.ts";
import {
  bootLayout,
  largestProtected,
  protectedLayout,
  SOLVER_TABLE_NAMES,
  solverTablesFor,
  STATE_RESERVE_BYTES,
  storageUse,
  type SolverTable,
} from "./tables.ts";
import { BoardConsole, ConsoleError } from "./board-console.ts";
import { isKept, keepSlot, SAVE_SLOT_NAMES, type DroppedSlot, type KeptSlot } from "./save-upgrade.ts";
import { SAVE_VERSION } from "../save-format.ts";
import { crc32 } from "node:zlib";

export const HARDWARE_DIR = ROOT + "hardware/";
export const DEFAULT_OUT_DIR = ROOT + "dist/";
export { STATE_RESERVE_BYTES } from "./tables.ts";
/** The CLI's short-upload bug: a payload of this many bytes or fewer never reports completion (ESPRUINO.md 6.2). */
export const CLI_SHORT_UPLOAD_BYTES = 512;
export const BOOT_FILE = ".bootcde";

/** The oldest Espruino the firmware is known to run on: everything in ESPRUINO.md was checked on 2v29. */
export const MIN_ESPRUINO = { major: 2, minor: 29 };
/** process.env.BOARD of Espruino for Linux (shared/tools/espruino), which stands in for any board over tcp://. */
export const LINUX_BOARD = "LINUX";

/** How to put a current Espruino on each board. */
const UPDATE_HELP: Record<string, string> = {
  pico: "update it with the Espruino Web IDE (https://www.espruino.com/ide: Settings, Flasher, Flash Firmware), which downloads the Pico's firmware and guides you through plugging it in with the button held (espruino.com/Pico, Firmware Updates)",
  esp32: "update it with esptool.py and the ESP32 files from https://www.espruino.com/Download (espruino.com/ESP32, Flashing)",
};

/** The CLI settings that keep it from touching the bundle or going online for modules or compilation. */
// SAVE_ON_SEND=-1: the script the CLI is given (uploadScript: the Storage writes, then load()) is sent as it is, after
// the CLI's reset(). The upload so ends with load(), a restart as at power-on (.boot0-.boot3, then .bootcde), not
// load(".bootcde"), which skips the boot files (a test board's pins live in .boot0: sim/espruino/prelude.ts). -1 is
// also truthy, which gives the board the CLI's longer wait (5 s, not 2 s) for its prompt after the upload.
const CLI_CONFIG = [
  "MINIFICATION_LEVEL=",
  "MODULE_MINIFICATION_LEVEL=",
  "COMPILATION=false",
  "PRETOKENISE=0",
  "MODULE_URL=",
  "SAVE_ON_SEND=-1",
].flatMap((c) => ["--config", c]);
/** The script the CLI sends (uploadScript), written into the output directory. */
const SCRIPT_FILE = "storage-upload.js";
/** Data bytes sent in one Storage.write, as the CLI writes .bootcde (plugins/saveOnSend.js); the CLI waits 250 ms after each. */
const CHUNK_BYTES = 1024;
/** The pad is written from zero-filled arrays made on the board (nothing to send), this many bytes a write. */
const PAD_CHUNK_BYTES = 4096;

/** Output lines of the CLI that mean the upload did not happen, although it may still exit 0. */
const CLI_FAILURES: { pattern: RegExp; why: string }[] = [
  { pattern: /Unable to connect!|Unable to open device/, why: "the CLI could not open the port" },
  { pattern: /serial: Port .* not found/, why: "the CLI did not find the port among the serial ports udevadm lists" },
  { pattern: /Prompt not detected - upload failed/, why: "the board did not answer with a prompt after the upload" },
  { pattern: /Cannot save: \.bootcde/, why: "save() was refused because .bootcde exists (do not mix save() with this upload)" },
  { pattern: /Module .* not found/, why: "the CLI tried to resolve a module; the bundle should need only built-ins" },
  { pattern: /FIFO_FULL/, why: "the board's input buffer overflowed (FIFO_FULL): part of the upload was lost" },
  {
    pattern: /Unable to find or create file/,
    why: "the board's Storage had no room for a file (Unable to find or create file): flash again with --erase",
  },
  { pattern: /Uncaught /, why: "the firmware reported an error when it started (see the output above); the upload itself completed" },
];
/** The failure that means the upload arrived but the firmware failed at start (it is still verified). */
const START_FAILURE = CLI_FAILURES[CLI_FAILURES.length - 1].why;

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
  /** Erase the board's whole Storage first (the saved match too). */
  erase?: boolean;
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
  /** What the board said before the upload: its Espruino version and board, and its Storage. */
  board?: BoardReport;
  /** Each file written, read back from the board: bytes and CRC-32 as stored. */
  verified?: { name: string; bytes: number; crc32: number }[];
  /** The data bytes of the page-aligning pad written after .bootcde (or that would be), when one is. */
  padBytes?: number;
  /** Where the files lie in the board's Storage after the upload, and whether that keeps compaction off .bootcde. */
  layout?: StorageLayout;
  /** The saved game: the slots carried across the flash (written back after the tables) and those that were not. */
  saves?: { kept: { name: string; seq: number; format: number; upgraded: boolean; what: string }[]; dropped: DroppedSlot[] };
}

/** A file the upload writes: its Storage name and its bytes; `zeros`: all zero, made on the board (the pad). */
export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  zeros?: boolean;
}

/** Where each file lies in Storage (offset of its header from the start of Storage) and whether .bootcde is safe. */
export interface StorageLayout {
  files: { name: string; offset: number; bytes: number }[];
  /** .bootcde starts Storage and ends (with its pad) on a page boundary: no compaction erases a page of it. */
  protected: boolean;
  /** Why it is not, when it is not. */
  why?: string;
}

export interface BoardReport {
  version: string;
  board: string;
  totalBytes: number;
  freeBytes: number;
  trashBytes: number;
  /** The files in Storage before the upload, with their sizes. */
  files: [string, number][];
}

const REPORT_EXPR =
  '(function(s){var t=s.getStats();return {v:process.env.VERSION,b:process.env.BOARD,t:t.totalBytes,f:t.freeBytes,x:t.trashBytes,l:s.list().map(function(n){return [n,s.read(n).length];})};})(require("Storage"))';

/** Asks the board for its version, board and Storage. */
export async function boardReport(link: BoardConsole): Promise<BoardReport> {
  const r = await link.query<{ v: string; b: string; t: number; f: number; x: number; l: [string, number][] }>(REPORT_EXPR);
  return { version: r.v, board: r.b, totalBytes: r.t, freeBytes: r.f, trashBytes: r.x, files: r.l };
}

/** Refuses an Espruino older than MIN_ESPRUINO, saying how to update this board. */
export function checkVersion(version: string, board: BoardInfo): void {
  const m = /^(\d+)v(\d+)/.exec(version ?? "");
  const ok = m && (Number(m[1]) > MIN_ESPRUINO.major || (Number(m[1]) === MIN_ESPRUINO.major && Number(m[2]) >= MIN_ESPRUINO.minor));
  if (!ok)
    throw new FlashError(
      [
        `the board runs Espruino ${version || "(unknown version)"}; the firmware needs ${MIN_ESPRUINO.major}v${MIN_ESPRUINO.minor} or later`,
        `  ${UPDATE_HELP[board.id] ?? "update it from https://www.espruino.com/Download"}, then flash again`,
      ].join("\n"),
      2,
    );
}

/**
 * What the new files need against what the board has: its free bytes, its trash (reclaimed by a compaction) and the
 * files the upload replaces. STATE_RESERVE_BYTES are kept for saved state, the save slots the upload carries across
 * included (they are saved state). Returns whether a compaction must run first; throws when it cannot fit.
 */
export function checkBoardRoom(report: BoardReport, files: { name: string; bytes: number }[], board: BoardInfo): { compact: boolean } {
  const need = files.reduce((sum, f) => sum + storageFootprint(f.bytes), 0);
  const saves = files.filter((f) => SAVE_SLOT_NAMES.includes(f.name)).reduce((sum, f) => sum + storageFootprint(f.bytes), 0);
  const reserve = Math.max(0, STATE_RESERVE_BYTES - saves);
  const replaced = report.files.filter(([n]) => files.some((f) => f.name === n)).reduce((sum, [, len]) => sum + storageFootprint(len), 0);
  const room = report.freeBytes + report.trashBytes + replaced;
  if (need + reserve > room) {
    const others = report.files.filter(([n]) => !files.some((f) => f.name === n));
    throw new FlashError(
      [
        `the ${board.name}'s Storage has no room: the upload needs ${need} bytes and ${reserve} more are kept for saved state,`,
        `  but only ${room} are free or reclaimable (${report.freeBytes} free, ${report.trashBytes} trash, ${replaced} in files this upload replaces)`,
        others.length
          ? `  other files on the board: ${others.map(([n, len]) => `${JSON.stringify(n)} (${len} bytes)`).join(", ")}`
          : "  there are no other files on the board",
        "  flash with --erase to erase the board's whole Storage first (the saved match too), or with --no-tables",
      ].join("\n"),
      1,
    );
  }
  return { compact: need > report.freeBytes };
}

/** Opens the board's console, turning its errors into the flash tool's own. */
async function openConsole(port: string, baud: number | undefined): Promise<BoardConsole> {
  try {
    return await BoardConsole.open(port, { baud, cliRequire: cliRequire() });
  } catch (e) {
    throw asFlashError(e);
  }
}

function asFlashError(e: unknown): unknown {
  return e instanceof ConsoleError ? new FlashError(e.message, e.exitCode) : e;
}

function cliRequire(): NodeJS.Require | undefined {
  try {
    return createRequire(espruinoCli());
  } catch {
    return undefined;
  }
}

/** CRC-32 as E.CRC32 computes it (the standard one, unsigned). */
export function crc32Of(bytes: Uint8Array): number {
  return crc32(bytes) >>> 0;
}

/** Reads back each file's length and CRC-32 from the board and compares them with what was sent; throws naming every difference. */
export async function verifyFiles(
  link: BoardConsole,
  files: { name: string; bytes: Uint8Array }[],
): Promise<{ name: string; bytes: number; crc32: number }[]> {
  const names = JSON.stringify(files.map((f) => f.name));
  const got = await link.query<([number, number] | null)[]>(
    `(function(s){return ${names}.map(function(n){var d=s.read(n);return d===undefined?null:[d.length,E.CRC32(d)];});})(require("Storage"))`,
    60_000,
  );
  const wrong: string[] = [];
  const out = files.map((f, i) => {
    const g = got[i];
    const want = { bytes: f.bytes.length, crc: crc32Of(f.bytes) };
    if (!g) wrong.push(`${f.name}: not in the board's Storage`);
    else if (g[0] !== want.bytes) wrong.push(`${f.name}: ${g[0]} bytes stored, ${want.bytes} sent`);
    else if (g[1] >>> 0 !== want.crc)
      wrong.push(`${f.name}: CRC-32 ${(g[1] >>> 0).toString(16)} stored, ${want.crc.toString(16)} sent (the bytes differ)`);
    return { name: f.name, bytes: g ? g[0] : 0, crc32: g ? g[1] >>> 0 : 0 };
  });
  if (wrong.length)
    throw new FlashError(
      [
        "verification failed: what the board stored is not what was sent",
        ...wrong.map((w) => `  ${w}`),
        "  flash again; if it fails the same way, flash with --erase (Storage full or worn), and check the cable",
      ].join("\n"),
      1,
    );
  return out;
}

/** The save format's checksum (E.CRC32 of a string's 8-bit characters), as the unit computes it. */
export function saveCrc(text: string): number {
  return crc32Of(Buffer.from(text, "latin1"));
}

/** A save slot read a question at a time, this many bytes (as base64: 1,024 characters a line). */
const SLOT_READ_BYTES = 768;
/** The unit's saves are under 1 KB: a slot file longer than this is not one it wrote, and is not read. */
export const SLOT_MAX_BYTES = 8192;

/**
 * Reads the board's save slots (those in `report`) through its console, as base64 made on the board (btoa), so that no
 * byte depends on the link; each is decoded in any format the unit has written (save-upgrade.ts keepSlot): a usable
 * one comes back in the current format, under the same name and sequence, an unusable one with why.
 */
export async function readSlots(link: BoardConsole, report: BoardReport): Promise<(KeptSlot | DroppedSlot)[]> {
  const out: (KeptSlot | DroppedSlot)[] = [];
  for (const name of SAVE_SLOT_NAMES) {
    const listed = report.files.find(([n]) => n === name);
    if (!listed) continue;
    const length = listed[1];
    if (length > SLOT_MAX_BYTES) {
      out.push({ name, problem: `${length} bytes, too long to be a save` });
      continue;
    }
    const parts: Buffer[] = [];
    for (let at = 0; at < length; at += SLOT_READ_BYTES) {
      const b64 = await link.query<string>(
        `btoa(require("Storage").read(${JSON.stringify(name)},${at},${Math.min(SLOT_READ_BYTES, length - at)}))`,
      );
      parts.push(Buffer.from(String(b64), "base64"));
    }
    const text = Buffer.concat(parts).toString("latin1");
    out.push(text.length === length ? keepSlot(name, text, saveCrc) : { name, problem: `read back ${text.length} of ${length} bytes` });
  }
  return out;
}

/** The kept slots as files to write, in their order (after the tables). */
export function slotFiles(kept: KeptSlot[]): UploadFile[] {
  return kept.map((k) => ({ name: k.name, bytes: new Uint8Array(Buffer.from(k.text, "latin1")) }));
}

/** How a kept slot is named to people: "bb.s1 (Brainiac match, game 2 of 4; save 14, brought up from format 1 to 2)". */
function keptNote(k: KeptSlot): string {
  const up =
    k.format !== SAVE_VERSION ? `, brought up from format ${k.format} to ${SAVE_VERSION}` : k.upgraded ? ", brought up to date" : "";
  return `${k.name} (${k.what}; save ${k.seq}${up})`;
}

/**
 * After a failed upload: writes back through the console every kept slot that is not on the board intact, so that the
 * saved game survives for the next flash. Returns what it did, for the error message.
 */
async function rescueSlots(link: BoardConsole, kept: KeptSlot[]): Promise<string> {
  if (!kept.length) return "";
  const notes: string[] = [];
  for (const f of slotFiles(kept)) {
    const name = JSON.stringify(f.name);
    const crc = crc32Of(f.bytes);
    const intact = `(function(d){return d!==undefined&&d.length===${f.bytes.length}&&E.CRC32(d)===${crc};})(require("Storage").read(${name}))`;
    try {
      if (await link.query<boolean>(intact)) {
        notes.push(`${f.name} is on the board intact`);
        continue;
      }
      for (let at = 0; at < f.bytes.length; at += CHUNK_BYTES) {
        const b64 = Buffer.from(f.bytes.subarray(at, at + CHUNK_BYTES)).toString("base64");
        const size = at === 0 ? `,${f.bytes.length}` : "";
        await link.run(`require("Storage").write(${name},atob(${JSON.stringify(b64)}),${at}${size})`);
      }
      notes.push(`${f.name} ${(await link.query<boolean>(intact)) ? "was written back" : "could not be written back"}`);
    } catch (e) {
      notes.push(`${f.name} could not be written back (${(e as Error).message.split("\n")[0]})`);
    }
  }
  return `  the saved game: ${notes.join("; ")}; a flash that finishes carries what is on the board`;
}

/**
 * Where each file lies in Storage, worked out from the board's report (its list is in Storage order, with each file's
 * length): exact when Storage holds no trash and the files fill it from its start without gaps (checked against the
 * bytes the board says are used). Then whether .bootcde starts Storage and ends, with the pad after it, on a boundary
 * of the board's `pageBytes`: what keeps every compaction off .bootcde's pages (hardware/boards.ts pageAlignPad).
 */
export function storageLayout(report: BoardReport, pageBytes: number): StorageLayout {
  const offsets = storageOffsets(report.files.map(([, len]) => len));
  const files = report.files.map(([name, len], i) => ({ name, offset: offsets[i], bytes: len }));
  const end = report.files.reduce((sum, [, len]) => sum + storageFootprint(len), 0);
  const used = report.totalBytes - report.freeBytes;
  if (report.trashBytes !== 0 || end !== used)
    return {
      files: [],
      protected: false,
      why: `Storage holds ${report.trashBytes} bytes of trash or files the list does not show (${used} bytes used, ${end} in the files listed), so where .bootcde lies cannot be worked out`,
    };
  if (files[0]?.name !== BOOT_FILE)
    return {
      files,
      protected: false,
      why: `.bootcde does not start Storage (${files.length ? `${files[0].name} comes first` : "Storage is empty"}): a compaction that starts before it rewrites its pages`,
    };
  // The first file after .bootcde, and the tables and pad written in its last page (nothing there ever changes), that starts a page.
  let after = 1;
  while (
    after < files.length &&
    files[after].offset % pageBytes !== 0 &&
    (files[after].name === PAD_FILE || SOLVER_TABLE_NAMES.includes(files[after].name))
  )
    after++;
  const next = after < files.length ? files[after].offset : files[after - 1].offset + storageFootprint(files[after - 1].bytes);
  if (next % pageBytes !== 0)
    return {
      files,
      protected: false,
      why: `the first file after .bootcde${after > 1 ? " and the tables and pad written with it" : ""} starts at ${next}, not on a boundary of the ${pageBytes}-byte flash pages: a compaction that starts on .bootcde's last page rewrites it`,
    };
  return { files, protected: true };
}

/** The most a bundle may take: the DESIGN.md bound, and the board's Storage less what saved state needs. */
export function storageBudget(board: BoardInfo): number {
  return Math.min(BUNDLE_BOUND_BYTES, board.storageBytes - STATE_RESERVE_BYTES);
}

/**
 * Everything the flash writes to empty Storage, each file with its header, the page-aligning pad after .bootcde
 * included when it fits (bootPad): what is left must still hold the saved state. Returns the bytes used, or throws
 * naming what does not fit.
 */
export function checkStorageFit(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): number {
  const tableBytes = tables.reduce((sum, t) => sum + t.bytes.length, 0);
  const used = storageUse(bundleBytes, tables, protectedLayout(board, bundleBytes, tables) ? board.storagePageBytes : null);
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

/**
 * Why a firmware written into empty Storage gets no pad although .bootcde does not end on a flash page (the pad would
 * leave too little Storage), or null when it gets one or needs none.
 */
export function padRefusal(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): string | null {
  const pad = bootLayout(bundleBytes, tables, board.storagePageBytes).pad;
  if (pad === null || protectedLayout(board, bundleBytes, tables)) return null;
  const used = storageUse(bundleBytes, tables, board.storagePageBytes);
  const largest = largestProtected(board, tables, bundleBytes);
  return [
    `warning: ${BOOT_FILE} (${bundleBytes} bytes) does not end on a ${board.storagePageBytes}-byte flash page, and the pad that would fill its last page`,
    `  (${PAD_FILE}, ${pad} bytes) leaves less than ${STATE_RESERVE_BYTES} bytes of the ${board.name}'s Storage for saved state (${used} of ${board.storageBytes} bytes used):`,
    `  flashing without it, so a Storage compaction can rewrite the firmware's last page, and a power cut during one then loses it.`,
    `  A firmware of at most ${largest.toLocaleString("en")} bytes gets the pad beside these tables (or flash with --no-tables)\n`,
  ].join("\n");
}

/**
 * The files a flash writes, in the order they go into Storage: .bootcde, then (with `empty`: when .bootcde is written
 * into empty Storage, and the layout fits: tables.ts protectedLayout) the tables that go in the rest of its last page,
 * the page-aligning pad when one is needed, and the other tables; else the tables after .bootcde.
 */
export function flashFiles(firmware: Uint8Array, tables: SolverTable[], board: BoardInfo, empty: boolean): UploadFile[] {
  const layout = empty ? protectedLayout(board, firmware.length, tables) : null;
  const file = (t: SolverTable): UploadFile => ({ name: t.name, bytes: t.bytes });
  if (!layout) return [{ name: BOOT_FILE, bytes: firmware }, ...tables.map(file)];
  return [
    { name: BOOT_FILE, bytes: firmware },
    ...layout.inPage.map(file),
    ...(layout.pad === null ? [] : [{ name: PAD_FILE, bytes: new Uint8Array(layout.pad), zeros: true }]),
    ...layout.rest.map(file),
  ];
}

/** A JS string literal of `bytes` in printable 7-bit ASCII, or null when they are not text (atob is used then). */
function textLiteral(bytes: Uint8Array): string | null {
  let s = '"';
  for (const b of bytes) {
    if (b === 0x22) s += '\\"';
    else if (b === 0x5c) s += "\\\\";
    else if (b === 0x0a) s += "\\n";
    else if (b === 0x0d) s += "\\r";
    else if (b === 0x09) s += "\\t";
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else return null;
  }
  return s + '"';
}

/**
 * What the CLI sends to write `files` into Storage in the order given, then load() (unless `start` is false: the tool
 * then starts the firmware itself once it has read back what was written): each file in 1 KB
 * `require("Storage").write(name, data, offset[, size])` calls, as the CLI writes .bootcde, the first one sizing the
 * file. Text goes as a string literal; anything else (the tables) as base64 decoded on the board (atob), as the CLI's
 * --storage does; the pad as zero-filled arrays made on the board. Every line is printable 7-bit ASCII, so nothing
 * depends on how the link treats bytes >= 0x80 (ESPRUINO.md 4.3).
 */
export function uploadScript(files: UploadFile[], start = true): string {
  const lines: string[] = [];
  for (const f of files) {
    const name = JSON.stringify(f.name);
    const size = f.bytes.length;
    const step = f.zeros ? PAD_CHUNK_BYTES : CHUNK_BYTES;
    for (let at = 0; at < size; at += step) {
      const part = f.bytes.subarray(at, at + step);
      const data = f.zeros
        ? `new Uint8Array(${part.length})`
        : (textLiteral(part) ?? `atob(${JSON.stringify(Buffer.from(part).toString("base64"))})`);
      lines.push(`require("Storage").write(${name},${data},${at}${at === 0 ? `,${size}` : ""});`);
    }
  }
  if (start) lines.push("load()");
  return lines.join("\n") + "\n";
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

/** Runs the CLI, streaming its output; resolves with its exit code and the failures its output shows (it may exit 0 all the same). */
async function runCli(
  cli: string,
  args: string[],
  timeoutS: number,
  bytes: number,
  out: (t: string) => void,
  err: (t: string) => void,
): Promise<{ code: number; failures: string[] }> {
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
  return { code, failures };
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
  // Something must be listening there before the build is worth its time.
  if (port) await (await openConsole(port, opts.baud ?? board.consoleBaud)).close();

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
  mkdirSync(outDir, { recursive: true });
  const script = join(outDir, SCRIPT_FILE);
  const firmware = new Uint8Array(readFileSync(bundle));
  // The files in Storage order: .bootcde, the tables in its page and the pad (into empty Storage), the tables, then the saves carried across.
  const uploadFiles = (empty: boolean, kept: KeptSlot[] = []): UploadFile[] => {
    const files = [...flashFiles(firmware, tables, board, empty), ...slotFiles(kept)];
    const refused = empty ? padRefusal(board, bytes, tables) : null;
    if (refused) err(refused);
    // A save the unit resumes with its console locked: the upload does not start the firmware, the tool does once it
    // has read back what was written (it could not read it through a locked console).
    writeFileSync(script, uploadScript(files, !kept.some((k) => k.locksConsole)));
    return files;
  };
  const sum = (files: UploadFile[]) => files.reduce((n, f) => n + f.bytes.length, 0);
  const padOf = (files: UploadFile[]) => files.find((f) => f.name === PAD_FILE)?.bytes.length;
  const describe = (files: UploadFile[]) => {
    const pad = padOf(files);
    const padAt = files.findIndex((f) => f.name === PAD_FILE);
    const names = (from: number, to: number) => files.slice(from, to).filter((f) => SOLVER_TABLE_NAMES.includes(f.name));
    const inPage = padAt > 0 ? names(1, padAt) : [];
    const inPageNote = inPage.length
      ? `, then ${inPage.length} solver tables in the rest of its last flash page (${inPage.map((f) => `${f.name}, ${f.bytes.length} bytes`).join("; ")})`
      : "";
    const padNote =
      pad === undefined
        ? ""
        : `, then a ${pad}-byte pad (${PAD_FILE}) so that the next file starts a ${board.storagePageBytes}-byte flash page`;
    const rest = names(padAt > 0 ? padAt + 1 : 1, files.length);
    const tablesNote = rest.length
      ? `, then ${inPage.length ? "the other " : ""}${rest.length} solver tables (${rest.reduce((n, f) => n + f.bytes.length, 0)} bytes: ${rest.map((f) => f.name).join(", ")})`
      : "";
    const saves = files.filter((f) => SAVE_SLOT_NAMES.includes(f.name)).map((f) => f.name);
    const savesNote = saves.length ? `, then the saved game (${saves.join(", ")})` : "";
    return `${inPageNote}${padNote}${tablesNote}${savesNote}`;
  };
  if (opts.dryRun) {
    // No board: its Storage is taken to be empty, as on a new board or with --erase.
    const files = uploadFiles(true);
    const upload = join(outDir, "upload.js");
    const run = await runCli(
      cli,
      ["--no-ble", ...common, "-o", upload, script],
      opts.timeoutS ?? defaultTimeoutS(sum(files)),
      bytes,
      out,
      err,
    );
    if (run.failures.length) err(`flash failed: ${run.failures.join("; ")}\n`);
    const code = run.failures.length ? 1 : run.code;
    if (code !== 0) return { exitCode: code, bundle, bundleBytes: bytes, tables };
    if (!existsSync(upload)) throw new FlashError(`the espruino CLI exited without writing ${show(upload)}`, 1);
    const uploadBytes = statSync(upload).size;
    const chunks = readFileSync(upload, "latin1").split(`require("Storage").write(${JSON.stringify(BOOT_FILE)},`).length - 1;
    out(
      `dry run: ${show(upload)}: ${uploadBytes} bytes, what would be sent to write ${show(bundle)} (${bytes} bytes) to empty Storage as ${BOOT_FILE} in ${chunks} chunks${describe(files)}; ${used} of ${board.storageBytes} bytes of Storage used; nothing was sent\n`,
    );
    return { exitCode: 0, bundle, bundleBytes: bytes, tables, upload, uploadBytes, padBytes: padOf(files) };
  }
  const baud = opts.baud ?? board.consoleBaud;

  // Before: the board's version and Storage, over its own console.
  let link = await openConsole(port!, baud);
  let report: BoardReport;
  let files: UploadFile[];
  let kept: KeptSlot[] = [];
  let dropped: DroppedSlot[] = [];
  try {
    report = await boardReport(link);
    checkVersion(report.version, board);
    if (report.board !== board.espruinoBoard && report.board !== LINUX_BOARD)
      throw new FlashError(
        `the board says it is ${report.board}, but profile ${profile.id} is for the ${board.name} (${board.espruinoBoard}): choose the profile of this board with --profile`,
        2,
      );
    out(
      `board: Espruino ${report.version} on ${report.board}; Storage ${report.totalBytes} bytes, ${report.freeBytes} free, ${report.trashBytes} trash, ${report.files.length} files\n`,
    );
    const own = new Set([BOOT_FILE, PAD_FILE, ...SOLVER_TABLE_NAMES]);
    const isSlot = (n: string) => SAVE_SLOT_NAMES.includes(n);
    const others = report.files.filter(([n]) => !own.has(n) && !isSlot(n)).map(([n]) => n);
    const slotsThere = report.files.filter(([n]) => isSlot(n)).map(([n]) => n);
    // The firmware running now is stopped first (its timers, watches and event handlers: what could make it save), so
    // that it writes nothing while its Storage is read and rewritten; the CLI's reset() then clears the rest.
    if (report.files.length) await link.run("clearInterval();clearWatch();E.removeAllListeners()");
    if (opts.erase) {
      out(
        `erasing the board's whole Storage (--erase)${slotsThere.length ? `, the saved game (${slotsThere.join(", ")}) included` : ""}${others.length ? ` and ${others.join(", ")}` : ""}\n`,
      );
      await link.run('require("Storage").eraseAll()', 120_000);
      report = await boardReport(link);
    } else {
      // The saved game is read first and written back after the tables (save-upgrade.ts: older formats brought up).
      const slots = await readSlots(link, report);
      kept = slots.filter(isKept);
      dropped = slots.filter((s): s is DroppedSlot => !isKept(s));
      for (const d of dropped) err(`warning: ${d.name}: ${d.problem}, not kept (the unit could not resume from it either)\n`);
      if (kept.length) out(`carrying the saved game across the flash: ${kept.map(keptNote).join(", ")}\n`);
      if (!others.length && (report.files.length || report.trashBytes)) {
        // Only what this tool writes (and the saves it carries) is there: erased, so that .bootcde starts Storage again.
        out(
          `erasing the board's Storage first: it holds only files this flash writes${slotsThere.length ? " and the save slots" : ""} (${report.files.map(([n]) => n).join(", ") || "and trash"}), and ${BOOT_FILE} must start Storage for the pad to keep compaction off its pages\n`,
        );
        await link.run('require("Storage").eraseAll()', 120_000);
        report = await boardReport(link);
      } else if (others.length) {
        // Other files are kept: the saves and a pad from an earlier flash are erased (the saves are written again
        // after the tables; the pad pads nothing now, and its room goes back to the next compaction).
        for (const n of [...slotsThere, ...report.files.filter(([n]) => n === PAD_FILE).map(([n]) => n)])
          await link.run(`require("Storage").erase(${JSON.stringify(n)})`);
        report = await boardReport(link);
      }
    }
    const empty = report.files.length === 0 && report.trashBytes === 0;
    files = uploadFiles(empty, kept);
    if (!empty) {
      const keptOthers = report.files.filter(([n]) => !own.has(n) && !isSlot(n)).map(([n]) => n);
      err(
        [
          `warning: the board's Storage holds files this tool does not write (${keptOthers.join(", ")}), kept as they are; ${BOOT_FILE} will be written after them, without the pad,`,
          `  where a Storage compaction (which the unit's saves cause) can rewrite its pages, and a power cut during one then loses the firmware.`,
          `  To keep compaction off the firmware, flash with --erase: it erases those files, and the saved game too; ${BOOT_FILE} then starts Storage, with a pad after it\n`,
        ].join("\n"),
      );
    }
    const room = checkBoardRoom(
      report,
      files.map((f) => ({ name: f.name, bytes: f.bytes.length })),
      board,
    );
    if (room.compact) {
      out("compacting the board's Storage first: the new files need the room its trash takes\n");
      await link.run('require("Storage").compact()', 120_000);
    }
  } catch (e) {
    const f = asFlashError(e);
    // Erased already, perhaps: the saved game goes back on the board before the tool stops.
    if (f instanceof FlashError && kept.length) f.message += `\n${await rescueSlots(link, kept)}`;
    throw f;
  } finally {
    await link.close();
  }

  const args = ["--no-ble", "-p", port!, ...common, ...(baud ? ["-b", String(baud)] : [])];
  args.push(script);
  out(`flashing ${show(bundle)} (${bytes} bytes, profile ${profile.id}) to ${port} as ${BOOT_FILE}${describe(files)}\n`);
  let run: { code: number; failures: string[] };
  try {
    run = await runCli(cli, args, opts.timeoutS ?? defaultTimeoutS(sum(files)), bytes, out, err);
  } catch (e) {
    if (e instanceof FlashError && kept.length) e.message += `\n${await rescueAfter(port!, baud, kept)}`;
    throw e;
  }
  const uploadFailures = run.failures.filter((f) => f !== START_FAILURE);
  if (run.code !== 0 && !run.failures.length) uploadFailures.push(`the espruino CLI exited with code ${run.code}`);
  const startsItself = kept.some((k) => k.locksConsole);

  // After: what the board stored, read back, whatever the CLI said; then where it lies.
  link = await openConsole(port!, baud);
  let verified: { name: string; bytes: number; crc32: number }[];
  let layout: StorageLayout;
  try {
    verified = await verifyFiles(link, files);
    layout = storageLayout(await boardReport(link), board.storagePageBytes);
    // load() from a timer: the answer goes out first, then the board restarts (as at power-on) into the new firmware.
    if (startsItself && !uploadFailures.length) await link.run("setTimeout(function(){load();},0)");
  } catch (e) {
    const f = asFlashError(e);
    if (f instanceof FlashError && uploadFailures.length) f.message = `upload failed: ${uploadFailures.join("; ")}\n${f.message}`;
    if (f instanceof FlashError && kept.length && !/console is locked/.test(f.message)) f.message += `\n${await rescueSlots(link, kept)}`;
    throw f;
  } finally {
    await link.close();
  }
  out(`verified: ${verified.map((v) => `${v.name} ${v.bytes} bytes crc32 ${v.crc32.toString(16)}`).join(", ")}\n`);
  const where = layout.files.map((f) => `${f.name} at ${f.offset}`).join(", ");
  if (layout.protected)
    out(
      `layout: ${where}: ${BOOT_FILE} starts Storage and the next file a ${board.storagePageBytes}-byte flash page, so no compaction rewrites the firmware\n`,
    );
  else err(`warning: the firmware is not out of compaction's way: ${layout.why}${where ? ` (${where})` : ""}\n`);
  if (kept.length) out(`kept the saved game: ${kept.map(keptNote).join(", ")}\n`);
  if (startsItself && !uploadFailures.length)
    out(
      "started the firmware after reading back what was written: it resumes a game that holds a secret (a two-player codebreaker game, a Brain Flip round), so it locks its console until the secret is out\n",
    );
  const saves = { kept: kept.map(({ name, seq, format, upgraded, what }) => ({ name, seq, format, upgraded, what })), dropped };
  const result = { bundle, bundleBytes: bytes, tables, board: report, verified, padBytes: padOf(files), layout, saves };
  if (uploadFailures.length || run.failures.includes(START_FAILURE)) {
    // The files are right, yet the CLI saw a failure: say which, and fail.
    err(`flash failed: ${run.failures.concat(uploadFailures.filter((f) => !run.failures.includes(f))).join("; ")}\n`);
    return { exitCode: 1, ...result };
  }
  out(
    `done: ${profile.id} runs from ${BOOT_FILE} at every boot. Hold OK (grid key p66 on R1, bottom-right of the main pad) at power-on for the self-test.\n`,
  );
  return { exitCode: 0, ...result };
}

/** rescueSlots through a console of its own (after the CLI had the port); says so when the board does not answer. */
async function rescueAfter(port: string, baud: number | undefined, kept: KeptSlot[]): Promise<string> {
  let link: BoardConsole;
  try {
    link = await BoardConsole.open(port, { baud, cliRequire: cliRequire() });
  } catch {
    return `  the saved game (${kept.map((k) => k.name).join(", ")}) was erased from the board and could not be written back: the board does not answer`;
  }
  try {
    return await rescueSlots(link, kept);
  } finally {
    await link.close();
  }
}

const USAGE =
  "usage: npm run flash -- --port PORT [--profile NAME|PATH] [--erase] [--dry-run] [--no-tables] [--out-dir DIR] [--bundle FILE] [--timeout SECONDS] [--baud N]";
const HELP = [
  USAGE,
  "",
  "  --port PORT        the board's serial port (/dev/ttyACM0), or tcp://HOST:PORT (the simulator's console, espruino --telnet)",
  "  --profile NAME     the build to flash (default r1-pico), or a path to a profile .json",
  "  --erase            erase the board's whole Storage first: everything on it is lost, the saved game included",
  "                     (without it the saved game, bb.s0 and bb.s1, is carried across the flash, older save formats",
  "                     brought up to date, and files this tool does not write are kept, with a warning: the firmware",
  "                     then goes after them, without the pad that keeps Storage compaction off its flash pages)",
  "  --dry-run          no board: write what would be sent to empty Storage to <out-dir>/upload.js",
  "  --no-tables        leave the solver's tables out (the unit then searches on its own)",
  "  --out-dir DIR      where firmware.js and the upload go (default dist/)",
  "  --bundle FILE      flash this bundle instead of building one",
  "  --timeout SECONDS  how long the espruino CLI may take",
  "  --baud N           the serial console's baud rate (an ESP32's is set from hardware/boards.ts)",
].join("\n");

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        profile: { type: "string" },
        "dry-run": { type: "boolean" },
        "no-tables": { type: "boolean" },
        erase: { type: "boolean" },
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
    console.log(HELP);
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
      erase: values.erase,
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
