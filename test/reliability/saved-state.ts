/**
 * Reading and writing the unit's saved state from the Node side, independently of the firmware's own
 * loader (firmware/device/store.ts): two files "bb.s0" and "bb.s1", each
 *
 *   BB<version>|<sequence>|<Fletcher-16 of the JSON>|<json>
 *
 * and the newest valid copy wins. The bundle mangles internal property names, so the JSON in Storage
 * uses the short names of firmware/tools/mangle-cache.json; these helpers rename keys back (and forth,
 * to craft saves), recursively.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { VirtualBoard } from "../../sim/board.ts";
import type { StorageCut, StorageOp, VirtualStorage } from "../../sim/storage.ts";
import { stringFromBytes } from "../../sim/storage.ts";
import type { SavedState } from "../../firmware/ui/app.ts";

export const SLOT_NAMES = ["bb.s0", "bb.s1"];
/** The format the firmware writes today (STATE_VERSION in firmware/device/store.ts). */
export const SAVE_FORMAT = 1;
export const MANGLE_CACHE_FILE = fileURLToPath(new URL("../../firmware/tools/mangle-cache.json", import.meta.url));
/** The sources that declare the saved state's shapes (SavedState, Settings, MatchState, FlipState and their parts). */
const STATE_SOURCES = ["firmware/ui/app.ts", "firmware/ui/flip.ts", "firmware/core/types.ts", "firmware/core/brainflip.ts"];

interface MangleMaps {
  /** Short name -> source name, for the names of the saved state's shapes. */
  toLong: Map<string, string>;
  /** Source name -> short name. */
  toShort: Map<string, string>;
}
let maps: MangleMaps | undefined;

/** Every member name declared by the interfaces of the saved state's source files. */
function stateNames(): Set<string> {
  const names = new Set<string>();
  for (const rel of STATE_SOURCES) {
    const file = fileURLToPath(new URL(`../../${rel}`, import.meta.url));
    const visit = (n: ts.Node) => {
      if (ts.isPropertySignature(n) && ts.isIdentifier(n.name)) names.add(n.name.text);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true));
  }
  return names;
}

/**
 * The mangle cache of the build, both ways, for the saved state's names only. Read once: the bundle
 * under test was built with it. Short names are not unique across the whole firmware's namespace: the
 * mangler keeps names of one or two letters (SavedState.v) and may give the same letters to an
 * unrelated member elsewhere; within the saved state's own names a clash is an error.
 */
export function mangleMaps(): MangleMaps {
  if (maps) return maps;
  const cache = JSON.parse(readFileSync(MANGLE_CACHE_FILE, "utf8")) as Record<string, string | false>;
  const names = stateNames();
  const toLong = new Map<string, string>();
  const toShort = new Map<string, string>();
  for (const [long, short] of Object.entries(cache)) {
    if (typeof short !== "string") continue;
    toShort.set(long, short);
    if (!names.has(long)) continue;
    if (names.has(short)) throw new Error(`mangle cache: saved-state member "${long}" is saved as "${short}", itself a saved-state member`);
    toLong.set(short, long);
  }
  maps = { toLong, toShort };
  return maps;
}

function renameKeys(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[names.get(k) ?? k] = renameKeys(v, names);
    return out;
  }
  return value;
}

/** Saved JSON (short names) -> the firmware's source names. */
export function unmangle<T = unknown>(value: unknown): T {
  return renameKeys(value, mangleMaps().toLong) as T;
}

/** Source names -> the short names the bundle reads. */
export function mangle(value: unknown): unknown {
  return renameKeys(value, mangleMaps().toShort);
}

/** Fletcher-16 over 8-bit character codes, written from store.ts's description. */
export function fletcher16(s: string): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    a = (a + (s.charCodeAt(i) & 255)) % 255;
    b = (b + a) % 255;
  }
  return (b << 8) | a;
}

export interface SlotCopy {
  name: string;
  seq: number;
  /** The state under the firmware's source names. */
  state: SavedState;
  text: string;
}

/** A slot's text as a usable copy, or why it is not one. */
export function parseSlot(name: string, text: string): SlotCopy | { name: string; problem: string } {
  const m = /^BB(\d+)\|(\d+)\|(\d+)\|/.exec(text);
  if (!m) return { name, problem: "no BB<version>|<seq>|<checksum>| header" };
  if (Number(m[1]) !== SAVE_FORMAT) return { name, problem: `format ${m[1]}` };
  const json = text.slice(m[0].length);
  if (Number(m[3]) !== fletcher16(json)) return { name, problem: "checksum mismatch" };
  try {
    return { name, seq: Number(m[2]), state: unmangle<SavedState>(JSON.parse(json)), text };
  } catch (e) {
    return { name, problem: `unreadable JSON: ${(e as Error).message}` };
  }
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

/** The state the unit would resume: the newest valid slot, keys renamed back; null when there is none. */
export function readSavedState(board: VirtualBoard): SavedState | null {
  return newestCopy(board.storage)?.state ?? null;
}

/** A slot's text for `state` (source names), as the firmware writes it. */
export function encodeSlot(state: unknown, seq: number, opts: { format?: number; checksum?: number; raw?: boolean } = {}): string {
  const json = JSON.stringify(opts.raw ? state : mangle(state));
  return `BB${opts.format ?? SAVE_FORMAT}|${seq}|${opts.checksum ?? fletcher16(json)}|${json}`;
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
