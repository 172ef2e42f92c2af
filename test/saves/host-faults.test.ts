/**
 * Issue 14, probe 8 (host faults): the simulator's Storage file under a clumsy user and a failing disk. A
 * file that cannot be used is moved aside with a clear message and the unit starts afresh; a write the host
 * cannot keep is a failed Storage.write inside the firmware (as on a full flash), never an exception; a
 * storage directory removed while the unit runs does not stop its keypad.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VirtualBoard } from "../../sim/board/board.ts";
import { storageFileLimit, VirtualStorage } from "../../sim/board/storage.ts";
import { defaultStorageFile } from "../../sim/board/storage-folder.ts";
import { startSimulator, type SimState } from "../../sim/web/server.ts";
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

describe("a save the disk refuses is said at once, and the last good copy is kept", () => {
  it("the board tells its listeners at once, names the file, and the page's state carries it; it clears when writing works again", async () => {
    const sub = join(dir, "sub");
    mkdirSync(sub);
    const file = join(sub, "storage.json");
    const sim = await startSimulator({ firmware: firmwareBundle(), port: 0, realtime: false, storageFile: file });
    try {
      const told: (string | null)[] = [];
      sim.board.on("storage", () => told.push(sim.board.storage.problem));
      sim.command("wait 200");
      rmSync(sub, { recursive: true });
      writeFileSync(sub, "in the way");
      sim.command("tap ok\nwait 200");
      expect(told.length).toBeGreaterThan(0);
      expect(told[0]).toContain(file);
      expect(told[0]).toContain("not kept");
      const state = (await (await fetch(new URL("api/state", sim.url), { headers: sim.headers })).json()) as SimState;
      expect(state.storageProblem).toContain(file);
      rmSync(sub);
      expect(sim.board.repl('require("Storage").write("probe", "again")')).toBe(true);
      expect(sim.board.storage.problem).toBeNull();
      expect(told[told.length - 1]).toBeNull();
    } finally {
      await sim.close();
    }
  });

  it("a copy that could not be put in place leaves no partial FILE.tmp, and the file keeps its last good copy", () => {
    const file = join(dir, "storage.json");
    const board = boot(file);
    const good = readFileSync(file, "utf8");
    // The file is replaced by a folder: the new copy is written, but cannot take its place.
    rmSync(file);
    mkdirSync(file);
    expect(board.repl('require("Storage").write("probe", "hello")')).toBe(false);
    expect(existsSync(file + ".tmp")).toBe(false);
    rmSync(file, { recursive: true });
    writeFileSync(file, good);
    expect(readFileSync(file, "utf8")).toBe(good);
  });

  it("a new Storage file where none can be written: the unit starts with Storage in memory, and says so", () => {
    writeFileSync(join(dir, "not-a-folder"), "x");
    const file = join(dir, "not-a-folder", "storage.json");
    const board = boot(file);
    expect(board.storage.problem).toMatch(/kept in memory only/);
    expect(board.warnings.join("\n")).toMatch(/kept in memory only/);
    expectMenuAnswersKeys(board);
  });

  it("a symlink at FILE.tmp is not followed: its target is left alone", () => {
    const file = join(dir, "storage.json");
    const target = join(dir, "precious.txt");
    writeFileSync(target, "do not overwrite");
    const board = boot(file);
    symlinkSync(target, file + ".tmp");
    expect(board.repl('require("Storage").write("probe", "hello")')).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("do not overwrite");
    expect(readFileSync(file, "utf8")).toContain(Buffer.from("hello").toString("base64"));
  });
});

describe("oversized Storage files are refused before they are read", () => {
  const CAPACITY = 49152;

  it("a valid Storage file over the size limit is moved aside without being read", () => {
    const file = join(dir, "storage.json");
    const body = JSON.stringify({ format: "brainboard-storage", version: 2, capacity: CAPACITY, files: [] });
    writeFileSync(file, body + " ".repeat(storageFileLimit(CAPACITY)));
    const s = new VirtualStorage({ capacity: CAPACITY, file, warn: () => {} });
    expect(s.movedAside).toBeTruthy();
    expect(s.list()).toEqual([]);
  });

  it("a file that claims more trash (or more files) than the board's Storage holds is moved aside", () => {
    for (const data of [
      { format: "brainboard-storage", version: 1, capacity: CAPACITY, files: [], trashBytes: 2_000_000_000 },
      { format: "brainboard-storage", version: 1, capacity: CAPACITY, files: [], trashBytes: CAPACITY + 4 },
      {
        format: "brainboard-storage",
        version: 2,
        capacity: CAPACITY,
        files: [{ name: "big", data: Buffer.alloc(CAPACITY).toString("base64") }],
      },
    ]) {
      const file = join(dir, `storage-${Math.random()}.json`);
      writeFileSync(file, JSON.stringify(data));
      const warnings: string[] = [];
      const s = new VirtualStorage({ capacity: CAPACITY, file, warn: (w) => warnings.push(w) });
      expect(s.movedAside, JSON.stringify(data).slice(0, 80)).toBeTruthy();
      expect(warnings.join("\n")).toMatch(/more than the board's 49152 bytes/);
    }
  });
});

describe("the default Storage folder", () => {
  it("falls back only to a private folder of this user's own in the temporary directory, never a shared one", () => {
    const home = join(dir, "home-file");
    writeFileSync(home, "not a folder"); // ~/.brainboard cannot be made
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const got = defaultStorageFile("r1-pico", home, tmp);
    expect(got).not.toBeNull();
    expect(statSync(join(got!, "..")).mode & 0o077).toBe(0);
    // Someone else's folder (or a link) at that name is not used.
    const tmp2 = join(dir, "tmp2");
    mkdirSync(tmp2);
    symlinkSync(tmp, join(tmp2, `brainboard-${process.getuid?.() ?? "user"}`));
    expect(defaultStorageFile("r1-pico", home, tmp2)).toBeNull();
    const tmp3 = join(dir, "tmp3");
    mkdirSync(join(tmp3, `brainboard-${process.getuid?.() ?? "user"}`), { recursive: true, mode: 0o777 });
    chmodSync(join(tmp3, `brainboard-${process.getuid?.() ?? "user"}`), 0o777);
    expect(defaultStorageFile("r1-pico", home, tmp3)).toBeNull();
  });
});
