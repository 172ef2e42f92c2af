/**
 * The board's flash Storage (Espruino `require("Storage")`, ESPRUINO.md 4.4 and 5.6), as bytes on
 * the Node side. The context-facing module (8-bit strings, readJSON/writeJSON forms) is built on
 * top of this in runtime.ts.
 *
 * Model: a journal, like the device. Every file takes a header plus its data rounded up to whole
 * words; rewriting or erasing a file turns its old copy into trash, which only `compact()` (or a
 * write that would not fit otherwise) reclaims. Capacity is the board's Storage area, shared with
 * the flashed code (`.bootcde`). Live copies are kept in journal (address) order; a read finds the
 * first live copy of a name, as the device's jsfFindFile does.
 *
 * Every change goes through `apply(op)`, one operation at a time, so that a power cut can land in
 * the middle of one (a torn write). How far an operation got is a fraction of the bytes it programs,
 * in the order the device programs them (Espruino 2v29 src/jsflash.c, jsfWriteFile/jsfCreateFile):
 *
 *   create (Storage.write at offset 0, a whole new copy of a file):
 *     1. if the name exists, its old copy is marked trash (one word: the name's first 4 bytes are
 *        zeroed) - the device does this FIRST;
 *     2. if the new copy does not fit, the area is compacted (atomic here, see below);
 *     3. the new copy's 32-byte header (size word, then the name) is programmed;
 *     4. the data is programmed word by word; bytes not programmed yet read 0xFF (erased flash).
 *     A cut in 1 leaves everything as it was. A cut before the header's first word is done leaves
 *     no trace of the new copy; a cut later in 3 leaves a header no name matches: the copy is lost
 *     (its space is trash). Either way, the old copy being trash already, the file is gone. A cut in
 *     4 leaves the file visible with only its first whole words of data, the rest 0xFF. So a cut
 *     while a file is rewritten loses the old copy too: that is why saved state is kept in two files.
 *     (The device does not write the new copy before trashing the old one: jsfWriteFile calls
 *     jsfEraseFileInternal on the old copy, then jsfCreateFile.)
 *   patch (Storage.write at an offset of an existing file): the bytes are programmed in order; a cut
 *     leaves the first whole words done (flash only clears bits: a byte programmed twice keeps the
 *     AND of both).
 *   erase: one word (the name's first 4 bytes zeroed): done or not.
 *   eraseAll, compact: atomic here: a cut before they end leaves Storage as it was. The device
 *     compacts in place through a RAM buffer, page by page, so a real cut there can lose the files
 *     being moved (.bootcde included); this model does not go that far.
 *
 * A cut is armed with `armCut(n, fraction, onCut)`: the n-th operation from now is carried out
 * `fraction` (0..1 of its bytes; 0 = nothing, 1 = all of it) and then `onCut` runs (the board turns
 * off) and `apply` throws PowerCutError, so nothing more of the firmware call that asked for the
 * write reaches the board.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/** Longer names are silently truncated by the device. */
export const STORAGE_NAME_MAX = 28;
// Espruino's Storage layout is a board fact (hardware/boards.ts), shared with the build tools.
export { STORAGE_HEADER_BYTES, storageFootprint } from "../hardware/boards.ts";
import { STORAGE_HEADER_BYTES, storageFootprint } from "../hardware/boards.ts";
/** Flash is programmed a word at a time: a cut leaves whole words done. */
export const FLASH_WORD_BYTES = 4;

export interface StorageStats {
  totalBytes: number;
  freeBytes: number;
  fileBytes: number;
  trashBytes: number;
  fileCount: number;
  trashCount: number;
}

/** One change to Storage; `apply` carries them out. */
export type StorageOp =
  | { kind: "create"; name: string; size: number; bytes: Uint8Array }
  | { kind: "patch"; name: string; offset: number; bytes: Uint8Array }
  | { kind: "erase"; name: string }
  | { kind: "eraseAll" }
  | { kind: "compact" };

export interface StorageOptions {
  /** Bytes of the Storage area (board storageBytes). */
  capacity: number;
  /** A JSON file that keeps Storage between runs (read at start, rewritten after every change). */
  file?: string;
  /** Called with a message for everything the device would silently accept but is probably a mistake. */
  warn?: (message: string) => void;
}

/** How far an operation got before the power was cut. */
export type CutStage =
  /** nothing of it was done */
  | "before"
  /** create: the old copy was marked trash, not a word of the new header programmed */
  | "old-trashed"
  /** create: the new header was cut short: the new copy is lost */
  | "header"
  /** create or patch: some of the data was programmed */
  | "data"
  /** all of it was done */
  | "done";

