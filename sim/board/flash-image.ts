/**
 * Storage as the device lays it out in flash: the bytes of a journal (headers, names, data rounded
 * to words), a compaction as the page erases and writes the device does (jsfCompactInternal, 2v29),
 * and an image read back as the device reads it (header walking). Also the 8-bit string <-> bytes
 * conversions Storage and the runtime share.
 */
import { STORAGE_HEADER_BYTES, storageFootprint } from "../../hardware/boards.ts";

/** Longer names are silently truncated by the device. */
export const STORAGE_NAME_MAX = 28;
/** Flash is programmed a word at a time: a cut leaves whole words done. */
export const FLASH_WORD_BYTES = 4;

/** One copy of a file in the journal. */
export interface StoredFile {
  name: string;
  bytes: Uint8Array;
  /** Replaced or erased: its space is trash until a compaction. */
  trash?: boolean;
}

/** A flash operation of a compaction. */
export type FlashStep = { kind: "erase"; page: number } | { kind: "write"; addr: number; bytes: Uint8Array };

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
export function wordsDone(length: number, fraction: number): number {
  if (fraction >= 1) return length;
  const n = Math.min(length - 1, Math.floor(length * Math.max(0, fraction)));
  return Math.max(0, n - (n % FLASH_WORD_BYTES));
}

/** Where each entry lies in flash (address of its header), trash included: what compaction works on. */
export function journalLayout(journal: StoredFile[]): { name: string; addr: number; bytes: number; trash: boolean }[] {
  let addr = 0;
  return journal.map((f) => {
    const e = { name: f.name, addr, bytes: storageFootprint(f.bytes.length), trash: !!f.trash };
    addr += e.bytes;
    return e;
  });
}

/** The flash image: each entry's header (size word, 28-byte name; a trashed name starts with 4 zero bytes) and data. */
export function flashImage(entries: StoredFile[], capacity: number): Uint8Array {
  const img = new Uint8Array(capacity).fill(0xff);
  let addr = 0;
  for (const f of entries) {
    const size = f.bytes.length;
    img[addr] = size & 255;
    img[addr + 1] = (size >> 8) & 255;
    img[addr + 2] = (size >> 16) & 255;
    img[addr + 3] = 0; // flags: none
    const name = bytesFromString(f.name.slice(0, STORAGE_NAME_MAX));
    img.fill(0, addr + 4, addr + STORAGE_HEADER_BYTES);
    img.set(name, addr + 4);
    if (f.trash || f.name === "") img.fill(0, addr + 4, addr + 8);
    img.set(f.bytes, addr + STORAGE_HEADER_BYTES);
    addr += storageFootprint(size);
  }
  return img;
}

/** The page erases and writes of a compaction now (jsfCompactInternal), or null when there is no trash. */
export function compactionPlan(journal: StoredFile[], capacity: number, page: number): { steps: FlashStep[]; result: Uint8Array } | null {
  const entries = journalLayout(journal);
  const firstTrash = entries.findIndex((e) => e.trash);
  if (firstTrash < 0) return null;
  const end = capacity;
  // jsfGetStorageStats: the last page that starts with a header, at or before the first trashed file.
  let start = 0;
  for (let i = 0; i <= firstTrash; i++) if (entries[i].addr % page === 0) start = entries[i].addr;
  const img = flashImage(journal, capacity);
  const live = entries.filter((e) => !e.trash && e.addr >= start);
  const liveBytes = entries.filter((e) => !e.trash).reduce((n, e) => n + e.bytes, 0);
  const bufferSize = Math.min(liveBytes, page + STORAGE_HEADER_BYTES);
  const steps: FlashStep[] = [];
  const nextPage = (addr: number) => Math.min(end, (Math.floor(addr / page) + 1) * page);
  const queue: number[] = [];
  let writeAddr = start;
  const writeBuffer = (readAddr: number) => {
    while (queue.length) {
      let n = queue.length;
      const np = nextPage(writeAddr);
      if (writeAddr + n > np) n = np - writeAddr;
      if (readAddr < np) return; // still reading from the page this would write
      if (writeAddr % page === 0) steps.push({ kind: "erase", page: writeAddr / page });
      steps.push({ kind: "write", addr: writeAddr, bytes: Uint8Array.from(queue.splice(0, n)) });
      writeAddr += n;
    }
  };
  for (const e of live) {
    for (let i = 0; i < STORAGE_HEADER_BYTES; i++) queue.push(img[e.addr + i]);
    let ptr = e.addr + STORAGE_HEADER_BYTES;
    writeBuffer(ptr);
    let left = e.bytes - STORAGE_HEADER_BYTES;
    while (left > 0) {
      const n = Math.min(left, bufferSize - queue.length);
      if (n <= 0) return null; // "compact> error - no space left!": the device gives up here
      for (let i = 0; i < n; i++) queue.push(img[ptr + i]);
      ptr += n;
      left -= n;
      writeBuffer(ptr);
    }
  }
  writeBuffer(end);
  // The pages after the new end are erased.
  const used = entries.length ? entries[entries.length - 1].addr + entries[entries.length - 1].bytes : 0;
  let p = writeAddr === start ? start : nextPage(writeAddr - 1);
  for (; p < Math.max(used, p) && p < end; p += page) if (p % page === 0) steps.push({ kind: "erase", page: p / page });
  const result = flashImage(
    journal.filter((f) => !f.trash),
    capacity,
  );
  return { steps, result };
}

