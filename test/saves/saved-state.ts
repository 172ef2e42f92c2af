/**
 * Reading and writing the unit's saved state from the Node side with the firmware's own save format
 * (firmware/save-format.ts: the slot text, its checksum, and the short keys of the saved
 * fields): two files "bb.s0" and "bb.s1", and the newest valid copy wins. Copies are read with the
 * format's decoder and their keys expanded to the source's names (and shortened again to craft saves).
 */
import type { VirtualBoard } from "../../sim/board/board.ts";
import type { StorageCut, StorageOp } from "../../sim/board/storage.ts";
import { stringFromBytes } from "../../sim/board/storage.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { SAVE_VERSION, shortenKeys } from "../../firmware/save-format.ts";
import { saveCrc } from "../../sim/board/saves.ts";

export { SLOT_NAMES, parseSlot, isCopy, slotCopies, newestCopy, type SlotCopy } from "../../sim/board/saves.ts";
import { isCopy, newestCopy, parseSlot, SLOT_NAMES, type SlotCopy } from "../../sim/board/saves.ts";

/** The state the unit would resume: the newest valid slot, keys renamed back; null when there is none. */
export function readSavedState(board: VirtualBoard): SavedState | null {
  return newestCopy(board.storage)?.state ?? null;
}

/** A slot's text for `state` (source names), as the firmware writes it. */
export function encodeSlot(state: unknown, seq: number, opts: { format?: number; checksum?: number; raw?: boolean } = {}): string {
  const json = JSON.stringify(opts.raw ? state : shortenKeys(state));
  return `BB${opts.format ?? SAVE_VERSION}|${seq}|${opts.checksum ?? saveCrc(json)}|${json}`;
}

/**
 * Follows a board's saves as they complete: `committed` is the state of the last save whose write
 * finished (a write torn by a power cut commits nothing), which is what the unit must resume.
 */
export class SaveLog {
  committed: SlotCopy | null = null;
  /** Saves that completed. */
  saves = 0;
  /** Saves torn by a power cut (a cut right after the last byte tears nothing). */
  torn = 0;
  private stop: () => void;

  constructor(readonly board: VirtualBoard) {
    this.committed = newestCopy(board.storage);
    this.stop = board.storage.onChange((op, cut) => this.onChange(op, cut));
  }

  detach(): void {
    this.stop();
  }

  private onChange(op: StorageOp, cut: StorageCut | null): void {
    if (op.kind === "eraseAll") {
      this.committed = null;
      return;
    }
    if (!("name" in op) || !SLOT_NAMES.includes(op.name)) return;
    if (cut && cut.stage !== "done") {
      this.torn++;
      return;
    }
    if (op.kind === "erase") {
      // The firmware clears its saves (store.clear()): what is left is the other slot, if any.
      this.committed = newestCopy(this.board.storage);
      return;
    }
    if (op.kind !== "create") return;
    const copy = parseSlot(op.name, stringFromBytes(op.bytes));
    if (!isCopy(copy)) throw new Error(`the firmware wrote a save that does not parse: ${copy.problem}`);
    this.saves++;
    // The last save written is what must come back, whatever sequence number it carries.
    this.committed = copy;
  }
}
