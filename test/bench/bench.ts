/**
 * npm run bench [-- --write]: the figures of docs/design.md section 5 that the foundation must hold, measured on the
 * built bundle in the virtual board (virtual time, byte and pixel counts: no wall-clock timing).
 * --write puts them into docs/performance.md. Exits 1 when a bound is not met.
 */
import { buildFirmware, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";
import { STATE_RESERVE_BYTES } from "../../firmware/tools/flash.ts";
import { solverTablesFor, storageUse } from "../../firmware/tools/tables.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { ledCount, loadProfile } from "../../hardware/profile.ts";
import { measuredOn, table, writeBlock } from "./docs-block.ts";

const WIRE_US_PER_PIXEL = 30;
const LATENCY_BOUND_MS = 30;
const REFRESH_BOUND_MS = 6;

interface Row {
  what: string;
  value: string;
  bound: string;
  ok: boolean;
}
const rows: Row[] = [];
const report = (what: string, value: string, bound: string, ok: boolean) => rows.push({ what, value, bound, ok });

const profile = loadProfile();
const built = await buildFirmware();
report(
  "firmware as stored (.bootcde, pretokenised)",
  `${built.imageBytes} bytes`,
  `<= ${STORED_BOUND_BYTES} bytes`,
  built.imageBytes <= STORED_BOUND_BYTES,
);
// The stored firmware, its page-aligning pad and the solver's tables in the Pico's Storage, each file with its header,
// leave room for the saved match.
{
  const tables = solverTablesFor(profile.pegs);
  const storage = BOARDS[profile.board].storageBytes;
  const used = storageUse(built.imageBytes, tables, BOARDS[profile.board].storagePageBytes);
  report(
    `Storage left after the stored firmware + ${tables.length} solver tables`,
    `${storage - used} bytes (${used} of ${storage} used)`,
    `>= ${STATE_RESERVE_BYTES} bytes`,
    storage - used >= STATE_RESERVE_BYTES,
  );
}

// Worst LED current over every frame of a game and the self-test's lamp test.
let worstMa = 0;
function watchCurrent(board: VirtualBoard) {
  board.on("leds", () => {
    let ma = 0;
    for (const px of board.pixels()) ma += profile.leds.idleMaPerPixel + (profile.leds.maPerChannel * (px.r + px.g + px.b)) / 255;
    worstMa = Math.max(worstMa, ma);
  });
}

// Key press to changed LEDs: press a colour key while a guess is being keyed in and wait for its peg to light.
const board = new VirtualBoard({ firmware: built.code, seed: 7 });
watchCurrent(board);
board.powerOn();
board.advance(50);
board.tap("p66"); // start a Brainiac match, unit referees
for (const k of ["m11", "m12", "m13", "m14", "m34"]) board.tap(k);
const latencies: number[] = [];
const colourKeys = ["p11", "p12", "p13", "p14", "p15", "p16"];
const names = ["red", "green", "blue", "yellow", "white", "orange"];
const pegs = profile.pegs;
for (let row = 0; row < 10; row++) {
  for (let hole = 0; hole < 4; hole++) {
    const c = (row + hole * 2) % 6;
    const pixel = row * pegs + hole;
    const t0 = board.now;
    board.press(colourKeys[c]);
    let waited = 0;
    while (board.colours("board")[pixel] !== names[c] && waited < 200) {
      board.advance(0.25);
      waited += 0.25;
    }
    latencies.push(board.now - t0);
    board.advance(60);
    board.release(colourKeys[c]);
    board.advance(60);
  }
  board.tap("p66"); // submit the row
}
const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
const max = Math.max(...latencies);
report(
  "key press to changed LEDs (virtual ms, 5 ms bounce)",
  `mean ${mean.toFixed(1)}, max ${max.toFixed(1)} over ${latencies.length}`,
  `<= ${LATENCY_BOUND_MS} ms`,
  max <= LATENCY_BOUND_MS,
);

const pixels = ledCount(profile);
const refreshMs = (pixels * WIRE_US_PER_PIXEL) / 1000;
report(
  "full LED refresh on the wire",
  `${pixels * 3} bytes, ${refreshMs.toFixed(2)} ms`,
  `<= ${REFRESH_BOUND_MS} ms`,
  refreshMs <= REFRESH_BOUND_MS,
);

// Writes only when the frame changed: over 10 s of an idle menu, the only changes are the OK key's blink.
const idle = new VirtualBoard({ firmware: built.code });
idle.powerOn();
idle.advance(1000);
const w0 = idle.ledStats.writes;
idle.advance(10_000);
const idleWrites = idle.ledStats.writes - w0;
report(
  "LED writes in 10 s of idle menu (blink of one key: 2 per 600 ms)",
  `${idleWrites}`,
  "<= 34 (only changed frames)",
  idleWrites <= 34,
);

// The self-test's lamp test lights every LED white: the worst frame there is.
const lamp = new VirtualBoard({ firmware: built.code });
watchCurrent(lamp);
lamp.press("p66");
lamp.powerOn();
lamp.advance(80);
lamp.release("p66");
lamp.advance(6000);
report(
  "LED current, worst frame after the cap (game + lamp test)",
  `${worstMa.toFixed(0)} mA`,
  `<= ${profile.leds.budgetMa} mA`,
  worstMa <= profile.leds.budgetMa,
);

// Flash writes per game: every committed action saves once (never on a timer). Count a whole
// Brainiac game (secret, 12 rows, the end) through Storage's single write path.
const wear = new VirtualBoard({ firmware: built.code, seed: 3 });
let saves = 0;
let savedBytes = 0;
const apply = wear.storage.apply.bind(wear.storage);
wear.storage.apply = (op) => {
  if (op.kind === "create" && op.name.startsWith("bb.s")) {
    saves++;
    savedBytes += op.bytes.length + 32; // data and the file header
  }
  return apply(op);
};
wear.powerOn();
wear.advance(200);
wear.tap("p66");
for (const k of ["m11", "m12", "m13", "m14", "m34"]) wear.tap(k);
const savesBefore = saves;
const bytesBefore = savedBytes;
for (let row = 0; row < 12; row++) for (const k of ["p16", "p16", "p15", "p15", "p66"]) wear.tap(k);
const perGameSaves = saves - savesBefore + 2; // plus the secret and the next game's start
const perGameBytes = Math.round(((savedBytes - bytesBefore) / (saves - savesBefore)) * perGameSaves);
const freeForSaves = 48 * 1024 - built.imageBytes;
// STM32F401 flash: 10,000 erase cycles per sector (datasheet). Storage compacts (erases its pages)
// about once each time the journal fills the space the code leaves free.
const gamesPerCycle = freeForSaves / perGameBytes;
report(
  "flash writes per 12-row Brainiac game",
  `${perGameSaves} saves, ${perGameBytes} bytes`,
  `one per committed action; ~${Math.round(gamesPerCycle * 10_000).toLocaleString("en")} games to 10k erases`,
  perGameSaves <= 16,
);

const mem = board.memory?.();
if (mem) report("JsVars in use after a 10-row game (estimate)", `${mem.usage} of ${mem.total}`, `< ${mem.total}`, mem.usage < mem.total);

// Issue 8: memory while the unit breaks a race-advanced code (its candidate list, the table read from Storage): the peak
// over a whole game, sampled every 10 ms of virtual time, against the Pico's 5,100 JsVars.
{
  const race = new VirtualBoard({ firmware: built.code, seed: 3 });
  race.powerOn();
  race.advance(50);
  // The menu: the race, advanced, the unit breaks; OK; then OK on an empty secret (kept in the head).
  for (const k of ["p13", "p22", "p34", "p66", "m34"]) race.tap(k);
  const secret = [8, 3, 3, 0, 6];
  const symbols = ["red", "green", "blue", "yellow", "white", "orange", "pink", "violet"];
  let peak = 0;
  let solvedIn = 0;
  const sample = (ms: number) => {
    for (let t = 0; t < ms; t += 10) {
      race.advance(10);
      peak = Math.max(peak, race.memory()?.usage ?? 0);
    }
  };
  for (let row = 0; row < 12 && !solvedIn; row++) {
    sample(1500);
    const guess = race
      .colours("board")
      .slice(row * pegs, row * pegs + 5)
      .map((c) => (c === "off" ? 8 : symbols.indexOf(c)));
    let exact = 0;
    const left = new Map<number, number>();
    guess.forEach((g, i) => (g === secret[i] ? exact++ : left.set(secret[i], (left.get(secret[i]) ?? 0) + 1)));
    let near = 0;
    guess.forEach((g, i) => {
      if (g !== secret[i] && (left.get(g) ?? 0) > 0) {
        near++;
        left.set(g, left.get(g)! - 1);
      }
    });
    for (let i = 0; i < exact; i++) race.tap("m31");
    for (let i = 0; i < near; i++) race.tap("m32");
    race.tap("m34");
    if (exact === 5) solvedIn = row + 1;
  }
  const total = race.memory()?.total ?? 5100;
  report(
    `JsVars at peak while the unit breaks a race-advanced code (${solvedIn ? `solved in ${solvedIn}` : "not solved"})`,
    `${peak} of ${total}`,
    `< ${total}`,
    peak > 0 && peak < total && solvedIn > 0 && race.errors.length === 0,
  );
}

const width = Math.max(...rows.map((r) => r.what.length));
for (const r of rows) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.what.padEnd(width)}  ${r.value.padEnd(34)} bound ${r.bound}`);
if (board.errors.length) console.log("firmware errors:", board.errors);
if (process.argv.includes("--write"))
  await writeBlock(
    "bench",
    `Measured by \`npm run bench -- --write\` on ${measuredOn()}, on the built bundle for ${profile.id} in the simulator.\n\n` +
      table(
        ["figure", "value", "bound", ""],
        rows.map((r) => [r.what, r.value, r.bound, r.ok ? "met" : "**missed**"]),
      ),
  );
process.exit(rows.every((r) => r.ok) && board.errors.length === 0 ? 0 : 1);
