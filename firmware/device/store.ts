/**
 * Saved state in Storage. Each save goes to the older of two files ("bb.s0", "bb.s1") as
 *   BB<version>|<sequence>|<checksum>|<json>
 * so a write cut short by a power loss leaves the other, complete copy to resume from. Loading takes
 * the valid copy with the highest sequence; a corrupt or foreign copy is skipped with a warning.
 */
export const STATE_VERSION = 1;
const SLOT_NAMES = ["bb.s0", "bb.s1"];

/** Fletcher-16 over the string's 8-bit character codes. */
export function checksum(s: string): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    a = (a + (s.charCodeAt(i) & 255)) % 255;
    b = (b + a) % 255;
  }
  return (b << 8) | a;
}

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
    const text = "BB" + STATE_VERSION + "|" + this.seq + "|" + checksum(json) + "|" + json;
    return this.storage.write(SLOT_NAMES[this.slot], text);
  }

  load(): Loaded {
    let best: unknown = undefined;
    let bestSeq = -1;
    let warning = "";
    for (let i = 0; i < SLOT_NAMES.length; i++) {
      const text = this.storage.read(SLOT_NAMES[i]);
      if (text === undefined) continue;
      const parts = text.split("|");
      const head = parts.length >= 4 ? parts[0] + "|" + parts[1] + "|" + parts[2] + "|" : "";
      const json = text.slice(head.length);
      const seq = parseInt(parts[1], 10);
      if (parts[0] !== "BB" + STATE_VERSION) {
        warning = SLOT_NAMES[i] + ": unknown format " + parts[0].slice(0, 8);
        continue;
      }
      if (!head || isNaN(seq) || parseInt(parts[2], 10) !== checksum(json)) {
        warning = SLOT_NAMES[i] + ": checksum mismatch";
        continue;
      }
      let data: unknown;
      try {
        data = JSON.parse(json);
      } catch {
        warning = SLOT_NAMES[i] + ": unreadable";
        continue;
      }
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
