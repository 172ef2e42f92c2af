/**
 * Flashing the real engine's unit ("flash" mode): `npm run flash` writes the bundle and tables through the
 * real espruino CLI over telnet (the interpreter's port 2323 is taken one run at a time), then the prelude
 * goes to .boot0 through the console and is read back by length and CRC-32.
 */
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "../../hardware/profile.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { crc32Of, flash, type FlashResult } from "../../firmware/tools/flash.ts";

/** A file npm run flash wrote, as the interpreter read it back: its length and CRC-32. */
export type FlashedFile = { name: string; bytes: number; crc32: number };
import { BoardConsole, ConsoleError } from "../../firmware/tools/board-console.ts";
import { espruinoBinary } from "./binary.ts";
import { EngineError, sleep } from "./link.ts";
import { withTelnetPort } from "./telnet.ts";

/**
 * Flashes the unit whose flash file is in `dir`: the bundle (stored pretokenised, as npm run flash stores it) and the
 * profile's tables, then `prelude` as .boot0. Resolves with the files npm run flash wrote and read back.
 */
export async function flashUnit(dir: string, firmware: string, profile: Profile, prelude: string): Promise<FlashedFile[]> {
  const bundle = join(dir, "firmware.js");
  writeFileSync(bundle, firmware, "latin1");
  return await withTelnetPort(async (port) => {
    const bin = espruinoBinary("espruino")!;
    const child = spawn(bin, ["--telnet"], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString("latin1")));
    child.stdin!.on("error", () => {});
    try {
      await listening(port);
      let output = "";
      const log = (t: string) => (output += t);
      let r: FlashResult;
      try {
        r = await flash({ port: `tcp://127.0.0.1:${port}`, bundle, profile: profile.id, out: log, err: log });
      } catch (e) {
        throw new EngineError(`npm run flash failed: ${(e as Error).message}\n${output}`);
      }
      // The upload ends by starting .bootcde without the boot files, so the firmware may fail there for want
      // of the prelude's pins: what counts is that every file was written and read back intact.
      // .bootcde, the page-aligning pad when there is one, the tables and any save carried across.
      const want = 1 + (r.padBytes ? 1 : 0) + solverTablesFor(profile.pegs).length + (r.saves?.kept.length ?? 0);
      if (
        r.exitCode !== 0 &&
        !(r.verified && r.verified.length === want && /Uncaught ReferenceError: "[A-Z][0-9]+" is not defined/.test(output))
      )
        throw new EngineError(`npm run flash failed (exit code ${r.exitCode}):\n${output}`);
      if (!r.verified || r.verified.length !== want)
        throw new EngineError(`npm run flash verified ${r.verified?.length ?? 0} of ${want} files:\n${output}`);
      // Then the prelude as .boot0 (after the upload, so that its echo(0) never meets the CLI), a chunk a line, through
      // the telnet console as the flash tool talks to a board (read by the interpreter's main thread; its standard
      // input is read by a second thread that races it: see prelude.ts), and read back by length and CRC-32.
      const con = await BoardConsole.open(`tcp://127.0.0.1:${port}`);
      try {
        const CHUNK = 600;
        for (let i = 0; i < prelude.length; i += CHUNK) {
          const part = JSON.stringify(prelude.slice(i, i + CHUNK));
          await con.run(
            i === 0 ? `require("Storage").write(".boot0",${part},0,${prelude.length})` : `require("Storage").write(".boot0",${part},${i})`,
          );
        }
        const got = await con.query<[number, number] | null>(
          `(function(d){return d===undefined?null:[d.length,E.CRC32(d)];})(require("Storage").read(".boot0"))`,
        );
        const want = [prelude.length, crc32Of(Buffer.from(prelude, "latin1"))];
        if (!got || got[0] !== want[0] || got[1] >>> 0 !== want[1])
          throw new EngineError(
            `.boot0 holds ${got ? `${got[0]} bytes, CRC-32 ${(got[1] >>> 0).toString(16)}` : "nothing"}; the prelude has ${want[0]} bytes, CRC-32 ${want[1].toString(16)}`,
          );
      } catch (e) {
        if (e instanceof ConsoleError) throw new EngineError(`writing the prelude to .boot0 failed: ${e.message}\n${out}`);
        throw e;
      } finally {
        await con.close();
      }
      return r.verified;
    } finally {
      child.kill("SIGKILL");
      await new Promise((d) => (child.exitCode !== null ? d(null) : child.on("exit", d)));
    }
  });
}

/** Resolves once something accepts connections on the loopback port (the interpreter's telnet server starts after its banner). */
async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((done) => {
      const sock = connect(port, "127.0.0.1");
      sock.once("connect", () => {
        sock.destroy();
        done(true);
      });
      sock.once("error", () => done(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs)
      throw new EngineError(`the interpreter's telnet port ${port} did not open within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}
