/**
 * The simulator's console over TCP (sim/console/) as a flash target: the unmodified espruino CLI (EspruinoTools
 * 0.1.67) uploads the bundle into the virtual board's Storage as .bootcde, and after a power cycle the unit boots from
 * it and answers a key press; npm run flash (firmware/tools/flash.ts) through the same port stores the pretokenised
 * image, the tables and the saved game. No network: the CLI gets the offline board file, and the console listens on
 * 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedLayout, solverTablesFor } from "../../firmware/tools/tables.ts";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { BOOT_FILE, VirtualBoard } from "../../sim/board/board.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { consoleServers } from "../console/serve.ts";
import { OLD_SAVE } from "./saves.ts";
import { flash, saveCrc } from "../../firmware/tools/flash.ts";
import { upgradeSlot } from "../../firmware/tools/save-upgrade.ts";
import { CLI, HAS_CLI, flashFilesInOrder as flashOrder, imageOf } from "./flash-tool.ts";

const BOARD_FILE = "hardware/boards/pico.json";
/** The CLI takes about 8 s for a 26 KB bundle (250 ms per 1 KB Storage chunk); well inside this. */
const CLI_TIMEOUT_MS = 25_000;

let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-tcp-flash-"));
  // Our own bundle, so that other runs rebuilding dist/ cannot change it under the test.
  bundle = (await buildFirmware({ profile: "r1-pico", out: join(dir, "firmware.js") })).out;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const serve = consoleServers();

/** Runs the real espruino CLI; resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString("latin1")));
  child.stderr.on("data", (d: Buffer) => (output += d.toString("latin1")));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`the espruino CLI did not finish within ${CLI_TIMEOUT_MS} ms; its output:\n${output}`));
    }, CLI_TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, output, ms: Date.now() - started });
    });
  });
}

/** After power-on the unit shows its menu (first preset lit white); a menu key moves the choice. */
function expectBootsAndAnswersKeys(board: VirtualBoard): void {
  board.powerCycle();
  board.advance(200);
  expect(board.errors).toEqual([]);
  expect(board.colours("pad")[0]).toBe("white");
  expect(board.colours("pad")[1]).not.toBe("white");
  board.tap("p12");
  expect(board.colours("pad")[0]).not.toBe("white");
  expect(board.colours("pad")[1]).toBe("white");
}