/**
 * Programs a compaction's first `n` steps into `img`, then `fraction` of the next (a write keeps whole
 * words; an erase is done or not): a compaction cut short. Returns the write cut short, if one was.
 */
export function programSteps(img: Uint8Array, steps: FlashStep[], n: number, fraction: number, pageBytes: number): string | undefined {
  let torn: string | undefined;
  for (let i = 0; i <= n && i < steps.length; i++) {
    const st = steps[i];
    const part = i < n ? 1 : fraction;
    if (part <= 0) break;
    if (st.kind === "erase") {
      if (part < 1) break; // an erase is done or not
      img.fill(0xff, st.page * pageBytes, Math.min(img.length, (st.page + 1) * pageBytes));
    } else {
      const k = part >= 1 ? st.bytes.length : wordsDone(st.bytes.length, part);
      for (let j = 0; j < k; j++) img[st.addr + j] &= st.bytes[j];
      if (part < 1) torn = `write of ${st.bytes.length} bytes at 0x${st.addr.toString(16)} (${k} done)`;
    }
  }
  return torn;
}

/**
 * Reads a flash image as the device does: from address 0, header after header (jsfGetFileHeader,
 * jsfGetNextFileHeader with GNFH_GET_ALL: an invalid header sends it to the next page once), and
 * whether jsfIsStorageValid would accept it (the walk must end on an all-0xFF header, and an empty
 * area must be erased throughout).
 */
export function readImage(img: Uint8Array, capacity: number, pageBytes: number): { entries: StoredFile[]; valid: boolean } {
  const entries: StoredFile[] = [];
  const sizeAt = (addr: number) => img[addr] | (img[addr + 1] << 8) | (img[addr + 2] << 16) | (img[addr + 3] << 24);
  const headerValid = (addr: number) => {
    if (addr + STORAGE_HEADER_BYTES > capacity) return false;
    const word = sizeAt(addr) >>> 0;
    const size = word & 0xffffff;
    return word !== 0xffffffff && word !== 0 && addr + STORAGE_HEADER_BYTES + size <= capacity;
  };
  const allFF = (addr: number, len: number) => {
    for (let i = addr; i < Math.min(capacity, addr + len); i++) if (img[i] !== 0xff) return false;
    return true;
  };
  const take = (addr: number) => {
    const size = sizeAt(addr) & 0xffffff;
    let name = "";
    for (let i = 0; i < STORAGE_NAME_MAX; i++) {
      const c = img[addr + 4 + i];
      if (c === 0 && i >= 4) break;
      name += String.fromCharCode(c);
    }
    const trash = img[addr + 4] === 0 && img[addr + 5] === 0 && img[addr + 6] === 0 && img[addr + 7] === 0;
    const flags = img[addr + 3];
    entries.push({
      name: trash ? "" : name.replace(/\0+$/, ""),
      bytes: img.slice(addr + STORAGE_HEADER_BYTES, addr + STORAGE_HEADER_BYTES + size),
      ...(trash || flags !== 0 ? { trash: true } : {}),
    });
    return addr + STORAGE_HEADER_BYTES + ((size + 3) & ~3);
  };
  let addr = 0;
  if (!headerValid(0)) return { entries, valid: allFF(0, capacity) };
  for (;;) {
    const next = take(addr);
    if (next + STORAGE_HEADER_BYTES > capacity) return { entries, valid: next <= capacity };
    if (headerValid(next)) {
      addr = next;
      continue;
    }
    const page = Math.floor(next / pageBytes + 1) * pageBytes;
    if (page < capacity && headerValid(page)) {
      addr = page;
      continue;
    }
    return { entries, valid: allFF(next, STORAGE_HEADER_BYTES) };
  }
}
