/**
 * npm start [-- --engine sim|espruino] [--profile NAME] [--port N] [--storage FILE] [--host ADDR] [--bounce MS] [--seed N]
 *           [--watch [--preset NAME] [--harder]]
 *
 * Builds the bundle for the profile (dist/firmware.js, as npm run build does), runs it on the
 * virtual board in step with real time, and serves the page that draws the unit (prints its URL).
 * The unit's Storage is kept in a file, so a match survives restarting the simulator.
 * With --engine espruino the unit runs on the real Espruino interpreter ($BRAINBOARD_ESPRUINO_DIR, from
 * RAM) instead, behind the same page; its Storage is the interpreter's own flash file, kept for the run.
 */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { BuildError, DEFAULT_OUT, sizeReport, STORED_BOUND_BYTES } from "../firmware/tools/build.ts";
import { DEFAULT_PROFILE, loadProfile, ProfileError } from "../hardware/profile.ts";
import { VirtualBoard } from "./board/board.ts";
import { bundleFor } from "./board/firmware-bundle.ts";
import { defaultStorageFile } from "./board/storage-folder.ts";
import { cryptoSeed } from "../firmware/tools/prng.ts";
import { DEFAULT_PORT, startSimulator } from "./web/server.ts";
import { EngineError } from "./espruino/engine.ts";
import { PRESET_IDS } from "../firmware/core/presets.ts";
import type { PresetId } from "../firmware/core/types.ts";

const USAGE = `usage: npm start -- [--engine sim|espruino] [--profile NAME] [--port N] [--storage FILE] [--host ADDR] [--bounce MS]
                      [--seed N] [--watch [--preset NAME] [--harder]]

  --engine NAME    sim (default: the virtual board, in step with real time) or espruino (the real Espruino
                   interpreter where BRAINBOARD_ESPRUINO_DIR points, from RAM; its Storage lasts as long as the run)
  --profile NAME   hardware profile (default ${DEFAULT_PROFILE})
  --port N         port of the page (default ${DEFAULT_PORT}; a free one when taken)
  --storage FILE   the unit's Storage file (default ~/.brainboard/storage-PROFILE.json; the virtual board only)
  --host ADDR      address to listen on (default 127.0.0.1; 0.0.0.0 to let other machines in)
  --bounce MS      key contact bounce (default 5)
  --seed N         seed of the board's randomness (default: a new one from the host's cryptographic source)
  --watch          start watching the unit play at once (as the page's "Watch the unit play" button)
  --preset NAME    with --watch: brainiac, travel or race (default: the unit's menu choice)
  --harder         with --watch: the harder variant`;

async function main(): Promise<void> {
  let values;
  try {
    values = parseArgs({
      options: {
        profile: { type: "string" },
        port: { type: "string" },
        storage: { type: "string" },
        host: { type: "string" },
        bounce: { type: "string" },
        seed: { type: "string" },
        watch: { type: "boolean" },
        preset: { type: "string" },
        harder: { type: "boolean" },
        engine: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(1);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const num = (name: string, v: string | undefined, max = Infinity) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > max) {
      console.error(`--${name} needs a whole number from 0 to ${max}, got "${v}"`);
      process.exit(1);
    }
    return n;
  };
  const port = num("port", values.port, 65535) ?? DEFAULT_PORT;
  const bounceMs = num("bounce", values.bounce);
  const seed = num("seed", values.seed) ?? cryptoSeed();
  const engine = values.engine ?? "sim";
  if (engine !== "sim" && engine !== "espruino") {
    console.error(`--engine needs sim or espruino, got "${engine}"`);
    process.exit(1);
  }
  if (engine === "espruino" && values.storage !== undefined) {
    console.error("--storage is for the virtual board: the real interpreter keeps Storage in its own flash file");
    process.exit(1);
  }
  if (values.preset !== undefined && !PRESET_IDS.includes(values.preset as PresetId)) {
    console.error(`--preset needs one of ${PRESET_IDS.join(", ")}, got "${values.preset}"`);
    process.exit(1);
  }

  let profileId: string;
  let firmware: string;
  try {
    profileId = loadProfile(values.profile).id;
    const built = await bundleFor(values.profile, DEFAULT_OUT);
    firmware = built.code;
    console.log(
      `built ${relative(process.cwd(), built.out ?? DEFAULT_OUT)} for ${profileId}: ${sizeReport(built.bytes)}; as stored (pretokenised): ${sizeReport(built.imageBytes, STORED_BOUND_BYTES)}`,
    );
  } catch (e) {
    if (e instanceof BuildError || e instanceof ProfileError) {
      console.error(`build failed: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const common = { profile: values.profile, firmware, port, host: values.host, bounceMs, seed };
  let storageFile = engine === "sim" ? (values.storage ?? defaultStorageFile(profileId)) : undefined;
  if (storageFile === null) {
    console.warn(
      "warning: no private folder for the unit's Storage (~/.brainboard cannot be made, and the temporary directory's is not this user's own): it is kept in memory only; pass --storage FILE to keep it",
    );
    storageFile = undefined;
  }
  let sim;
  try {
    sim =
      engine === "espruino" ? await startSimulator({ ...common, engine: "espruino" }) : await startSimulator({ ...common, storageFile });
  } catch (e) {
    if (e instanceof EngineError) {
      console.error(`the real interpreter could not start the unit: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  if (sim.portTaken !== undefined) console.log(`port ${sim.portTaken} is taken; using port ${sim.port} instead`);
  // A Storage file that could not be used was moved aside: say so before anything else.
  for (const w of sim.board.warnings) console.warn(`warning: ${w}`);
  const vboard = sim.board instanceof VirtualBoard ? sim.board : null;
  // (A file that cannot be written at start was named among the warnings above: Storage is then in memory only.)
  if (vboard?.storage.problem) console.warn("storage: kept in memory only this run (see the warning above)");
  else if (storageFile)
    console.log(`storage: ${storageFile} (the match survives restarts; delete the file to start afresh, or pass --storage FILE)`);
  else if (engine === "espruino")
    console.log(
      "storage: the interpreter's own flash file, in a folder of its own removed when this stops (a power cycle keeps the match)",
    );
  else console.log("storage: in memory only (nothing played survives a restart)");
  // A save the disk refuses (full, read-only) is said at once, and again when saving works again.
  vboard?.on("storage", () => {
    const p = vboard.storage.problem;
    if (p) console.error(`\x1b[31mstorage: ${p}\x1b[0m`);
    else console.log("storage: the Storage file is written again");
  });
  console.log(
    `Brainboard simulator (${sim.board.profile.name}${engine === "espruino" ? ", on the real Espruino interpreter" : ""}) running at ${sim.url}`,
  );
  console.log("open it in a browser; keyboard shortcuts are listed on the page. Ctrl+C stops.");
  // The firmware's console, here too (errors in red), from the boot on.
  let printed = 0;
  const printConsole = () => {
    const log = sim.board.consoleLog;
    for (; printed < log.length; printed++) {
      const line = log[printed];
      if (sim.board.errors.includes(line)) console.error(`\x1b[31mfirmware error: ${line}\x1b[0m`);
      else console.log(`firmware: ${line}`);
    }
  };
  printConsole();
  sim.board.on("console", printConsole);
  if (values.watch) {
    const w = sim.watch({ preset: values.preset as PresetId | undefined, harder: values.harder });
    w.on((e) => {
      if (e.type !== "guess") console.log(`watch: ${e.text}`);
    });
  }
  const stop = () => {
    sim.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

await main();
