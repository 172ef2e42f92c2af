/**
 * The unit's saved state read from the Node side with the firmware's own save format
 * (firmware/device/save-format.ts): two files "bb.s0" and "bb.s1", each copy read with the format's
 * decoder and its keys expanded to the source's names; the newest valid copy wins. The page's status
 * (sim/status.ts) and the tests read saves through this.
 */
import { crc32 } from "node:zlib";
import type { VirtualStorage } from "./storage.ts";
import type { SavedState } from "../firmware/ui/app.ts";
import { decodeSlot, encodeSlot, expandKeys, SAVE_KEYS, type Slot } from "../firmware/device/save-format.ts";
import { PHASE_NAMES } from "../firmware/core/types.ts";
import { FLIP_KIND_NAMES, FLIP_PHASE_NAMES, FLIP_RESULT_NAMES } from "../firmware/core/brainflip.ts";

/** The save format's checksum on the Node side: the CRC-32 of the 8-bit characters, as E.CRC32 computes it. */
export function saveCrc(s: string): number {
  return crc32(Buffer.from(s, "latin1"));
}

/** Fletcher-16 over the 8-bit characters: format 1's checksum. */
export function fletcher16(s: string): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    a = (a + (s.charCodeAt(i) & 255)) % 255;
    b = (b + a) % 255;
  }
  return (b << 8) | a;
}

/**
 * A save's text in any format the unit has written -> its sequence and data in the current format (short keys), or
 * why it cannot be used. Format 1 (Fletcher-16, phases, kinds and results by name) is checked and brought up to date.
 */
export function decodeAnySlot(text: string): Slot | string {
  if (!text.startsWith("BB1|")) return decodeSlot(text, saveCrc);
  const parts = text.split("|");
  const head = parts.slice(0, 3).join("|") + "|";
  const json = text.slice(head.length);
  if (parts.length < 4 || isNaN(parseInt(parts[1], 10)) || parseInt(parts[2], 10) !== fletcher16(json)) return "checksum mismatch";
  try {
    return { seq: parseInt(parts[1], 10), data: migrateFormat1(JSON.parse(json)) };
  } catch {
    return "unreadable";
  }
}

/** Format 1's data (short keys) in format 2: phases, kinds and results as numbers, version 2. Names it does not know stay as they are (the unit then refuses them). */
export function migrateFormat1(data: unknown): unknown {
  const K = SAVE_KEYS;
  const obj = (x: unknown) => (x && typeof x === "object" ? (x as Record<string, unknown>) : null);
  const number = (names: string[], v: unknown) => (typeof v === "string" && names.includes(v) ? names.indexOf(v) : v);
  const d = obj(data);
  if (!d) return data;
  if (d.v === 1) d.v = 2;
  const game = obj(obj(d[K.match])?.[K.game]);
  if (game) game[K.phase] = number(PHASE_NAMES, game[K.phase]);
  const round = obj(obj(d[K.flip])?.[K.round]);
  if (round) {
    round[K.phase] = number(FLIP_PHASE_NAMES, round[K.phase]);
    round[K.result] = number(FLIP_RESULT_NAMES, round[K.result]);
    const log = round[K.log];
    if (Array.isArray(log))
      for (const e of log) {
        const entry = obj(e);
        if (entry) entry[K.kind] = number(FLIP_KIND_NAMES, entry[K.kind]);
      }
  }
  return d;
}

/** A save of any format as the current format writes it (the flash tool carries a game across a format change with it). */
export function upgradeSlot(text: string): string | null {
  if (text.startsWith("BB2|")) return text;
  const slot = decodeAnySlot(text);
  return typeof slot === "string" ? null : encodeSlot(JSON.stringify(slot.data), slot.seq, saveCrc);
}

export const SLOT_NAMES = ["bb.s0", "bb.s1"];

export interface SlotCopy {
  name: string;
  seq: number;
  /** The state under the firmware's source names. */
  state: SavedState;
  text: string;
}

/** A slot's text as a usable copy, or why it is not one. */
export function parseSlot(name: string, text: string): SlotCopy | { name: string; problem: string } {
  const slot = decodeAnySlot(text);
  if (typeof slot === "string") return { name, problem: slot };
  return { name, seq: slot.seq, state: expandKeys(slot.data) as SavedState, text };
}

export function isCopy(c: ReturnType<typeof parseSlot>): c is SlotCopy {
  return "state" in c;
}

/** Every slot file in Storage, parsed. */
export function slotCopies(storage: VirtualStorage): ReturnType<typeof parseSlot>[] {
  const out: ReturnType<typeof parseSlot>[] = [];
  for (const name of SLOT_NAMES) {
    const text = storage.readString(name);
    if (text !== undefined) out.push(parseSlot(name, text));
  }
  return out;
}

/** The newest valid copy in Storage (highest sequence), or null. */
export function newestCopy(storage: VirtualStorage): SlotCopy | null {
  let best: SlotCopy | null = null;
  for (const c of slotCopies(storage)) if (isCopy(c) && (!best || c.seq > best.seq)) best = c;
  return best;
}
