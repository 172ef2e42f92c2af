/**
 * The solver's decision tables a build carries in Storage (GitHub issue 8): one per codebreaker
 * variant the profile can play (a four-hole build skips the race's). `npm run flash` writes them
 * beside .bootcde, and the virtual board does the same when it is flashed; the firmware reads them
 * with require("Storage").read(solverTableName(rules)).
 */
import { readFileSync } from "node:fs";
import { pageAlignPad, STORAGE_HEADER_BYTES, storageFootprint, type BoardInfo } from "../../hardware/boards.ts";
import { TABLES_DIR, VARIANTS } from "./solver/variants.ts";

export interface SolverTable {
  /** The Storage file name (bb.t.brainiac, bb.t.race+...). */
  name: string;
  /** The committed file. */
  path: string;
  bytes: Uint8Array;
}

/**
 * The data size of a pad right after .bootcde that makes the next file start a flash page (hardware/boards.ts
 * pageAlignPad); null when .bootcde ends on a page already.
 */
export function bootPadBytes(bundleBytes: number, pageBytes: number): number | null {
  return pageAlignPad(storageFootprint(bundleBytes), pageBytes);
}

/** Storage kept free for what the firmware saves (the match across power loss) and the journal's slack. */
export const STATE_RESERVE_BYTES = 4 * 1024;

/**
 * How npm run flash lays out .bootcde and the tables in empty Storage: `inPage`, the tables written right after
 * .bootcde, in the rest of its last flash page; then the pad (`pad`, its data size; null: none) that makes the next
 * file start a page; then the other tables (`rest`). Nothing before that page boundary ever changes (tables are only
 * read), so no compaction erases those pages: the tables in .bootcde's page are as safe as it is, and its page holds
 * them rather than a pad of zeros. The tables there are those that fill most of it (every subset of the few tables
 * is tried; the first in their order on a tie), leaving either nothing or room for a pad (36 bytes at least); where
 * .bootcde leaves less than that in its page, the page after is filled too.
 */
export interface BootLayout {
  inPage: SolverTable[];
  pad: number | null;
  rest: SolverTable[];
}

export function bootLayout(bundleBytes: number, tables: SolverTable[], pageBytes: number): BootLayout {
  const boot = storageFootprint(bundleBytes);
  let room = (pageBytes - (boot % pageBytes)) % pageBytes;
  // Too little room for a file: the next page is filled too (hardware/boards.ts pageAlignPad).
  if (room && room < STORAGE_HEADER_BYTES + 4) room += pageBytes;
  let best = 0;
  let chosen = 0;
  for (let subset = 1; subset < 1 << tables.length; subset++) {
    let used = 0;
    tables.forEach((t, i) => {
      if ((subset >> i) & 1) used += storageFootprint(t.bytes.length);
    });
    const left = room - used;
    if (left >= 0 && (left === 0 || left >= STORAGE_HEADER_BYTES + 4) && used > best) {
      best = used;
      chosen = subset;
    }
  }
  return {
    inPage: tables.filter((_, i) => (chosen >> i) & 1),
    pad: room === best ? null : room - best - STORAGE_HEADER_BYTES,
    rest: tables.filter((_, i) => !((chosen >> i) & 1)),
  };
}

/**
 * Storage bytes a bundle and the tables take together, each file with its header: laid out as bootLayout does
 * (`pageBytes`), or one after another with no pad (null).
 */
export function storageUse(bundleBytes: number, tables: SolverTable[], pageBytes: number | null): number {
  const pad = pageBytes === null ? null : bootLayout(bundleBytes, tables, pageBytes).pad;
  const boot = storageFootprint(bundleBytes) + (pad === null ? 0 : storageFootprint(pad));
  return tables.reduce((sum, t) => sum + storageFootprint(t.bytes.length), boot);
}

/**
 * The layout npm run flash writes into empty Storage on `board` (bootLayout), or null when it would leave less than
 * STATE_RESERVE_BYTES of Storage for saved state: the flash then goes without a pad, the tables after .bootcde in
 * their order, and the firmware is not out of compaction's way. On a Pico, whose Storage is three 16 KB pages, that is
 * a bundle that leaves too little of its second page for tables (on R1 with today's tables, over 32,008 bytes).
 */
export function protectedLayout(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): BootLayout | null {
  if (storageUse(bundleBytes, tables, board.storagePageBytes) > board.storageBytes - STATE_RESERVE_BYTES) return null;
  return bootLayout(bundleBytes, tables, board.storagePageBytes);
}

/** The largest bundle (a multiple of 4 bytes, at most `from`) that protectedLayout still lays out on `board` with `tables`; 0: none. */
export function largestProtected(board: BoardInfo, tables: SolverTable[], from = board.storageBytes): number {
  let size = from - (from % 4);
  while (size > 0 && !protectedLayout(board, size, tables)) size -= 4;
  return size;
}

/** The pad npm run flash writes into empty Storage on `board` (its data size; protectedLayout), or null: none. */
export function bootPad(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): number | null {
  return protectedLayout(board, bundleBytes, tables)?.pad ?? null;
}

/** Every Storage name a solver table of any build takes (a board flashed for another build may hold others than its own). */
export const SOLVER_TABLE_NAMES: string[] = VARIANTS.map((v) => v.storageName);

// Read once: every virtual board and every restored test App asks for them.
const read = new Map<string, Uint8Array>();

/** The tables for a build with `pegs` holes a row, in a fixed order. */
export function solverTablesFor(pegs: number): SolverTable[] {
  return VARIANTS.filter((v) => v.rules.pegs <= pegs).map((v) => {
    const path = TABLES_DIR + v.storageName + ".bin";
    if (!read.has(path)) read.set(path, new Uint8Array(readFileSync(path)));
    return { name: v.storageName, path, bytes: read.get(path)! };
  });
}
