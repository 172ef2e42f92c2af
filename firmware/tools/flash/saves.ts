/**
 * The saved game across a flash: the save slots read through the console before the erase, and written back after a failure.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BoardConsole } from "../board-console.ts";
import { keepSlot, SAVE_SLOT_NAMES, type DroppedSlot, type KeptSlot } from "../save-upgrade.ts";
import { SAVE_VERSION } from "../../device/save-format.ts";
import { FlashError, type UploadFile, type BoardReport } from "./types.ts";
import { cliRequire } from "./ports.ts";
import { CHUNK_BYTES } from "./upload.ts";
import { crc32Of } from "./verify.ts";

/** The save format's checksum (E.CRC32 of a string's 8-bit characters), as the unit computes it. */
export function saveCrc(text: string): number {
  return crc32Of(Buffer.from(text, "latin1"));
}

/** A save slot read a question at a time, this many bytes (as base64: 1,024 characters a line). */
const SLOT_READ_BYTES = 768;

/** The unit's saves are under 1 KB: a slot file longer than this is not one it wrote, and is not read. */
export const SLOT_MAX_BYTES = 8192;

/**
 * Reads the board's save slots (those in `report`) through its console, as base64 made on the board (btoa), so that no
 * byte depends on the link; each is decoded in any format the unit has written (save-upgrade.ts keepSlot): a usable
 * one comes back in the current format, under the same name and sequence, an unusable one with why.
 */
export async function readSlots(link: BoardConsole, report: BoardReport): Promise<(KeptSlot | DroppedSlot)[]> {
  const out: (KeptSlot | DroppedSlot)[] = [];
  for (const name of SAVE_SLOT_NAMES) {
    const listed = report.files.find(([n]) => n === name);
    if (!listed) continue;
    const length = listed[1];
    if (length > SLOT_MAX_BYTES) {
      out.push({ name, problem: `${length} bytes, too long to be a save` });
      continue;
    }
    const parts: Buffer[] = [];
    for (let at = 0; at < length; at += SLOT_READ_BYTES) {
      const b64 = await link.query<string>(
        `btoa(require("Storage").read(${JSON.stringify(name)},${at},${Math.min(SLOT_READ_BYTES, length - at)}))`,
      );
      parts.push(Buffer.from(String(b64), "base64"));
    }
    const text = Buffer.concat(parts).toString("latin1");
    out.push(text.length === length ? keepSlot(name, text, saveCrc) : { name, problem: `read back ${text.length} of ${length} bytes` });
  }
  return out;
}

/** The kept slots as files to write, in their order (after the tables). */
export function slotFiles(kept: KeptSlot[]): UploadFile[] {
  return kept.map((k) => ({ name: k.name, bytes: new Uint8Array(Buffer.from(k.text, "latin1")) }));
}

/** How a kept slot is named to people: "bb.s1 (Brainiac match, game 2 of 4; save 14, brought up from format 1 to 2)". */
export function keptNote(k: KeptSlot): string {
  const up =
    k.format !== SAVE_VERSION ? `, brought up from format ${k.format} to ${SAVE_VERSION}` : k.upgraded ? ", brought up to date" : "";
  return `${k.name} (${k.what}; save ${k.seq}${up})`;
}

/**
 * After a failed upload: writes back through the console every kept slot that is not on the board intact, so that the
 * saved game survives for the next flash. Returns what it did, for the error message.
 */
export async function rescueSlots(link: BoardConsole, kept: KeptSlot[]): Promise<string> {
  if (!kept.length) return "";
  const notes: string[] = [];
  for (const f of slotFiles(kept)) {
    const name = JSON.stringify(f.name);
    const crc = crc32Of(f.bytes);
    const intact = `(function(d){return d!==undefined&&d.length===${f.bytes.length}&&E.CRC32(d)===${crc};})(require("Storage").read(${name}))`;
    try {
      if (await link.query<boolean>(intact)) {
        notes.push(`${f.name} is on the board intact`);
        continue;
      }
      for (let at = 0; at < f.bytes.length; at += CHUNK_BYTES) {
        const b64 = Buffer.from(f.bytes.subarray(at, at + CHUNK_BYTES)).toString("base64");
        const size = at === 0 ? `,${f.bytes.length}` : "";
        await link.run(`require("Storage").write(${name},atob(${JSON.stringify(b64)}),${at}${size})`);
      }
      notes.push(`${f.name} ${(await link.query<boolean>(intact)) ? "was written back" : "could not be written back"}`);
    } catch (e) {
      notes.push(`${f.name} could not be written back (${(e as Error).message.split("\n")[0]})`);
    }
  }
  return `  the saved game: ${notes.join("; ")}; a flash that finishes carries what is on the board`;
}

/** rescueSlots through a console of its own (after the CLI had the port); says so when the board does not answer. */
export async function rescueAfter(port: string, baud: number | undefined, kept: KeptSlot[]): Promise<string> {
  let link: BoardConsole;
  try {
    link = await BoardConsole.open(port, { baud, cliRequire: cliRequire() });
  } catch {
    return `  the saved game (${kept.map((k) => k.name).join(", ")}) was erased from the board and could not be written back: the board does not answer`;
  }
  try {
    return await rescueSlots(link, kept);
  } finally {
    await link.close();
  }
}

/**
 * Keeps the saved game on disk before anything on the board is erased: each usable slot, as the unit will read it,
 * in a folder of its own under `root` (named by the time). Throws, and so stops the flash before any erase, when
 * the copy cannot be written. Returns the folder, or null when there is nothing to keep.
 */
export function backupSlots(root: string, kept: KeptSlot[]): string | null {
  if (!kept.length) return null;
  const dir = join(root, `saves-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  try {
    mkdirSync(dir, { recursive: true });
    for (const k of kept) writeFileSync(join(dir, k.name), k.text, { encoding: "latin1", flag: "wx" });
  } catch (e) {
    throw new FlashError(
      [
        `the saved game could not be copied to ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}), so nothing was erased or flashed`,
        "  free some disk space or choose another folder with --out-dir, then flash again",
      ].join("\n"),
      1,
    );
  }
  return dir;
}

/** The save slots kept in `dir` by backupSlots, each checked as the unit would (an unusable one is named). */
export function slotsFromDisk(dir: string): (KeptSlot | DroppedSlot)[] {
  const out: (KeptSlot | DroppedSlot)[] = [];
  for (const name of SAVE_SLOT_NAMES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path)
      .subarray(0, SLOT_MAX_BYTES + 1)
      .toString("latin1");
    out.push(text.length > SLOT_MAX_BYTES ? { name, problem: `${path} is too long to be a save` } : keepSlot(name, text, saveCrc));
  }
  if (!out.length) throw new FlashError(`no saved game in ${dir} (it should hold ${SAVE_SLOT_NAMES.join(" and/or ")})`, 2);
  return out;
}

/** What to tell the user when the board may have been erased and the flash did not finish. */
export function erasedNote(port: string, backup: string | null): string {
  return backup
    ? [
        "  the board's Storage was erased before this failure: it may now hold no firmware and no saved game.",
        `  The saved game is kept on disk in ${backup}; once the board answers again, put it back with the firmware:`,
        `    npm run flash -- --port ${port} --restore-saves ${backup}`,
      ].join("\n")
    : "  the board's Storage was erased before this failure: it may now hold no firmware (it held no saved game); flash again once the board answers";
}
