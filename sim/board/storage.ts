/**
 * The board's flash Storage (Espruino `require("Storage")`, ESPRUINO.md 4.4 and 5.6), as bytes on
 * the Node side. The context-facing module (8-bit strings, readJSON/writeJSON forms) is built on
 * top of this in sim/runtime/modules.ts.
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
 *   eraseAll: atomic here: a cut before it ends leaves Storage as it was.
 *   compact (Storage.compact(), or a create that does not fit otherwise): atomic for `armCut`, but it
 *     has its own cuts (`armCompactionCut`), step by step as the device does it (jsfCompactInternal,
 *     2v29): from the first page that starts with a header before the first trashed file, live files
 *     are read into a RAM buffer of min(live bytes, page + 32) bytes and written back packed; a page is
 *     erased just before it is first written, and only once reading has left it; the pages after the
 *     new end are erased last. A cut after a page was erased and before it was rewritten loses what the
 *     RAM buffer held. After such a cut Storage is read back as the device reads it (header walking,
 *     jsfGetNextFileHeader); if the device would find it corrupt (jsfIsStorageValid at power-on), it
 *     erases all of Storage (jsfResetStorage), and so does this model, with a warning.
 *
 * Host faults (the file behind Storage, storage-file.ts): a Storage file that cannot be used is moved
 * aside (renamed FILE.bad-<time>) with a warning, and Storage starts empty; a file that cannot be written
 * makes the Storage call fail as a full flash does (Storage.write returns false), with a warning.
 *
 * A cut is armed with `armCut(n, fraction, onCut)`: the n-th operation from now is carried out
 * `fraction` (0..1 of its bytes; 0 = nothing, 1 = all of it) and then `onCut` runs (the board turns
 * off) and `apply` throws PowerCutError, so nothing more of the firmware call that asked for the
 * write reaches the board.
 */
import { existsSync, renameSync } from "node:fs";
import {
  compactionPlan,
  FLASH_WORD_BYTES,
  flashImage,
  programSteps,
  journalLayout,
  readImage,
  STORAGE_NAME_MAX,
  wordsDone,
  bytesFromString,
  stringFromBytes,
  type StoredFile,
} from "./flash-image.ts";
import { BadStorageFile, readStorageFile, writeStorageFile } from "./storage-file.ts";

export { bytesFromString, FLASH_WORD_BYTES, readImage, STORAGE_NAME_MAX, stringFromBytes } from "./flash-image.ts";
export { storageFileLimit } from "./storage-file.ts";
// Espruino's Storage layout is a board fact (hardware/boards.ts), shared with the flash tool; so is the page-aligning
// pad that npm run flash writes after .bootcde (PAD_FILE, pageAlignPad there).
export { STORAGE_HEADER_BYTES, storageFootprint } from "../../hardware/boards.ts";
import { STORAGE_HEADER_BYTES, storageFootprint } from "../../hardware/boards.ts";

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
  /** Bytes of a flash page (board storagePageBytes; default 16 KB when the area is a whole number of them, else 4 KB). */
  pageBytes?: number;
  /** A JSON file that keeps Storage between runs (read at start, rewritten after every change). */
  file?: string;
  /** Called with a message for everything the device would silently accept but is probably a mistake. */
  warn?: (message: string) => void;
  /** Called at once when the file can no longer be written (with why), and when it can again (null). */
  onProblem?: (problem: string | null) => void;
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

/** A power cut armed for a step of the next compaction. */
interface ArmedCompactionCut {
  /** Flash steps (page erases and writes) done before the cut. */
  steps: number;
  /** How much of the step after them is done (0..1): a write cut short, or nothing. */
  fraction: number;
  onCut: (cut: CompactionCut) => void;
}

/** What a cut during a compaction did. */
export interface CompactionCut {
  /** Steps of the compaction (page erases and page writes), and how many were done. */
  totalSteps: number;
  stepsDone: number;
  /** The step cut short, if it was a write. */
  torn?: string;
  /** The device would find Storage corrupt at power-on and erase all of it. */
  reset: boolean;
  /** Files that were live before and are gone or changed now. */
  lost: string[];
}

interface ArmedCut {
  /** Operations still to go before the torn one (1 = the next). */
  countdown: number;
  fraction: number;
  onCut: (cut: StorageCut) => void;
}

