/**
 * Saved state in Storage. Each save goes to the older of two files ("bb.s0", "bb.s1") in the format of
 * save-format.ts, so a write cut short by a power loss leaves the other, complete copy to resume from.
 * Loading takes the valid copy with the highest sequence; a corrupt or foreign copy is skipped with a warning.
 */
import { decodeSlot, encodeSlot } from "./save-format";

const SLOT_NAMES = ["bb.s0", "bb.s1"];

export interface Loaded {
  data: unknown;
  /** Why a saved copy was not usable, when one was found but refused; "" otherwise. */
  warning: string;
}

export class StateStore {
  private seq = 0;
  private slot = 0;
  private readonly storage = require("Storage");

  /** Writes one save. Returns false when Storage refused it (full). */
  save(data: unknown): boolean {
    const json = JSON.stringify(data);
    this.seq++;
    this.slot = 1 - this.slot;
    return this.storage.write(SLOT_NAMES[this.slot], encodeSlot(json, this.seq));
  }

  load(): Loaded {
    let best: unknown = undefined;
    let bestSeq = -1;
    let warning = "";
    for (let i = 0; i < SLOT_NAMES.length; i++) {
      const text = this.storage.read(SLOT_NAMES[i]);
      if (text === undefined) continue;
      const slot = decodeSlot(text);
      if (typeof slot === "string") {
        warning = SLOT_NAMES[i] + ": " + slot;
        continue;
      }
      const seq = slot.seq;
      const data = slot.data;
      if (seq > bestSeq) {
        best = data;
        bestSeq = seq;
        this.slot = i;
      }
    }
    if (bestSeq >= 0) this.seq = bestSeq;
    return { data: best, warning: bestSeq >= 0 ? "" : warning };
  }

  clear(): void {
    for (let i = 0; i < SLOT_NAMES.length; i++) this.storage.erase(SLOT_NAMES[i]);
    this.seq = 0;
  }
}
