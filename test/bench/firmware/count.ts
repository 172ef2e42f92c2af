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
 * its solver table (a string, as Storage.read gives it), and Brainiac's solver table (the OK pieces' matches).
 */
import profile from "brainboard:profile";
import { render } from "../../../firmware/ui/render";
import { ASK_EVERY, createHintState, createSolver, solverTableName, type SolverState } from "../../../firmware/core/solver";
import { rulesFor } from "../../../firmware/core/presets";
import { Scheduler, SLOT_POWER, SLOT_RENDER, SLOT_SCAN } from "../../../firmware/device/scheduler";
import type { Row } from "../../../firmware/core/types";
import { OK_PIECES, type Piece } from "./ok-pieces";
import { app, holdKey, keysTaken, brainiacInPlay, clock, frame, pixels, playWithLeds, scanner, SETTLED } from "./fixtures";

declare const COUNT: [string, number, number, number[][], string, string];
declare function quit(): void;
declare function clearTimeout(): void;
declare function clearInterval(): void;
/** The interpreter's global object: the fixed clock is there. */
declare const global: {
  __clock: number;
};

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

let scan: () => void = function () {};
let sched = new Scheduler();
let hint = createHintState(rulesFor("race", true));
let solver: SolverState | null = null;

/**
 * The hint after row `row` of the race advanced game, the hints of the rows before it done (as after each row): its
 * example (what shows first) or, `whole`, the example and the count of the codes that fit.
 */
function hintPiece(row: number, whole: boolean): Piece {
  return {
    prepare: function () {
      hint = createHintState(rulesFor("race", true));
      for (let k = 1; k < row; k++) {
        hint.start(raceRows(k));
        hint.step(Infinity);
        hint.ponder(Infinity);
      }
    },
    work: function () {
      hint.start(raceRows(row));
      hint.step(Infinity);
      if (whole) hint.ponder(Infinity);
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
      holdKey();
      // The key taken and settled: the scans after it only check that the matrix reads the same.
      for (let i = 0; i < 8; i++) scan();
      if (keysTaken[0] !== 1) print("COUNT ERROR the scan did not take the held key: its pins are not the stand-ins");
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
      digitalWrite(profile.rowPins, 0);
      digitalRead(profile.colPins);
    },
  },
  "ui key (colour or undo)": {
    setup: brainiacInPlay,
    work: function (i) {
      app.key(i & 1 ? 33 : 2, true, (clock.now += 100));
    },
  },
  "render (menu)": {
    work: function (i) {
      render(app, frame, clock.now + i * 37);
    },
  },
  "render (game in play)": {
    setup: brainiacInPlay,
    work: function (i) {
      render(app, frame, clock.now + i * 37);
    },
  },
  "pixels.show (changed)": {
    setup: playWithLeds,
    prepare: function (i) {
      frame[0] = i & 7;
    },
    work: function () {
      pixels.show(frame, SETTLED, app.secretCovered);
    },
  },
  "pixels.show (same)": {
    setup: playWithLeds,
    work: function () {
      pixels.show(frame, SETTLED, app.secretCovered);
    },
  },
  // What a task pays the scheduler: its slots gone through, its job called (a render due, which puts the next scan off
  // as a scan does), the next timer armed (a setTimeout, and in the next at() from outside a task, a clearTimeout).
  "scheduler's task (run)": {
    setup: function () {
      sched = new Scheduler();
      sched.at(SLOT_POWER, 1e9, function () {});
    },
    prepare: function () {
      sched.at(SLOT_RENDER, 0, function () {
        sched.at(SLOT_SCAN, global.__clock * 1000 + 20, function () {});
      });
    },
    work: function () {
      (sched as unknown as { run(): void }).run();
    },
  },
  "key's frame (ui, render, show)": {
    setup: playWithLeds,
    work: function (i) {
      app.key(i & 1 ? 33 : 2, true, (clock.now += 100));
      render(app, frame, clock.now);
      pixels.show(frame, SETTLED, app.secretCovered);
    },
  },
  "hint race+ after row 1 (example)": hintPiece(1, false),
  "hint race+ after row 1 (example and count)": hintPiece(1, true),
  "hint race+ after row 2 (example)": hintPiece(2, false),
  "hint race+ after row 2 (example and count)": hintPiece(2, true),
  // The game's longest move (its 5th guess): the first slice of it (a Pico's: its first chunk, after which its clock ends
  // it), and the whole move (its start and every slice).
  "move slice race+ row 5": {
    prepare: function () {
      solver = breakerAfter(4);
      solver.start(raceRows(4));
    },
    work: function () {
      (solver as SolverState).step(ASK_EVERY);
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

for (const name in OK_PIECES) PIECES[name] = OK_PIECES[name];
// The unit's table for Brainiac, as Storage would give it.
app.readTable = function (name: string): string | undefined {
  return name === solverTableName(rulesFor("brainiac", false)) ? COUNT[5] : undefined;
};
const piece = PIECES[COUNT[0]];
if (COUNT[0] === "list") {
  // (Not Object.keys: the bundle's property mangling renames `keys`.)
  const names: string[] = [];
  for (const name in PIECES) names.push(name);
  print("COUNT PIECES " + JSON.stringify(names));
} else if (!piece) print("COUNT ERROR no piece " + COUNT[0]);
else {
  global.__clock = clock.now / 1000;
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
