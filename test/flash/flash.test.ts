/**
 * npm run flash: the dry run writes the very Storage upload of the bundle without a board or network; the real
 * path is run against a recording stand-in board over tcp://; and each problem before flashing is refused with
 * what to do and the documented exit code. The files go into Storage in the order .bootcde, the page-aligning pad,
 * the tables (so that no compaction rewrites .bootcde's pages: test/saves/compaction.test.ts), as the
 * simulator's own flash writes them.
 */
import {
  bootLayout,
  bootPad,
  bootPadBytes,
  largestProtected,
  solverTablesFor,
  storageUse,
  type SolverTable,
} from "../../firmware/tools/tables.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { BOARDS, PAD_FILE, pageAlignPad, storageFootprint } from "../../hardware/boards.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { VirtualStorage } from "../../sim/board/storage.ts";
import { replayUpload } from "./replay.ts";
import { LISTED_SETTINGS, listedSettingsSave, OLD_SAVE, playedMatch, UNIT_MAKES } from "./saves.ts";
import { firmwareBundle } from "../device/helpers.ts";
import { bytesFromString } from "../../sim/board/storage.ts";
import { decodeSlot, expandKeys, type Slot } from "../../firmware/save-format.ts";
import { keepSlot, upgradeSlot, type KeptSlot } from "../../firmware/tools/save-upgrade.ts";
import { PHASE_GUESS } from "../../firmware/core/types.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { listProfiles, loadProfile } from "../../hardware/profile.ts";
import { DEFAULT_OUT, ROOT } from "../../firmware/tools/build.ts";
import {
  checkPort,
  checkStorageFit,
  espruinoCli,
  flash,
  flashFiles,
  FlashError,
  padRefusal,
  saveCrc,
  slotFiles,
  storageBudget,
  storageLayout,
  uploadScript,
  type FlashOptions,
  type FlashResult,
} from "../../firmware/tools/flash.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-flash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where the file after .bootcde, the tables in its last page and the pad starts in a board's Storage. */
function afterBootAndPad(board: VirtualBoard): number {
  const layout = board.storage.layout();
  const pad = layout.findIndex((e) => e.name === PAD_FILE);
  return layout[pad > 0 ? pad + 1 : 1].addr;
}

/** The files npm run flash writes into empty Storage for a bundle of `bytes` (tables.ts protectedLayout), in order. */
function flashOrder(bytes: number): string[] {
  return flashFiles(new Uint8Array(bytes), solverTablesFor(5), BOARDS.pico, true).map((f) => f.name);
}

/** Runs flash() with its output captured. */
async function flashQuietly(opts: FlashOptions): Promise<FlashResult & { text: string }> {
  let text = "";
  const r = await flash({ ...opts, out: (t) => (text += t), err: (t) => (text += t) });
  return { ...r, text };
}

