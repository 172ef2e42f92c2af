/**
 * npm run flash with a board: the real path run against a recording stand-in board over tcp:// (flash-tool.ts
 * standInBoard): the board checked, the upload, the read-back of each file's length and CRC-32, and each failure of
 * the board, the CLI or the link named with what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { bootLayout, bootPad, solverTablesFor } from "../../firmware/tools/tables.ts";
import { BOARDS, PAD_FILE } from "../../hardware/boards.ts";
import { replayUpload } from "./replay.ts";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { espruinoCli } from "../../firmware/tools/flash.ts";
import { fakeCli, flashOrder, flashQuietly, imageOf, standInBoard, writeBundleOfImage } from "./flash-tool.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-flash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
      expect(new Uint8Array(files.get(".bootcde")!)).toEqual(imageOf(readFileSync(r.bundle, "latin1")));
      expect(loaded).toEqual([""]);
      expect(stream).not.toContain("save()");
      // the tables that fit in .bootcde's last page, and the pad exactly when today's bundle does not end on a page
      expect(r.padBytes).toBe(bootPad(BOARDS.pico, r.imageBytes, solverTablesFor(5)) ?? undefined);
      expect(r.verified!.map((v) => v.name)).toEqual(flashOrder(r.imageBytes));
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files.map((f) => f.name)).toEqual(flashOrder(r.imageBytes));
      const boot = bootLayout(r.imageBytes, solverTablesFor(5), 16384);
      expect(r.layout!.files[1 + boot.inPage.length + (boot.pad === null ? 0 : 1)].offset % 16384).toBe(0);
      expect(r.text).toMatch(/layout: \.bootcde at 0, .*: \.bootcde starts Storage and the next file a 16384-byte flash page/);
      expect(r.verified![0]).toEqual({ name: ".bootcde", bytes: r.imageBytes, crc32: crc32(readFileSync(r.image)) });
      const listed = flashOrder(r.imageBytes).map((name) => `${name.replace(/[.+]/g, "\\$&")} \\d+ bytes crc32 [0-9a-f]+`);
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
    const bundle = writeBundleOfImage(join(dir, "reflash.js"), 9010, "z");
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
          cli: fakeCli(dir, "fails", [line]),
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
