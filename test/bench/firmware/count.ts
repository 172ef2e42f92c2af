/**
 * The counting side of bench:micro (npm run bench:micro -- --count): bundled like the firmware, run on the real
 * interpreter under valgrind's callgrind by test/bench/count.ts. One run does one piece of a key press, a frame, a
 * hint or a move: it sets the piece up, then `n` times prepares it and (in the measured run, not in the baseline)
 * does it, and quits. The difference of the two runs' instruction counts, over n, is the piece's own cost.
 *
 * Everything here is deterministic (the instruction counts must repeat): the clock is a fixed number the pieces move
 * themselves (getTime is replaced before the bundle runs), and randomness is a fixed sequence.
 *
 * COUNT (set by the runner before the bundle, an array so that the minifier leaves it alone): the piece's name, n,
 * whether to do the work (1) or only prepare (0), the race advanced game's rows ([[...guess, exact, near], ...]) and
 * its solver table (a string, as Storage.read gives it).
 */
import profile from "brainboard:profile";
import { App } from "../../../firmware/ui/app";
import { render } from "../../../firmware/ui/render";
import { Pixels } from "../../../firmware/device/pixels";
import { KeyScanner } from "../../../firmware/device/keys";
import { Scheduler } from "../../../firmware/device/scheduler";
import { SOLVER_SLICE } from "../../../firmware/ui/codebreaker";
import { createHintState, createSolver, type SolverState } from "../../../firmware/core/solver";
import { rulesFor } from "../../../firmware/core/presets";
import type { Row } from "../../../firmware/core/types";

declare const COUNT: [string, number, number, number[][], string];
declare function quit(): void;
declare function clearTimeout(): void;
declare function clearInterval(): void;
/** The interpreter's global object: the fixed clock is there, and the scan's pin functions are replaced. */
declare const global: {
  digitalWrite: (pins: unknown, value: number) => void;
  digitalRead: (pins: unknown) => number;
  setWatch: () => number;
  clearWatch: () => void;
  __clock: number;
};

/** A fixed sequence for the app's randomness (a Park-Miller generator). */
let seed = 12345;
function random(): number {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
}

/** Moves the fixed clock (ms). */
function clockTo(ms: number): void {
  global.__clock = ms / 1000;
}

const app = new App(profile, random);
const frame = new Uint8Array(profile.ledCount);
const pixels = new Pixels(profile);
let now = 1000;

function tap(k: number): void {
  app.key(k, true, (now += 100));
  app.key(k, false, (now += 100));
}

/** The LED supply is switched on at the first show and settled from then on (its settle time is far below SETTLED). */
const SETTLED = 1e6;
function playWithLeds(): void {
  brainiacInPlay();
  render(app, frame, now);
  pixels.show(frame, 0);
  pixels.show(frame, SETTLED);
}

/** A Brainiac match refereed: the secret on the codemaker pad, five rows played, two pegs of the sixth keyed. */
function brainiacInPlay(): void {
  tap(35);
  const maker = profile.maker as NonNullable<typeof profile.maker>;
  for (let i = 0; i < 4; i++) tap(maker.colours[i]);
  tap(maker.ok);
  const rows = [
    [0, 0, 1, 1],
    [0, 1, 3, 2],
    [1, 2, 3, 4],
    [5, 4, 3, 2],
    [2, 2, 3, 3],
  ];
  for (let r = 0; r < rows.length; r++) {
    for (let i = 0; i < 4; i++) tap(rows[r][i]);
    tap(35);
  }
  tap(0);
  tap(1);
}

/** The scanner with pin functions as cheap as native ones; `held`: row 2, column 3 closed (the last pin is bit 0). */
let held = false;
function scanner(): () => void {
  const rows = profile.rowPins.length;
  const cols = profile.colPins.length;
  let driven = 0;
  global.digitalWrite = function (_pins: unknown, value: number): void {
    driven = value;
  };
  global.digitalRead = function (): number {
    const all = (1 << cols) - 1;
    return held && !(driven & (1 << (rows - 1 - 2))) ? all ^ (1 << (cols - 1 - 3)) : all;
  };
  global.setWatch = function (): number {
    return 1;
  };
  global.clearWatch = function (): void {};
  const s = new KeyScanner(profile, new Scheduler(), function () {});
  return (s as unknown as { scan: () => void }).scan.bind(s);
}

/** The race advanced game's first `count` rows. */
function raceRows(count: number): Row[] {
  const rows: Row[] = [];
  const pegs = rulesFor("race", true).pegs;
  for (let i = 0; i < count && i < COUNT[3].length; i++) {
    const r = COUNT[3][i];
    rows.push({ guess: r.slice(0, pegs), feedback: { exact: r[pegs], near: r[pegs + 1] } });
  }
  return rows;
}

