/**
 * The solver's decision tables a build carries in Storage (GitHub issue 8): one per codebreaker
 * variant the profile can play (a four-hole build skips the race's). `npm run flash` writes them
 * beside .bootcde, and the virtual board does the same when it is flashed; the firmware reads them
 * with require("Storage").read(solverTableName(rules)).
 */
import { readFileSync } from "node:fs";
import { pageAlignPad, storageFootprint, type BoardInfo } from "../../hardware/boards.ts";
import { TABLES_DIR, VARIANTS } from "./solver/variants.ts";

export interface SolverTable {
  /** The Storage file name (bb.t.brainiac, bb.t.race+...). */
  name: string;
  /** The committed file. */
  path: string;
  bytes: Uint8Array;
}

/**
 * The data size of the pad npm run flash writes right after .bootcde, which it writes first into empty Storage, so
 * that the tables start a flash page (hardware/boards.ts pageAlignPad); null when .bootcde ends on a page already.
 */
export function bootPadBytes(bundleBytes: number, pageBytes: number): number | null {
  return pageAlignPad(storageFootprint(bundleBytes), pageBytes);
}

/** Storage kept free for what the firmware saves (the match across power loss) and the journal's slack. */
export const STATE_RESERVE_BYTES = 4 * 1024;

/**
 * Storage bytes a bundle, its page-aligning pad (`pageBytes`; null: without one) and the tables take together, each
 * file with its header.
 */
export function storageUse(bundleBytes: number, tables: SolverTable[], pageBytes: number | null): number {
  const pad = pageBytes === null ? null : bootPadBytes(bundleBytes, pageBytes);
  const boot = storageFootprint(bundleBytes) + (pad === null ? 0 : storageFootprint(pad));
  return tables.reduce((sum, t) => sum + storageFootprint(t.bytes.length), boot);
}

/**
 * The pad npm run flash writes after .bootcde into empty Storage on `board` (its data size), or null: when .bootcde
 * ends on a page, or when the pad would leave less than STATE_RESERVE_BYTES of Storage for saved state beside the
 * tables. The flash then goes without it (the firmware is not out of compaction's way); on a Pico, whose Storage is
 * three 16 KB pages, that is a .bootcde that ends in the third page: a bundle over 32,700 bytes (unless it ends
 * exactly at 32 KB).
 */
export function bootPad(board: BoardInfo, bundleBytes: number, tables: SolverTable[]): number | null {
  const pad = bootPadBytes(bundleBytes, board.storagePageBytes);
  if (pad === null || storageUse(bundleBytes, tables, board.storagePageBytes) > board.storageBytes - STATE_RESERVE_BYTES) return null;
  return pad;
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