/** A power cut during a Storage operation. */
export interface StorageCut {
  op: StorageOp["kind"];
  /** The file, for create, patch and erase. */
  name?: string;
  /** The fraction asked for (0..1). */
  fraction: number;
  stage: CutStage;
  /** Data bytes programmed (create, patch), of `dataBytes`. */
  bytesWritten: number;
  dataBytes: number;
}

/** Thrown by `apply` (so by Storage.write and friends) when the power was cut during the operation. */
export class PowerCutError extends Error {
  constructor(readonly cut: StorageCut) {
    super(`power cut during Storage ${cut.op}${cut.name === undefined ? "" : ` "${cut.name}"`} (${cut.stage})`);
    this.name = "PowerCutError";
  }
}

interface StoredFile {
  name: string;
  bytes: Uint8Array;
}

interface ArmedCut {
  /** Operations still to go before the torn one (1 = the next). */
  countdown: number;
  fraction: number;
  onCut: (cut: StorageCut) => void;
}

interface SavedStorage {
  format: "brainboard-storage";
  version: 1;
  capacity: number;
  trashBytes: number;
  trashCount: number;
  files: { name: string; data: string }[];
}

/** Bytes of an 8-bit string (char codes masked to a byte, as the device stores them). */
export function bytesFromString(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 255;
  return out;
}

/** The 8-bit string of some bytes. */
export function stringFromBytes(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return s;
}

/** Bytes of `length` programmed at `fraction`: whole words only, and all of them only at fraction 1. */
function wordsDone(length: number, fraction: number): number {
  if (fraction >= 1) return length;
  const n = Math.min(length - 1, Math.floor(length * Math.max(0, fraction)));
  return Math.max(0, n - (n % FLASH_WORD_BYTES));
}

export class VirtualStorage {
  readonly capacity: number;
  readonly file: string | undefined;
  /** Live copies in journal (address) order. */
  private journal: StoredFile[] = [];
  private trashBytes = 0;
  private trashCount = 0;
  private warn: (message: string) => void;
  private armed: ArmedCut | null = null;
  private listeners = new Set<(op: StorageOp, cut: StorageCut | null) => void>();
  /** Counts flash operations, for wear checks in tests. */
  readonly ops = { creates: 0, patches: 0, erases: 0, compacts: 0 };
  /** Every operation `apply` was given, torn ones included. */
  opCount = 0;
  /** Operations cut short by a power cut, in order. */
  readonly cuts: StorageCut[] = [];

  constructor(opts: StorageOptions) {
    this.capacity = opts.capacity;
    this.file = opts.file;
    this.warn = opts.warn ?? (() => {});
    if (this.file && existsSync(this.file)) this.load(this.file);
  }

  /** Truncates a name like the device does (with a warning), and refuses an empty one. */
  normaliseName(name: string): string {
    name = String(name);
    if (name.length === 0) throw new Error("Storage: a file name must not be empty");
    if (name.length > STORAGE_NAME_MAX) {
      const short = name.slice(0, STORAGE_NAME_MAX);
      this.warn(`Storage: file name "${name}" is longer than ${STORAGE_NAME_MAX} characters; the device truncates it to "${short}"`);
      return short;
    }
    return name;
  }

  has(name: string): boolean {
    return this.find(this.normaliseName(name)) !== undefined;
  }

  /** A copy of a file's bytes (or of `length` bytes from `offset`), or undefined if it does not exist. */
  read(name: string, offset = 0, length?: number): Uint8Array | undefined {
    const f = this.find(this.normaliseName(name));
    if (!f) return undefined;
    const start = Math.min(Math.max(0, offset | 0), f.bytes.length);
    const end = length === undefined ? f.bytes.length : Math.min(f.bytes.length, start + Math.max(0, length | 0));
    return f.bytes.slice(start, end);
  }

  /** A file as an 8-bit string, or undefined. */
  readString(name: string, offset?: number, length?: number): string | undefined {
    const b = this.read(name, offset, length);
    return b && stringFromBytes(b);
  }

  /**
   * Writes like `Storage.write`: with no offset (or 0) a new file of `size` bytes (default: the
   * data's length) replaces any old one and the data goes at its start; with an offset the data goes
   * into the existing file at that offset. Returns false when the file does not fit.
   */
  write(name: string, data: Uint8Array | string, offset?: number, size?: number): boolean {
    name = this.normaliseName(name);
    const bytes = typeof data === "string" ? bytesFromString(data) : data;
    const off = offset === undefined ? 0 : Math.floor(Number(offset));
    if (!(off >= 0)) throw new Error(`Storage.write: bad offset ${offset}`);
    if (off === 0) {
      const fileSize = size === undefined ? bytes.length : Math.floor(Number(size));
      if (!(fileSize >= bytes.length)) throw new Error(`Storage.write: ${bytes.length} bytes of data do not fit a file of size ${size}`);
      return this.apply({ kind: "create", name, size: fileSize, bytes });
    }
    const f = this.find(name);
    if (!f) throw new Error(`Storage.write: cannot write at offset ${off} of "${name}": the file does not exist`);
    if (off + bytes.length > f.bytes.length)
      throw new Error(`Storage.write: ${bytes.length} bytes at offset ${off} do not fit "${name}" (size ${f.bytes.length})`);
    return this.apply({ kind: "patch", name, offset: off, bytes });
  }

