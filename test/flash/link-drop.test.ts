/**
 * The link to the board drops after the flash tool erased its Storage: the saved game must not be lost. The tool
 * keeps it on disk before it erases anything, stops at once (never hangs waiting on a link that is gone), says
 * plainly that the board may now be empty and how to put the game back, and `--restore-saves DIR` does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { flash, FlashError, saveCrc, uploadScript } from "../../firmware/tools/flash.ts";
import { upgradeSlot } from "../../firmware/tools/save-upgrade.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { startConsoleServer } from "../../sim/console/server.ts";
import { OLD_SAVE } from "./saves.ts";
import { replayUpload } from "./replay.ts";

const CLI = join(ROOT, "node_modules/espruino/bin/espruino-cli.js");

let dir: string;
let bundle: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-link-drop-"));
  bundle = (await buildFirmware({ profile: "r1-pico", out: join(dir, "firmware.js") })).out;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!existsSync(CLI))("the link drops after the erase", () => {
  it("the saved game is on disk before the erase; the tool stops at once, says the board may be empty, and --restore-saves puts the game back", async () => {
    const board = new VirtualBoard({ firmware: 'print("old firmware");', tables: false });
    board.storage.write("bb.s1", OLD_SAVE);
    board.powerOn();
    const kept = upgradeSlot(OLD_SAVE, saveCrc);
    let server = await startConsoleServer(board);
    // The CLI cannot reach the board (the cable was pulled just after the erase): the console goes away with it.
    const cli = join(dir, "unreachable.cjs");
    writeFileSync(cli, 'console.log("Unable to connect!"); process.exit(0);\n');
    let text = "";
    const started = Date.now();
    let failure: FlashError | null = null;
    try {
      await flash({
        port: `tcp://127.0.0.1:${server.port}`,
        bundle,
        outDir: join(dir, "out"),
        // (No tables: what is tested is the saves, whatever room the firmware leaves for the tables.)
        noTables: true,
        cli,
        timeoutS: 20,
        out: (t) => {
          text += t;
          if (t.startsWith("flashing ")) void server.close();
        },
        err: (t) => (text += t),
      });
    } catch (e) {
      if (!(e instanceof FlashError)) throw e;
      failure = e;
    }
    expect(failure, text).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(15_000);
    // The board was erased and the game is not on it...
    expect(board.storage.list()).toEqual([]);
    // ...but it is on disk, named in the message with the command that restores it.
    const m = /copied the saved game to (\S+) before erasing anything/.exec(text);
    expect(m, text).not.toBeNull();
    expect(readFileSync(join(resolve(m![1]), "bb.s1"), "latin1")).toBe(kept);
    expect(failure!.message).toMatch(/may now hold no firmware and no saved game/);
    expect(failure!.message).toMatch(/npm run flash -- --port tcp:\/\/127\.0\.0\.1:\d+ --restore-saves \S+saves-/);
    const restoreDir = /--restore-saves (\S+)/.exec(failure!.message)![1];

    // The board answers again: the firmware and the game go back on it, verified.
    server = await startConsoleServer(board);
    try {
      let again = "";
      const r = await flash({
        port: `tcp://127.0.0.1:${server.port}`,
        bundle,
        outDir: join(dir, "out2"),
        noTables: true,
        restoreSaves: restoreDir,
        timeoutS: 25,
        out: (t) => (again += t),
        err: (t) => (again += t),
      });
      expect(r.exitCode, again).toBe(0);
      expect(again).toContain("restoring the saved game from");
      expect(board.storage.readString("bb.s1")).toBe(kept);
    } finally {
      await server.close();
    }
  }, 90_000);

  it("an upload cut short does not start the partial .bootcde: the board says the upload is incomplete", () => {
    const firmware = new Uint8Array(Buffer.from('print("whole firmware");' + "/".repeat(3000), "latin1"));
    const script = uploadScript([{ name: ".bootcde", bytes: firmware }]);
    const lines = script.trimEnd().split("\n");
    // The link is cut after the first chunk: the file has its full length, its tail never written.
    const cut = [lines[0], lines[lines.length - 1]].join("\n");
    const board = new VirtualBoard({ firmware: "", tables: false });
    board.powerOn();
    const printed: string[] = [];
    const { loaded } = replayUpload(cut);
    expect(loaded).toEqual([]);
    // The same lines on the simulated board: nothing starts, and it says why.
    for (const line of [lines[0], lines[lines.length - 1]]) board.repl(line);
    board.advance(10);
    printed.push(...board.consoleLog);
    expect(board.resets).toEqual([]);
    expect(printed.join("\n")).toContain("upload incomplete: .bootcde is not what was sent; not started");
  });
});
