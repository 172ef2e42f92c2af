/**
 * Issue 14, probe 8 (host faults): the simulator's Storage file under a clumsy user and a failing disk. A
 * file that cannot be used is moved aside with a clear message and the unit starts afresh; a write the host
 * cannot keep is a failed Storage.write inside the firmware (as on a full flash), never an exception; a
 * storage directory removed while the unit runs does not stop its keypad.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VirtualBoard } from "../../sim/board/board.ts";
import { firmwareBundle } from "../device/helpers.ts";
import { G_OK } from "../../firmware/ui/layout.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-host-faults-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function boot(storageFile: string): VirtualBoard {
  const board = new VirtualBoard({ firmware: firmwareBundle(), storageFile });
  board.powerOn();
  board.advance(200);
  return board;
}

/** The menu shows (the first game lit) and a key moves the choice. */
function expectMenuAnswersKeys(board: VirtualBoard): void {
  expect(board.errors).toEqual([]);
  expect(board.colours("pad")[0]).toBe("white");
  board.tap("p12");
  expect(board.colours("pad")[1]).toBe("white");
}

const BAD_FILES: [string, (file: string) => void][] = [
  ["not JSON", (f) => writeFileSync(f, "this is not json")],
  ["empty", (f) => writeFileSync(f, "")],
  ["cut short", (f) => writeFileSync(f, '{"format":"brainboard-storage","version":2,"capacity":49152,"files":[{"name":".boo')],
  ["null", (f) => writeFileSync(f, "null")],
  ["a directory", (f) => mkdirSync(f)],
  ["of another version", (f) => writeFileSync(f, JSON.stringify({ format: "brainboard-storage", version: 9, capacity: 49152, files: [] }))],
  ["of another format", (f) => writeFileSync(f, JSON.stringify({ hello: "world" }))],
  ["holding a file that is not one", (f) => writeFileSync(f, JSON.stringify({ format: "brainboard-storage", version: 2, files: [null] }))],
];

describe("probe 8: a bad Storage file is moved aside, and the unit starts afresh", () => {
  for (const [what, make] of BAD_FILES)
    it(`a Storage file ${what}: moved aside with a message naming it; the unit boots to the menu and keeps a new file`, () => {
      const file = join(dir, "storage.json");
      make(file);
      const board = boot(file);
      const note = board.warnings.find((w) => w.includes(file) && w.includes("moved aside"));
      expect(note, `warnings: ${JSON.stringify(board.warnings)}`).toBeDefined();
      expect(board.storage.movedAside && existsSync(board.storage.movedAside)).toBe(true);
      expectMenuAnswersKeys(board);
      board.tap(`p${Math.floor(G_OK / 6) + 1}${(G_OK % 6) + 1}`); // a match starts: the unit saves
      expect(existsSync(file)).toBe(true);
      expect(new VirtualBoard({ firmware: firmwareBundle(), storageFile: file }).warnings).toEqual([]);
    });
});

describe("probe 8: host write errors are failed writes inside the firmware", () => {
  it("a Storage file that cannot be written: Storage.write returns false in the firmware, nothing throws, keys work", () => {
    const sub = join(dir, "sub");
    mkdirSync(sub);
    const file = join(sub, "storage.json");
    const board = boot(file);
    // The directory is replaced by a file of the same name: neither the file nor its directory can be made.
    rmSync(sub, { recursive: true });
    writeFileSync(sub, "in the way");
    expect(board.repl('require("Storage").write("probe", "hello")')).toBe(false);
    expect(board.repl('require("Storage").read("probe")')).toBeUndefined();
    expect(board.warnings.some((w) => w.includes("could not be written") && w.includes("as on a full flash"))).toBe(true);
    expectMenuAnswersKeys(board);
    board.tap("p66"); // a match starts: its save fails, and the unit goes on
    expect(board.errors).toEqual([]);
    expect(board.colours("pad")[0]).not.toBe("white");
  });

  it("the storage directory removed while the unit runs: the keypad still works and the file comes back", () => {
    const sub = join(dir, "store");
    mkdirSync(sub);
    const file = join(sub, "storage.json");
    const board = boot(file);
    rmSync(sub, { recursive: true, force: true });
    expectMenuAnswersKeys(board);
    board.tap("p66");
    expect(board.errors).toEqual([]);
    expect(readdirSync(sub)).toContain("storage.json");
  });
});
