/**
 * npm run flash: the flash itself (flash()) and its command line.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BOARDS, PAD_FILE } from "../../../hardware/boards.ts";
import { DEFAULT_PROFILE, loadProfile, ProfileError } from "../../../hardware/profile.ts";
import { IMAGE_LIMIT_BYTES, BuildError, buildFirmware } from "../build.ts";
import { pretokenise, programDifference } from "../pretokenise.ts";
import { SOLVER_TABLE_NAMES, solverTablesFor, STATE_RESERVE_BYTES } from "../tables.ts";
import { isKept, SAVE_SLOT_NAMES, type DroppedSlot, type KeptSlot } from "../save-upgrade.ts";
import {
  HARDWARE_DIR,
  DEFAULT_OUT_DIR,
  IMAGE_FILE,
  CLI_SHORT_UPLOAD_BYTES,
  BOOT_FILE,
  LINUX_BOARD,
  FlashError,
  type FlashOptions,
  type FlashResult,
  type UploadFile,
  type StorageLayout,
  type BoardReport,
} from "./types.ts";
import { espruinoCli, openConsole, asFlashError, noPortMessage, checkPort } from "./ports.ts";
import {
  SCRIPT_FILE,
  START_FAILURE,
  checkBoardRoom,
  storageBudget,
  checkStorageFit,
  padRefusal,
  uploadScript,
  defaultTimeoutS,
  runCli,
  CLI_CONFIG,
  flashFiles,
} from "./upload.ts";
import { boardReport, checkVersion, verifyFiles, storageLayout } from "./verify.ts";
import { backupSlots, erasedNote, keptNote, readSlots, rescueAfter, rescueSlots, slotFiles, slotsFromDisk } from "./saves.ts";

/** Builds (or takes) the bundle, checks that its pretokenised image fits, and uploads that as .bootcde, or writes the upload to a file. */
export async function flash(opts: FlashOptions = {}): Promise<FlashResult> {
  const out = opts.out ?? ((t: string) => process.stdout.write(t));
  const err = opts.err ?? ((t: string) => process.stderr.write(t));
  if (!opts.dryRun && !opts.port) throw new FlashError(noPortMessage(opts.devDir), 2);
  const profile = loadProfile(opts.profile ?? DEFAULT_PROFILE);
  const board = BOARDS[profile.board];
  if (!board.cliBoardFile)
    throw new FlashError(`the ${board.name} has no board file for the espruino CLI (cliBoardFile in hardware/boards.ts)`, 2);
  const boardFile = HARDWARE_DIR + board.cliBoardFile;
  // Checked before building, so a wrong port is reported at once.
  const port = opts.dryRun ? undefined : checkPort(opts.port!, { devDir: opts.devDir, platform: opts.platform, warn: err });
  const outDir = resolve(opts.outDir ?? DEFAULT_OUT_DIR);
  // Something must be listening there before the build is worth its time.
  if (port) await (await openConsole(port, opts.baud ?? board.consoleBaud)).close();

  // The bundle (JavaScript) and the image stored from it (pretokenised: pretokenise.ts), written beside the upload.
  let bundle: string;
  let bundleBytes: number;
  let firmware: Uint8Array;
  if (opts.bundle) {
    bundle = resolve(opts.bundle);
    if (!existsSync(bundle)) throw new FlashError(`no bundle at ${bundle}`, 2);
    const code = readFileSync(bundle, "latin1");
    bundleBytes = code.length;
    try {
      firmware = pretokenise(code);
    } catch (e) {
      throw new FlashError(`${bundle} cannot be pretokenised: ${(e as Error).message}`, 1);
    }
    // As the build checks its own: the image must read back as the bundle's program.
    const differs = programDifference(code, firmware);
    if (differs) throw new FlashError(`${bundle} is not stored as the same program once pretokenised: ${differs}`, 1);
  } else {
    const built = await buildFirmware({ profile: opts.profile ?? DEFAULT_PROFILE, out: join(outDir, "firmware.js") });
    bundle = built.out;
    bundleBytes = built.bytes;
    firmware = built.image;
  }
  const bytes = firmware.length;
  mkdirSync(outDir, { recursive: true });
  const image = join(outDir, IMAGE_FILE);
  writeFileSync(image, firmware);
  const show = (p: string) => relative(process.cwd(), p) || p;
  const tables = opts.noTables ? [] : solverTablesFor(profile.pegs);
  const budget = storageBudget(board);
  if (bytes > budget)
    throw new FlashError(
      [
        `${show(bundle)} is ${bytes} bytes as stored (pretokenised), over the Storage budget of ${budget} bytes for the ${board.name}`,
        `  (the ${IMAGE_LIMIT_BYTES}-byte bound of docs/design.md 5, and ${board.storageBytes} bytes of Storage less ${STATE_RESERVE_BYTES} kept for saved state)`,
        "  make the firmware smaller, or check that the bundle was minified (npm run build)",
      ].join("\n"),
      1,
    );
  const used = checkStorageFit(board, bytes, tables);
  if (bytes <= CLI_SHORT_UPLOAD_BYTES)
    err(
      `warning: ${bytes} bytes is a short upload; the espruino CLI 0.1.67 never reports those as done, so it will be stopped after the timeout\n`,
    );

  const cli = opts.cli ?? espruinoCli();
  const common = ["--board", boardFile, ...CLI_CONFIG];
  const script = join(outDir, SCRIPT_FILE);
  // The files in Storage order: .bootcde, the tables in its page and the pad (into empty Storage), the tables, then the saves carried across.
  const uploadFiles = (empty: boolean, kept: KeptSlot[] = []): UploadFile[] => {
    const files = [...flashFiles(firmware, tables, board, empty), ...slotFiles(kept)];
    const refused = empty ? padRefusal(board, bytes, tables) : null;
    if (refused) err(refused);
    // A save the unit resumes with its console locked: the upload does not start the firmware, the tool does once it
    // has read back what was written (it could not read it through a locked console).
    writeFileSync(script, uploadScript(files, !kept.some((k) => k.locksConsole)));
    return files;
  };
  const sum = (files: UploadFile[]) => files.reduce((n, f) => n + f.bytes.length, 0);
  const padOf = (files: UploadFile[]) => files.find((f) => f.name === PAD_FILE)?.bytes.length;
  const describe = (files: UploadFile[]) => {
    const pad = padOf(files);
    const padAt = files.findIndex((f) => f.name === PAD_FILE);
    const names = (from: number, to: number) => files.slice(from, to).filter((f) => SOLVER_TABLE_NAMES.includes(f.name));
    const inPage = padAt > 0 ? names(1, padAt) : [];
    const inPageNote = inPage.length
      ? `, then ${inPage.length} solver tables in the rest of its last flash page (${inPage.map((f) => `${f.name}, ${f.bytes.length} bytes`).join("; ")})`
      : "";
    const padNote =
      pad === undefined
        ? ""
        : `, then a ${pad}-byte pad (${PAD_FILE}) so that the next file starts a ${board.storagePageBytes}-byte flash page`;
    const rest = names(padAt > 0 ? padAt + 1 : 1, files.length);
    const tablesNote = rest.length
      ? `, then ${inPage.length ? "the other " : ""}${rest.length} solver tables (${rest.reduce((n, f) => n + f.bytes.length, 0)} bytes: ${rest.map((f) => f.name).join(", ")})`
      : "";
    const saves = files.filter((f) => SAVE_SLOT_NAMES.includes(f.name)).map((f) => f.name);
    const savesNote = saves.length ? `, then the saved game (${saves.join(", ")})` : "";
    return `${inPageNote}${padNote}${tablesNote}${savesNote}`;
  };
  if (opts.dryRun) {
    // No board: its Storage is taken to be empty, as on a new board or with --erase.
    const files = uploadFiles(true);
    const upload = join(outDir, "upload.js");
    const run = await runCli(
      cli,
      ["--no-ble", ...common, "-o", upload, script],
      opts.timeoutS ?? defaultTimeoutS(sum(files)),
      bytes,
      out,
      err,
    );
    if (run.failures.length) err(`flash failed: ${run.failures.join("; ")}\n`);
    const code = run.failures.length ? 1 : run.code;
    if (code !== 0) return { exitCode: code, bundle, bundleBytes, image, imageBytes: bytes, tables };
    if (!existsSync(upload)) throw new FlashError(`the espruino CLI exited without writing ${show(upload)}`, 1);
    const uploadBytes = statSync(upload).size;
    const chunks = readFileSync(upload, "latin1").split(`require("Storage").write(${JSON.stringify(BOOT_FILE)},`).length - 1;
    out(
      `dry run: ${show(upload)}: ${uploadBytes} bytes, what would be sent to write ${show(image)} (${bytes} bytes: ${show(bundle)}, ${bundleBytes} bytes, pretokenised) to empty Storage as ${BOOT_FILE} in ${chunks} chunks${describe(files)}; ${used} of ${board.storageBytes} bytes of Storage used; nothing was sent\n`,
    );
    return { exitCode: 0, bundle, bundleBytes, image, imageBytes: bytes, tables, upload, uploadBytes, padBytes: padOf(files) };
  }
  const baud = opts.baud ?? board.consoleBaud;

  // Before: the board's version and Storage, over its own console.
  let link = await openConsole(port!, baud);
  let report: BoardReport;
  let files: UploadFile[];
  let kept: KeptSlot[] = [];
  let dropped: DroppedSlot[] = [];
  // The saved game's copy on disk, made before anything is erased; and whether anything was.
  let backup: string | null = null;
  let erased = false;
  try {
    report = await boardReport(link);
    checkVersion(report.version, board);
    if (report.board !== board.espruinoBoard && report.board !== LINUX_BOARD)
      throw new FlashError(
        `the board says it is ${report.board}, but profile ${profile.id} is for the ${board.name} (${board.espruinoBoard}): choose the profile of this board with --profile`,
        2,
      );
    out(
      `board: Espruino ${report.version} on ${report.board}; Storage ${report.totalBytes} bytes, ${report.freeBytes} free, ${report.trashBytes} trash, ${report.files.length} files\n`,
    );
    const own = new Set([BOOT_FILE, PAD_FILE, ...SOLVER_TABLE_NAMES]);
    const isSlot = (n: string) => SAVE_SLOT_NAMES.includes(n);
    const others = report.files.filter(([n]) => !own.has(n) && !isSlot(n)).map(([n]) => n);
    const slotsThere = report.files.filter(([n]) => isSlot(n)).map(([n]) => n);
    // The firmware running now is stopped first (its timers, watches and event handlers: what could make it save), so
    // that it writes nothing while its Storage is read and rewritten; the CLI's reset() then clears the rest.
    if (report.files.length) await link.run("clearInterval();clearWatch();E.removeAllListeners()");
    // The saved game is read (or taken from an earlier flash's copy) and kept on disk before anything is erased.
    const slots = opts.restoreSaves ? slotsFromDisk(resolve(opts.restoreSaves)) : await readSlots(link, report);
    kept = slots.filter(isKept);
    dropped = slots.filter((s): s is DroppedSlot => !isKept(s));
    for (const d of dropped) err(`warning: ${d.name}: ${d.problem}, not kept (the unit could not resume from it either)\n`);
    backup = opts.restoreSaves ? resolve(opts.restoreSaves) : backupSlots(outDir, kept);
    if (backup && !opts.restoreSaves) out(`copied the saved game to ${show(backup)} before erasing anything\n`);
    if (opts.restoreSaves && kept.length) out(`restoring the saved game from ${show(backup!)}\n`);
    if (opts.erase && !opts.restoreSaves) kept = [];
    if (opts.erase) {
      out(
        `erasing the board's whole Storage (--erase)${slotsThere.length ? `, the saved game (${slotsThere.join(", ")}) included` : ""}${others.length ? ` and ${others.join(", ")}` : ""}\n`,
      );
      erased = true;
      await link.run('require("Storage").eraseAll()', 120_000);
      report = await boardReport(link);
    } else {
      // The saved game is written back after the tables (save-upgrade.ts: older formats brought up).
      if (kept.length) out(`carrying the saved game across the flash: ${kept.map(keptNote).join(", ")}\n`);
      if (!others.length && (report.files.length || report.trashBytes)) {
        // Only what this tool writes (and the saves it carries) is there: erased, so that .bootcde starts Storage again.
        out(
          `erasing the board's Storage first: it holds only files this flash writes${slotsThere.length ? " and the save slots" : ""} (${report.files.map(([n]) => n).join(", ") || "and trash"}), and ${BOOT_FILE} must start Storage for the pad to keep compaction off its pages\n`,
        );
        erased = true;
        await link.run('require("Storage").eraseAll()', 120_000);
        report = await boardReport(link);
      } else if (others.length) {
        // Other files are kept: the saves and a pad from an earlier flash are erased (the saves are written again
        // after the tables; the pad pads nothing now, and its room goes back to the next compaction).
        erased = slotsThere.length > 0;
        for (const n of [...slotsThere, ...report.files.filter(([n]) => n === PAD_FILE).map(([n]) => n)])
          await link.run(`require("Storage").erase(${JSON.stringify(n)})`);
        report = await boardReport(link);
      }
    }
    const empty = report.files.length === 0 && report.trashBytes === 0;
    files = uploadFiles(empty, kept);
    if (!empty) {
      const keptOthers = report.files.filter(([n]) => !own.has(n) && !isSlot(n)).map(([n]) => n);
      err(
        [
          `warning: the board's Storage holds files this tool does not write (${keptOthers.join(", ")}), kept as they are; ${BOOT_FILE} will be written after them, without the pad,`,
          `  where a Storage compaction (which the unit's saves cause) can rewrite its pages, and a power cut during one then loses the firmware.`,
          `  To keep compaction off the firmware, flash with --erase: it erases those files, and the saved game too; ${BOOT_FILE} then starts Storage, with a pad after it\n`,
        ].join("\n"),
      );
    }
    const room = checkBoardRoom(
      report,
      files.map((f) => ({ name: f.name, bytes: f.bytes.length })),
      board,
    );
    if (room.compact) {
      out("compacting the board's Storage first: the new files need the room its trash takes\n");
      await link.run('require("Storage").compact()', 120_000);
    }
  } catch (e) {
    const f = asFlashError(e);
    // Erased already, perhaps: the saved game goes back on the board before the tool stops.
    if (f instanceof FlashError && kept.length) f.message += `\n${await rescueSlots(link, kept)}`;
    if (f instanceof FlashError && erased) f.message += `\n${erasedNote(port!, backup)}`;
    throw f;
  } finally {
    await link.close();
  }

  const args = ["--no-ble", "-p", port!, ...common, ...(baud ? ["-b", String(baud)] : [])];
  args.push(script);
  out(
    `flashing ${show(image)} (${bytes} bytes: ${show(bundle)}, ${bundleBytes} bytes, pretokenised; profile ${profile.id}) to ${port} as ${BOOT_FILE}${describe(files)}\n`,
  );
  let run: { code: number; failures: string[] };
  try {
    run = await runCli(cli, args, opts.timeoutS ?? defaultTimeoutS(sum(files)), bytes, out, err);
  } catch (e) {
    if (e instanceof FlashError && kept.length) e.message += `\n${await rescueAfter(port!, baud, kept)}`;
    if (e instanceof FlashError) e.message += `\n${erasedNote(port!, backup)}`;
    throw e;
  }
  const uploadFailures = run.failures.filter((f) => f !== START_FAILURE);
  if (run.code !== 0 && !run.failures.length) uploadFailures.push(`the espruino CLI exited with code ${run.code}`);
  const startsItself = kept.some((k) => k.locksConsole);

  // After: what the board stored, read back, whatever the CLI said; then where it lies.
  try {
    link = await openConsole(port!, baud);
  } catch (e) {
    // The board stopped answering after the upload began: what it holds now is not known.
    const f = asFlashError(e);
    if (f instanceof FlashError) {
      if (uploadFailures.length) f.message = `upload failed: ${uploadFailures.join("; ")}\n${f.message}`;
      f.message += `\n  the upload could not be read back, so the firmware on the board may be incomplete\n${erasedNote(port!, backup)}`;
    }
    throw f;
  }
  let verified: { name: string; bytes: number; crc32: number }[];
  let layout: StorageLayout;
  try {
    verified = await verifyFiles(link, files);
    layout = storageLayout(await boardReport(link), board.storagePageBytes);
    // load() from a timer: the answer goes out first, then the board restarts (as at power-on) into the new firmware.
    if (startsItself && !uploadFailures.length) await link.run("setTimeout(function(){load();},0)");
  } catch (e) {
    const f = asFlashError(e);
    if (f instanceof FlashError && uploadFailures.length) f.message = `upload failed: ${uploadFailures.join("; ")}\n${f.message}`;
    if (f instanceof FlashError && kept.length && !/console is locked/.test(f.message)) f.message += `\n${await rescueSlots(link, kept)}`;
    if (f instanceof FlashError && erased) f.message += `\n${erasedNote(port!, backup)}`;
    throw f;
  } finally {
    await link.close();
  }
  out(`verified: ${verified.map((v) => `${v.name} ${v.bytes} bytes crc32 ${v.crc32.toString(16)}`).join(", ")}\n`);
  const where = layout.files.map((f) => `${f.name} at ${f.offset}`).join(", ");
  if (layout.protected)
    out(
      `layout: ${where}: ${BOOT_FILE} starts Storage and the next file a ${board.storagePageBytes}-byte flash page, so no compaction rewrites the firmware\n`,
    );
  else err(`warning: the firmware is not out of compaction's way: ${layout.why}${where ? ` (${where})` : ""}\n`);
  if (kept.length) out(`kept the saved game: ${kept.map(keptNote).join(", ")}\n`);
  if (startsItself && !uploadFailures.length)
    out(
      "started the firmware after reading back what was written: it resumes a game that holds a secret (a two-player codebreaker game, a Brain Flip round), so it locks its console until the secret is out\n",
    );
  const saves = { kept: kept.map(({ name, seq, format, upgraded, what }) => ({ name, seq, format, upgraded, what })), dropped };
  if (backup && opts.erase && !opts.restoreSaves) out(`--erase erased the saved game from the board; its copy is in ${show(backup)}\n`);
  const result = {
    bundle,
    bundleBytes,
    image,
    imageBytes: bytes,
    tables,
    board: report,
    verified,
    padBytes: padOf(files),
    layout,
    saves,
    savesBackup: backup,
  };
  if (uploadFailures.length || run.failures.includes(START_FAILURE)) {
    // The files are right, yet the CLI saw a failure: say which, and fail.
    err(`flash failed: ${run.failures.concat(uploadFailures.filter((f) => !run.failures.includes(f))).join("; ")}\n`);
    return { exitCode: 1, ...result };
  }
  out(
    `done: ${profile.id} runs from ${BOOT_FILE} at every boot. Hold OK (grid key p66 on R1, bottom-right of the main pad) at power-on for the self-test.\n`,
  );
  return { exitCode: 0, ...result };
}

