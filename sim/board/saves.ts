/**
 * The unit's saved state read from the Node side with the firmware's own save format
 * (firmware/save-format.ts): two files "bb.s0" and "bb.s1", each copy read with the format's
 * decoder and its keys expanded to the source's names; the newest valid copy wins. The page's status
 * (sim/views/status.ts) and the tests read saves through this.
 */
import { crc32 } from "node:zlib";
import type { VirtualStorage } from "./storage.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { expandKeys, type Slot } from "../../firmware/save-format.ts";
import { decodeAnySlot as decodeAnyFormat, upgradeSlot as upgradeFormat } from "../../firmware/tools/save-upgrade.ts";

/** The save format's checksum on the Node side: the CRC-32 of the 8-bit characters, as E.CRC32 computes it. */
export function saveCrc(s: string): number {
  return crc32(Buffer.from(s, "latin1"));
}

/** A save's text in any format the unit has written, in the current format (save-format.ts decodeAnySlot). */
export function decodeAnySlot(text: string): Slot | string {
  return decodeAnyFormat(text, saveCrc);
}

/** A save of any format as the current format writes it, or null when it is unusable. */
export function upgradeSlot(text: string): string | null {
  return upgradeFormat(text, saveCrc);
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

/** Storage as the save readers need it: the virtual board's, or the real engine's mirror of the slots. */
export type SaveSource = Pick<VirtualStorage, "readString">;

/** Every slot file in Storage, parsed. */
export function slotCopies(storage: SaveSource): ReturnType<typeof parseSlot>[] {
  const out: ReturnType<typeof parseSlot>[] = [];
  for (const name of SLOT_NAMES) {
    const text = storage.readString(name);
    if (text !== undefined) out.push(parseSlot(name, text));
  }
  return out;
}

/** The newest valid copy in Storage (highest sequence), or null. */
export function newestCopy(storage: SaveSource): SlotCopy | null {
  let best: SlotCopy | null = null;
  for (const c of slotCopies(storage)) if (isCopy(c) && (!best || c.seq > best.seq)) best = c;
  return best;
}
