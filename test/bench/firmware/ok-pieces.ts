/**
 * bench:micro's counted pieces of an OK that commits (test/bench/firmware/count.ts runs them): the tasks the firmware
 * (firmware/main.ts) runs for a row's OK and a game's start in a Brainiac match against the unit, each as the firmware
 * does it: the key's task (the ui's step, the render, the LED write), the unit's first slice after a game's start, and
 * the save (a task of its own: the snapshot, its JSON and checksum, the Storage write).
 *
 * Each repetition plays the match again from the menu up to the OK (the preparing, in both runs), so that the OK
 * commits the same row every time; the frame before the OK is out, so the OK's frame is a changed one.
 */
import profile from "brainboard:profile";
import { render } from "../../../firmware/ui/render";
import { StateStore } from "../../../firmware/device/store";
import { Buzzer } from "../../../firmware/device/buzzer";
import { Power } from "../../../firmware/device/power";
import { lockConsole } from "../../../firmware/device/console";
import { nowMs, Scheduler, SLOT_SAVE, SLOT_THINK } from "../../../firmware/device/scheduler";
import type { MatchMode } from "../../../firmware/core/types";
import type { CodebreakerScreen } from "../../../firmware/ui/codebreaker";
import { app, clock, frame, pixels, reseed, SETTLED, tap } from "./fixtures";

/** A piece: set up once, then per repetition `prepare` (both runs) and `work` (the measured run only). */
export interface Piece {
  setup?: () => void;
  prepare?: (i: number) => void;
  work: (i: number) => void;
}

const OK = 35;
const maker = profile.maker as NonNullable<typeof profile.maker>;
const game = app.worker as unknown as CodebreakerScreen;
let store: StateStore | null = null;

/** The frame for now, rendered and sent (firmware/main.ts show()). */
function show(): void {
  render(app, frame, clock.now);
  pixels.show(frame, SETTLED, app.secretCovered);
}

/** One slice of the unit's background work, as the firmware's think() runs it (its frame comes in a task after). */
function slice(): boolean {
  return app.worker.think((clock.now += 2));
}

/** The menu, set for a Brainiac match against the unit in `mode`, its frame out (OK then starts the match). */
function atMenu(mode: MatchMode): void {
  reseed();
  // No match begun (OK on the menu would ask to confirm replacing one).
  game.match = null;
  app.screen = app.menu;
  app.settings.preset = "brainiac";
  app.settings.harder = false;
  app.settings.mode = mode;
  show();
}

/** The guesses the player keys against the unit's secret (the unit makes it), before the one the OK commits. */
const GUESSES = [
  [0, 0, 1, 1],
  [0, 1, 3, 2],
  [1, 2, 3, 4],
  [5, 4, 3, 2],
  [2, 2, 3, 3],
  [4, 4, 5, 5],
];

/** The unit makes the secret; `rows` guesses are committed and the next one keyed: its OK is next. */
function guessKeyed(rows: number): void {
  atMenu("unit-makes");
  tap(OK);
  slice();
  for (let r = 0; r <= rows; r++) {
    for (let i = 0; i < 4; i++) tap(GUESSES[r][i]);
    if (r < rows) tap(OK);
  }
  show();
}

/** The player's secret on the codemaker pad; the unit's first guess (from its table) played; its answer keyed. */
function answerKeyed(): void {
  answerKeyedAfter(false);
}

/**
 * The same; with `pondered`, the unit's work for its next move while the player answers is done first (as when the player
 * takes a few seconds).
 */
function answerKeyedAfter(pondered: boolean): void {
  atMenu("unit-breaks");
  tap(OK);
  const secret = [1, 2, 3, 4];
  for (let i = 0; i < 4; i++) tap(maker.colours[secret[i]]);
  tap(maker.ok);
  for (let k = 0; k < 1000 && game.busy; k++) slice();
  // (The next move's work while the player answers is not this piece's: it is done before, or left out.)
  for (let k = 0; k < 1000 && pondered && game.pondering; k++) slice();
  game.pondering = false;
  const guess = (game.match as NonNullable<typeof game.match>).game.pending as number[];
  let exact = 0;
  let near = 0;
  const left = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    if (guess[i] === secret[i]) exact++;
    else left[secret[i]]++;
  }
  for (let i = 0; i < 4; i++)
    if (guess[i] !== secret[i] && left[guess[i]] > 0) {
      left[guess[i]]--;
      near++;
    }
  for (let i = 0; i < exact; i++) tap(maker.exact);
  for (let i = 0; i < near; i++) tap(maker.near);
  show();
}

/** Returns: a match in `mode` started, the codemaker's secret keyed on its pad and its OK taken. */
function secretKeyedFor(mode: MatchMode): () => void {
  return function () {
    atMenu(mode);
    tap(OK);
    for (let i = 0; i < 4; i++) tap(maker.colours[i]);
    app.key(maker.ok, true, (clock.now += 100));
  };
}

/** The OK's key task: the ui's step, the render and the LED write (firmware/main.ts onKey; the save comes after). */
function okTask(key: number): void {
  app.key(key, true, (clock.now += 100));
  show();
}

/** The device's drivers the key's task reaches after its frame (firmware/main.ts onKey), on a scheduler of their own. */
const sched = new Scheduler();
const buzzer = new Buzzer(profile.buzzer, sched);
const power = new Power(sched, {
  save: function () {},
  show: function () {},
  sleepMinutes: () => app.settings.sleepMin,
  maySleep: () => true,
  off: function () {},
  lowBattery: function () {},
});