export class VirtualStorage {
  readonly capacity: number;
  readonly pageBytes: number;
  readonly file: string | undefined;
  /** Every copy in journal (address) order, trashed ones included. */
  private journal: StoredFile[] = [];
  private warn: (message: string) => void;
  private armed: ArmedCut | null = null;
  private armedCompaction: ArmedCompactionCut | null = null;
  private listeners = new Set<(op: StorageOp, cut: StorageCut | null) => void>();
  /** Counts flash operations, for wear checks in tests. */
  readonly ops = { creates: 0, patches: 0, erases: 0, compacts: 0 };
  /** Every operation `apply` was given, torn ones included. */
  opCount = 0;
  /** Operations cut short by a power cut, in order. */
  readonly cuts: StorageCut[] = [];
  /** Compactions cut short by a power cut, in order. */
  readonly compactionCuts: CompactionCut[] = [];
  /** Where the last bad Storage file was moved to, if one was. */
  movedAside: string | undefined;
  /** Why the file could not be written the last time it was tried (null: it was written). */
  problem: string | null = null;
  private onProblem: (problem: string | null) => void;

  constructor(opts: StorageOptions) {
    this.capacity = opts.capacity;
    this.pageBytes = opts.pageBytes ?? (opts.capacity % 16384 === 0 ? 16384 : 4096);
    this.file = opts.file;
    this.warn = opts.warn ?? (() => {});
    this.onProblem = opts.onProblem ?? (() => {});
    if (this.file && existsSync(this.file)) {
      try {
        this.journal = readStorageFile(this.file, this.capacity);
      } catch (e) {
        if (!(e instanceof BadStorageFile)) throw e;
        this.journal = [];
        const aside = `${this.file}.bad-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        try {
          renameSync(this.file, aside);
          this.movedAside = aside;
          this.warn(`Storage file ${this.file} ${e.message}: moved aside to ${aside}; the unit starts with empty Storage`);
        } catch (moveError) {
          this.warn(
            `Storage file ${this.file} ${e.message}, and it could not be moved aside (${(moveError as Error).message}); the unit starts with empty Storage and will not keep it`,
          );
          (this as { file: string | undefined }).file = undefined;
        }
      }
    }
    // A file that cannot be written (a read-only or full disk) is found now, not at the first save: Storage is
    // then kept in memory only, and says so; the file, if there is one, stays as the last good copy.
    if (this.file && !this.save()) {
      const why = this.problem;
      (this as { file: string | undefined }).file = undefined;
      this.problem = `${why}; Storage is kept in memory only: nothing played in this run survives a restart`;
      this.warn(this.problem);
    }
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
    const names = this.journal.filter((f) => !f.trash).map((f) => f.name);
    return filter ? names.filter(filter) : names;
  }

  /** Bytes free after the last file (what the device reports: trash is not counted as free). */
  getFree(): number {
    return this.capacity - this.usedBytes();
  }

  getStats(): StorageStats {
    const fileBytes = this.liveBytes();
    const trash = this.journal.filter((f) => f.trash);
    const trashBytes = trash.reduce((n, f) => n + storageFootprint(f.bytes.length), 0);
    return {
      totalBytes: this.capacity,
      freeBytes: this.capacity - fileBytes - trashBytes,
      fileBytes,
      trashBytes,
      fileCount: this.journal.length - trash.length,
      trashCount: trash.length,
    };
  }

  /** Where each entry lies in flash (address of its header), trash included: what compaction works on. */
  layout(): { name: string; addr: number; bytes: number; trash: boolean }[] {
    return journalLayout(this.journal);
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
    this.armedCompaction = null;
  }

  /** Whether a cut is armed, and how many operations it waits for (1 = the next). */
  get armedCut(): { n: number; fraction: number } | null {
    return this.armed && { n: this.armed.countdown, fraction: this.armed.fraction };
  }

  /**
   * Arms a power cut in the next compaction, after `steps` of its flash steps (page erases and page
   * writes), with `fraction` (0..1) of the next step done when it is a write. The operation that asked
   * for the compaction then throws PowerCutError. `compactionSteps()` says how many steps it has.
   */
  armCompactionCut(steps: number, fraction: number, onCut: (cut: CompactionCut) => void): void {
    if (!(steps >= 0) || Math.floor(steps) !== steps) throw new Error(`armCompactionCut: steps must be a whole number >= 0, got ${steps}`);
    this.armedCompaction = { steps, fraction: Math.min(1, Math.max(0, fraction)), onCut };
  }

  /** The flash steps a compaction would take now (0 when there is no trash: the device then does nothing). */
  compactionSteps(): number {
    const plan = compactionPlan(this.journal, this.capacity, this.pageBytes);
    return plan ? plan.steps.length : 0;
  }

  /** Listens to every operation applied (with the cut, when it was torn). Returns a function that stops listening. */
  onChange(fn: (op: StorageOp, cut: StorageCut | null) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Carries out one change. The single place that mutates Storage: a power cut armed for this
   * operation leaves it part-done (see the model at the top of this file). When the host cannot keep
   * the change (the Storage file cannot be written), nothing changes and the call fails as on a full
   * flash.
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
    const before = this.file ? this.snapshot() : null;
    let result = true;
    let compactionCut: CompactionCut | null = null;
    try {
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
            this.ops.erases++;
          }
          break;
        case "compact":
          if (fraction < 1) cut.stage = "before";
          else this.compactNow();
          break;
      }
    } catch (e) {
      if (!(e instanceof CompactionCutSignal)) throw e;
      compactionCut = e.cut;
    }
    if (!this.save() && before) {
      // The host could not keep it: the change is undone, and the call fails as on a full flash.
      this.restore(before);
      return false;
    }
    if (compactionCut) {
      const c = compactionCut;
      this.compactionCuts.push(c);
      for (const fn of [...this.listeners]) fn(op, null);
      const onCut = this.armedCompactionOnCut;
      this.armedCompactionOnCut = null;
      onCut?.(c);
      throw new PowerCutError({ op: op.kind, name: cut.name, fraction: 0, stage: "data", bytesWritten: 0, dataBytes: 0 });
    }
    if (armed) this.cuts.push(cut);
    for (const fn of [...this.listeners]) fn(op, armed ? cut : null);
    if (armed) {
      armed.onCut(cut);
      throw new PowerCutError(cut);
    }
    return result;
  }

  private armedCompactionOnCut: ((cut: CompactionCut) => void) | null = null;

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
        this.journal.push({ name: "", bytes: new Uint8Array(op.size).fill(0xff), trash: true });
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
    for (const f of this.journal) if (!f.trash && f.name === name) return f;
    return undefined;
  }

  private toTrash(f: StoredFile | undefined): void {
    if (f) f.trash = true;
  }

  // -------------------------------------------------------------- compaction, as the device does it

  private compactNow(): void {
    this.ops.compacts++;
    const armed = this.armedCompaction;
    if (armed) {
      this.armedCompaction = null;
      const plan = compactionPlan(this.journal, this.capacity, this.pageBytes);
      if (plan) {
        const img = flashImage(this.journal, this.capacity);
        const before = this.journal.filter((f) => !f.trash).map((f) => ({ name: f.name, bytes: f.bytes.slice() }));
        const n = Math.min(armed.steps, plan.steps.length);
        const torn = programSteps(img, plan.steps, n, armed.fraction, this.pageBytes);
        const read = readImage(img, this.capacity, this.pageBytes);
        const reset = !read.valid;
        this.journal = reset ? [] : read.entries;
        if (reset)
          this.warn(
            'Storage: a power cut during compaction left Storage corrupt: at power-on the device says "Storage is corrupt." and erases all of it (jsfResetStorage)',
          );
        const lost = before
          .filter((f) => {
            const now = this.find(f.name);
            return !now || now.bytes.length !== f.bytes.length || now.bytes.some((b, j) => b !== f.bytes[j]);
          })
          .map((f) => f.name);
        this.armedCompactionOnCut = armed.onCut;
        throw new CompactionCutSignal({ totalSteps: plan.steps.length, stepsDone: n, torn, reset, lost });
      }
    }
    this.journal = this.journal.filter((f) => !f.trash);
  }

  private liveBytes(): number {
    let n = 0;
    for (const f of this.journal) if (!f.trash) n += storageFootprint(f.bytes.length);
    return n;
  }

  private usedBytes(): number {
    let n = 0;
    for (const f of this.journal) n += storageFootprint(f.bytes.length);
    return n;
  }

  private snapshot(): StoredFile[] {
    return this.journal.map((f) => ({ name: f.name, bytes: f.bytes.slice(), trash: f.trash }));
  }

  private restore(saved: StoredFile[]): void {
    this.journal = saved;
  }

  /** Writes the Storage file; false (with a warning) when the host cannot. */
  private save(): boolean {
    if (!this.file) return true;
    try {
      writeStorageFile(this.file, this.capacity, this.journal);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const problem = `Storage file ${this.file} could not be written (${code ?? (e as Error).message}): the last save is not kept; the unit carries on, and the file holds the last copy that was written`;
      this.warn(
        `Storage file ${this.file} could not be written (${code ?? (e as Error).message}): the Storage call failed, as on a full flash, and nothing changed`,
      );
      this.problem = problem;
      this.onProblem(problem);
      return false;
    }
    if (this.problem !== null) {
      this.problem = null;
      this.onProblem(null);
    }
    return true;
  }
}

/** Unwinds a compaction cut short to `apply`, which reports it. */
class CompactionCutSignal extends Error {
  constructor(readonly cut: CompactionCut) {
    super("power cut during compaction");
  }
}