describe("npm run flash -- --dry-run", () => {
  it("writes the .bootcde Storage write of the bundle to upload.js, offline and without a board", async () => {
    const outDir = join(dir, "dry");
    const r = await flashQuietly({ dryRun: true, outDir });
    expect(r.exitCode).toBe(0);
    expect(r.upload).toBe(join(outDir, "upload.js"));
    const upload = readFileSync(r.upload!, "latin1");
    const bundle = readFileSync(r.bundle, "latin1");
    expect(upload.startsWith('require("Storage").write(".bootcde",')).toBe(true);
    // load(), a restart as at power-on (.boot0-.boot3, then .bootcde), not load(".bootcde"), which skips the boot files
    // (only when .bootcde reads back whole: a cut mid-upload must not start a partial file)
    expect(upload.trimEnd().split("\n").pop()).toMatch(
      /^if\(E\.CRC32\(require\("Storage"\)\.read\("\.bootcde"\)\)===\d+\)load\(\);else print\("upload incomplete: /,
    );
    // every byte on the wire is printable 7-bit ASCII (no raw bytes >= 0x80 for a telnet link to mangle)
    expect(/[^\x20-\x7e\n]/.test(upload)).toBe(false);
    const { files, loaded } = replayUpload(upload);
    expect(files.get(".bootcde")!.toString("latin1")).toBe(bundle);
    expect(loaded).toEqual([""]);
    expect(r.text).toMatch(
      /dry run: .*upload\.js: \d+ bytes, what would be sent to write .*firmware\.js \(\d+ bytes\) to empty Storage as \.bootcde in \d+ chunks/,
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
    const used = storageUse(r.bundleBytes, tables, BOARDS.pico.storagePageBytes);
    expect(BOARDS.pico.storageBytes - used).toBeGreaterThanOrEqual(4096);
    // In Storage order: .bootcde, the tables that fit in its last page, the pad, the other tables.
    const layout = bootLayout(r.bundleBytes, tables, BOARDS.pico.storagePageBytes);
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
    expect(bare.padBytes).toBe(bootPad(BOARDS.pico, bare.bundleBytes, []) ?? undefined);
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
    const bundle = join(dir, "too-big-for-a-pad.js");
    writeFileSync(bundle, `var s="${"p".repeat(largest + 4 - 10)}";\n`);
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-nopad") });
    expect(r.exitCode, r.text).toBe(0);
    expect(r.padBytes).toBeUndefined();
    expect(r.text).toContain("flashing without it, so a Storage compaction can rewrite the firmware's last page");
  });

  it("writes .bootcde, the tables in its last page, the page-aligning pad, then the other tables, which start a flash page; the simulator flashes the same", async () => {
    // A bundle whose .bootcde does not end on a page (whatever the size of today's firmware)
    const bundle = join(dir, "unaligned.js");
    writeFileSync(bundle, `var s="${"y".repeat(20_000)}";\n`); // 20010 bytes: .bootcde ends 20044 bytes in
    const bytes = readFileSync(bundle).length;
    const boot = bootLayout(bytes, solverTablesFor(5), 16384);
    const pad = boot.pad!;
    expect(pad).toBeGreaterThan(0);
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-pad") });
    expect(r.exitCode, r.text).toBe(0);
    expect(r.padBytes).toBe(pad);
    expect(r.text).toContain(`then a ${pad}-byte pad (.bbpad) so that the next file starts a 16384-byte flash page`);
    const upload = readFileSync(r.upload!, "latin1");
    // The CLI sends the tool's own script as it is (SAVE_ON_SEND=-1): the tool chooses the order.
    expect(upload).toBe(uploadScript(flashFiles(new Uint8Array(readFileSync(bundle)), solverTablesFor(5), BOARDS.pico, true)));
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
    const bundle = join(dir, "aligned.js");
    writeFileSync(bundle, `var s="${"x".repeat(16384 - 32 - 10)}";\n`); // 16352 bytes: with its header, one page
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
    expect(replayUpload(readFileSync(r.upload!, "latin1")).files.get(".bootcde")!.toString("latin1")).toBe(readFileSync(bundle, "latin1"));
  });

  it.each(listProfiles())("works for the %s profile with its board's offline board file", async (id) => {
    const r = await flashQuietly({ dryRun: true, profile: id, outDir: join(dir, `dry-${id}`) });
    expect(r.exitCode).toBe(0);
    const { files } = replayUpload(readFileSync(r.upload!, "latin1"));
    // the profile's own build (the compiled profile keeps no id: its LED data pin, as a bare pin name, tells them apart)
    const boot = files.get(".bootcde")!.toString("latin1");
    expect(boot).toBe(readFileSync(r.bundle, "latin1"));
    expect(boot).toMatch(new RegExp(`:${loadProfile(id).leds.pin}[,}]`));
  });

  it("refuses a bundle over the Storage budget, before the CLI runs", async () => {
    const big = join(dir, "big.js");
    writeFileSync(big, `var s="${"x".repeat(40 * 1024)}";\n`);
    const attempt = flashQuietly({ dryRun: true, bundle: big, outDir: join(dir, "big") });
    await expect(attempt).rejects.toThrow(FlashError);
    await expect(attempt).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/is 40970 bytes, over the Storage budget of 32768 bytes for the Espruino Pico/),
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

/**
 * A stand-in board over tcp://: records what the CLI sends, answers each line with a prompt like the REPL, and answers
 * the flash tool's own questions (board-console.ts) from a model of its Storage: the files in `report.l` (their
 * contents from `files`, else filler) or in `files`, in Storage order. It follows the tool's eraseAll, erase(name),
 * compact and Storage writes; it answers a base64 read of a file (btoa), and the read-back of the files the CLI wrote
 * (after an upload, the files it had that the upload did not write, then those it wrote, in Storage order). `lose`
 * is a file the upload wrote that the board did not keep (a write through the console afterwards is kept); `locked` plays a locked console (a password prompt to every line);
 * `lockAfterLoad` locks it once the firmware is started (load()) after an upload.
 */
async function standInBoard(
  opts: { report?: Record<string, unknown>; files?: Record<string, string>; locked?: boolean; lose?: string; lockAfterLoad?: boolean } = {},
) {
  const received: string[] = [];
  /** Every line the board got, the tool's questions included (as sent). */
  const lines: string[] = [];
  const given =
    (opts.report?.l as [string, number][] | undefined) ?? Object.entries(opts.files ?? {}).map(([n, t]): [string, number] => [n, t.length]);
  const store = new Map<string, Buffer>(given.map(([n, len]) => [n, Buffer.from(opts.files?.[n] ?? "x".repeat(len), "latin1")]));
  const used = () => [...store.values()].reduce((sum, b) => sum + storageFootprint(b.length), 0);
  const report = { v: "2v29", b: "PICO_R1_3", t: 49152, f: 49152 - used(), x: 0, ...opts.report, l: [] as [string, number][] };
  let locked = !!opts.locked;
  const uploaded = () => {
    const { files: up } = replayUpload(received.join(""));
    if (opts.lose) up.delete(opts.lose); // the board lost what the upload wrote of it
    return up;
  };
  const files = () => {
    const up = uploaded();
    return new Map([...[...store].filter(([n]) => !up.has(n)), ...up]);
  };
  const now = () => {
    if (!received.some((l) => l.includes('require("Storage").write('))) return { ...report, l: [...store].map(([n, b]) => [n, b.length]) };
    const l = [...files()].map(([n, b]): [string, number] => [n, b.length]);
    return { ...report, l, x: 0, f: report.t - l.reduce((sum, [, len]) => sum + storageFootprint(len), 0) };
  };
  const server = createServer((socket) => {
    let pending = "";
    socket.on("data", (d) => {
      const text = d.toString("latin1");
      if (locked) return void socket.write("\r\npassword>");
      pending += text;
      const got = pending.split("\n");
      pending = got.pop()!;
      for (const line of got) {
        lines.push(line);
        if (!line.includes('"<"+"<BB"')) {
          received.push(line + "\n");
          socket.write("\r\n>");
          continue;
        }
        let answer: unknown = now();
        const names = /return (\[[^\]]*\])\.map/.exec(line);
        const read = /btoa\(require\("Storage"\)\.read\(("[^"]*"),(\d+),(\d+)\)\)/.exec(line);
        const intact = /d\.length===(\d+)&&E\.CRC32\(d\)===(\d+);\}\)\(require\("Storage"\)\.read\(("[^"]*")\)\)/.exec(line);
        const write = /require\("Storage"\)\.write\(("[^"]*"),atob\(("[^"]*")\),(\d+)(?:,(\d+))?\)/.exec(line);
        const erase = /require\("Storage"\)\.erase\(("[^"]*")\)/.exec(line);
        if (names) {
          const all = files();
          answer = (JSON.parse(names[1]) as string[]).map((n) => (all.has(n) ? [all.get(n)!.length, crc32(all.get(n)!)] : null));
        } else if (read) {
          const b = files().get(JSON.parse(read[1]) as string);
          answer = b ? b.subarray(Number(read[2]), Number(read[2]) + Number(read[3])).toString("base64") : "";
        } else if (intact) {
          const b = files().get(JSON.parse(intact[3]) as string);
          answer = !!b && b.length === Number(intact[1]) && crc32(b) === Number(intact[2]);
        } else if (write) {
          // A write through the console (the tool writing a saved game back): into the Storage as it is now.
          const name = JSON.parse(write[1]) as string;
          const data = Buffer.from(JSON.parse(write[2]) as string, "base64");
          if (write[3] === "0") {
            store.delete(name);
            store.set(name, Buffer.alloc(Number(write[4] ?? data.length), 0xff));
          }
          data.copy(store.get(name)!, Number(write[3]));
          answer = 1;
        } else if (erase) {
          const b = store.get(JSON.parse(erase[1]) as string);
          if (b) report.x += storageFootprint(b.length);
          store.delete(JSON.parse(erase[1]) as string);
          answer = 1;
        } else if (line.includes("eraseAll")) {
          store.clear();
          Object.assign(report, { f: report.t, x: 0 });
          answer = 1;
        } else if (line.includes("compact")) {
          Object.assign(report, { f: report.f + report.x, x: 0 });
          answer = 1;
        } else if (line.includes("load()")) {
          answer = 1;
          if (opts.lockAfterLoad) locked = true;
        }
        socket.write(`<<BB ${JSON.stringify(answer)} BB>>\r\n>`);
      }
      if (text.includes("\x03")) socket.write("\r\n>");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    port: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stream: () => received.join(""),
    /** Every line the board got, the tool's questions included. */
    lines: () => lines,
    /** The files it holds now, in Storage order. */
    files,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** A stand-in CLI: prints `lines`, exits with `code`, writes nothing. */
function fakeCli(name: string, lines: string[], code = 0): string {
  const cli = join(dir, `${name}.cjs`);
  writeFileSync(cli, `${lines.map((l) => `console.log(${JSON.stringify(l)});`).join("")} process.exit(${code});\n`);
  return cli;
}

describe("npm run flash with a board", () => {
  it("checks the board, uploads the bundle and the tables, loads it, and verifies each file's length and CRC-32", async () => {
    const board = await standInBoard();
    try {
      const r = await flashQuietly({ port: board.port, outDir: join(dir, "tcp") });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain("Upload Complete");
      expect(r.text).toContain("board: Espruino 2v29 on PICO_R1_3; Storage 49152 bytes, 49152 free, 0 trash, 0 files");
      const stream = board.stream();
      expect(stream).toContain("\x10reset();\n");
      const { files, loaded } = replayUpload(stream);
      expect(files.get(".bootcde")!.toString("latin1")).toBe(readFileSync(r.bundle, "latin1"));
      expect(loaded).toEqual([""]);
      expect(stream).not.toContain("save()");
      // the tables that fit in .bootcde's last page, and the pad exactly when today's bundle does not end on a page
      expect(r.padBytes).toBe(bootPad(BOARDS.pico, r.bundleBytes, solverTablesFor(5)) ?? undefined);
      expect(r.verified!.map((v) => v.name)).toEqual(flashOrder(r.bundleBytes));
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files.map((f) => f.name)).toEqual(flashOrder(r.bundleBytes));
      const boot = bootLayout(r.bundleBytes, solverTablesFor(5), 16384);
      expect(r.layout!.files[1 + boot.inPage.length + (boot.pad === null ? 0 : 1)].offset % 16384).toBe(0);
      expect(r.text).toMatch(/layout: \.bootcde at 0, .*: \.bootcde starts Storage and the next file a 16384-byte flash page/);
      expect(r.verified![0]).toEqual({ name: ".bootcde", bytes: r.bundleBytes, crc32: crc32(readFileSync(r.bundle)) });
      const listed = flashOrder(r.bundleBytes).map((name) => `${name.replace(/[.+]/g, "\\$&")} \\d+ bytes crc32 [0-9a-f]+`);
      expect(r.text).toMatch(new RegExp(`verified: ${listed.join(", ")}`));
      expect(r.text).toContain("done: r1-pico runs from .bootcde");
    } finally {
      await board.close();
    }
  });

  it("fails verification, naming the file, when what the board stored differs from what was sent", async () => {
    const board = await standInBoard({ lose: "bb.t.race+" });
    try {
      await expect(flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "lost") })).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/verification failed[\s\S]*bb\.t\.race\+: not in the board's Storage[\s\S]*--erase/),
      });
    } finally {
      await board.close();
    }
  });

  it("refuses an Espruino older than 2v29 and says how to update the Pico", async () => {
    const board = await standInBoard({ report: { v: "2v19" } });
    try {
      await expect(flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "old") })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/runs Espruino 2v19; the firmware needs 2v29 or later[\s\S]*Web IDE/),
      });
      expect(board.stream()).not.toContain('Storage").write');
    } finally {
      await board.close();
    }
  });

  it("refuses a board other than the profile's", async () => {
    const board = await standInBoard({ report: { b: "ESP32" } });
    try {
      await expect(flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "other") })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining("the board says it is ESP32, but profile r1-pico is for the Espruino Pico"),
      });
    } finally {
      await board.close();
    }
  });

  it("measures the board's Storage: refuses when other files leave no room, naming them and --erase; --erase erases first", async () => {
    const full = { f: 9000, x: 0, l: [["old-game.json", 30000]] };
    const board = await standInBoard({ report: full });
    try {
      await expect(flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "full") })).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/Storage has no room[\s\S]*"old-game\.json" \(30000 bytes\)[\s\S]*--erase/),
      });
      expect(board.stream()).not.toContain("eraseAll");
    } finally {
      await board.close();
    }
    // --erase erases all of it (the stand-in's Storage is empty after eraseAll), then writes into empty Storage.
    const again = await standInBoard({ report: full });
    try {
      const r = await flashQuietly({ port: again.port, bundle: DEFAULT_OUT, outDir: join(dir, "full2"), erase: true });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain("erasing the board's whole Storage (--erase)");
      expect(r.layout).toMatchObject({ protected: true });
    } finally {
      await again.close();
    }
  });

  it("compacts first when the files fit only in the room the trash takes", async () => {
    // A file the tool does not write keeps Storage from being erased first: the trash is all the room there is (with
    // the tables, the firmware and the 4 KB for saves leave a few dozen bytes of the Pico's 48 KB for other files).
    const board = await standInBoard({ report: { f: 20000, x: 29120, l: [["notes.txt", 32]] } });
    try {
      const r = await flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "trash") });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain("compacting the board's Storage first");
    } finally {
      await board.close();
    }
  });

  it("erases a Storage that holds only files it writes (and trash) first, so that .bootcde starts Storage with the pad after it", async () => {
    const bundle = join(dir, "reflash.js");
    writeFileSync(bundle, `var s="${"z".repeat(9000)}";\n`);
    const board = await standInBoard({
      report: {
        f: 2000,
        x: 4000,
        l: [
          [".bootcde", 30000],
          [PAD_FILE, 2700],
          ["bb.t.race+", 6497],
          ["bb.t.race", 843],
        ],
      },
    });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "reflash") });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain(
        "erasing the board's Storage first: it holds only files this flash writes (.bootcde, .bbpad, bb.t.race+, bb.t.race)",
      );
      const boot = bootLayout(9010, solverTablesFor(5), 16384);
      expect(r.padBytes).toBe(boot.pad);
      expect(r.verified!.map((v) => v.name)).toEqual(flashOrder(9010));
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files[2 + boot.inPage.length]).toEqual({ name: boot.rest[0].name, offset: 16384, bytes: boot.rest[0].bytes.length });
    } finally {
      await board.close();
    }
  });

  it("a locked console is refused with the recovery: the Pico's button just after plugging in", async () => {
    const board = await standInBoard({ locked: true });
    try {
      await expect(flashQuietly({ port: board.port, bundle: DEFAULT_OUT, outDir: join(dir, "locked") })).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/console is locked[\s\S]*press its button just after plugging in/),
      });
    } finally {
      await board.close();
    }
  });

  it("nothing listening on the port: exit 2, saying to start the console", async () => {
    const board = await standInBoard();
    const port = board.port;
    await board.close();
    await expect(flashQuietly({ port, bundle: DEFAULT_OUT, outDir: join(dir, "nobody") })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/nothing is listening on tcp:\/\/127\.0\.0\.1:\d+: start the console first/),
    });
  });

  it("stops a CLI that never finishes and explains the short-upload bug", async () => {
    const board = await standInBoard();
    const hang = join(dir, "hang.cjs");
    writeFileSync(hang, "setInterval(() => {}, 1000);\n");
    const small = join(dir, "small.js");
    writeFileSync(small, 'print("hi");\n');
    try {
      const attempt = flashQuietly({ port: board.port, bundle: small, cli: hang, timeoutS: 1, outDir: join(dir, "hang") });
      await expect(attempt).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/did not finish within 1 s[\s\S]*never reports uploads of 512 bytes or less as done/),
      });
    } finally {
      await board.close();
    }
  });

  it("fails when the firmware reports an error as it starts, although the upload completed and verified", async () => {
    const board = await standInBoard();
    const real = espruinoCli();
    // The real CLI uploads; then the stand-in CLI's line is what a failing firmware prints.
    const cli = join(dir, "uncaught.cjs");
    writeFileSync(
      cli,
      `const r = require("child_process").spawnSync(process.execPath, [${JSON.stringify(real)}, ...process.argv.slice(2)], { stdio: "inherit" });` +
        'console.log("--] Uncaught ReferenceError: \\"setDeepSleep\\" is not defined"); process.exit(r.status);\n',
    );
    try {
      const r = await flashQuietly({ port: board.port, cli, bundle: DEFAULT_OUT, outDir: join(dir, "uncaught"), noTables: true });
      expect(r.exitCode).toBe(1);
      expect(r.verified?.map((v) => v.name)).toEqual([".bootcde", ...(r.padBytes === undefined ? [] : [PAD_FILE])]);
      expect(r.text).toContain("flash failed: the firmware reported an error when it started");
    } finally {
      await board.close();
    }
  });

  it("fails when the CLI could not open the port or the board overflowed, although the CLI exits 0", async () => {
    const board = await standInBoard();
    try {
      for (const [line, why] of [
        ["Unable to connect!", "the CLI could not open the port"],
        ["--] FIFO_FULL", "the board's input buffer overflowed (FIFO_FULL)"],
        ["--] Uncaught Error: Unable to find or create file", "the board's Storage had no room for a file"],
      ]) {
        const attempt = flashQuietly({
          port: board.port,
          cli: fakeCli("fails", [line]),
          bundle: DEFAULT_OUT,
          outDir: join(dir, "unable"),
          noTables: true,
        });
        await expect(attempt).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining(`upload failed: ${why}`) });
      }
    } finally {
      await board.close();
    }
  });
});