/** A codebreaker that has played the first `count` rows of the race advanced game (its guesses, pondering done). */
function breakerAfter(count: number): SolverState {
  const s = createSolver(rulesFor("race", true), COUNT[4]);
  for (let k = 0; k < count; k++) {
    s.start(raceRows(k));
    s.step(Infinity);
    s.ponder(Infinity);
  }
  return s;
}

/** A piece: set up once, then per repetition `prepare` (both runs) and `work` (the measured run only). */
interface Piece {
  setup?: () => void;
  prepare?: (i: number) => void;
  work: (i: number) => void;
}

let scan: () => void = function () {};
let hint = createHintState(rulesFor("race", true));
let solver: SolverState | null = null;

/** The hint after row `row` of the race advanced game, the hints of the rows before it done (as after each row). */
function hintPiece(row: number): Piece {
  return {
    prepare: function () {
      hint = createHintState(rulesFor("race", true));
      for (let k = 1; k < row; k++) {
        hint.start(raceRows(k));
        hint.step(Infinity);
      }
    },
    work: function () {
      hint.start(raceRows(row));
      hint.step(Infinity);
    },
  };
}

const PIECES: Record<string, Piece> = {
  "scan (idle)": {
    setup: function () {
      scan = scanner();
    },
    work: function () {
      scan();
    },
  },
  "scan (key held)": {
    setup: function () {
      scan = scanner();
      held = true;
      // The key taken and settled: the scans after it only check that the matrix reads the same.
      for (let i = 0; i < 8; i++) scan();
    },
    work: function () {
      scan();
    },
  },
  // What the scans above spend in the stand-in pin functions (a Pico's are native): one row's write and read.
  "scan's pin stubs (a row)": {
    setup: function () {
      scan = scanner();
    },
    work: function () {
      global.digitalWrite(profile.rowPins, 0);
      global.digitalRead(profile.colPins);
    },
  },
  "ui key (colour or undo)": {
    setup: brainiacInPlay,
    work: function (i) {
      app.key(i & 1 ? 33 : 2, true, (now += 100));
    },
  },
  "render (menu)": {
    work: function (i) {
      render(app, frame, now + i * 37);
    },
  },
  "render (game in play)": {
    setup: brainiacInPlay,
    work: function (i) {
      render(app, frame, now + i * 37);
    },
  },
  "pixels.show (changed)": {
    setup: playWithLeds,
    prepare: function (i) {
      frame[0] = i & 7;
    },
    work: function () {
      pixels.show(frame, SETTLED);
    },
  },
  "pixels.show (same)": {
    setup: playWithLeds,
    work: function () {
      pixels.show(frame, SETTLED);
    },
  },
  "key's frame (ui, render, show)": {
    setup: playWithLeds,
    work: function (i) {
      app.key(i & 1 ? 33 : 2, true, (now += 100));
      render(app, frame, now);
      pixels.show(frame, SETTLED);
    },
  },
  "hint race+ after row 1": hintPiece(1),
  "hint race+ after row 2": hintPiece(2),
  "hint race+ after row 3": hintPiece(3),
  // The game's longest move (its 5th guess): the first slice of it, and the whole move (its start and every slice).
  "move slice race+ row 5": {
    prepare: function () {
      solver = breakerAfter(4);
      solver.start(raceRows(4));
    },
    work: function () {
      (solver as SolverState).step(SOLVER_SLICE);
    },
  },
  "move race+ row 5": {
    prepare: function () {
      solver = breakerAfter(4);
    },
    work: function () {
      (solver as SolverState).start(raceRows(4));
      (solver as SolverState).step(Infinity);
    },
  },
};

const piece = PIECES[COUNT[0]];
if (COUNT[0] === "list") {
  // (Not Object.keys: the bundle's property mangling renames `keys`.)
  const names: string[] = [];
  for (const name in PIECES) names.push(name);
  print("COUNT PIECES " + JSON.stringify(names));
} else if (!piece) print("COUNT ERROR no piece " + COUNT[0]);
else {
  clockTo(now);
  if (piece.setup) piece.setup();
  for (let i = 0; i < COUNT[1]; i++) {
    if (piece.prepare) piece.prepare(i);
    if (COUNT[2]) piece.work(i);
  }
  print("COUNT DONE");
}
// No timer may run after this (the scans leave one): under valgrind it could keep the loop from ever reaching quit.
clearTimeout();
clearInterval();
quit();
