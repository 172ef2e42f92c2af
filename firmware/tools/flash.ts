/**
 * npm run flash -- --port /dev/ttyACM0 [--profile NAME|PATH] [--erase] [--dry-run] [--out-dir DIR] [--bundle FILE] [--timeout S] [--baud N]
 *
 * Builds the firmware for a profile and writes its pretokenised image (build.ts, pretokenise.ts) with the espruino CLI
 * into the board's Storage as `.bootcde`, which runs at every boot (docs/espruino.md 2.3, 2.4, 6.2), with the solver's decision tables beside it (firmware/tools/tables.ts:
 * one Storage file per codebreaker variant the build can play; `--no-tables` leaves them out and the unit then
 * searches on its own, weaker and slower on the big variants). `--dry-run` needs no board: it writes exactly what would be sent to
 * <out-dir>/upload.js with the CLI's -o.
 *
 * The files go into Storage in this order: .bootcde first, then the tables that fit in the rest of its last flash page,
 * then a pad file (.bbpad, hardware/boards.ts pageAlignPad) for what is left of that page, then the other tables
 * (tables.ts bootLayout). So the first file after them starts a page, nothing before it ever changes, and no Storage
 * compaction (which the firmware's saves cause every dozen or so) ever erases a page of .bootcde: a power cut during
 * one cannot lose the firmware (nor the tables in its page). That needs .bootcde at the start of Storage, so the tool writes the pad only into
 * Storage that is empty when the upload starts: a new board, --erase, or a board that holds nothing but the files this
 * tool writes and the unit's saved game (it erases those first itself). The saved game is carried across: before the
 * erase the tool reads the save slots (bb.s0, bb.s1) through the console, keeps each usable one in the current save
 * format (save-upgrade.ts: format 1 is brought up to 2, same name and sequence), writes them back after the tables (so
 * they lie on the pages compactions rewrite, never on .bootcde's) and reads them back like every other file; a slot it
 * cannot use is named and not kept. When other files are there, it keeps them (the saves are still carried, after the
 * tables), writes no pad, and says that the firmware is not protected until it is flashed with --erase, which erases
 * everything, the saved game included. A saved two-player game that holds a secret makes the unit lock its console as
 * it starts, so then the upload does not start the firmware: the tool does, once it has read back what it wrote. A pad that would
 * leave less than STATE_RESERVE_BYTES for saved state (on R1 with today's tables: an image over 32,008 bytes) is left
 * out with a warning too (tables.ts protectedLayout). After the upload it works out where each file
 * lies from the board's own list and says whether the layout protects .bootcde.
 *
 * The CLI (EspruinoTools 0.1.67) has known faults, worked around here:
 * - BLE crashes it without D-Bus: always --no-ble;
 * - its minifier breaks classes and its module loader goes online: the bundle is already one minified file, the board
 *   file (offline, hardware/boards/) tells it neopixel and Storage are built in, and minification/compilation are off;
 * - uploads of 512 bytes or less never finish: the CLI runs under a timeout that explains this;
 * - it exits 0 when the port cannot be opened: its output is watched for that;
 * - it writes its --storage files before the code it is given (so .bootcde, its code, last), in the reverse of the
 *   order given, and in 384-byte base64 chunks that each cost 250 ms: the tool writes the Storage writes itself
 *   (uploadScript), in its order, and gives the CLI that script to send as it is;
 * - on Linux it finds even an explicitly named serial port through `udevadm info -e`: checked first.
 * `save()` is never used: 2v29 refuses it while .bootcde exists, so the two methods must not be mixed.
 *
 * Around the upload the tool talks to the board's console itself (board-console.ts): before, it checks the board's
 * Espruino version and board and measures its Storage (with --erase it first erases all of it; trash is compacted
 * when the new files need its room); after, it reads back the length and CRC-32 of .bootcde and of every table and
 * compares them with what was sent. The image is binary: it goes as base64 chunks the board decodes (atob), like the tables.
 *
 * Exit codes: 0 done and verified; 1 the build, the size check, the upload or its verification failed, or the board
 * did not answer; 2 something to fix before flashing (arguments, no port, port missing or not openable, nothing
 * listening on a tcp:// port, serialport or udevadm missing, an old Espruino, another board than the profile's).
 *
 * A locked console (a two-player game holds a secret) cannot be flashed: see LOCKED_CONSOLE_HELP in board-console.ts
 * and hardware/README.md for the recovery.
 */
export * from "./flash/types.ts";
export * from "./flash/ports.ts";
export * from "./flash/upload.ts";
export * from "./flash/verify.ts";
export * from "./flash/saves.ts";
export { flash } from "./flash/main.ts";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "./flash/main.ts";

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