/**
 * What the key's task does after its frame, as firmware/main.ts onKey does it: its after-work (the tune, the idle timer,
 * the save, the console's lock and the unit's work) scheduled for a task of its own.
 */
function afterFrame(): void {
  sched.at(SLOT_THINK, clock.now, afterKey);
}

/** The after-work's task (firmware/main.ts afterKey; the unit's work it schedules is not run here). */
function afterKey(): void {
  const tune = app.takeTune();
  if (tune) buzzer.play(tune);
  power.idle();
  if (app.takeSave() && app.screen !== app.selfTest) sched.at(SLOT_SAVE, nowMs(), save);
  lockConsole(app.consoleLockWanted());
  if (app.worker.working()) sched.at(SLOT_THINK, nowMs(), think);
}

/** A slice of the unit's work, as afterKey schedules it (not run here). */
function think(): void {}

/** The save as the firmware makes it, in a task of its own: into a fresh Storage each time (both runs). */
function save(): void {
  (store as StateStore).save(app.snapshot());
}

function freshStorage(): void {
  store = new StateStore();
  // (Storage read in both runs: the flash file is made then, not by the first save of the work.)
  store.clear();
}

/** From the answer's OK to the frame of the unit's next guess, with the row's save and the guess's. */
function answerToGuess(): void {
  okTask(maker.ok);
  slice();
  save();
  for (let k = 0; k < 1000 && game.busy; k++) slice();
  show();
  save();
}

export const OK_PIECES: Record<string, Piece> = {
  "OK game start vs unit (ui, render, show)": {
    prepare: function () {
      atMenu("unit-makes");
    },
    work: function () {
      okTask(OK);
    },
  },
  // The whole of the OK's key task: its frame, and what the task does after it.
  "OK game start vs unit (whole key task)": {
    prepare: function () {
      atMenu("unit-makes");
    },
    work: function () {
      okTask(OK);
      afterFrame();
    },
  },
  // What the OK's key task leaves to the next task (firmware/main.ts afterKey).
  "OK game start vs unit: after its frame (a task of its own)": {
    prepare: function () {
      atMenu("unit-makes");
      okTask(OK);
    },
    work: afterKey,
  },
  "game start: the unit's secret (slice, render, show)": {
    prepare: function () {
      atMenu("unit-makes");
      tap(OK);
    },
    work: function () {
      slice();
      show();
    },
  },
  "game start: the unit's solver made (slice)": {
    // The secret's OK: the first slice after it makes the game's solver (from the table).
    prepare: secretKeyedFor("unit-breaks"),
    work: function () {
      slice();
    },
  },
  // Two players (manual: the codemaker answers): the hints' solver, made in the first slice after the secret's OK, and
  // the slice after it (the hints' first search: SOLVER_SLICE evaluations at most).
  "game start (manual): the hints' solver made (slice)": {
    prepare: secretKeyedFor("manual"),
    work: slice,
  },
  "game start (manual): the hints' first search (slice)": {
    prepare: function () {
      secretKeyedFor("manual")();
      slice();
    },
    work: slice,
  },
  "OK guess row 1 vs unit (ui, render, show)": {
    prepare: function () {
      guessKeyed(0);
    },
    work: function () {
      okTask(OK);
    },
  },
  "OK guess row 6 vs unit (ui, render, show)": {
    prepare: function () {
      guessKeyed(5);
    },
    work: function () {
      okTask(OK);
    },
  },
  "OK answer row 1 (ui, render, show)": {
    prepare: answerKeyed,
    work: function () {
      okTask(maker.ok);
    },
  },
  "OK answer row 1 (ui only)": {
    prepare: answerKeyed,
    work: function () {
      app.key(maker.ok, true, (clock.now += 100));
    },
  },
  "OK guess row 6 vs unit (ui only)": {
    prepare: function () {
      guessKeyed(5);
    },
    work: function () {
      app.key(OK, true, (clock.now += 100));
    },
  },
  "game start: the unit's secret (slice only)": {
    prepare: function () {
      atMenu("unit-makes");
      tap(OK);
    },
    work: slice,
  },
  // From the answer's OK to the frame of the unit's next guess (its table's): the OK's task, a slice, the row's save, the
  // slices up to the guess, its frame, and its save. (Where the first slice plays the guess, the firmware saves once, after
  // the frame: the save it was asked for by the OK is replaced by the move's.)
  "OK answer row 1 to the unit's guess (whole)": {
    setup: freshStorage,
    prepare: answerKeyed,
    work: answerToGuess,
  },
  // The same after the player took their time: the unit pondered while the answer was keyed.
  "OK answer row 1 to the unit's guess, pondered (whole)": {
    setup: freshStorage,
    prepare: function () {
      answerKeyedAfter(true);
    },
    work: answerToGuess,
  },
  "OK's save (guess row 6 vs unit)": {
    setup: freshStorage,
    prepare: function () {
      guessKeyed(5);
      okTask(OK);
    },
    work: save,
  },
  "OK's save JSON only (guess row 6 vs unit)": {
    prepare: function () {
      guessKeyed(5);
      okTask(OK);
    },
    work: function () {
      JSON.stringify(app.snapshot());
    },
  },
};