const USAGE =
  "usage: npm run flash -- --port PORT [--profile NAME|PATH] [--erase] [--restore-saves DIR] [--dry-run] [--no-tables] [--out-dir DIR] [--bundle FILE] [--timeout SECONDS] [--baud N]";
const HELP = [
  USAGE,
  "",
  "  --port PORT        the board's serial port (/dev/ttyACM0), or tcp://HOST:PORT (the simulator's console, espruino --telnet)",
  "  --profile NAME     the build to flash (default r1-pico), or a path to a profile .json",
  "  --erase            erase the board's whole Storage first: everything on it is lost, the saved game included",
  "                     (without it the saved game, bb.s0 and bb.s1, is carried across the flash, older save formats",
  "                     brought up to date, and files this tool does not write are kept, with a warning: the firmware",
  "                     then goes after them, without the pad that keeps Storage compaction off its flash pages)",
  "  --restore-saves DIR  write the saved game kept in DIR by an earlier flash (it copies the board's saves to",
  "                     <out-dir>/saves-TIME before erasing anything) with the firmware, instead of the board's",
  "  --dry-run          no board: write what would be sent to empty Storage to <out-dir>/upload.js",
  "  --no-tables        leave the solver's tables out (the unit then searches on its own)",
  "  --out-dir DIR      where firmware.js, its pretokenised image firmware.tok and the upload go (default dist/)",
  "  --bundle FILE      flash this bundle (JavaScript, pretokenised as it is stored) instead of building one",
  "  --timeout SECONDS  how long the espruino CLI may take",
  "  --baud N           the serial console's baud rate (an ESP32's is set from hardware/boards.ts)",
].join("\n");

export async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        profile: { type: "string" },
        "dry-run": { type: "boolean" },
        "no-tables": { type: "boolean" },
        erase: { type: "boolean" },
        "restore-saves": { type: "string" },
        "out-dir": { type: "string" },
        bundle: { type: "string" },
        timeout: { type: "string" },
        baud: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`flash: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const number = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!(n > 0)) throw new FlashError(`--${name} must be a positive number, not ${v}`, 2);
    return n;
  };
  try {
    const r = await flash({
      port: values.port,
      profile: values.profile,
      dryRun: values["dry-run"],
      noTables: values["no-tables"],
      erase: values.erase,
      restoreSaves: values["restore-saves"],
      outDir: values["out-dir"],
      bundle: values.bundle,
      timeoutS: number(values.timeout, "timeout"),
      baud: number(values.baud, "baud"),
    });
    return r.exitCode;
  } catch (e) {
    if (e instanceof FlashError) {
      console.error(`flash: ${e.message}`);
      return e.exitCode;
    }
    if (e instanceof ProfileError || e instanceof BuildError) {
      console.error(`flash: build failed: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