describe.skipIf(!HAS_CLI)(
  HAS_CLI
    ? "the espruino CLI flashes the simulated board over tcp://"
    : "the espruino CLI over tcp:// (skipped: node_modules/espruino is not installed)",
  () => {
    it("writes the bundle into empty Storage as .bootcde byte for byte; after a power cycle the unit boots and answers a key", async () => {
      const board = new VirtualBoard({ firmware: "", tables: false });
      board.storage.erase(BOOT_FILE);
      expect(board.storage.list()).toEqual([]);
      board.powerOn();
      const server = await serve(board);

      const r = await runCli([
        "--no-ble",
        "-p",
        `tcp://127.0.0.1:${server.port}`,
        "--board",
        BOARD_FILE,
        bundle,
        "--storage",
        `${BOOT_FILE}:-`,
      ]);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toContain("Upload Complete");
      expect(r.output).not.toMatch(/Uncaught|not found|Unable to|ENOTFOUND|Prompt not detected/);

      expect(board.storage.read(BOOT_FILE)).toEqual(new Uint8Array(readFileSync(bundle)));
      // The upload cleared RAM with reset(), then load(".bootcde") booted the new firmware at once.
      expect(board.resets.map((x) => x.reason)).toEqual(["reset()", "load()"]);
      board.advance(200);
      expect(board.colours("pad")[0]).toBe("white");

      expectBootsAndAnswersKeys(board);
      console.log(`espruino CLI upload of ${readFileSync(bundle).length} bytes over tcp:// took ${r.ms} ms`);
    });

    it("npm run flash -- --port tcp://... replaces an old firmware through the same console and writes the solver tables", async () => {
      const board = new VirtualBoard({ firmware: 'print("old firmware");', tables: false });
      board.powerOn();
      expect(board.consoleLog).toEqual(["old firmware"]);
      const server = await serve(board);

      let text = "";
      const r = await flash({
        port: `tcp://127.0.0.1:${server.port}`,
        bundle,
        outDir: join(dir, "flash"),
        timeoutS: CLI_TIMEOUT_MS / 1000,
        out: (t) => (text += t),
        err: (t) => (text += t),
      });
      expect(r.exitCode, text).toBe(0);
      expect(text).toContain("Upload Complete");
      // .bootcde holds the bundle pretokenised, byte for byte (binary, through the upload's atob chunks), and it runs.
      expect(board.storage.read(BOOT_FILE)).toEqual(imageOf(readFileSync(bundle, "latin1")));
      // Every table of the build, byte for byte (binary data through the CLI's atob chunks).
      const tables = solverTablesFor(board.profile.pegs);
      expect(r.tables?.map((t) => t.name)).toEqual([
        "bb.t.brainiac",
        "bb.t.brainiac+",
        "bb.t.travel",
        "bb.t.travel+",
        "bb.t.race",
        "bb.t.race+",
      ]);
      for (const t of tables) expect(board.storage.read(t.name), t.name).toEqual(t.bytes);
      // It held only the files the tool writes (the old .bootcde and its pad): erased first, so .bootcde starts Storage.
      expect(text).toContain("erasing the board's Storage first: it holds only files this flash writes (.bootcde, .bbpad)");
      expect(r.layout).toMatchObject({ protected: true });
      expect(board.storage.layout()[0]).toMatchObject({ name: BOOT_FILE, addr: 0 });
      expectBootsAndAnswersKeys(board);
      // the old firmware ran once, at the first power-on, and never again ("" is the CLI's print())
      expect(board.consoleLog.filter((l) => l === "old firmware")).toHaveLength(1);
    });

    it("npm run flash carries a two-player game across the flash: read back before the unit starts, which then resumes it with its console locked", async () => {
      // A unit of the first firmware in the middle of a referee game (format 1; a corrupt copy beside it), its code
      // not running (as after the Pico's button at power-on: a locked console cannot be flashed).
      const board = new VirtualBoard({ firmware: 'print("old firmware");', tables: false });
      board.storage.write("bb.s0", OLD_SAVE.replace("|41226|", "|41227|"));
      board.storage.write("bb.s1", OLD_SAVE);
      board.powerOn();
      const server = await serve(board);
      let text = "";
      const r = await flash({
        port: `tcp://127.0.0.1:${server.port}`,
        bundle,
        outDir: join(dir, "flash-carry"),
        timeoutS: CLI_TIMEOUT_MS / 1000,
        out: (t) => (text += t),
        err: (t) => (text += t),
      });
      expect(r.exitCode, text).toBe(0);
      expect(text).toContain("warning: bb.s0: checksum mismatch, not kept");
      expect(text).toContain("kept the saved game: bb.s1 (Brainiac match, game 1 of 4; save 5, brought up from format 1 to 2)");
      expect(text).toContain("started the firmware after reading back what was written");
      expect(board.storage.list()).toEqual([...flashOrder(new Uint8Array(r.imageBytes)).map((f) => f.name), "bb.s1"]);
      expect(board.storage.readString("bb.s1")).toBe(upgradeSlot(OLD_SAVE, saveCrc));
      expect(r.layout).toMatchObject({ protected: protectedLayout(BOARDS.pico, r.imageBytes, solverTablesFor(5)) !== null });
      // The tool started it (load()); it resumes the game: the row and its key pegs, the console locked.
      board.advance(500);
      expect(board.errors).toEqual([]);
      expect(board.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
      expect(board.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
      expect(board.consoleLocked).toBe(true);
    });
  },
);
