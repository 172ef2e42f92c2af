/**
 * The simulator's console over TCP (sim/console/): the unmodified espruino CLI (EspruinoTools 0.1.67) uploads
 * the bundle into the virtual board's Storage as .bootcde, and after a power cycle the unit boots from it and
 * answers a key press. Also npm run flash (firmware/tools/flash.ts) through the same port, and the REPL as the CLI
 * and a terminal see it. No network: the CLI gets the offline board file, and the console listens on 127.0.0.1.
 * Last, npm run flash against the real interpreter (Espruino for Linux where BRAINBOARD_ESPRUINO_DIR points, in a network
 * namespace of its own: real-espruino.ts): version, Storage, --erase, read-back, a locked console, nobody listening,
 * and where the files land in its flash (the file espruino.flash, read as jsflash.c lays it out).
 */
import { bootLayout, bootPad, protectedLayout, solverTablesFor } from "../../firmware/tools/tables.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { BoardConsole } from "../../firmware/tools/board-console.ts";
import { ESPRUINO_MISSING, HAS_ESPRUINO, startRealEspruino, type RealEspruino } from "./real-espruino.ts";
import { BOOT_FILE, VirtualBoard } from "../../sim/board/board.ts";
import { BOARDS, PAD_FILE, storageFootprint } from "../../hardware/boards.ts";
import { formatResult } from "../../sim/console/format.ts";
import { countBrackets } from "../../sim/console/repl.ts";
import { startConsoleServer, type ConsoleServer } from "../../sim/console/server.ts";
import { OLD_SAVE } from "./saves.ts";
import { flash, flashFiles, saveCrc, type FlashResult } from "../../firmware/tools/flash.ts";

/** The files npm run flash writes into empty Storage for `firmware` (tables.ts protectedLayout), in order. */
function flashOrder(firmware: Uint8Array): { name: string; bytes: Uint8Array }[] {
  return flashFiles(firmware, solverTablesFor(5), BOARDS.pico, true);
}
import { upgradeSlot } from "../../firmware/tools/save-upgrade.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";

const CLI = join(ROOT, "node_modules/espruino/bin/espruino-cli.js");
const HAS_CLI = existsSync(CLI);
const BOARD_FILE = "hardware/boards/pico.json";
/** The CLI takes about 8 s for a 26 KB bundle (250 ms per 1 KB Storage chunk); well inside this. */
const CLI_TIMEOUT_MS = 25_000;

let dir: string;
let bundle: string;
let servers: ConsoleServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-tcp-flash-"));
  // Our own bundle, so that other runs rebuilding dist/ cannot change it under the test.
  bundle = (await buildFirmware({ profile: "r1-pico", out: join(dir, "firmware.js") })).out;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(board: VirtualBoard, clock?: "connected" | "manual"): Promise<ConsoleServer> {
  const s = await startConsoleServer(board, { clock });
  servers.push(s);
  return s;
}

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
      expect(board.storage.readString(BOOT_FILE)).toBe(readFileSync(bundle, "latin1"));
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
      expect(board.storage.list()).toEqual([...flashOrder(new Uint8Array(r.bundleBytes)).map((f) => f.name), "bb.s1"]);
      expect(board.storage.readString("bb.s1")).toBe(upgradeSlot(OLD_SAVE, saveCrc));
      expect(r.layout).toMatchObject({ protected: protectedLayout(BOARDS.pico, r.bundleBytes, solverTablesFor(5)) !== null });
      // The tool started it (load()); it resumes the game: the row and its key pegs, the console locked.
      board.advance(500);
      expect(board.errors).toEqual([]);
      expect(board.consoleLog.filter((l) => l.includes("save not used"))).toEqual([]);
      expect(board.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
      expect(board.consoleLocked).toBe(true);
    });
  },
);

// ---------------------------------------------------------------- the REPL, as a client sees it

