/**
 * Saved state in Storage. Each save goes to one of two files ("bb.s0", "bb.s1") in the format of
 * save-format.ts, so a write cut short by a power loss leaves the other, complete copy to resume from.
 * Loading takes the newest copy that passes both the checksum and the caller's game-state check;
 * every copy passed over is named in the warning. The last good copy is never overwritten until a
 * newer save has been written: a save goes to the other slot, and the slots change places only once
 * that write succeeded.
 */
import { decodeSlot, encodeSlot } from "../save-format";

const SLOT_NAMES = ["bb.s0", "bb.s1"];

export interface Loaded {
  data: unknown;
  /** Why saved copies were passed over ("bb.s1: checksum mismatch; ..."), "" when none was. */
  warning: string;
}

export class StateStore {
  private seq = 0;
  /** The slot of the last good copy: saves go to the other one. */
  private slot = 1;
  private readonly storage = require("Storage");

  /** Writes one save. Returns false when Storage refused it (full); the last good copy is then untouched. */
  save(data: unknown): boolean {
    const next = 1 - this.slot;
    if (!this.storage.write(SLOT_NAMES[next], encodeSlot(JSON.stringify(data), this.seq + 1, E.CRC32))) return false;
    this.seq++;
    this.slot = next;
    return true;
  }

  /**
   * The newest copy that passes the checksum and `check` (which returns "" for a state it accepts, or
   * why not; it may take the state on as it accepts it).
   */
  load(check: (data: unknown) => string): Loaded {
    const seqs = [-1, -1];
    const datas: unknown[] = [];
    let warning = "";
    const passOver = function (i: number, why: string): void {
      warning += (warning ? "; " : "") + SLOT_NAMES[i] + ": " + why;
    };
    for (let i = 0; i < 2; i++) {
      const text = this.storage.read(SLOT_NAMES[i]);
      if (text === undefined) continue;
      const slot = decodeSlot(text, E.CRC32);
      if (typeof slot === "string") {
        passOver(i, slot);
        continue;
      }
      datas[i] = slot.data;
      seqs[i] = slot.seq;
      if (slot.seq > this.seq) this.seq = slot.seq;
    }
    const newest = seqs[1] > seqs[0] ? 1 : 0;
    for (let k = 0; k < 2; k++) {
      const i = k ? 1 - newest : newest;
      if (seqs[i] < 0) continue;
      const why = check(datas[i]);
      if (!why) {
        this.slot = i;
        return { data: datas[i], warning: warning };
      }
      passOver(i, why);
    }
    return { data: undefined, warning: warning };
  }

  clear(): void {
    for (let i = 0; i < SLOT_NAMES.length; i++) this.storage.erase(SLOT_NAMES[i]);
    this.seq = 0;
  }
}