  erase(name: string): void {
    name = this.normaliseName(name);
    if (this.find(name)) this.apply({ kind: "erase", name });
  }

  eraseAll(): void {
    this.apply({ kind: "eraseAll" });
  }

  compact(): void {
    this.apply({ kind: "compact" });
  }

  /** File names in Storage order, optionally filtered. */
  list(filter?: (name: string) => boolean): string[] {
    const names = this.journal.map((f) => f.name);
    return filter ? names.filter(filter) : names;
  }

  /** Bytes free after the last file (what the device reports: trash is not counted as free). */
  getFree(): number {
    return this.capacity - this.usedBytes();
  }

  getStats(): StorageStats {
    const fileBytes = this.liveBytes();
    return {
      totalBytes: this.capacity,
      freeBytes: this.capacity - fileBytes - this.trashBytes,
      fileBytes,
      trashBytes: this.trashBytes,
      fileCount: this.journal.length,
      trashCount: this.trashCount,
    };
  }

  /**
   * Arms a power cut during the n-th Storage operation from now (1 = the next): that operation is
   * carried out `fraction` of the way (see the model above), then `onCut` runs and `apply` throws
   * PowerCutError. Replaces any cut already armed.
   */
  armCut(n: number, fraction: number, onCut: (cut: StorageCut) => void): void {
    if (!(n >= 1) || Math.floor(n) !== n) throw new Error(`armCut: n must be a whole number >= 1, got ${n}`);
    if (!(fraction >= 0 && fraction <= 1)) throw new Error(`armCut: fraction must be 0..1, got ${fraction}`);
    this.armed = { countdown: n, fraction, onCut };
  }

  disarmCut(): void {
    this.armed = null;
  }

  /** Whether a cut is armed, and how many operations it waits for (1 = the next). */
  get armedCut(): { n: number; fraction: number } | null {
    return this.armed && { n: this.armed.countdown, fraction: this.armed.fraction };
  }

