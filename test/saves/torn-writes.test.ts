/**
 * The simulator's power-cut model (sim/board/storage.ts, VirtualBoard.schedulePowerCut/cutPowerDuringWrite):
 * a Storage operation cut part-way leaves what flash would, in the order Espruino programs it, and the
 * firmware call that asked for the write goes no further.
 */
import { describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { PowerCutError, STORAGE_HEADER_BYTES, storageFootprint, VirtualStorage, type StorageCut } from "../../sim/board/storage.ts";

const OLD = "old copy of the file, forty bytes long..";
const NEW = "NEW COPY OF THE FILE, FORTY BYTES LONG!!";

/** A Storage holding "f" = OLD, whose next operation is cut at `fraction`; returns the cut and what is left. */
function cutRewrite(fraction: number) {
  const s = new VirtualStorage({ capacity: 4096 });
  s.write("f", OLD);
  let seen: StorageCut | null = null;
  s.armCut(1, fraction, (c) => (seen = c));
  expect(() => s.write("f", NEW)).toThrow(PowerCutError);
  return { s, cut: seen! as StorageCut, text: s.readString("f") };
}

describe("torn writes in sim/board/storage.ts", () => {
  it("a rewrite cut before its first word leaves the old copy", () => {
    const { cut, text } = cutRewrite(0);
    expect(cut.stage).toBe("before");
    expect(text).toBe(OLD);
  });

  it("Espruino trashes the old copy first: a cut before the new header's first word leaves no file at all", () => {
    // 4 bytes (the old name word) + 32 (header) + 40 (data) = 76 bytes programmed in all.
    const { s, cut, text } = cutRewrite(5 / 76);
    expect(cut.stage).toBe("old-trashed");
    expect(text).toBeUndefined();
    expect(s.getStats().trashCount).toBe(1);
  });

  it("a cut in the new header loses the new copy too; its space becomes trash", () => {
    const { s, cut, text } = cutRewrite(20 / 76);
    expect(cut.stage).toBe("header");
    expect(text).toBeUndefined();
    expect(s.getStats().trashBytes).toBe(2 * storageFootprint(40));
  });

  it("a cut in the data leaves the file with its first whole words written and the rest 0xFF", () => {
    const { cut, text } = cutRewrite((4 + STORAGE_HEADER_BYTES + 10) / 76);
    expect(cut).toMatchObject({ stage: "data", bytesWritten: 8, dataBytes: 40 });
    expect(text).toBe(NEW.slice(0, 8) + "\xff".repeat(32));
  });

  it("a cut right after the last byte leaves the new copy complete", () => {
    const { cut, text } = cutRewrite(1);
    expect(cut.stage).toBe("done");
    expect(text).toBe(NEW);
  });

  it("a first write of a file cut in its data leaves a torn file (the other slot must hold the last good copy)", () => {
    const s = new VirtualStorage({ capacity: 4096 });
    s.armCut(1, 0.75, () => {});
    expect(() => s.write("g", NEW)).toThrow(PowerCutError);
    expect(s.readString("g")!.endsWith("\xff")).toBe(true);
    expect(s.cuts).toHaveLength(1);
  });

  it("a cut armed for the n-th operation lets the ones before it through", () => {
    const s = new VirtualStorage({ capacity: 4096 });
    s.armCut(3, 0, () => {});
    s.write("a", "1");
    s.write("b", "2");
    expect(s.armedCut).toEqual({ n: 1, fraction: 0 });
    expect(() => s.write("c", "3")).toThrow(PowerCutError);
    expect(s.list()).toEqual(["a", "b"]);
    expect(s.armedCut).toBeNull();
  });

  it("a patch cut part-way has programmed whole words only", () => {
    const s = new VirtualStorage({ capacity: 4096 });
    s.write("p", "", 0, 16);
    s.armCut(1, 0.5, () => {});
    expect(() => s.write("p", "ABCDEFGHIJKL", 4)).toThrow(PowerCutError);
    expect(s.readString("p")).toBe("\xff".repeat(4) + "ABCD" + "\xff".repeat(8));
  });
});

describe("power cuts on the virtual board", () => {
  const firmware = `var S = require("Storage"); var n = (S.read("count") || "0") | 0;`;

  it("schedulePowerCut turns the board off at that instant; powerOn boots again from Storage", () => {
    const board = new VirtualBoard({ firmware });
    board.powerOn();
    board.schedulePowerCut(board.now + 100);
    board.advance(99);
    expect(board.isOn).toBe(true);
    board.advance(1);
    expect(board.isOn).toBe(false);
    expect(board.powerCuts).toEqual([{ at: board.now, kind: "scheduled" }]);
    board.powerOn();
    expect(board.isOn).toBe(true);
  });

  it("cutPowerDuringWrite stops the firmware call in the middle of its write: nothing after it runs", () => {
    const board = new VirtualBoard({ firmware });
    board.powerOn();
    board.cutPowerDuringWrite(1, 0);
    expect(() => board.repl("n++; S.write('count', String(n)); print('after the write')")).toThrow();
    expect(board.isOn).toBe(false);
    expect(board.consoleLog).not.toContain("after the write");
    expect(board.powerCuts).toMatchObject([{ kind: "write", write: { op: "create", name: "count", stage: "before" } }]);
    expect(board.storage.readString("count")).toBeUndefined();
    expect(board.errors).toEqual([]);
    board.powerOn();
    expect(board.repl("n")).toBe(0);
  });

  it("cancelPowerCuts drops a cut not yet made", () => {
    const board = new VirtualBoard({ firmware });
    board.powerOn();
    board.schedulePowerCut(board.now + 10);
    board.cutPowerDuringWrite(1, 0.5);
    board.cancelPowerCuts();
    board.advance(20);
    board.repl("S.write('x', 'y')");
    expect(board.isOn).toBe(true);
    expect(board.storage.readString("x")).toBe("y");
  });
});
