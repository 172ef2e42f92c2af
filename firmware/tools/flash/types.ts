/**
 * The flash tool's shared pieces: its error, options and results, and the constants every part uses.
 */
import { ROOT } from "../build.ts";
import { type SolverTable } from "../tables.ts";
import { type DroppedSlot } from "../save-upgrade.ts";

export const HARDWARE_DIR = ROOT + "hardware/";

export const DEFAULT_OUT_DIR = ROOT + "dist/";
export { STATE_RESERVE_BYTES } from "../tables.ts";

/** The CLI's short-upload bug: a payload of this many bytes or fewer never reports completion (docs/espruino.md 6.2). */
export const CLI_SHORT_UPLOAD_BYTES = 512;

export const BOOT_FILE = ".bootcde";

/** The image the flash stores as .bootcde (the bundle pretokenised), written into the output directory. */
export const IMAGE_FILE = "firmware.tok";

/** The oldest Espruino the firmware is known to run on: everything in docs/espruino.md was checked on 2v29. */
export const MIN_ESPRUINO = { major: 2, minor: 29 };

/** process.env.BOARD of Espruino for Linux ($BRAINBOARD_ESPRUINO_DIR), which stands in for any board over tcp://. */
export const LINUX_BOARD = "LINUX";

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
  /** Where firmware.js, firmware.tok and upload.js go (default dist/). */
  outDir?: string;
  /** Flash this bundle (JavaScript; it is pretokenised) instead of building one. */
  bundle?: string;
  /** Seconds before the CLI is stopped (default: from the upload size). */
  timeoutS?: number;
  baud?: number;
  /** Where to look for serial ports to suggest (default /dev). */
  devDir?: string;
  /** The platform the port is named for (default process.platform; tests name another). */
  platform?: string;
  /** The CLI script to run (tests substitute a stand-in). */
  cli?: string;
  /** Leave the solver's tables out (default: written with the firmware). */
  noTables?: boolean;
  /** Erase the board's whole Storage first (the saved match too: a copy is kept on disk first). */
  erase?: boolean;
  /** A folder of saves kept by an earlier flash (backupSlots): they are written with the firmware instead of the board's. */
  restoreSaves?: string;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

export interface FlashResult {
  exitCode: number;
  /** The bundle (JavaScript) and its size. */
  bundle: string;
  bundleBytes: number;
  /** The image stored as .bootcde (the bundle pretokenised, written to the output directory) and its size. */
  image: string;
  imageBytes: number;
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
  /** Where the saved game was copied on disk before anything was erased (null: the board held none). */
  savesBackup?: string | null;
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