  /** Listens to every operation applied (with the cut, when it was torn). Returns a function that stops listening. */
  onChange(fn: (op: StorageOp, cut: StorageCut | null) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Carries out one change. The single place that mutates Storage: a power cut armed for this
   * operation leaves it part-done (see the model at the top of this file).
   */
  apply(op: StorageOp): boolean {
    this.opCount++;
    let armed: ArmedCut | null = null;
    if (this.armed && --this.armed.countdown <= 0) {
      armed = this.armed;
      this.armed = null;
    }
    const fraction = armed ? armed.fraction : 1;
    const cut: StorageCut = { op: op.kind, fraction, stage: "done", bytesWritten: 0, dataBytes: 0 };
    if ("name" in op) cut.name = op.name;
    let result = true;
    switch (op.kind) {
      case "create":
        result = this.create(op, fraction, cut);
        break;
      case "patch": {
        const f = this.find(op.name);
        if (!f) throw new Error(`Storage: no file "${op.name}"`);
        const n = wordsDone(op.bytes.length, fraction);
        cut.dataBytes = op.bytes.length;
        cut.bytesWritten = n;
        if (n < op.bytes.length) cut.stage = n === 0 ? "before" : "data";
        let rewritten = false;
        for (let i = 0; i < n; i++) {
          const old = f.bytes[op.offset + i];
          if (old !== 0xff && old !== op.bytes[i]) rewritten = true;
          // Flash can only clear bits until the page is erased.
          f.bytes[op.offset + i] = old & op.bytes[i];
        }
        if (rewritten)
          this.warn(
            `Storage: "${op.name}" bytes ${op.offset}..${op.offset + op.bytes.length - 1} were already written; flash keeps only the bits both writes clear`,
          );
        this.ops.patches++;
        break;
      }
      case "erase":
        if (fraction < 1) cut.stage = "before";
        else {
          this.toTrash(this.find(op.name));
          this.ops.erases++;
        }
        break;
      case "eraseAll":
        if (fraction < 1) cut.stage = "before";
        else {
          this.journal = [];
          this.trashBytes = 0;
          this.trashCount = 0;
          this.ops.erases++;
        }
        break;
      case "compact":
        if (fraction < 1) cut.stage = "before";
        else this.compactNow();
        break;
    }
    this.save();
    if (armed) this.cuts.push(cut);
    for (const fn of [...this.listeners]) fn(op, armed ? cut : null);
    if (armed) {
      armed.onCut(cut);
      throw new PowerCutError(cut);
    }
    return result;
  }

  /** A new copy of a file, `fraction` of the way (the stages are in the model at the top of this file). */
  private create(op: Extract<StorageOp, { kind: "create" }>, fraction: number, cut: StorageCut): boolean {
    const old = this.find(op.name);
    const need = storageFootprint(op.size);
    const oldFootprint = old ? storageFootprint(old.bytes.length) : 0;
    const fits = this.usedBytes() + need <= this.capacity;
    // The device compacts when a file does not fit; the old copy is reclaimed too.
    if (!fits && this.liveBytes() - oldFootprint + need > this.capacity) {
      cut.stage = "before";
      return false;
    }
    cut.dataBytes = op.bytes.length;
    // Bytes programmed, in order: the old copy's name word, the header, the data.
    const trashOld = old ? FLASH_WORD_BYTES : 0;
    const total = trashOld + STORAGE_HEADER_BYTES + op.bytes.length;
    const at = fraction >= 1 ? total : Math.floor(total * fraction);
    let pos = 0;
    cut.stage = "before";
    if (old) {
      if (at < trashOld) return true;
      this.toTrash(old);
      pos = trashOld;
      cut.stage = "old-trashed";
    }
    if (!fits) this.compactNow();
    if (at < pos + STORAGE_HEADER_BYTES) {
      if (at >= pos + FLASH_WORD_BYTES) {
        // A header cut short matches no name: the new copy is lost and its space is trash.
        this.trashBytes += need;
        this.trashCount++;
        cut.stage = "header";
      }
      return true;
    }
    pos += STORAGE_HEADER_BYTES;
    const done = at - pos >= op.bytes.length ? op.bytes.length : at - pos - ((at - pos) % FLASH_WORD_BYTES);
    const bytes = new Uint8Array(op.size).fill(0xff);
    bytes.set(op.bytes.subarray(0, done), 0);
    this.journal.push({ name: op.name, bytes });
    this.ops.creates++;
    cut.bytesWritten = done;
    if (done < op.bytes.length) {
      cut.stage = "data";
      return true;
    }
    cut.stage = "done";
    return true;
  }

  /** The first live copy of a name, as the device finds it. */
  private find(name: string): StoredFile | undefined {
    for (const f of this.journal) if (f.name === name) return f;
    return undefined;
  }

  private toTrash(f: StoredFile | undefined): void {
    if (!f) return;
    const i = this.journal.indexOf(f);
    if (i < 0) return;
    this.journal.splice(i, 1);
    this.trashBytes += storageFootprint(f.bytes.length);
    this.trashCount++;
  }

  private compactNow(): void {
    this.trashBytes = 0;
    this.trashCount = 0;
    this.ops.compacts++;
  }

  private liveBytes(): number {
    let n = 0;
    for (const f of this.journal) n += storageFootprint(f.bytes.length);
    return n;
  }

  private usedBytes(): number {
    return this.liveBytes() + this.trashBytes;
  }

  private save(): void {
    if (!this.file) return;
    const data: SavedStorage = {
      format: "brainboard-storage",
      version: 1,
      capacity: this.capacity,
      trashBytes: this.trashBytes,
      trashCount: this.trashCount,
      files: this.journal.map((f) => ({ name: f.name, data: Buffer.from(f.bytes).toString("base64") })),
    };
    const tmp = this.file + ".tmp";
    writeFileSync(tmp, JSON.stringify(data, null, 1));
    renameSync(tmp, this.file);
  }

  private load(file: string): void {
    let data: SavedStorage;
    try {
      data = JSON.parse(readFileSync(file, "utf8")) as SavedStorage;
    } catch (e) {
      throw new Error(`Storage file ${file} is not valid JSON: ${(e as Error).message}`);
    }
    if (data.format !== "brainboard-storage" || !Array.isArray(data.files)) throw new Error(`${file} is not a Brainboard storage file`);
    for (const f of data.files) this.journal.push({ name: f.name, bytes: new Uint8Array(Buffer.from(f.data, "base64")) });
    this.trashBytes = data.trashBytes | 0;
    this.trashCount = data.trashCount | 0;
    if (this.usedBytes() > this.capacity) this.warn(`Storage file ${file} holds more than the board's ${this.capacity} bytes`);
  }
}
