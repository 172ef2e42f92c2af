/**
 * Issue 14, probe 6: a good save is never lost to a newer copy that passes the checksum but holds an
 * impossible game. The unit resumes the newest copy that passes the checksum AND the game-state checks,
 * names every copy it passed over on the console, and keeps the last good copy until a newer good save
 * has been written.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { UnitDriver } from "../scenarios/driver.ts";
import { firmwareBundle, R1 } from "../device/helpers.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { encodeSlot, newestCopy, parseSlot, isCopy, SLOT_NAMES, type SlotCopy } from "./saved-state.ts";
import { boardFrame, expectedBootFrame, frameDiff } from "./frame.ts";
import { firmwareFailures } from "./invariants.ts";

/** A referee game with a secret and two rows played; the good copy it leaves in Storage. */
function goodCopy(): SlotCopy {
  const u = new UnitDriver();
  u.startMatch({ preset: "brainiac", mode: "referee" });
  u.makerSecret([5, 4, 3, 2]);
  u.guess([0, 1, 2, 3]);
  u.guess([1, 1, 2, 2]);
  const c = newestCopy(u.board.storage);
  if (!c) throw new Error("the game saved nothing");
  return c;
}

/** Boots a board whose slots hold the good copy and, newer, `bad` in the other slot. */
function bootWithBadNewer(good: SlotCopy, bad: unknown): { board: VirtualBoard; badSlot: string } {
  const board = new VirtualBoard({ firmware: firmwareBundle() });
  const goodIndex = SLOT_NAMES.indexOf(good.name);
  const badSlot = SLOT_NAMES[1 - goodIndex];
  board.storage.write(good.name, good.text);
  board.storage.write(badSlot, encodeSlot(bad, good.seq + 1));
  board.powerOn();
  board.advance(200);
  return { board, badSlot };
}

const IMPOSSIBLE: [string, (s: SavedState) => unknown][] = [
  ["a secret [9,9,9,9]", (s) => ({ ...s, match: { ...s.match, game: { ...s.match!.game, secret: [9, 9, 9, 9] } } })],
  ["a phase that does not exist", (s) => ({ ...s, match: { ...s.match, game: { ...s.match!.game, phase: "dancing" } } })],
  ["negative scores", (s) => ({ ...s, match: { ...s.match, scores: [-3, -1] } })],
];

describe("probe 6: a good save is not lost to a newer impossible one", () => {
  let good: SlotCopy;
  beforeAll(() => {
    good = goodCopy();
  });

  for (const [what, change] of IMPOSSIBLE)
    it(`a newer copy with ${what} (checksum fine): the older good copy is resumed and the newer one named on the console`, () => {
      const { board, badSlot } = bootWithBadNewer(good, change(structuredClone(good.state)));
      expect(firmwareFailures(board)).toEqual([]);
      expect(frameDiff(R1, expectedBootFrame(R1, good.state, board.uptime), boardFrame(board))).toEqual([]);
      expect(board.consoleLog.find((l) => l.startsWith("brainboard: save not used") && l.includes(badSlot))).toBeDefined();
    });

  it("the next saves go to the impossible copy's slot: the good copy stays until a newer good one exists", () => {
    const { board, badSlot } = bootWithBadNewer(good, IMPOSSIBLE[0][1](structuredClone(good.state)));
    for (const k of ["p11", "p12", "p13", "p14", "p66"]) board.tap(k, 30, 30); // a row played: the unit saves
    board.advance(100);
    const copies = SLOT_NAMES.map((n) => parseSlot(n, board.storage.readString(n) ?? ""));
    const kept = copies.find((c) => c.name === good.name);
    expect(kept && isCopy(kept) ? kept.text : null, "the good copy, untouched").toBe(good.text);
    const fresh = copies.find((c) => c.name === badSlot);
    expect(fresh && isCopy(fresh) && fresh.seq > good.seq + 1, "a newer good save in the impossible copy's place").toBe(true);
  });

  it("a save that Storage refuses (full) leaves the last good copy where it is, and the next save tries the same slot", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    const before = newestCopy(u.board.storage)!;
    // Fill Storage so that no save fits even after the unit's compaction, then play a move.
    u.board.storage.compact();
    const free = u.board.storage.getFree();
    u.board.storage.write("filler", "x".repeat(Math.max(0, free - 64)));
    u.guess([0, 1, 2, 3]);
    expect(u.board.storage.readString(before.name)).toBe(before.text);
    u.board.storage.erase("filler");
    u.board.storage.compact();
    u.guess([1, 1, 2, 2]);
    const after = newestCopy(u.board.storage)!;
    expect(after.name).not.toBe(before.name);
    expect(after.seq).toBe(before.seq + 1);
  });
});