describe("npm run flash carries the saved game across the flash", () => {
  /** A Brainiac match against the unit, two rows into a game, as the current firmware saved it. */
  let match: ReturnType<typeof playedMatch>;
  /** A bundle whose .bootcde does not end on a flash page: it gets the pad. */
  let bundle: string;
  const TABLE_NAMES = solverTablesFor(5).map((t) => t.name);
  beforeAll(() => {
    match = playedMatch(UNIT_MAKES, 2);
    bundle = join(dir, "carry.js");
    writeFileSync(bundle, `var s="${"c".repeat(20_000)}";\n`);
  });
  const seqOf = (text: string) => (decodeSlot(text, saveCrc) as Slot).seq;
  /** What the tool should call the match a slot holds: its game number is the games played so far, plus one. */
  const whatOf = (text: string) =>
    `Brainiac match, game ${(expandKeys((decodeSlot(text, saveCrc) as Slot).data) as SavedState).match!.history.length + 1} of 2`;
  const OLD_FIRMWARE = `print("old firmware");/*${"o".repeat(600)}*/`;

  it("reads the slots, erases Storage, writes .bootcde, the pad, the tables, then the slots as they were (names and sequences), and reads them back", async () => {
    const slots = match.slots;
    expect(Object.keys(slots)).toEqual(["bb.s0", "bb.s1"]);
    // An old unit: flashed before the pad (tables first, .bootcde last), then played.
    const board = await standInBoard({
      files: { "bb.t.race+": "t".repeat(6497), ".bootcde": OLD_FIRMWARE, "bb.s0": slots["bb.s0"], "bb.s1": slots["bb.s1"] },
    });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "carry") });
      expect(r.exitCode, r.text).toBe(0);
      // In this order: the running firmware stopped (timers, watches, handlers), both slots read (base64), Storage erased, then the upload.
      const lines = board.lines();
      const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
      const reads = lines.filter((l) => /btoa\(require\("Storage"\)\.read\("bb\.s[01]"/.test(l));
      expect(reads.length).toBeGreaterThanOrEqual(2);
      expect(at(/clearInterval\(\);clearWatch\(\);E\.removeAllListeners\(\)/)).toBeLessThan(at(/btoa/));
      expect(at(/btoa/)).toBeLessThan(at(/eraseAll/));
      expect(at(/eraseAll/)).toBeLessThan(at(/Storage"\)\.write\("\.bootcde"/));
      const { files, loaded } = replayUpload(board.stream());
      expect([...files.keys()]).toEqual([...flashOrder(readFileSync(bundle).length), "bb.s0", "bb.s1"]);
      for (const n of ["bb.s0", "bb.s1"]) expect(files.get(n)!.toString("latin1"), n).toBe(slots[n]);
      expect(loaded).toEqual([""]); // the upload starts the firmware, as without saves
      // Read back like every other file, and laid out after the tables: .bootcde stays out of compaction's way.
      expect(r.verified!.slice(-2)).toEqual(
        ["bb.s0", "bb.s1"].map((n) => ({ name: n, bytes: slots[n].length, crc32: crc32(Buffer.from(slots[n], "latin1")) })),
      );
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files.map((f) => f.name)).toEqual([...flashOrder(readFileSync(bundle).length), "bb.s0", "bb.s1"]);
      // .bootcde ends 20,044 bytes in: tables and the pad fill the second page
      const padAt = r.layout!.files.findIndex((f) => f.name === PAD_FILE);
      expect(r.layout!.files[padAt + 1].offset).toBe(32768);
      expect(r.saves).toEqual({
        kept: ["bb.s0", "bb.s1"].map((n) => ({ name: n, seq: seqOf(slots[n]), format: 2, upgraded: false, what: whatOf(slots[n]) })),
        dropped: [],
      });
      expect(r.text).toContain(`kept the saved game: bb.s0 (${whatOf(slots["bb.s0"])}; save ${seqOf(slots["bb.s0"])}), bb.s1 (`);
      expect(r.text).toMatch(/solver tables \(\d+ bytes: [^)]*\), then the saved game \(bb\.s0, bb\.s1\)/);
    } finally {
      await board.close();
    }
  });

  it("brings a format-1 slot up to format 2 (same name and sequence) and names a corrupt one it does not keep; a game that locks the console is started by the tool after the read-back", async () => {
    const corrupt = OLD_SAVE.replace("|41226|", "|41227|");
    const board = await standInBoard({ files: { ".bootcde": OLD_FIRMWARE, "bb.s0": corrupt, "bb.s1": OLD_SAVE }, lockAfterLoad: true });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "carry-old") });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain("warning: bb.s0: checksum mismatch, not kept");
      const { files, loaded } = replayUpload(board.stream());
      expect([...files.keys()]).toEqual([...flashOrder(readFileSync(bundle).length), "bb.s1"]);
      const upgraded = files.get("bb.s1")!.toString("latin1");
      expect(upgraded).toBe(upgradeSlot(OLD_SAVE, saveCrc));
      // what the unit reads: format 2, the same sequence, the game as it was (phase by number)
      expect(upgraded.startsWith("BB2|5|")).toBe(true);
      const slot = decodeSlot(upgraded, saveCrc) as Slot;
      expect((expandKeys(slot.data) as SavedState).match?.game).toMatchObject({ secret: [5, 4, 3, 2], phase: PHASE_GUESS });
      expect(r.saves).toEqual({
        kept: [{ name: "bb.s1", seq: 5, format: 1, upgraded: true, what: "Brainiac match, game 1 of 4" }],
        dropped: [{ name: "bb.s0", problem: "checksum mismatch" }],
      });
      expect(r.text).toContain("kept the saved game: bb.s1 (Brainiac match, game 1 of 4; save 5, brought up from format 1 to 2)");
      // A referee game holding its secret: the unit locks its console as it resumes it. The upload does not start the
      // firmware; the tool does, after the read-back (which a locked console would refuse).
      expect(loaded).toEqual([]);
      const lines = board.lines();
      const verify = lines.findIndex((l) => /return \["\.bootcde"/.test(l));
      const load = lines.findIndex((l) => /load\(\)/.test(l));
      expect(verify).toBeGreaterThan(0);
      expect(load).toBeGreaterThan(verify);
      expect(r.text).toContain("started the firmware after reading back what was written");
      expect(r.layout).toMatchObject({ protected: true });
    } finally {
      await board.close();
    }
  });

  it("keeps files the tool does not write, with no pad and a warning naming them; the saved game still goes after the tables", async () => {
    const slot = match.slots["bb.s1"];
    const board = await standInBoard({
      files: { "notes.txt": "n".repeat(500), ".bootcde": OLD_FIRMWARE, [PAD_FILE]: "\0".repeat(7000), "bb.s1": slot },
    });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "carry-others") });
      expect(r.exitCode, r.text).toBe(0);
      expect(board.lines().some((l) => l.includes("eraseAll"))).toBe(false);
      expect(r.padBytes).toBeUndefined();
      expect(board.stream()).not.toContain(`require("Storage").write(".bbpad"`);
      expect(r.text).toMatch(
        /warning: the board's Storage holds files this tool does not write \(notes\.txt\), kept as they are;[\s\S]*flash with --erase: it erases those files, and the saved game too/,
      );
      expect([...board.files().keys()]).toEqual(["notes.txt", ".bootcde", ...TABLE_NAMES, "bb.s1"]);
      expect(board.files().get("bb.s1")!.toString("latin1")).toBe(slot);
      expect(r.saves?.kept.map((k) => k.name)).toEqual(["bb.s1"]);
      expect(r.layout).toMatchObject({ protected: false });
      expect(r.text).toMatch(
        /warning: the firmware is not out of compaction's way: \.bootcde does not start Storage \(notes\.txt comes first\)/,
      );
    } finally {
      await board.close();
    }
  });

  it("--erase erases everything, the saved game included, and says so", async () => {
    const board = await standInBoard({
      files: { "notes.txt": "n".repeat(500), ".bootcde": OLD_FIRMWARE, "bb.s0": match.slots["bb.s0"], "bb.s1": match.slots["bb.s1"] },
    });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "carry-erase"), erase: true });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.text).toContain("erasing the board's whole Storage (--erase), the saved game (bb.s0, bb.s1) included and notes.txt");
      // The saved game is read and copied to disk before the erase, and not written back.
      expect(r.savesBackup).toBeTruthy();
      for (const n of ["bb.s0", "bb.s1"]) expect(readFileSync(join(r.savesBackup!, n), "latin1")).toBe(match.slots[n]);
      expect(r.text).toContain("--erase erased the saved game from the board; its copy is in");
      expect([...board.files().keys()]).toEqual(flashOrder(readFileSync(bundle).length));
      expect(r.saves).toEqual({ kept: [], dropped: [] });
      expect(r.layout).toMatchObject({ protected: true });
    } finally {
      await board.close();
    }
  });

  it("a slot that does not read back intact after the upload fails the flash, naming it; the tool writes it back through the console", async () => {
    const slots = match.slots;
    const board = await standInBoard({
      files: { ".bootcde": OLD_FIRMWARE, "bb.s0": slots["bb.s0"], "bb.s1": slots["bb.s1"] },
      lose: "bb.s1",
    });
    try {
      await expect(flashQuietly({ port: board.port, bundle, outDir: join(dir, "carry-lost") })).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(
          /verification failed[\s\S]*bb\.s1: not in the board's Storage[\s\S]*the saved game: bb\.s0 is on the board intact; bb\.s1 was written back/,
        ),
      });
      expect(board.files().get("bb.s1")!.toString("latin1")).toBe(slots["bb.s1"]);
    } finally {
      await board.close();
    }
  });

  it("--help says that --erase erases the saved game, and that without it the saved game is carried", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "firmware/tools/flash.ts", "--help"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--erase +erase the board's whole Storage first: everything on it is lost, the saved game included/);
    expect(r.stdout).toMatch(/without it the saved game, bb\.s0 and bb\.s1, is carried across the flash/);
  });
});

