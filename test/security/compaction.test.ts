/**
 * Issue 14, probe 9: a power cut during Storage compaction and the firmware (.bootcde). Compaction is
 * modelled step by step as Espruino 2v29 does it (sim/storage.ts, after jsflash.c jsfCompactInternal): it
 * starts at the last page that begins with a header before the first trashed file, erases each page just
 * before rewriting it from a RAM buffer, and a Storage the device finds corrupt at power-on is erased
 * whole. The unit plays until its own saves make Storage compact, and the power is cut at every step of
 * that compaction (and halfway through every write).
 */
import { describe, expect, it } from "vitest";
import { VirtualBoard, BOOT_FILE } from "../../sim/board.ts";
import { PAD_FILE, pageAlignPad } from "../../hardware/boards.ts";
import { readImage, storageFootprint, VirtualStorage, type CompactionCut } from "../../sim/storage.ts";
import { Prng } from "../../sim/random.ts";
import { firmwareBundle, R1 } from "../device/helpers.ts";
import { readSavedState } from "../reliability/saved-state.ts";
import { Player, type Goal } from "../reliability/player.ts";
import { firmwareFailures } from "../reliability/invariants.ts";

const GOAL: Goal = { game: "brainiac", harder: false, mode: "referee", games: 2 };

/** A unit flashed as `npm run flash` does it (.bootcde, then the tables), with the page-aligning pad between them or not. */
function flashed(pad: boolean, firmware = firmwareBundle()): VirtualBoard {
  const board = new VirtualBoard({ firmware, seed: 9, tables: false });
  if (pad) {
    const size = pageAlignPad(storageFootprint(board.storage.read(BOOT_FILE)!.length), board.storage.pageBytes);
    if (size !== null) board.storage.write(PAD_FILE, new Uint8Array(size));
  }
  board.flashTables();
  return board;
}

/**
 * Plays until the firmware's saves make Storage compact, with a cut armed at `step` of that compaction
 * (fraction of the step after it done). Returns the cut, or null when no compaction came.
 */
function playUntilCompactionCut(board: VirtualBoard, step: number, fraction: number): CompactionCut | null {
  let cut: CompactionCut | null = null;
  board.storage.armCompactionCut(step, fraction, (c) => {
    cut = c;
    board.powerOff();
  });
  const player = new Player(R1, new Prng(4), 0);
  board.powerOn();
  board.advance(200);
  for (let i = 0; i < 3000 && !cut; i++) {
    for (const k of player.next(readSavedState(board), GOAL).keys) {
      if (!board.isOn) break;
      board.tap(k, 30, 30);
    }
  }
  board.storage.disarmCut();
  return cut;
}

/** After the cut: the firmware file still holds the bundle, and the unit boots and answers keys. */
function bootcdeSurvived(board: VirtualBoard): boolean {
  const code = board.storage.readString(BOOT_FILE);
  return code === firmwareBundle();
}

describe("Storage compaction, as the device does it", () => {
  it("packs the live files, leaves the pages before the first page with trash untouched, and reads back as the device reads it", () => {
    const s = new VirtualStorage({ capacity: 48 * 1024 });
    s.write("a", new Uint8Array(20_000).fill(1)); // pages 0 and 1
    s.write(PAD_FILE, new Uint8Array(pageAlignPad(storageFootprint(20_000), s.pageBytes)!));
    s.write("b", "first");
    s.write("c", new Uint8Array(3000).fill(3));
    s.write("b", "second"); // the first copy of b is trash now
    expect(s.layout().find((e) => e.name === "b")!.addr).toBe(32768); // b starts page 2
    const steps = s.compactionSteps();
    expect(steps).toBeGreaterThan(1);
    // A cut at each step: page 0 and 1 (file a) are never touched.
    for (let k = 0; k <= steps; k++) {
      const t = new VirtualStorage({ capacity: 48 * 1024 });
      for (const e of s.layout()) if (!e.trash) t.write(e.name, s.read(e.name)!);
      t.write("b", "third");
      let cut: CompactionCut | null = null;
      t.armCompactionCut(k, 0.5, (c) => (cut = c));
      try {
        t.compact();
      } catch {
        // the power cut
      }
      if (k < t.compactionSteps() || cut) expect(cut === null || !(cut as CompactionCut).lost.includes("a")).toBe(true);
      expect(t.read("a")).toEqual(new Uint8Array(20_000).fill(1));
    }
    s.compact();
    expect(s.getStats().trashBytes).toBe(0);
    expect(s.list()).toEqual(["a", PAD_FILE, "c", "b"]);
    expect(s.readString("b")).toBe("second");
  });

  it("reads an image as the device does: an all-0xFF area is valid and empty, a broken header chain is corrupt", () => {
    const img = new Uint8Array(4096).fill(0xff);
    expect(readImage(img, 4096, 1024)).toEqual({ entries: [], valid: true });
    img[0] = 4; // a header whose name and data were never written: a file "\xff\xff\xff\xff" of 4 bytes...
    img[40] = 0x12; // ...followed by garbage that is not a header and not erased
    expect(readImage(img, 4096, 1024).valid).toBe(false);
  });
});

describe("probe 9: a power cut during compaction never loses .bootcde", () => {
  it("with the page-aligning pad after .bootcde: at every step of the compaction the unit's saves cause, .bootcde survives and the unit boots", () => {
    const probe = flashed(true);
    const first = playUntilCompactionCut(probe, 1_000_000, 0); // no cut: how many steps that compaction has
    expect(first, "the firmware's saves made Storage compact").not.toBeNull();
    const steps = first!.totalSteps;
    expect(steps).toBeGreaterThan(1);
    for (let k = 0; k <= steps; k++)
      for (const fraction of [0, 0.5]) {
        const board = flashed(true);
        const cut = playUntilCompactionCut(board, k, fraction);
        expect(cut, `step ${k}`).not.toBeNull();
        expect(cut!.reset, `step ${k}+${fraction}: Storage corrupt, erased whole`).toBe(false);
        expect(cut!.lost, `step ${k}+${fraction}`).not.toContain(BOOT_FILE);
        expect(bootcdeSurvived(board), `step ${k}+${fraction}`).toBe(true);
        board.powerOn();
        board.advance(300);
        expect(firmwareFailures(board), `step ${k}+${fraction}: the unit boots`).toEqual([]);
        expect(board.colours("pad").some((c) => c !== "off" && c !== "hole")).toBe(true);
      }
  });

  it("without the pad (Storage as npm run flash writes it today), compaction rewrites .bootcde's own pages and a cut there loses it", () => {
    // A bundle whose end does not fall on a page boundary (whether today's does is a matter of its size).
    const firmware = firmwareBundle() + "\n//" + "-".repeat(200);
    const probe = flashed(false, firmware);
    const steps = playUntilCompactionCut(probe, 1_000_000, 0)!.totalSteps;
    let lostAt = -1;
    for (let k = 0; k <= steps && lostAt < 0; k++) {
      const board = flashed(false, firmware);
      const cut = playUntilCompactionCut(board, k, 0);
      if (cut && (cut.reset || cut.lost.includes(BOOT_FILE) || !bootcdeSurvived(board))) lostAt = k;
    }
    // The hazard the pad removes: if this ever fails, the layout or the model changed; look again at both.
    expect(lostAt).toBeGreaterThanOrEqual(0);
  });
});
