/**
 * Before and after the upload: the board's version and Storage, and the files read back (length and CRC-32) and where they lie.
 */
import { crc32 } from "node:zlib";
import { PAD_FILE, storageFootprint, storageOffsets, type BoardInfo } from "../../../hardware/boards.ts";
import { SOLVER_TABLE_NAMES } from "../tables.ts";
import { BoardConsole } from "../board-console.ts";
import { BOOT_FILE, MIN_ESPRUINO, FlashError, type StorageLayout, type BoardReport } from "./types.ts";

/** How to put a current Espruino on each board. */
const UPDATE_HELP: Record<string, string> = {
  pico: "update it with the Espruino Web IDE (https://www.espruino.com/ide: Settings, Flasher, Flash Firmware), which downloads the Pico's firmware and guides you through plugging it in with the button held (espruino.com/Pico, Firmware Updates)",
  esp32: "update it with esptool.py and the ESP32 files from https://www.espruino.com/Download (espruino.com/ESP32, Flashing)",
};

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