describe("the simulator's flash carries the saved game as npm run flash does", () => {
  const v2 = () => firmwareBundle() + "\n//v2\n";
  const upgradeSim = (t: string) => upgradeSlot(t, saveCrc)!;

  it("re-flashing a unit in the middle of a match: the same Storage as the tool's upload, and the unit resumes the match", () => {
    const played = playedMatch(UNIT_MAKES, 2);
    const unit = played.unit;
    unit.powerOff();
    unit.flash(v2());
    const tables = solverTablesFor(5);
    const order = [...flashOrder(v2().length), "bb.s0", "bb.s1"];
    expect(unit.storage.list()).toEqual(order);
    for (const n of ["bb.s0", "bb.s1"]) expect(unit.storage.readString(n), n).toBe(played.slots[n]);
    // What the tool would send for it (its files, then the slots it keeps), played into empty Storage: the same layout.
    const kept = ["bb.s0", "bb.s1"].map((n) => keepSlot(n, played.slots[n], saveCrc) as KeptSlot);
    const storage = new VirtualStorage({ capacity: BOARDS.pico.storageBytes, pageBytes: BOARDS.pico.storagePageBytes });
    replayUpload(uploadScript([...flashFiles(bytesFromString(v2()), tables, BOARDS.pico, true), ...slotFiles(kept)]), storage);
    expect(unit.storage.layout()).toEqual(storage.layout());
    // with the pad (when it fits: a bundle of at most 32,700 bytes), the tables start a flash page
    if (bootPad(BOARDS.pico, v2().length, tables) !== null) expect(afterBootAndPad(unit) % 16384).toBe(0);
    unit.powerOn();
    unit.advance(500);
    expect(unit.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
    expect(unit.errors).toEqual([]);
    expect(unit.colours("board").slice(0, 10)).toEqual(played.board.slice(0, 10));
    expect(unit.colours("keys").slice(0, 10)).toEqual(played.keys.slice(0, 10));
  });

  it("brings a format-1 save up to format 2, drops a corrupt one with a warning, and the unit resumes the game", () => {
    const unit = new VirtualBoard({ firmware: firmwareBundle() });
    unit.storage.write("bb.s0", OLD_SAVE.replace("|41226|", "|41227|"));
    unit.storage.write("bb.s1", OLD_SAVE);
    unit.flash(v2());
    expect(unit.warnings).toContain("flash: bb.s0: checksum mismatch, not kept");
    expect(unit.storage.list().at(-1)).toBe("bb.s1");
    expect(unit.storage.has("bb.s0")).toBe(false);
    expect(unit.storage.readString("bb.s1")).toBe(upgradeSim(OLD_SAVE));
    unit.powerOn();
    unit.advance(500);
    expect(unit.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
    expect(unit.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
    expect(unit.consoleLocked).toBe(true);
  });

  it("brings format 2's settings as a list (as the firmwares before the named settings wrote them, under the same BB2 header) up to date, and the unit resumes the game", () => {
    const listed = listedSettingsSave();
    expect((decodeSlot(listed, saveCrc) as Slot).data).toMatchObject({ p: LISTED_SETTINGS });
    const kept = keepSlot("bb.s1", listed, saveCrc) as KeptSlot;
    expect(kept).toMatchObject({ seq: 5, format: 2, upgraded: true, locksConsole: true });
    expect(kept.text).toBe(upgradeSim(OLD_SAVE)); // the same as format 1 brought up: the settings by name
    // a current save is carried as it is
    expect(keepSlot("bb.s1", kept.text, saveCrc)).toMatchObject({ text: kept.text, upgraded: false });
    const unit = new VirtualBoard({ firmware: firmwareBundle() });
    unit.storage.write("bb.s1", listed);
    unit.flash(v2());
    expect(unit.storage.readString("bb.s1")).toBe(kept.text);
    unit.powerOn();
    unit.advance(500);
    expect(unit.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
    expect(unit.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
  });

  it("keeps files the tool does not write, then .bootcde goes after them without the pad; flashing the same firmware again changes nothing", () => {
    const unit = new VirtualBoard({ firmware: firmwareBundle() });
    const before = unit.storage.layout();
    unit.flash(firmwareBundle());
    expect(unit.storage.layout()).toEqual(before);
    unit.storage.write("notes.txt", "n".repeat(500));
    unit.storage.write("bb.s1", OLD_SAVE);
    unit.flash(v2());
    expect(unit.storage.list()).toEqual(["notes.txt", ".bootcde", ...solverTablesFor(5).map((t) => t.name), "bb.s1"]);
    expect(unit.warnings.some((w) => w.includes("Storage holds files npm run flash does not write (notes.txt)"))).toBe(true);
  });
});

describe("problems before flashing are refused with what to do (exit code 2)", () => {
  it("no --port", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "firmware/tools/flash.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no --port given: name the board's serial port, e.g. npm run flash -- --port /dev/ttyACM0");
    expect(r.stderr).toContain("npx espruino --list --no-ble");
    expect(r.stderr).toContain("needs udevadm");
  });

  it("no --port, naming the serial ports that are present", async () => {
    const dev = join(dir, "dev");
    mkdirSync(dev, { recursive: true });
    writeFileSync(join(dev, "ttyACM0"), "");
    writeFileSync(join(dev, "ttyS0"), "");
    await expect(flash({ devDir: dev })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(`serial ports present now: ${join(dev, "ttyACM0")}\n`),
    });
  });

  it("a port that does not exist", () => {
    expect(() => checkPort("/dev/ttyBRAINBOARD9", { hasModule: () => true })).toThrow(
      /port \/dev\/ttyBRAINBOARD9 not found: is the board plugged in/,
    );
  });

  it("the optional serialport dependency missing", () => {
    expect(() => checkPort("/dev/ttyACM0", { hasModule: () => false })).toThrow(
      /needs its optional dependency `serialport`[\s\S]*npm install/,
    );
  });

  it("a file that is not a serial device", () => {
    const file = join(dir, "not-a-tty");
    writeFileSync(file, "");
    expect(() => checkPort(file, { hasModule: () => true })).toThrow(/is not a serial device/);
  });

  it("udevadm missing on Linux, which the CLI needs even for a named port", () => {
    const attempt = () => checkPort("/dev/null", { hasModule: () => true, hasCommand: () => false, platform: "linux" });
    expect(attempt).toThrow(/udevadm is missing[\s\S]*apt-get install udev/);
    expect(checkPort("/dev/null", { hasModule: () => true, hasCommand: () => false, platform: "darwin" })).toBe("/dev/null");
  });

  it("a network port skips the serial checks", () => {
    expect(checkPort("tcp://192.168.1.50", { hasModule: () => false })).toBe("tcp://192.168.1.50");
  });

  it("an oversized bundle exits 1 from the command line", () => {
    const big = join(dir, "big-cli.js");
    writeFileSync(big, `var s="${"x".repeat(40 * 1024)}";\n`);
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "firmware/tools/flash.ts", "--dry-run", "--bundle", big, "--out-dir", join(dir, "cli")],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/over the Storage budget/);
  });
});
