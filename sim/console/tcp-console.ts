/**
 * npm run sim:console: a virtual board with its Espruino console on a local TCP port, for the espruino CLI.
 *
 *   npm run sim:console -- --port 4001 [--profile r1-pico] [--storage FILE] [--empty]
 *   npx espruino --no-ble -p tcp://127.0.0.1:4001 --board hardware/boards/pico.json dist/firmware.js --storage .bootcde:-
 *
 * The REPL is repl.ts (what the CLI sends and expects), the port server.ts (token, loopback, virtual time).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { cryptoSeed } from "../../firmware/tools/prng.ts";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { BOARDS } from "../../hardware/boards.ts";
import { DEFAULT_PROFILE, loadProfile } from "../../hardware/profile.ts";
import { BOOT_FILE, DEFAULT_FIRMWARE, VirtualBoard } from "../board/board.ts";
import { VirtualStorage } from "../board/storage.ts";
import { CONSOLE_HOST, DEFAULT_CONSOLE_PORT, startConsoleServer, type ConsoleServer } from "./server.ts";

const USAGE =
  "usage: npm run sim:console -- [--port N] [--profile NAME|PATH] [--storage FILE] [--empty] [--bundle FILE] [--no-token] [--seed N]";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        profile: { type: "string" },
        storage: { type: "string" },
        empty: { type: "boolean" },
        bundle: { type: "string" },
        "no-token": { type: "boolean" },
        seed: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`sim:console: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(
      [
        USAGE,
        "  Runs a virtual board with its Espruino console on tcp://127.0.0.1:PORT (default 4001), for the espruino CLI.",
        "  --profile  the unit to simulate (default r1-pico)",
        "  --storage  keep the board's Storage in this JSON file (what the CLI flashes survives restarts)",
        "  --empty    start with no .bootcde (a fresh board: flash it with the CLI)",
        "  --bundle   start with this bundle as .bootcde (default dist/firmware.js, built if missing)",
        "  --no-token admit a loopback client without the per-run token (the espruino CLI and npm run flash cannot send one);",
        "             a client that speaks HTTP (a web page) is still cut off before anything it sent runs",
        "  --seed N   seed of the board's hardware noise (E.hwRand, which makes the locked console's password);",
        "             default: a new one from the host's cryptographic source each run",
      ].join("\n"),
    );
    return 0;
  }
  const port = values.port === undefined ? DEFAULT_CONSOLE_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`sim:console: --port must be a TCP port number, not ${values.port}\n${USAGE}`);
    return 2;
  }
  const seed = values.seed === undefined ? cryptoSeed() : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    console.error(`sim:console: --seed must be a whole number from 0 to 4294967295, not ${values.seed}\n${USAGE}`);
    return 2;
  }
  const profile = loadProfile(values.profile ?? DEFAULT_PROFILE);
  const info = BOARDS[profile.board];
  const show = (p: string) => relative(process.cwd(), p) || p;

  // What .bootcde holds at start: the Storage file's own, none (--empty), or the bundle.
  // (A Storage file's .bootcde is an image, stored as it is; a bundle is stored pretokenised, as npm run flash stores it.)
  let firmware: string | Uint8Array | undefined;
  let from: string;
  const kept =
    values.storage && existsSync(values.storage)
      ? new VirtualStorage({
          capacity: info.storageBytes,
          file: resolve(values.storage),
          warn: (w) => console.warn(`warning: ${w}`),
        }).read(BOOT_FILE)
      : undefined;
  if (values.empty) {
    firmware = "";
    from = "empty Storage";
  } else if (kept !== undefined) {
    firmware = kept;
    from = `${BOOT_FILE} from ${show(values.storage!)}`;
  } else if (values.bundle) {
    firmware = readFileSync(values.bundle, "latin1");
    from = show(resolve(values.bundle));
  } else {
    const marker = `id:"${profile.id}"`;
    if (existsSync(DEFAULT_FIRMWARE) && readFileSync(DEFAULT_FIRMWARE, "latin1").includes(marker)) {
      firmware = readFileSync(DEFAULT_FIRMWARE, "latin1");
      from = show(DEFAULT_FIRMWARE);
    } else {
      const { buildFirmware } = await import("../../firmware/tools/build.ts");
      if (profile.id === DEFAULT_PROFILE) {
        firmware = (await buildFirmware({ profile: profile.id })).code;
        from = `${show(DEFAULT_FIRMWARE)} (built now)`;
      } else {
        const dir = mkdtempSync(join(tmpdir(), "brainboard-console-"));
        try {
          firmware = (await buildFirmware({ profile: profile.id, out: join(dir, "firmware.js") })).code;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        from = `a bundle built now for ${profile.id}`;
      }
    }
  }

  // A per-run token: another program on this machine (or a page that found a way to send raw TCP) cannot guess it.
  const token = values["no-token"] ? null : randomBytes(16).toString("hex");
  const board = new VirtualBoard({ profile: profile.id, firmware, seed, storageFile: values.storage && resolve(values.storage) });
  if (values.empty) board.storage.erase(BOOT_FILE);
  let server: ConsoleServer;
  try {
    server = await startConsoleServer(board, { port, clock: "always", log: (l) => console.log(l), token });
  } catch (e) {
    const code = (e as { code?: string }).code;
    console.error(
      code === "EADDRINUSE"
        ? `sim:console: port ${port} on ${CONSOLE_HOST} is in use (another sim:console?); pick another with --port N, or --port 0 for any free one`
        : `sim:console: cannot listen on ${CONSOLE_HOST}:${port}: ${(e as Error).message}`,
    );
    return 2;
  }
  board.on("reset", () => console.log(`board: reset (${board.resets[board.resets.length - 1]?.reason ?? "?"})`));
  board.powerOn();

  const url = `tcp://${CONSOLE_HOST}:${server.port}`;
  const boardFile = info.cliBoardFile ? `hardware/${info.cliBoardFile}` : undefined;
  console.log(`sim:console: ${profile.id} (${info.name}) running ${from}; console on ${url}`);
  if (token) {
    console.log(`token: ${token}`);
    console.log("  a client's first line must be this token (e.g. nc 127.0.0.1 PORT, then paste it); to flash with the");
    console.log("  espruino CLI, which cannot send it, restart with --no-token");
  }
  console.log("flash it with the espruino CLI:");
  if (profile.id !== DEFAULT_PROFILE) console.log(`  npm run build -- --profile ${profile.id}   # dist/firmware.js for this unit first`);
  console.log(`  npx espruino --no-ble -p ${url}${boardFile ? ` --board ${boardFile}` : ""} dist/firmware.js --storage ${BOOT_FILE}:-`);
  console.log(`  npm run flash -- --port ${url}${profile.id === DEFAULT_PROFILE ? "" : ` --profile ${profile.id}`}`);
  console.log(`a terminal: npx espruino --no-ble -p ${url}   (Ctrl-C twice to leave)`);
  console.log("Ctrl-C here stops the board.");

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
