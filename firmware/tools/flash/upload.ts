/**
 * The upload: the files in Storage order, the script the espruino CLI sends, whether they fit, and the CLI run under a timeout.
 */
import { spawn } from "node:child_process";
import { crc32 } from "node:zlib";
import { PAD_FILE, storageFootprint, type BoardInfo } from "../../../hardware/boards.ts";
import { IMAGE_LIMIT_BYTES, ROOT } from "../build.ts";
import { bootLayout, largestProtected, protectedLayout, STATE_RESERVE_BYTES, storageUse, type SolverTable } from "../tables.ts";
import { SAVE_SLOT_NAMES } from "../save-upgrade.ts";
import { CLI_SHORT_UPLOAD_BYTES, BOOT_FILE, FlashError, type UploadFile, type BoardReport } from "./types.ts";

/** The CLI settings that keep it from touching the bundle or going online for modules or compilation. */
// SAVE_ON_SEND=-1: the script the CLI is given (uploadScript: the Storage writes, then load()) is sent as it is, after
// the CLI's reset(). The upload so ends with load(), a restart as at power-on (.boot0-.boot3, then .bootcde), not
// load(".bootcde"), which skips the boot files (a test board's pins live in .boot0: sim/espruino/prelude.ts). -1 is
// also truthy, which gives the board the CLI's longer wait (5 s, not 2 s) for its prompt after the upload.
export const CLI_CONFIG = [
  "MINIFICATION_LEVEL=",
  "MODULE_MINIFICATION_LEVEL=",
  "COMPILATION=false",
  "PRETOKENISE=0",
  "MODULE_URL=",
  "SAVE_ON_SEND=-1",
].flatMap((c) => ["--config", c]);

/** The script the CLI sends (uploadScript), written into the output directory. */
export const SCRIPT_FILE = "storage-upload.js";

/** Data bytes sent in one Storage.write, as the CLI writes .bootcde (plugins/saveOnSend.js); the CLI waits 250 ms after each. */
export const CHUNK_BYTES = 1024;

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
  {
    pattern: /upload incomplete: /,
    why: "the board did not receive the whole firmware (.bootcde is not what was sent), so it was not started: flash again",
  },
  { pattern: /Uncaught /, why: "the firmware reported an error when it started (see the output above); the upload itself completed" },
];

/** The failure that means the upload arrived but the firmware failed at start (it is still verified). */
export const START_FAILURE = CLI_FAILURES[CLI_FAILURES.length - 1].why;

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

/** The most the stored image may take: the docs/design.md limit, and the board's Storage less what saved state needs. */
export function storageBudget(board: BoardInfo): number {
  return Math.min(IMAGE_LIMIT_BYTES, board.storageBytes - STATE_RESERVE_BYTES);
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
 * file. Text goes as a string literal; anything else (the tables, the pretokenised firmware) as base64 decoded on the board (atob), as the CLI's
 * --storage does; the pad as zero-filled arrays made on the board. Every line is printable 7-bit ASCII, so nothing
 * depends on how the link treats bytes >= 0x80 (docs/espruino.md 4.3).
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
  // Started only when .bootcde is whole: a link cut mid-upload leaves a full-length file of partial content,
  // which would start as a syntax error; then the board says so instead (CLI_FAILURES: upload incomplete).
  const boot = files.find((f) => f.name === BOOT_FILE);
  if (start && boot)
    lines.push(
      `if(E.CRC32(require("Storage").read(${JSON.stringify(BOOT_FILE)}))===${crc32(boot.bytes) >>> 0})load();else print("upload incomplete: ${BOOT_FILE} is not what was sent; not started")`,
    );
  else if (start) lines.push("load()");
  return lines.join("\n") + "\n";
}

/** Seconds the CLI gets: USB uploads take a few seconds (250 ms per 1 KB Storage chunk), the ESP32's UART a little more. */
export function defaultTimeoutS(uploadBytes: number): number {
  return 60 + 2 * Math.ceil(uploadBytes / 1024);
}

/** Runs the CLI, streaming its output; resolves with its exit code and the failures its output shows (it may exit 0 all the same). */
export async function runCli(
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
