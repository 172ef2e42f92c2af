/**
 * The board's flash Storage (Espruino `require("Storage")`, ESPRUINO.md 4.4 and 5.6), as bytes on
 * the Node side. The context-facing module (8-bit strings, readJSON/writeJSON forms) is built on
 * top of this in runtime.ts.
 *
 * Model: a journal, like the device. Every file takes a header plus its data rounded up to whole
 * words; rewriting or erasing a file turns its old copy into trash, which only `compact()` (or a
 * write that would not fit otherwise) reclaims. Capacity is the board's Storage area, shared with
 * the flashed code (`.bootcde`).
 *
 * Every change goes through `apply(op)`, one operation at a time, so that a later change can cut
 * power part-way through an operation (a torn write).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/** Longer names are silently truncated by the device. */
export const STORAGE_NAME_MAX = 28;
/** Per-file header on flash: a 4-byte size and the 28-byte name. */
export const STORAGE_HEADER_BYTES = 32;

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

interface StoredFile {
  bytes: Uint8Array;
}

interface SavedStorage {
  format: "brainboard-storage";
  version: 1;
  capacity: number;
  trashBytes: number;
  trashCount: number;
  files: { name: string; data: string }[];
}

/** Flash space a file of `size` data bytes takes. */
export function storageFootprint(size: number): number {
  return STORAGE_HEADER_BYTES + ((size + 3) & ~3);
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

export class VirtualStorage {
  readonly capacity: number;
  readonly file: string | undefined;
  private files = new Map<string, StoredFile>();
  private trashBytes = 0;
  private trashCount = 0;
  private warn: (message: string) => void;
  /** Counts flash operations, for wear checks in tests. */
  readonly ops = { creates: 0, patches: 0, erases: 0, compacts: 0 };

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
    return this.files.has(this.normaliseName(name));
  }

  /** A copy of a file's bytes (or of `length` bytes from `offset`), or undefined if it does not exist. */
  read(name: string, offset = 0, length?: number): Uint8Array | undefined {
    const f = this.files.get(this.normaliseName(name));
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
    const f = this.files.get(name);
    if (!f) throw new Error(`Storage.write: cannot write at offset ${off} of "${name}": the file does not exist`);
    if (off + bytes.length > f.bytes.length)
      throw new Error(`Storage.write: ${bytes.length} bytes at offset ${off} do not fit "${name}" (size ${f.bytes.length})`);
    return this.apply({ kind: "patch", name, offset: off, bytes });
  }

  erase(name: string): void {
    name = this.normaliseName(name);
    if (this.files.has(name)) this.apply({ kind: "erase", name });
  }

  eraseAll(): void {
    this.apply({ kind: "eraseAll" });
  }

  compact(): void {
    this.apply({ kind: "compact" });
  }

  /** File names in Storage order, optionally filtered. */
  list(filter?: (name: string) => boolean): string[] {
    const names = [...this.files.keys()];
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
      fileCount: this.files.size,
      trashCount: this.trashCount,
    };
  }

  /**
   * Carries out one change. The single place that mutates Storage: a power cut in the middle of
   * an operation would be modelled here.
   */
  apply(op: StorageOp): boolean {
    switch (op.kind) {
      case "create": {
        const old = this.files.get(op.name);
        const need = storageFootprint(op.size);
        const oldFootprint = old ? storageFootprint(old.bytes.length) : 0;
        if (this.usedBytes() + need > this.capacity) {
          // The device compacts when a file does not fit; the old copy is reclaimed too.
          if (this.liveBytes() - oldFootprint + need > this.capacity) return false;
          if (old) this.toTrash(op.name);
          this.compactNow();
        } else if (old) this.toTrash(op.name);
        const bytes = new Uint8Array(op.size).fill(0xff);
        bytes.set(op.bytes, 0);
        this.files.set(op.name, { bytes });
        this.ops.creates++;
        break;
      }
      case "patch": {
        const f = this.files.get(op.name);
        if (!f) throw new Error(`Storage: no file "${op.name}"`);
        let rewritten = false;
        for (let i = 0; i < op.bytes.length; i++) {
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
        this.toTrash(op.name);
        this.ops.erases++;
        break;
      case "eraseAll":
        this.files.clear();
        this.trashBytes = 0;
        this.trashCount = 0;
        this.ops.erases++;
        break;
      case "compact":
        this.compactNow();
        break;
    }
    this.save();
    return true;
  }

  private toTrash(name: string): void {
    const f = this.files.get(name);
    if (!f) return;
    this.files.delete(name);
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
    for (const f of this.files.values()) n += storageFootprint(f.bytes.length);
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
      files: [...this.files].map(([name, f]) => ({ name, data: Buffer.from(f.bytes).toString("base64") })),
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
    for (const f of data.files) this.files.set(f.name, { bytes: new Uint8Array(Buffer.from(f.data, "base64")) });
    this.trashBytes = data.trashBytes | 0;
    this.trashCount = data.trashCount | 0;
    if (this.usedBytes() > this.capacity) this.warn(`Storage file ${file} holds more than the board's ${this.capacity} bytes`);
  }
}
