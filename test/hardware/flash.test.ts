/**
 * npm run flash: the dry run writes the very Storage upload of the bundle without a board or network; the real
 * path is run against a recording stand-in board over tcp://; and each problem before flashing is refused with
 * what to do and the documented exit code. The files go into Storage in the order .bootcde, the page-aligning pad,
 * the tables (so that no compaction rewrites .bootcde's pages: test/security/compaction.test.ts), as the
 * simulator's own flash writes them.
 */
import { bootPad, bootPadBytes, solverTablesFor, storageUse } from "../../firmware/tools/tables.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { BOARDS, PAD_FILE, pageAlignPad, storageFootprint } from "../../hardware/boards.ts";
import { VirtualBoard } from "../../sim/board.ts";
import { VirtualStorage } from "../../sim/storage.ts";
import { replayUpload } from "./replay.ts";
import { listProfiles } from "../../hardware/profile.ts";
import { DEFAULT_OUT, ROOT } from "../../firmware/tools/build.ts";
import {
  checkPort,
  checkStorageFit,
  espruinoCli,
  flash,
  flashFiles,
  FlashError,
  padRefusal,
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
    expect(upload.trimEnd().endsWith("\nload()")).toBe(true);
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
    expect(r.text).toMatch(/then 6 solver tables \(\d+ bytes: bb\.t\.brainiac, .*\); \d+ of 49152 bytes of Storage used/);
  });

  it("writes only the four-hole tables for the mini build, and none with --no-tables", async () => {
    const mini = await flashQuietly({ dryRun: true, profile: "mini-pico", outDir: join(dir, "dry-mini") });
    expect(mini.tables?.map((t) => t.name)).toEqual(["bb.t.brainiac", "bb.t.brainiac+", "bb.t.travel", "bb.t.travel+"]);
    const bare = await flashQuietly({ dryRun: true, noTables: true, outDir: join(dir, "dry-bare") });
    expect(bare.tables).toEqual([]);
    expect([...replayUpload(readFileSync(bare.upload!, "latin1")).files.keys()]).toEqual([".bootcde"]);
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

  it("counts the pad; when it would leave too little Storage (a .bootcde ending in the Pico's last page) the firmware goes without it, with a warning", async () => {
    const tables = solverTablesFor(5);
    const tableFootprints = tables.reduce((n, t) => n + storageFootprint(t.bytes.length), 0);
    // 30000 bytes: .bootcde takes 30032, the pad fills the page to 32768, the tables follow
    expect(bootPad(BOARDS.pico, 30000, tables)).toBe(32768 - 30032 - 32);
    expect(checkStorageFit(BOARDS.pico, 30000, tables)).toBe(32768 + tableFootprints);
    expect(padRefusal(BOARDS.pico, 30000, tables)).toBeNull();
    // The largest that gets it: 32700 bytes (the smallest pad, 36 bytes), and 32733 to 32736 (none needed).
    expect(bootPad(BOARDS.pico, 32700, tables)).toBe(4);
    expect(bootPad(BOARDS.pico, 32704, tables)).toBeNull(); // 32 bytes left: the pad would take the third page too
    expect(bootPadBytes(32734, 16384)).toBeNull();
    // 32737 bytes end 4 bytes into the Pico's last page: the pad would fill all of it, so there is none
    for (const size of [32704, 32737]) {
      expect(bootPad(BOARDS.pico, size, tables)).toBeNull();
      expect(checkStorageFit(BOARDS.pico, size, tables)).toBe(storageFootprint(size) + tableFootprints);
      expect(padRefusal(BOARDS.pico, size, tables)).toMatch(
        /warning: \.bootcde \(\d+ bytes\) does not end on a 16384-byte flash page[\s\S]*flashing without it[\s\S]*at most 32,700 bytes/,
      );
    }
    const bundle = join(dir, "too-big-for-a-pad.js");
    writeFileSync(bundle, `var s="${"p".repeat(32737 - 10)}";\n`);
    const r = await flashQuietly({ dryRun: true, bundle, outDir: join(dir, "dry-nopad") });
    expect(r.exitCode, r.text).toBe(0);
    expect(r.padBytes).toBeUndefined();
    expect(r.text).toContain("flashing without it, so a Storage compaction can rewrite the firmware's last page");
  });

  it("writes .bootcde, then the page-aligning pad, then the tables, so that the tables start a flash page; the simulator flashes the same", async () => {
    // A bundle whose .bootcde does not end on a page (whatever the size of today's firmware)
    const bundle = join(dir, "unaligned.js");
    writeFileSync(bundle, `var s="${"y".repeat(20_000)}";\n`); // 20010 bytes: .bootcde ends 20044 bytes in
    const bytes = readFileSync(bundle).length;
    const pad = pageAlignPad(storageFootprint(bytes), 16384)!;
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
    const order = [".bootcde", PAD_FILE, ...solverTablesFor(5).map((t) => t.name)];
    expect([...files.keys()]).toEqual(order);
    expect(storage.list()).toEqual(order);
    expect(new Uint8Array(files.get(PAD_FILE)!)).toEqual(new Uint8Array(pad));
    const layout = storage.layout();
    expect(layout[0]).toMatchObject({ name: ".bootcde", addr: 0 });
    expect(layout[2]).toMatchObject({ name: "bb.t.brainiac", addr: 32768 });
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
    expect(files.get(".bootcde")!.toString("latin1")).toContain(`id:"${id}"`);
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
    expect(unpadded).toMatchObject({ protected: false, why: expect.stringContaining("starts at 30032, not on a boundary") });
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
 * the flash tool's own questions (board-console.ts): its report from `report` (after an eraseAll, an empty Storage;
 * after an upload, the files it had that the upload did not write, then those it wrote, in Storage order), and the
 * read-back from the Storage writes it has seen. `locked` plays a locked console (a password prompt to every line).
 */
async function standInBoard(opts: { report?: Record<string, unknown>; locked?: boolean; lose?: string } = {}) {
  const received: string[] = [];
  const report = { v: "2v29", b: "PICO_R1_3", t: 49152, f: 49152, x: 0, l: [] as [string, number][], ...opts.report };
  const now = () => {
    if (!received.some((l) => l.includes('require("Storage").write('))) return report;
    const { files } = replayUpload(received.join(""));
    const l = [...report.l.filter(([n]) => !files.has(n)), ...[...files].map(([n, b]): [string, number] => [n, b.length])];
    return { ...report, l, x: 0, f: report.t - l.reduce((sum, [, len]) => sum + storageFootprint(len), 0) };
  };
  const server = createServer((socket) => {
    let pending = "";
    socket.on("data", (d) => {
      const text = d.toString("latin1");
      if (opts.locked) return void socket.write("\r\npassword>");
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (!line.includes('"<"+"<BB"')) {
          received.push(line + "\n");
          socket.write("\r\n>");
          continue;
        }
        let answer: unknown = now();
        const names = /return (\[[^\]]*\])\.map/.exec(line);
        if (names) {
          const { files } = replayUpload(received.join(""));
          if (opts.lose) files.delete(opts.lose);
          answer = (JSON.parse(names[1]) as string[]).map((n) => (files.has(n) ? [files.get(n)!.length, crc32(files.get(n)!)] : null));
        } else if (line.includes("eraseAll")) {
          Object.assign(report, { l: [], f: report.t, x: 0 });
          answer = 1;
        } else if (line.includes("compact")) answer = 1;
        socket.write(`<<BB ${JSON.stringify(answer)} BB>>\r\n>`);
      }
      if (text.includes("\x03")) socket.write("\r\n>");
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    port: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stream: () => received.join(""),
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
      // the pad is there exactly when today's bundle does not end on a page
      const pad = r.padBytes === undefined ? [] : [PAD_FILE];
      expect(r.padBytes).toBe(bootPad(BOARDS.pico, r.bundleBytes, solverTablesFor(5)) ?? undefined);
      expect(r.verified!.map((v) => v.name)).toEqual([".bootcde", ...pad, ...solverTablesFor(5).map((t) => t.name)]);
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files.map((f) => f.name)).toEqual([".bootcde", ...pad, ...solverTablesFor(5).map((t) => t.name)]);
      expect(r.layout!.files[1 + pad.length].offset % 16384).toBe(0);
      expect(r.text).toMatch(/layout: \.bootcde at 0, .*: \.bootcde starts Storage and the next file a 16384-byte flash page/);
      expect(r.verified![0]).toEqual({ name: ".bootcde", bytes: r.bundleBytes, crc32: crc32(readFileSync(r.bundle)) });
      expect(r.text).toMatch(/verified: \.bootcde \d+ bytes crc32 [0-9a-f]+, bb\.t\.brainiac/);
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
    const board = await standInBoard({ report: { f: 20000, x: 28000, l: [["bb.s0", 600]] } });
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
      expect(r.padBytes).toBe(pageAlignPad(storageFootprint(9010), 16384));
      expect(r.verified!.map((v) => v.name).slice(0, 2)).toEqual([".bootcde", PAD_FILE]);
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files[2]).toEqual({ name: "bb.t.brainiac", offset: 16384, bytes: solverTablesFor(5)[0].bytes.length });
    } finally {
      await board.close();
    }
  });

  it("keeps other files (a saved match) and then writes no pad, warning that .bootcde is not out of compaction's way until --erase", async () => {
    const bundle = join(dir, "kept.js");
    writeFileSync(bundle, `var s="${"k".repeat(9000)}";\n`);
    const board = await standInBoard({
      report: {
        f: 40000,
        l: [
          ["bb.s0", 610],
          ["bb.s1", 612],
          [PAD_FILE, 7000],
        ],
      },
    });
    try {
      const r = await flashQuietly({ port: board.port, bundle, outDir: join(dir, "kept") });
      expect(r.exitCode, r.text).toBe(0);
      expect(r.padBytes).toBeUndefined();
      expect(board.stream()).not.toContain(`require("Storage").write(".bbpad"`);
      expect(r.text).toMatch(
        /warning: the board's Storage holds other files \(bb\.s0, bb\.s1\), kept as they are;[\s\S]*flash with --erase/,
      );
      expect(r.layout).toMatchObject({ protected: false });
      expect(r.text).toMatch(
        /warning: the firmware is not out of compaction's way: \.bootcde does not start Storage \(bb\.s0 comes first\)/,
      );
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
      expect(r.verified?.map((v) => v.name)).toEqual([".bootcde"]);
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