/** A raw client of the console. */
async function client(port: number): Promise<{ socket: Socket; send(text: string, until?: RegExp): Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  let buf = "";
  socket.on("data", (d: Buffer) => (buf += d.toString("latin1")));
  await new Promise<void>((ok, fail) => socket.once("connect", ok).once("error", fail));
  return {
    socket,
    /** Sends text; resolves with what came back once it matches `until` (default: ends with the prompt). */
    async send(text: string, until = />$/) {
      buf = "";
      socket.write(Buffer.from(text, "latin1"));
      const deadline = Date.now() + 2000;
      while (!until.test(buf)) {
        if (Date.now() > deadline) throw new Error(`no answer matching ${until} to ${JSON.stringify(text)}; got ${JSON.stringify(buf)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return buf;
    },
  };
}

describe("the simulator's console speaks the Espruino REPL", () => {
  const BOOT = 'var boots = (typeof boots === "number" ? boots : 0) + 1; print("boot code ran");';

  it("answers Enter with a prompt, echoes typed lines and prints results and errors like the device", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    expect(await c.send("\n")).toBe("\r\n>");
    expect(await c.send("1+2\n")).toBe("1+2\r\n=3\r\n>");
    expect(await c.send("var x\n")).toBe("var x\r\n=undefined\r\n>");
    expect(await c.send('throw new Error("bad")\n')).toBe('throw new Error("bad")\r\nUncaught Error: bad\r\n>');
    expect(await c.send("print('hi', 1)\n")).toBe("print('hi', 1)\r\nhi 1\r\n=undefined\r\n>");
    // open brackets continue the line with ':'; ESC LF is a newline that does not execute
    expect(await c.send("function f(a, b) {\n", /:$/)).toBe("function f(a, b) {\r\n:");
    expect(await c.send("return a + b; }\n")).toBe("return a + b; }\r\n=undefined\r\n>");
    expect(await c.send("if (f(1, 2) === 3)\x1b\n'three'\n")).toBe("if (f(1, 2) === 3)\r\n:'three'\r\n=\"three\"\r\n>");
    // Ctrl-C clears the line; backspace deletes
    expect(await c.send("oops(\x03", /\x1b\[J>$/)).toBe("oops(\r\x1b[J>");
    expect(await c.send("2*x3\x08\x7f21\n")).toBe("2*x3\b \b\b \b21\r\n=42\r\n>");
    c.socket.destroy();
  });

  it("runs \\x10 lines without echo or result, as the CLI sends them, and answers its process.env query", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    const env = await c.send('\x10print("<","<<",JSON.stringify(process.env),">>",">")\n', />> >\r\n>$/);
    const json = JSON.parse(env.slice(env.indexOf("< <<") + 4, env.indexOf(">> >")));
    expect(json).toMatchObject({ VERSION: "2v29", BOARD: "PICO_R1_3" });
    // chunked Storage writes: no echo and no output at all
    c.socket.write('\x10require("Storage").write("t","abc",0,6);\n\x10require("Storage").write("t","def",3);\n');
    expect(await c.send("\x10print()\n")).toBe("\r\n>");
    expect(board.storage.readString("t")).toBe("abcdef");
  });

  it("reset() clears RAM without running .bootcde; load() and E.reboot() boot from it", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    expect(await c.send("boots\n")).toBe("boots\r\n=1\r\n>");
    const reset = await c.send("reset()\n");
    expect(reset).toMatch(/^reset\(\)\r\n=undefined\r\n\x1b\[\?7l\r\n ____ [\s\S]* 2v29 \(c\) \d{4} G\.Williams\r\n\r\n>$/);
    expect(reset).not.toContain("boot code ran");
    expect(await c.send("typeof boots\n")).toBe('typeof boots\r\n="undefined"\r\n>');
    expect(board.storage.has(BOOT_FILE)).toBe(true);
    expect(await c.send('load(".bootcde")\n')).toMatch(/espruino\.com[\s\S]*\r\nboot code ran\r\n>$/);
    expect(await c.send("boots\n")).toBe("boots\r\n=1\r\n>");
    expect(await c.send("E.reboot()\n")).toMatch(/boot code ran\r\n>$/);
    expect(board.resets.map((x) => x.reason)).toEqual(["reset()", "load()", "E.reboot()"]);
  });

  it("advances the board's clock with real time while a client is connected, and takes one client at a time", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const server = await serve(board);
    const idle = board.now;
    await new Promise((r) => setTimeout(r, 60));
    expect(board.now).toBe(idle); // nobody connected: the board stands still
    const c = await client(server.port);
    await c.send('setTimeout(function () { print("tick"); }, 50)\n');
    const t = await c.send("", /tick\r\n>$/);
    expect(t).toContain("tick");
    expect(board.now - idle).toBeGreaterThanOrEqual(50);

    const second = connect(server.port, "127.0.0.1");
    let refused = "";
    second.on("data", (d: Buffer) => (refused += d.toString("latin1")));
    await new Promise((r) => second.on("close", r));
    expect(refused).toContain("another client is connected");
    c.socket.destroy();
  });

  it("powers an unpowered board when a client connects, and listens on loopback only", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    const server = await serve(board, "manual");
    expect(board.isOn).toBe(false);
    const c = await client(server.port);
    await c.send("", /boot code ran\r\n>$/);
    expect(board.isOn).toBe(true);
    await expect(startConsoleServer(board, { host: "0.0.0.0" as "127.0.0.1" })).rejects.toThrow(/127\.0\.0\.1 only/);
    c.socket.destroy();
  });
});

describe("the console's pieces", () => {
  it("counts brackets as Espruino's lexer does", () => {
    expect(countBrackets("function f() {")).toBe(1);
    expect(countBrackets('a = "{"')).toBe(0);
    expect(countBrackets("x = /[{(]/")).toBe(0);
    expect(countBrackets("/* still")).toBeGreaterThan(0);
    expect(countBrackets('"unfinished')).toBe(0);
    expect(countBrackets("}")).toBeLessThan(0);
  });

  it("prints results in Espruino's console format", () => {
    expect(formatResult(undefined)).toBe("undefined");
    expect(formatResult("a\nb")).toBe('"a\\nb"');
    expect(formatResult([1, 2, 3])).toBe("[ 1, 2, 3 ]");
    expect(formatResult({ a: 1, "b-c": "x" })).toBe('{ a: 1, \n  "b-c": "x"\n }');
    expect(formatResult({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe("{ a: 1, b: 2, c: 3, d: 4, \n  e: 5 }");
    expect(formatResult("x".repeat(50))).toBe(`"${"x".repeat(17)}" ... "${"x".repeat(17)}"`);
    expect(formatResult(Array.from({ length: 20 }, (_, i) => i))).toBe("[ 0, 1, 2, 3, 4,  ... 15, 16, 17, 18, 19 ]");
    expect(formatResult(new Uint8Array(3))).toBe("new Uint8Array(3)");
  });
});

// ---------------------------------------------------------------- the real interpreter (issue 13 item 5, issue 17)

/** A firmware that runs on Espruino for Linux (which has no Pico pins): it notes that it booted. Over 512 bytes, so the CLI finishes. */
const LINUX_FIRMWARE = `var bootedFrom = "brainboard-test";\n/*${"padding so the upload is over the CLI's 512-byte short-upload limit ".repeat(10)}*/\n`;

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
      expect(r.padBytes).toBe(bootPad(BOARDS.pico, readFileSync(bundle).length, tables) ?? undefined);
      expect(r.verified).toEqual([
        ...flashOrder(new Uint8Array(readFileSync(bundle))).map((f) => ({ name: f.name, bytes: f.bytes.length, crc32: crc32(f.bytes) })),
      ]);
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
      const order = flashOrder(new Uint8Array(r.bundleBytes)).map((f) => f.name);
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
      const bytes = readFileSync(firmware).length;
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
        const files = flashOrder(new Uint8Array(r!.bundleBytes)).map((f) => f.name);
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
