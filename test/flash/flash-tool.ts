/**
 * The flash tool's test helpers: flash() with its output captured, the files it writes into empty Storage, bundles
 * whose stored image (pretokenised, as npm run flash stores it) has a chosen size, and a stand-in board over tcp://.
 */
import { existsSync, writeFileSync } from "node:fs";
import { ROOT } from "../../firmware/tools/build.ts";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { BOARDS, PAD_FILE, storageFootprint } from "../../hardware/boards.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { pretokenise } from "../../firmware/tools/pretokenise.ts";
import { flash, flashFiles, type FlashOptions, type FlashResult } from "../../firmware/tools/flash.ts";
import type { VirtualBoard } from "../../sim/board/board.ts";
import { replayUpload } from "./replay.ts";

/** Where the file after .bootcde, the tables in its last page and the pad starts in a board's Storage. */
export function afterBootAndPad(board: VirtualBoard): number {
  const layout = board.storage.layout();
  const pad = layout.findIndex((e) => e.name === PAD_FILE);
  return layout[pad > 0 ? pad + 1 : 1].addr;
}

/** The files npm run flash writes into empty Storage for a bundle of `bytes` (tables.ts protectedLayout), in order. */
export function flashOrder(bytes: number): string[] {
  return flashFiles(new Uint8Array(bytes), solverTablesFor(5), BOARDS.pico, true).map((f) => f.name);
}

/** Runs flash() with its output captured. */
export async function flashQuietly(opts: FlashOptions): Promise<FlashResult & { text: string }> {
  let text = "";
  const r = await flash({ ...opts, out: (t) => (text += t), err: (t) => (text += t) });
  return { ...r, text };
}

/** The espruino CLI of the espruino package (EspruinoTools), and whether it is installed. */
export const CLI = join(ROOT, "node_modules/espruino/bin/espruino-cli.js");
export const HAS_CLI = existsSync(CLI);

/** The files npm run flash writes into empty Storage for the image `firmware` (tables.ts protectedLayout), in order. */
export function flashFilesInOrder(firmware: Uint8Array): { name: string; bytes: Uint8Array }[] {
  return flashFiles(firmware, solverTablesFor(5), BOARDS.pico, true);
}

/** The image npm run flash stores for the bundle `code` (pretokenised). */
export function imageOf(code: string): Uint8Array {
  return pretokenise(code);
}

/**
 * Writes `file`, a bundle of one string of `fill` whose image (what npm run flash stores: `var s="...";` pretokenised,
 * 7 bytes more than the string) is `imageBytes` long.
 */
export function writeBundleOfImage(file: string, imageBytes: number, fill: string): string {
  const code = `var s="${fill.repeat(imageBytes - 7)}";\n`;
  if (imageOf(code).length !== imageBytes) throw new Error(`the image of ${file} is ${imageOf(code).length} bytes, not ${imageBytes}`);
  writeFileSync(file, code);
  return file;
}

/**
 * A stand-in board over tcp://: records what the CLI sends, answers each line with a prompt like the REPL, and answers
 * the flash tool's own questions (board-console.ts) from a model of its Storage: the files in `report.l` (their
 * contents from `files`, else filler) or in `files`, in Storage order. It follows the tool's eraseAll, erase(name),
 * compact and Storage writes; it answers a base64 read of a file (btoa), and the read-back of the files the CLI wrote
 * (after an upload, the files it had that the upload did not write, then those it wrote, in Storage order). `lose`
 * is a file the upload wrote that the board did not keep (a write through the console afterwards is kept); `locked` plays a locked console (a password prompt to every line);
 * `lockAfterLoad` locks it once the firmware is started (load()) after an upload.
 */
export async function standInBoard(
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

/** A stand-in CLI in `dir`: prints `lines`, exits with `code`, writes nothing. */
export function fakeCli(dir: string, name: string, lines: string[], code = 0): string {
  const cli = join(dir, `${name}.cjs`);
  writeFileSync(cli, `${lines.map((l) => `console.log(${JSON.stringify(l)});`).join("")} process.exit(${code});\n`);
  return cli;
}
