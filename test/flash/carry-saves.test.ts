/**
 * The saved game across a flash: npm run flash reads the save slots, keeps each usable one (format 1 brought up to
 * format 2), writes them back after the tables and reads them back; the simulator's own flash does the same, and the
 * unit resumes the match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { bootPad, solverTablesFor } from "../../firmware/tools/tables.ts";
import { BOARDS, PAD_FILE } from "../../hardware/boards.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { VirtualStorage } from "../../sim/board/storage.ts";
import { replayUpload } from "./replay.ts";
import { LISTED_SETTINGS, listedSettingsSave, OLD_SAVE, playedMatch, UNIT_MAKES } from "./saves.ts";
import { firmwareBundle } from "../device/helpers.ts";
import { decodeSlot, expandKeys, type Slot } from "../../firmware/save-format.ts";
import { keepSlot, upgradeSlot, type KeptSlot } from "../../firmware/tools/save-upgrade.ts";
import { PHASE_GUESS } from "../../firmware/core/types.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { ROOT } from "../../firmware/tools/build.ts";
import { flashFiles, saveCrc, slotFiles, uploadScript } from "../../firmware/tools/flash.ts";
import { afterBootAndPad, flashOrder, flashQuietly, imageOf, standInBoard, writeBundleOfImage } from "./flash-tool.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-flash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run flash carries the saved game across the flash", () => {
  /** A Brainiac match against the unit, two rows into a game, as the current firmware saved it. */
  let match: ReturnType<typeof playedMatch>;
  /** A bundle whose .bootcde does not end on a flash page: it gets the pad. */
  let bundle: string;
  const TABLE_NAMES = solverTablesFor(5).map((t) => t.name);
  beforeAll(() => {
    match = playedMatch(UNIT_MAKES, 2);
    bundle = writeBundleOfImage(join(dir, "carry.js"), 20_010, "c");
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
      expect([...files.keys()]).toEqual([...flashOrder(imageOf(readFileSync(bundle, "latin1")).length), "bb.s0", "bb.s1"]);
      for (const n of ["bb.s0", "bb.s1"]) expect(files.get(n)!.toString("latin1"), n).toBe(slots[n]);
      expect(loaded).toEqual([""]); // the upload starts the firmware, as without saves
      // Read back like every other file, and laid out after the tables: .bootcde stays out of compaction's way.
      expect(r.verified!.slice(-2)).toEqual(
        ["bb.s0", "bb.s1"].map((n) => ({ name: n, bytes: slots[n].length, crc32: crc32(Buffer.from(slots[n], "latin1")) })),
      );
      expect(r.layout).toMatchObject({ protected: true });
      expect(r.layout!.files.map((f) => f.name)).toEqual([...flashOrder(imageOf(readFileSync(bundle, "latin1")).length), "bb.s0", "bb.s1"]);
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
      expect([...files.keys()]).toEqual([...flashOrder(imageOf(readFileSync(bundle, "latin1")).length), "bb.s1"]);
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
      expect([...board.files().keys()]).toEqual(flashOrder(imageOf(readFileSync(bundle, "latin1")).length));
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
  // (Another program, not only other bytes: the stored image, pretokenised, has no comments.)
  // Another firmware: the bundle and one more statement (the bundle's last statement may end without a semicolon).
  const v2 = () => firmwareBundle() + ';"v2";';
  const upgradeSim = (t: string) => upgradeSlot(t, saveCrc)!;

  it("re-flashing a unit in the middle of a match: the same Storage as the tool's upload, and the unit resumes the match", () => {
    const played = playedMatch(UNIT_MAKES, 2);
    const unit = played.unit;
    unit.powerOff();
    unit.flash(v2());
    const tables = solverTablesFor(5);
    const order = [...flashOrder(imageOf(v2()).length), "bb.s0", "bb.s1"];
    expect(unit.storage.list()).toEqual(order);
    for (const n of ["bb.s0", "bb.s1"]) expect(unit.storage.readString(n), n).toBe(played.slots[n]);
    // What the tool would send for it (its files, then the slots it keeps), played into empty Storage: the same layout.
    const kept = ["bb.s0", "bb.s1"].map((n) => keepSlot(n, played.slots[n], saveCrc) as KeptSlot);
    const storage = new VirtualStorage({ capacity: BOARDS.pico.storageBytes, pageBytes: BOARDS.pico.storagePageBytes });
    replayUpload(uploadScript([...flashFiles(imageOf(v2()), tables, BOARDS.pico, true), ...slotFiles(kept)]), storage);
    expect(unit.storage.layout()).toEqual(storage.layout());
    // with the pad (when it fits: an image of at most 32,700 bytes), the tables start a flash page
    if (bootPad(BOARDS.pico, imageOf(v2()).length, tables) !== null) expect(afterBootAndPad(unit) % 16384).toBe(0);
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
