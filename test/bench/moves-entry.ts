/**
 * Run on the real Espruino interpreter by test/bench/moves.ts (bundled and minified as the firmware
 * is, then run from RAM with the tables held in RAM): plays the unit as codebreaker against the
 * secrets in BENCH, sliced as firmware/main.ts slices its background work, and prints one JSON line
 * of figures per kind of work. Times come from the interpreter's own clock (getTime, seconds).
 *
 * - move: the unit's move as codebreaker (role 4), from createSolver / start in the key's task
 *   through slices of SLICE_MS (each a task of its own) until the guess is ready;
 * - ponder: after each move, the rest of its work (the unit does it while the player answers);
 * - check: an answer given with the secret in the head, checked for a contradiction (conflict.ts);
 * - hint: the hints for a human codebreaker (role 3) after each row, in idle time.
 *
 * For each, the work's busy time per move, and the longest uninterrupted piece: from the start of a
 * slice to the first stop question, between two questions, and from the last to the slice's end.
 */
import { createHintState, createSolver, solverTableName } from "../../firmware/core/solver";
import { createConflictSearch } from "../../firmware/core/conflict";
import { feedback } from "../../firmware/core/feedback";
import { rulesFor } from "../../firmware/core/presets";
import type { Code, PresetId, Row } from "../../firmware/core/types";

declare function getTime(): number;
declare function print(text: string): void;
declare function quit(): void;
/**
 * Set by the bench before this code (an array, so that the minifier's property renaming leaves it
 * alone): preset, harder, the secrets, the tables by Storage name (strings, as Storage.read gives
 * them), what to time ("move,check,hint"), evaluations per slice, SLICE_MS.
 */
declare const BENCH: [PresetId, boolean, Code[], Record<string, string>, string, number, number];
const budget = BENCH[5];

let sliceEnd = 0;
let firstAsk = false;
let last = 0;
let piece = 0;
function stop(): boolean {
  const now = getTime();
  if (now - last > piece) piece = now - last;
  last = now;
  if (firstAsk) return (firstAsk = false);
  return now >= sliceEnd;
}

/** Per move (in play order): busy ms, the longest piece, the longest slice, slices. */
type Figures = [number[], number[], number[], number[]];
function figures(): Figures {
  return [[], [], [], []];
}

/**
 * Runs `work` in slices as firmware/main.ts does: `begin` in the key's task (no solver work there), then slices of
 * SLICE_MS each in a task of its own (thinkLater), whose first question to stop always says "go on".
 */
function sliced(f: Figures, begin: () => void, work: (budget: number, stop: () => boolean) => boolean): void {
  let t = getTime();
  begin();
  let end = getTime();
  let total = end - t;
  let longest = total;
  let slices = 0;
  piece = total;
  for (;;) {
    t = getTime();
    last = t;
    sliceEnd = t + BENCH[6] / 1000;
    firstAsk = true;
    const done = work(budget, stop);
    end = getTime();
    if (end - last > piece) piece = end - last;
    total += end - t;
    if (end - t > longest) longest = end - t;
    slices++;
    if (done) break;
  }
  f[0].push(total * 1000);
  f[1].push(piece * 1000);
  f[2].push(longest * 1000);
  f[3].push(slices);
}

const rules = rulesFor(BENCH[0], BENCH[1]);
// (Not BENCH[3][solverTableName(rules)]: the minifier inlines that as a comma expression in the brackets, which 2v29 cannot parse.)
const tableName = solverTableName(rules);
const table = BENCH[3][tableName];
const moves = figures();
const checks = figures();
const hints = figures();
const ponders = figures();
const gameOf: number[] = [];
let check: ReturnType<typeof createConflictSearch> | null = null;
const want = (k: string) => BENCH[4].indexOf(k) >= 0;
for (let g = 0; g < BENCH[2].length; g++) {
  const secret = BENCH[2][g];
  let solver = createSolver(rules, table);
  const hint = createHintState(rules);
  const rows: Row[] = [];
  while (rows.length < rules.rows) {
    if (rows.length && want("check")) {
      sliced(
        checks,
        function () {
          // (Created in the key's task, like the firmware's.)
          check = createConflictSearch(rules, rows);
        },
        function (budget, stop) {
          return (check as ReturnType<typeof createConflictSearch>).step(budget, stop);
        },
      );
      check = null;
    }
    if (want("hint"))
      sliced(
        hints,
        function () {
          hint.start(rows);
        },
        function (budget, stop) {
          return hint.step(budget, stop);
        },
      );
    sliced(
      moves,
      function () {
        if (!rows.length) solver = createSolver(rules, table);
        solver.start(rows);
      },
      function (budget, stop) {
        return solver.step(budget, stop);
      },
    );
    gameOf.push(g);
    const guess = solver.guess() as Code;
    sliced(
      ponders,
      function () {},
      function (budget, stop) {
        return solver.ponder(budget, stop);
      },
    );
    const fb = feedback(guess, secret);
    rows.push({ guess: guess, feedback: fb });
    if (fb.exact === rules.pegs) break;
  }
}
print("RESULT " + JSON.stringify([moves, checks, hints, gameOf, ponders]));
quit();
