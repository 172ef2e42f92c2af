/**
 * npm run flash against the real interpreter (Espruino for Linux where BRAINBOARD_ESPRUINO_DIR points, in a network
 * namespace of its own: real-espruino.ts): version, Storage, --erase, the read-back of the pretokenised image and the
 * tables, a locked console, nobody listening, where the files land in its flash (the file espruino.flash, read as
 * jsflash.c lays it out), and a saved game carried across a re-flash that the unit, booted from that flash, resumes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootLayout, bootPad, solverTablesFor } from "../../firmware/tools/tables.ts";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { BoardConsole } from "../../firmware/tools/board-console.ts";
import { ESPRUINO_MISSING, HAS_ESPRUINO, startRealEspruino, type RealEspruino } from "./real-espruino.ts";
import { BOOT_FILE } from "../../sim/board/board.ts";
import { BOARDS, PAD_FILE, storageFootprint } from "../../hardware/boards.ts";
import { OLD_SAVE } from "./saves.ts";
import { flash, saveCrc, type FlashResult } from "../../firmware/tools/flash.ts";
import { upgradeSlot } from "../../firmware/tools/save-upgrade.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { HAS_CLI, flashFilesInOrder as flashOrder, imageOf } from "./flash-tool.ts";

let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-real-flash-"));
  // Our own bundle, so that other runs rebuilding dist/ cannot change it under the test.
  bundle = (await buildFirmware({ profile: "r1-pico", out: join(dir, "firmware.js") })).out;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A firmware that runs on Espruino for Linux (which has no Pico pins): it notes that it booted. Over 512 bytes as
 * stored (pretokenised: the padding is a string, as a comment would be dropped), so the CLI finishes.
 */
const LINUX_FIRMWARE = `var bootedFrom = "brainboard-test";\nvar padding = "${"padding so the upload is over the CLI's 512-byte short-upload limit ".repeat(10)}";\n`;

/**
 * The files in the interpreter's flash, from its file espruino.flash (its Storage starts at the file's start: LINUX's
 * FLASH_SAVED_CODE_START is FLASH_START), read as src/jsflash.c lays them out: a 32-byte header (a size word whose
 * top byte holds flags, then the 0-padded 28-byte name; a replaced file's name starts with 4 zero bytes), then the
 * data, padded to 4 bytes; the first all-0xFF header ends them. Trash is left out.
 */
function readFlashFile(dir: string): { name: string; offset: number; size: number; flags: number }[] {
  const img = readFileSync(join(dir, "espruino.flash"));
  const files: { name: string; offset: number; size: number; flags: number }[] = [];
  for (let at = 0; at + 32 <= img.length;) {
    const word = img.readUInt32LE(at);
    if (word === 0xffffffff || word === 0) break;
    const size = word & 0xffffff;
    if (img.readUInt32LE(at + 4) !== 0)
      files.push({
        name: img
          .subarray(at + 4, at + 32)
          .toString("latin1")
          .replace(/\0.*$/s, ""),
        offset: at,
        size,
        flags: word >>> 24,
      });
    at += 32 + ((size + 3) & ~3);
  }
  return files;
}

