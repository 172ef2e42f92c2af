/**
 * npm run flash -- --dry-run: the very Storage upload of the bundle's stored image (pretokenised), written without a
 * board or network, in the order .bootcde, the tables in its last page, the page-aligning pad, the other tables (so
 * that no compaction rewrites .bootcde's pages: test/saves/compaction.test.ts), as the simulator's own flash writes
 * them; the pad and the layout worked out from a board's list; the Storage budget.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  bootLayout,
  bootPad,
  bootPadBytes,
  largestProtected,
  solverTablesFor,
  storageUse,
  type SolverTable,
} from "../../firmware/tools/tables.ts";
import { BOARDS, PAD_FILE, pageAlignPad, storageFootprint } from "../../hardware/boards.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { VirtualStorage } from "../../sim/board/storage.ts";
import { replayUpload } from "./replay.ts";
import { listProfiles, loadProfile } from "../../hardware/profile.ts";
import {
  checkStorageFit,
  flashFiles,
  FlashError,
  padRefusal,
  storageBudget,
  storageLayout,
  uploadScript,
} from "../../firmware/tools/flash.ts";
import { flashQuietly, imageOf, writeBundleOfImage } from "./flash-tool.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-flash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run flash -- --dry-run", () => {
  it("writes the .bootcde Storage write of the bundle to upload.js, offline and without a board", async () => {
    const outDir = join(dir, "dry");
    const r = await flashQuietly({ dryRun: true, outDir });
    expect(r.exitCode).toBe(0);
    expect(r.upload).toBe(join(outDir, "upload.js"));
    const upload = readFileSync(r.upload!, "latin1");
    // what goes into Storage is the bundle pretokenised (firmware/tools/pretokenise.ts), also written to firmware.tok
    const image = imageOf(readFileSync(r.bundle, "latin1"));
    expect(image.length).toBeLessThan(readFileSync(r.bundle).length);
    expect(new Uint8Array(readFileSync(r.image))).toEqual(image);
    expect(upload.startsWith('require("Storage").write(".bootcde",')).toBe(true);
    // load(), a restart as at power-on (.boot0-.boot3, then .bootcde), not load(".bootcde"), which skips the boot files
    // (only when .bootcde reads back whole: a cut mid-upload must not start a partial file)
    expect(upload.trimEnd().split("\n").pop()).toMatch(
      /^if\(E\.CRC32\(require\("Storage"\)\.read\("\.bootcde"\)\)===\d+\)load\(\);else print\("upload incomplete: /,
    );
    // every byte on the wire is printable 7-bit ASCII (no raw bytes >= 0x80 for a telnet link to mangle)
    expect(/[^\x20-\x7e\n]/.test(upload)).toBe(false);
    const { files, loaded } = replayUpload(upload);
    expect(new Uint8Array(files.get(".bootcde")!)).toEqual(image);
    expect(loaded).toEqual([""]);
    expect(r.text).toMatch(
      /dry run: .*upload\.js: \d+ bytes, what would be sent to write .*firmware\.tok \(\d+ bytes: .*firmware\.js, \d+ bytes, pretokenised\) to empty Storage as \.bootcde in \d+ chunks/,
    );
    expect(r.text).not.toMatch(/ENOTFOUND|getaddrinfo|not found/);
  });

  it("writes the solver tables beside it, byte for byte, and leaves the 4 KB for saved state", async () => {
    const r = await flashQuietly({ dryRun: true, outDir: join(dir, "dry-tables") });
    const { files } = replayUpload(readFileSync(r.upload!, "latin1"));
    const tables = solverTablesFor(5);
    expect(tables.map((t) => t.name)).toEqual([
      "bb.t.brainiac",
      "bb.t.brainiac+",
      "bb.t.travel",
      "bb.t.travel+",
      "bb.t.race",
      "bb.t.race+",
    ]);
    for (const t of tables) expect(new Uint8Array(files.get(t.name)!), t.name).toEqual(t.bytes);
    const used = storageUse(r.imageBytes, tables, BOARDS.pico.storagePageBytes);
    expect(BOARDS.pico.storageBytes - used).toBeGreaterThanOrEqual(4096);
    // In Storage order: .bootcde, the tables that fit in its last page, the pad, the other tables.
    const layout = bootLayout(r.imageBytes, tables, BOARDS.pico.storagePageBytes);
    expect(layout.inPage.length).toBeGreaterThan(0);
    expect([...files.keys()]).toEqual([
      ".bootcde",
      ...layout.inPage.map((t) => t.name),
      ...(layout.pad === null ? [] : [PAD_FILE]),
      ...layout.rest.map((t) => t.name),
    ]);
    expect(r.text).toMatch(
      /then \d solver tables in the rest of its last flash page \(bb\.t\.[^)]*\), then a \d+-byte pad .*, then the other \d solver tables \(\d+ bytes: bb\.t\.[^)]*\); \d+ of 49152 bytes of Storage used/,
    );
  });

  it("writes only the four-hole tables for the mini build, and none with --no-tables", async () => {
    const mini = await flashQuietly({ dryRun: true, profile: "mini-pico", outDir: join(dir, "dry-mini") });
    expect(mini.tables?.map((t) => t.name)).toEqual(["bb.t.brainiac", "bb.t.brainiac+", "bb.t.travel", "bb.t.travel+"]);
    const bare = await flashQuietly({ dryRun: true, noTables: true, outDir: join(dir, "dry-bare") });
    expect(bare.tables).toEqual([]);
    // the firmware alone: .bootcde, and the pad when it does not end on a page
    const pad = bare.padBytes === undefined ? [] : [PAD_FILE];
    expect(bare.padBytes).toBe(bootPad(BOARDS.pico, bare.imageBytes, []) ?? undefined);
    expect([...replayUpload(readFileSync(bare.upload!, "latin1")).files.keys()]).toEqual([".bootcde", ...pad]);
  });

  it("refuses firmware and tables that would leave less than 4 KB of Storage, and names --no-tables", () => {
    const tables = solverTablesFor(5);
    // 32736 + 32 bytes end .bootcde exactly on the Pico's second 16 KB page: no pad
    const need = storageUse(32736, tables, 16384);
    expect(need).toBe(32768 + tables.reduce((n, t) => n + storageFootprint(t.bytes.length), 0));
    const small = { ...BOARDS.pico, storageBytes: need + 4096 - 4 };
    expect(() => checkStorageFit(small, 32736, tables)).toThrow(
      /the firmware \(32736 bytes\) and the solver tables \(6 files, \d+ bytes\) take \d+ bytes of the Espruino Pico's \d+-byte Storage,[\s\S]*--no-tables/,
    );
    expect(checkStorageFit({ ...small, storageBytes: need + 4096 }, 32736, tables)).toBe(need);
    expect(checkStorageFit(small, 32736, [])).toBe(32768);
  });

  it("puts tables in the rest of .bootcde's last page and counts the pad; when that would leave too little Storage the firmware goes without it, with a warning", async () => {
    const tables = solverTablesFor(5);
    const footprints = (ts: SolverTable[]) => ts.reduce((n, t) => n + storageFootprint(t.bytes.length), 0);
    // 30000 bytes: .bootcde takes 30032; the tables that fill most of the 2736 bytes left in its page go there, the pad
    // fills the rest of it to 32768, the other tables follow
    const layout = bootLayout(30000, tables, 16384);
    const inPage = footprints(layout.inPage);
    expect(inPage).toBeGreaterThan(0);
    expect(inPage).toBeLessThanOrEqual(2736);
    for (const t of layout.rest) expect(inPage + storageFootprint(t.bytes.length), t.name).toBeGreaterThan(2736 - 36);
    expect(bootPad(BOARDS.pico, 30000, tables)).toBe(32768 - 30032 - inPage - 32);
    expect(checkStorageFit(BOARDS.pico, 30000, tables)).toBe(32768 + footprints(layout.rest));
    expect(padRefusal(BOARDS.pico, 30000, tables)).toBeNull();
    // .bootcde ending 32 bytes short of a page: too little for a file, so the page after is filled too.
    expect(bootLayout(16320, tables, 16384).pad! + 32 + footprints(bootLayout(16320, tables, 16384).inPage)).toBe(32 + 16384);
    // The largest that gets the layout; past it, the rest of the tables and the saves no longer fit the last page.
    const largest = largestProtected(BOARDS.pico, tables, 32764);
    expect(largest).toBeGreaterThan(31000);
    expect(storageUse(largest, tables, 16384)).toBeLessThanOrEqual(49152 - 4096);
    expect(bootPadBytes(32734, 16384)).toBeNull();
    // Past it, the firmware goes without the pad while the files still fit (the rest of the third page holds the saves).
    for (const size of [largest + 4]) {
      expect(bootPad(BOARDS.pico, size, tables)).toBeNull();
      expect(checkStorageFit(BOARDS.pico, size, tables)).toBe(storageFootprint(size) + footprints(tables));
      expect(padRefusal(BOARDS.pico, size, tables)).toMatch(
        new RegExp(
          `warning: \\.bootcde \\(\\d+ bytes\\) does not end on a 16384-byte flash page[\\s\\S]*flashing without it[\\s\\S]*at most ${largest.toLocaleString("en")} bytes`,
        ),
      );
    }
    const bundle = writeBundleOfImage(join(dir, "too-big-for-a-pad.js"), largest + 4, "p");
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-nopad") });
    expect(r.exitCode, r.text).toBe(0);
    expect(r.padBytes).toBeUndefined();
    expect(r.text).toContain("flashing without it, so a Storage compaction can rewrite the firmware's last page");
  });

  it("writes .bootcde, the tables in its last page, the page-aligning pad, then the other tables, which start a flash page; the simulator flashes the same", async () => {
    // A bundle whose .bootcde does not end on a page (whatever the size of today's firmware)
    const bundle = writeBundleOfImage(join(dir, "unaligned.js"), 20_010, "y"); // .bootcde ends 20044 bytes in
    const bytes = 20_010;
    const boot = bootLayout(bytes, solverTablesFor(5), 16384);
    const pad = boot.pad!;
    expect(pad).toBeGreaterThan(0);
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-pad") });
    expect(r.exitCode, r.text).toBe(0);
    expect(r.padBytes).toBe(pad);
    expect(r.text).toContain(`then a ${pad}-byte pad (.bbpad) so that the next file starts a 16384-byte flash page`);
    const upload = readFileSync(r.upload!, "latin1");
    // The CLI sends the tool's own script as it is (SAVE_ON_SEND=-1): the tool chooses the order.
    expect(upload).toBe(uploadScript(flashFiles(imageOf(readFileSync(bundle, "latin1")), solverTablesFor(5), BOARDS.pico, true)));
    // Played into the simulator's Storage in the order sent: that order, and where each file lies.
    const storage = new VirtualStorage({ capacity: BOARDS.pico.storageBytes, pageBytes: BOARDS.pico.storagePageBytes });
    const { files } = replayUpload(upload, storage);
    const order = [".bootcde", ...boot.inPage.map((t) => t.name), PAD_FILE, ...boot.rest.map((t) => t.name)];
    expect([...files.keys()]).toEqual(order);
    expect(storage.list()).toEqual(order);
    expect(new Uint8Array(files.get(PAD_FILE)!)).toEqual(new Uint8Array(pad));
    const layout = storage.layout();
    expect(layout[0]).toMatchObject({ name: ".bootcde", addr: 0 });
    expect(layout[2 + boot.inPage.length]).toMatchObject({ name: boot.rest[0].name, addr: 32768 });
    // The simulator's flash path (a VirtualBoard built with that firmware) writes the very same Storage.
    const board = new VirtualBoard({ firmware: readFileSync(bundle, "latin1") });
    expect(board.storage.layout()).toEqual(layout);
    for (const name of order) expect(board.storage.read(name), name).toEqual(storage.read(name));
  });

  it("writes no pad when .bootcde ends exactly on a page", async () => {
    const bundle = writeBundleOfImage(join(dir, "aligned.js"), 16384 - 32, "x"); // 16352 bytes: with its header, one page
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-aligned") });
    expect(r.padBytes).toBeUndefined();
    const { files } = replayUpload(readFileSync(r.upload!, "latin1"));
    expect([...files.keys()]).toEqual([".bootcde", ...solverTablesFor(5).map((t) => t.name)]);
    expect(new VirtualBoard({ firmware: readFileSync(bundle, "latin1") }).storage.layout()[1]).toMatchObject({
      name: "bb.t.brainiac",
      addr: 16384,
    });
  });

  it("takes a ready bundle with --bundle and creates the output directory", async () => {
    const bundle = join(dir, "ready.js");
    writeFileSync(bundle, `print("${"x".repeat(2000)}");\n`);
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "fresh", "out") });
    expect(r.exitCode).toBe(0);
    expect(new Uint8Array(replayUpload(readFileSync(r.upload!, "latin1")).files.get(".bootcde")!)).toEqual(
      imageOf(readFileSync(bundle, "latin1")),
    );
    expect(new Uint8Array(readFileSync(join(dir, "fresh", "out", "firmware.tok")))).toEqual(imageOf(readFileSync(bundle, "latin1")));
  });

  it.each(listProfiles())("works for the %s profile with its board's offline board file", async (id) => {
    const r = await flashQuietly({ dryRun: true, profile: id, outDir: join(dir, `dry-${id}`) });
    expect(r.exitCode).toBe(0);
    const { files } = replayUpload(readFileSync(r.upload!, "latin1"));
    // the profile's own build (the compiled profile keeps no id: its LED data pin, as a bare pin name, tells them apart)
    const bundle = readFileSync(r.bundle, "latin1");
    expect(new Uint8Array(files.get(".bootcde")!)).toEqual(imageOf(bundle));
    expect(bundle).toMatch(new RegExp(`:${loadProfile(id).leds.pin}[,}]`));
  });

  it("refuses a bundle over the Storage budget, before the CLI runs", async () => {
    const big = writeBundleOfImage(join(dir, "big.js"), 40970, "x");
    const attempt = flashQuietly({ dryRun: true, bundle: big, outDir: join(dir, "big") });
    await expect(attempt).rejects.toThrow(FlashError);
    await expect(attempt).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(
        /is 40970 bytes as stored \(pretokenised\), over the Storage budget of 32768 bytes for the Espruino Pico/,
      ),
    });
  });
});

describe("the page-aligning pad and the layout", () => {
  it("pads to the next page boundary; a pad holds at least a word of data, so less room than 36 bytes takes a page more", () => {
    expect(pageAlignPad(32768, 16384)).toBeNull();
    expect(pageAlignPad(30032, 16384)).toBe(32768 - 30032 - 32);
    expect(pageAlignPad(32768 - 36, 16384)).toBe(4);
    expect(pageAlignPad(32768 - 32, 16384)).toBe(16384); // 32 bytes of room: a header with no data would fit, Espruino refuses that
    expect(pageAlignPad(32768 - 4, 16384)).toBe(16384 + 4 - 32);
    expect(pageAlignPad(1000, 4096)).toBe(4096 - 1000 - 32);
  });

  it("works out where each file lies from the board's list, and whether .bootcde is out of compaction's way", () => {
    const report = { version: "2v29", board: "PICO_R1_3", totalBytes: 49152, trashBytes: 0 };
    const files: [string, number][] = [
      [".bootcde", 30000],
      [PAD_FILE, 2704],
      ["bb.t.race+", 6497],
    ];
    const used = 30032 + 2736 + 6532;
    expect(storageLayout({ ...report, freeBytes: 49152 - used, files }, 16384)).toEqual({
      files: [
        { name: ".bootcde", offset: 0, bytes: 30000 },
        { name: PAD_FILE, offset: 30032, bytes: 2704 },
        { name: "bb.t.race+", offset: 32768, bytes: 6497 },
      ],
      protected: true,
    });
    const unpadded = storageLayout({ ...report, freeBytes: 49152 - 30032 - 6532, files: [files[0], files[2]] }, 16384);
    expect(unpadded).toMatchObject({ protected: false, why: expect.stringContaining("starts at 36564, not on a boundary") });
    // Tables in .bootcde's last page before the pad: they never change, so the layout still protects it.
    const inPage: [string, number][] = [files[0], ["bb.t.brainiac", 388], ["bb.t.travel+", 1178], [PAD_FILE, 1072], files[2]];
    expect(storageLayout({ ...report, freeBytes: 49152 - 32768 - 6532, files: inPage }, 16384)).toMatchObject({
      protected: true,
      files: [{ offset: 0 }, { offset: 30032 }, { offset: 30452 }, { offset: 31664 }, { name: "bb.t.race+", offset: 32768 }],
    });
    // A save (or any file that changes) before the page boundary: not protected.
    const saveBefore: [string, number][] = [files[0], ["bb.s0", 388], ["bb.t.travel+", 1178], [PAD_FILE, 1072], files[2]];
    expect(storageLayout({ ...report, freeBytes: 49152 - 32768 - 6532, files: saveBefore }, 16384)).toMatchObject({ protected: false });
    expect(storageLayout({ ...report, freeBytes: 0, files }, 16384)).toMatchObject({ protected: false, files: [] });
    expect(storageLayout({ ...report, trashBytes: 64, freeBytes: 49152 - used - 64, files }, 16384)).toMatchObject({ protected: false });
  });
});

describe("the budget", () => {
  it("is the 32 KB bound on both boards, inside their Storage less 4 KB for saved state", () => {
    expect(storageBudget(BOARDS.pico)).toBe(32 * 1024);
    expect(storageBudget(BOARDS.esp32)).toBe(32 * 1024);
    expect(storageBudget({ ...BOARDS.pico, storageBytes: 20 * 1024 })).toBe(16 * 1024);
  });
});
