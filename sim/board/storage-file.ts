/**
 * The JSON file that keeps Storage between runs of the simulator: written whole after every change,
 * read at start with every way it can be unusable (not JSON, empty, cut short, too big, another
 * format or version, more than the board holds) reported as a BadStorageFile.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { STORAGE_HEADER_BYTES, storageFootprint } from "../../hardware/boards.ts";
import { STORAGE_NAME_MAX, type StoredFile } from "./flash-image.ts";

/**
 * The largest Storage file read: its base64 data, JSON around it and trash for a Storage of `capacity`
 * bytes, with room to spare. A larger one is refused before a byte of it is read.
 */
export function storageFileLimit(capacity: number): number {
  return capacity * 4 + 65_536;
}

interface SavedStorage {
  format: "brainboard-storage";
  /** 1: live files and trash totals; 2: every entry in flash order, trash included. */
  version: 1 | 2;
  capacity: number;
  trashBytes?: number;
  trashCount?: number;
  files: { name: string; data: string; trash?: boolean }[];
}

/** Thrown by readStorageFile(): why a Storage file cannot be used. */
export class BadStorageFile extends Error {}

/**
 * Writes the Storage file whole (a new copy renamed over the old one, so a crash leaves the last good copy);
 * throws what the host threw when it cannot, leaving no partial copy behind.
 */
export function writeStorageFile(file: string, capacity: number, journal: StoredFile[]): void {
  const data: SavedStorage = {
    format: "brainboard-storage",
    version: 2,
    capacity,
    files: journal.map((f) => ({
      name: f.name,
      data: Buffer.from(f.bytes).toString("base64"),
      ...(f.trash ? { trash: true } : {}),
    })),
  };
  const tmp = file + ".tmp";
  const text = JSON.stringify(data, null, 1);
  for (let attempt = 0; ; attempt++) {
    try {
      // Whatever is at FILE.tmp (a symlink someone left there, a copy cut short) is removed, not followed: the
      // new copy is created afresh ("wx" fails rather than follow a link that appears in between).
      rmSync(tmp, { force: true });
      writeFileSync(tmp, text, { flag: "wx" });
      renameSync(tmp, file);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && attempt === 0) {
        // Its directory was removed while the simulator ran: made again, once.
        try {
          mkdirSync(dirname(file), { recursive: true });
          continue;
        } catch {
          // falls through to the failed write
        }
      }
      try {
        rmSync(tmp, { force: true }); // no partial copy left behind
      } catch {
        // nothing more to do: the last good copy is the file itself
      }
      throw e;
    }
  }
}

export function readStorageFile(file: string, capacity: number): StoredFile[] {
  let text: string;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new BadStorageFile("is a directory, not a file");
    const limit = storageFileLimit(capacity);
    if (st.size > limit)
      throw new BadStorageFile(`is ${st.size} bytes, more than a Storage file of ${capacity} bytes can be (${limit}); not read`);
    text = readFileSync(file, "utf8");
  } catch (e) {
    if (e instanceof BadStorageFile) throw e;
    throw new BadStorageFile(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (text.trim() === "") throw new BadStorageFile("is empty");
  let data: SavedStorage;
  try {
    data = JSON.parse(text) as SavedStorage;
  } catch {
    throw new BadStorageFile("is not valid JSON (cut short, or not a Storage file)");
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new BadStorageFile("does not hold a Storage object");
  if (data.format !== "brainboard-storage") throw new BadStorageFile("is not a Brainboard Storage file");
  if (data.version !== 1 && data.version !== 2)
    throw new BadStorageFile(`is of version ${JSON.stringify(data.version)}; this simulator reads versions 1 and 2`);
  if (!Array.isArray(data.files)) throw new BadStorageFile("has no list of files");
  const journal: StoredFile[] = [];
  for (const f of data.files) {
    if (!f || typeof f !== "object" || typeof f.name !== "string" || typeof f.data !== "string" || f.name.length > STORAGE_NAME_MAX)
      throw new BadStorageFile("holds an entry that is not a file");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data)) throw new BadStorageFile(`holds file "${f.name}" whose data is not base64`);
    journal.push({ name: f.name, bytes: new Uint8Array(Buffer.from(f.data, "base64")), ...(f.trash ? { trash: true } : {}) });
  }
  // Version 1 kept only the trash's size: it is put after the files (where compaction finds it last).
  const trashBytes = data.version === 1 ? Math.max(0, Number(data.trashBytes) | 0) : 0;
  if (trashBytes > capacity)
    throw new BadStorageFile(`claims ${trashBytes} bytes of trash, more than the board's ${capacity} bytes of Storage`);
  if (trashBytes > STORAGE_HEADER_BYTES)
    journal.push({ name: "", bytes: new Uint8Array(trashBytes - STORAGE_HEADER_BYTES).fill(0xff), trash: true });
  let used = 0;
  for (const f of journal) used += storageFootprint(f.bytes.length);
  if (used > capacity) throw new BadStorageFile(`holds ${used} bytes, more than the board's ${capacity} bytes of Storage`);
  return journal;
}