describe.skipIf(!HAS_ESPRUINO || !HAS_CLI)(
  HAS_ESPRUINO && HAS_CLI
    ? "npm run flash against the real Espruino interpreter (espruino --telnet)"
    : `npm run flash against the real Espruino interpreter (skipped: ${HAS_CLI ? ESPRUINO_MISSING : "node_modules/espruino is not installed"})`,
  () => {
    let real: RealEspruino | undefined;
    afterEach(async () => {
      await real?.stop();
      real = undefined;
    });

    /** Asks the interpreter one question over its console. */
    async function ask<T>(port: string, expression: string): Promise<T> {
      const c = await BoardConsole.open(port);
      try {
        return await c.query<T>(expression);
      } finally {
        await c.close();
      }
    }

    it("writes R1's bundle and every solver table, and the board's own E.CRC32 agrees with each", async () => {
      real = await startRealEspruino();
      let text = "";
      const r = await flash({
        port: real.port,
        bundle,
        outDir: join(dir, "real"),
        timeoutS: 120,
        out: (t) => (text += t),
        err: (t) => (text += t),
      });
      expect(r.board).toMatchObject({ version: expect.stringMatching(/^2v29/), board: "LINUX", files: [] });
      const tables = solverTablesFor(5);
      // the tables in .bootcde's last page, and the pad exactly when this bundle's .bootcde does not end on one of the
      // Pico's 16 KB pages (and it fits), then the other tables
      const image = imageOf(readFileSync(bundle, "latin1"));
      expect(r.padBytes).toBe(bootPad(BOARDS.pico, image.length, tables) ?? undefined);
      // the pretokenised image read back byte for byte: length and the interpreter's own E.CRC32
      expect(r.verified).toEqual([...flashOrder(image).map((f) => ({ name: f.name, bytes: f.bytes.length, crc32: crc32(f.bytes) }))]);
      expect(r.layout).toMatchObject({ protected: true });
      // Espruino for Linux has no B15, so the firmware fails as it starts. The CLI quits 500 ms after the board's last
      // output, so whether that error reaches it depends on timing: when it does, the tool says so and exits 1.
      if (r.exitCode !== 0) {
        expect(text).toContain('Uncaught ReferenceError: "B15" is not defined');
        expect(text).toMatch(
          /flash failed: the firmware reported an error when it started \(see the output above\); the upload itself completed\n$/,
        );
      } else expect(text).toContain("done: r1-pico runs from .bootcde");
    });

    it("measures the free Storage first: a board too full is refused naming its files; --erase clears it, then the firmware is written, verified and runs", async () => {
      real = await startRealEspruino();
      const firmware = join(dir, "linux-firmware.js");
      writeFileSync(firmware, LINUX_FIRMWARE);
      expect(await ask(real.port, 'require("Storage").write("old-junk", new Uint8Array(255000))')).toBe(true);
      let text = "";
      const opts = {
        port: real.port,
        bundle: firmware,
        outDir: join(dir, "real-full"),
        timeoutS: 120,
        out: (t: string) => (text += t),
        err: (t: string) => (text += t),
      };
      await expect(flash(opts)).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/Storage has no room[\s\S]*"old-junk" \(255000 bytes\)[\s\S]*--erase/),
      });
      expect(await ask(real.port, 'require("Storage").list()')).toEqual(["old-junk"]);

      text = "";
      const r = await flash({ ...opts, erase: true });
      expect(r.exitCode, text).toBe(0);
      expect(text).toContain("erasing the board's whole Storage (--erase)");
      const order = flashOrder(new Uint8Array(r.imageBytes)).map((f) => f.name);
      expect(order).toContain(PAD_FILE);
      expect(r.verified!.map((v) => v.name)).toEqual(order);
      expect(await ask<string[]>(real.port, 'require("Storage").list()')).toEqual(order);
      // load(".bootcde") at the end of the upload ran it.
      expect(await ask(real.port, "bootedFrom")).toBe("brainboard-test");
    });

    it("a firmware that locks the console cannot be flashed over: the tool stops and names the recovery", async () => {
      real = await startRealEspruino();
      const locking = join(dir, "locking-firmware.js");
      writeFileSync(locking, `E.setPassword("secret"); E.lockConsole();\n${LINUX_FIRMWARE}`);
      const opts = { port: real.port, outDir: join(dir, "real-locked"), timeoutS: 120, noTables: true, out: () => {}, err: () => {} };
      // The upload itself goes through; verifying it meets the lock the new firmware set.
      await expect(flash({ ...opts, bundle: locking })).rejects.toMatchObject({
        exitCode: 1,
        message: expect.stringMatching(/console is locked[\s\S]*press its button just after plugging in/),
      });
      await expect(flash({ ...opts, bundle: locking })).rejects.toThrow(/console is locked/);
    });

    it("lands the files in flash in the order .bootcde, the tables in its page, pad, the other tables on a page boundary, and a save written afterwards after them", async () => {
      real = await startRealEspruino();
      // The Linux build's flash pages: 1 KB (scripts/build_platform_config.py gives LINUX its default flash_page_size of
      // 1024, over boards/LINUX.py's 256 KB), not the Pico's 16 KB; a Pico page boundary is a Linux one too.
      const page = await ask<{ addr: number; length: number }>(real.port, 'require("Flash").getPage(0x10000000)');
      expect(page).toEqual({ addr: 0x10000000, length: 1024 });
      expect(BOARDS.pico.storagePageBytes % page.length).toBe(0);
      const firmware = join(dir, "linux-firmware-layout.js");
      writeFileSync(firmware, LINUX_FIRMWARE);
      const bytes = imageOf(LINUX_FIRMWARE).length;
      const boot = bootLayout(bytes, solverTablesFor(5), BOARDS.pico.storagePageBytes);
      const pad = boot.pad!;
      expect(pad).toBeGreaterThan(0); // this firmware does not end on a page: the pad is needed
      let text = "";
      const r = await flash({
        port: real.port,
        bundle: firmware,
        outDir: join(dir, "real-layout"),
        timeoutS: 120,
        out: (t) => (text += t),
        err: (t) => (text += t),
      });
      expect(r.exitCode, text).toBe(0);
      expect(r.padBytes).toBe(pad);
      const order = [BOOT_FILE, ...boot.inPage.map((t) => t.name), PAD_FILE, ...boot.rest.map((t) => t.name)];
      // Storage's own list is in Storage order; the flash file says where each file is.
      expect(await ask(real.port, 'require("Storage").list()')).toEqual(order);
      const flashed = readFlashFile(real.dir);
      expect(flashed.map((f) => f.name)).toEqual(order);
      expect(flashed[0]).toMatchObject({ offset: 0, size: bytes, flags: 0 });
      const padAt = 1 + boot.inPage.length;
      expect(flashed[1]).toMatchObject({ offset: storageFootprint(bytes) });
      expect(flashed[padAt]).toMatchObject({ size: pad });
      // the pad ends the Pico's first page: what follows (the other tables, or the save) starts its second
      expect(flashed[padAt].offset + storageFootprint(pad)).toBe(BOARDS.pico.storagePageBytes);
      expect(BOARDS.pico.storagePageBytes % page.length).toBe(0);
      expect(r.layout).toEqual({
        files: flashed.map((f) => ({ name: f.name, offset: f.offset, bytes: f.size })),
        protected: true,
      });
      expect(text).toMatch(/layout: \.bootcde at 0, (bb\.t\.\S+ at \d+, )+\.bbpad at \d+/);
      // A save written afterwards goes after the tables; rewritten, the old copy is trash, and a compaction (which
      // starts at the tables' page at the earliest) leaves .bootcde and its pad where and as they were.
      const last = flashed[flashed.length - 1];
      const saveAt = last.offset + storageFootprint(last.size);
      expect(await ask(real.port, 'require("Storage").write("bb.s0", "save one".repeat(70))')).toBe(true);
      expect(readFlashFile(real.dir).at(-1)).toMatchObject({ name: "bb.s0", offset: saveAt, size: 560 });
      const head = readFileSync(join(real.dir, "espruino.flash")).subarray(0, BOARDS.pico.storagePageBytes);
      expect(await ask(real.port, 'require("Storage").write("bb.s0", "save two".repeat(70))')).toBe(true);
      expect(await ask(real.port, 'require("Storage").getStats().trashCount')).toBe(1);
      await ask(real.port, '(function(){require("Storage").compact();return 1;})()');
      expect(await ask(real.port, 'require("Storage").getStats().trashCount')).toBe(0);
      expect(readFlashFile(real.dir).map((f) => [f.name, f.offset])).toEqual([
        ...flashed.map((f) => [f.name, f.offset]),
        ["bb.s0", saveAt],
      ]);
      expect(readFileSync(join(real.dir, "espruino.flash")).subarray(0, BOARDS.pico.storagePageBytes)).toEqual(head);
      expect(await ask(real.port, 'require("Storage").read("bb.s0").slice(0, 8)')).toBe("save two");
    });

    it("carries a saved game across a re-flash: .bootcde, pad, tables, then the save; a format-1 save comes back as format 2 and the unit resumes it", async () => {
      // The unit is the real engine (sim/espruino/engine.ts, mode "flash"), whose first power-on flashes it. Here that
      // step is a re-flash over a unit in the middle of a match: an old firmware and its saves, then npm run flash,
      // then the engine's board model (its prelude) as .boot0, as the engine writes it; then the unit boots from that
      // flash. The saves are mirrored to the host, so what the unit keeps can be read as it runs.
      const unit = new EspruinoBoard({
        firmware: readFileSync(bundle, "latin1"),
        mode: "flash",
        build: "espruino",
        mirror: ["bb.s0", "bb.s1"],
      });
      const engine = unit as unknown as { flashFirmware: () => Promise<void>; prelude: () => string; flashed: boolean };
      let text = "";
      let r: FlashResult | undefined;
      let flashed: ReturnType<typeof readFlashFile> = [];
      let upgraded = "";
      engine.flashFirmware = async () => {
        real = await startRealEspruino({ dir: unit.dir });
        // A unit of the first firmware, flashed the old way (its code last) and played: a format-1 save in bb.s1 (a
        // referee game, one row) and a corrupt copy in bb.s0.
        const corrupt = OLD_SAVE.replace("|41226|", "|41227|");
        expect(await ask(real.port, `require("Storage").write("bb.s0", ${JSON.stringify(corrupt)})`)).toBe(true);
        expect(await ask(real.port, `require("Storage").write("bb.s1", ${JSON.stringify(OLD_SAVE)})`)).toBe(true);
        expect(await ask(real.port, `require("Storage").write(".bootcde", ${JSON.stringify(LINUX_FIRMWARE)})`)).toBe(true);
        r = await flash({
          port: real.port,
          bundle,
          outDir: join(dir, "real-carry"),
          timeoutS: 120,
          out: (t) => (text += t),
          err: (t) => (text += t),
        });
        flashed = readFlashFile(real.dir);
        upgraded = await ask<string>(real.port, 'require("Storage").read("bb.s1")');
        expect(await ask(real.port, `E.CRC32(require("Storage").read("bb.s1"))`)).toBe(crc32(Buffer.from(upgraded, "latin1")));
        const prelude = engine.prelude();
        const c = await BoardConsole.open(real.port);
        try {
          for (let at = 0; at < prelude.length; at += 600)
            await c.run(
              `require("Storage").write(".boot0",${JSON.stringify(prelude.slice(at, at + 600))},${at}${at ? "" : `,${prelude.length}`})`,
            );
          expect(await c.query(`E.CRC32(require("Storage").read(".boot0"))`)).toBe(crc32(Buffer.from(prelude, "latin1")));
        } finally {
          await c.close();
        }
        await real.stop();
        real = undefined;
        engine.flashed = true;
      };
      try {
        await unit.powerOn();
        expect(r!.exitCode, text).toBe(0);
        expect(r!.saves).toEqual({
          kept: [{ name: "bb.s1", seq: 5, format: 1, upgraded: true, what: "Brainiac match, game 1 of 4" }],
          dropped: [{ name: "bb.s0", problem: "checksum mismatch" }],
        });
        expect(text).toContain("warning: bb.s0: checksum mismatch, not kept");
        // The layout, from the interpreter's flash file: .bootcde at 0, its pad, the tables from a page boundary, then
        // the save right after the last table (then .boot0, the board model, written after the flash).
        const files = flashOrder(new Uint8Array(r!.imageBytes)).map((f) => f.name);
        const pad = files.includes(PAD_FILE) ? [PAD_FILE] : [];
        const order = [...files, "bb.s1"];
        expect(flashed.map((f) => f.name)).toEqual(order);
        expect(flashed[0].offset).toBe(0);
        if (pad.length) expect(flashed[files.indexOf(PAD_FILE) + 1].offset % BOARDS.pico.storagePageBytes).toBe(0);
        const last = flashed[flashed.length - 2];
        expect(flashed.at(-1)).toMatchObject({ name: "bb.s1", offset: last.offset + storageFootprint(last.size) });
        expect(r!.layout).toEqual({
          files: flashed.map((f) => ({ name: f.name, offset: f.offset, bytes: f.size })),
          protected: pad.length > 0,
        });
        // Format 2 now, the same name and sequence, as the unit reads it.
        expect(upgraded).toBe(upgradeSlot(OLD_SAVE, saveCrc));
        expect(upgraded.startsWith("BB2|5|")).toBe(true);

        // The unit boots from that flash and resumes the game: its row (red green blue yellow) and key pegs (2 white).
        await unit.advance(500);
        expect(unit.errors).toEqual([]);
        expect(unit.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
        expect(unit.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
        expect(
          unit
            .colours("keys")
            .slice(0, 4)
            .filter((k) => k === "white"),
        ).toHaveLength(2);
        expect(unit.consoleLocked).toBe(true);
        expect(unit.storage.readString("bb.s1")?.startsWith("BB2|5|")).toBe(true);
      } finally {
        await unit.close();
      }
    }, 300_000);

    it("a port where nothing listens is exit 2, before anything is built or sent", async () => {
      const built = existsSync(join(dir, "real-gone", "firmware.js"));
      real = await startRealEspruino();
      const port = real.port;
      await real.stop();
      real = undefined;
      // No bundle given: a build would come first if the port were not checked before it.
      await expect(flash({ port, outDir: join(dir, "real-gone"), out: () => {}, err: () => {} })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining(`nothing is listening on ${port}`),
      });
      expect(built || existsSync(join(dir, "real-gone", "firmware.js"))).toBe(false);
    });
  },
);
