/**
 * Issue 7, "never lose a match": the power is cut at random instants, sometimes in the middle of a
 * save (a torn write, sim/board/storage.ts), in every mode, and each time the unit must come back with the
 * last state it committed: the saved state it resumes is that state, every row, answer and score saved
 * before the cut is there, nothing is corrupt, and the LEDs show exactly that state.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { firmwareBundle, R1 } from "../device/helpers.ts";
import { readSavedState, SaveLog, slotCopies } from "./saved-state.ts";
import { boardFrame, expectedBootFrame, frameDiff, resumedState } from "./frame.ts";
import { firmwareFailures, playLedProblems, stateProblems } from "./invariants.ts";
import { CODEBREAKER_PRESETS, goalName, Player, type Goal } from "./player.ts";
import { MODE_MENU } from "../../firmware/ui/settings.ts";

/** 13 modes x 78 cuts: at least 1,000 cuts in all. */
const CUTS_PER_MODE = 78;
/** When the resumed frame is compared: in the lit half of the first blink, before any timed change. */
const CHECK_AT_MS = 200;
/** The longest the unit may take to choose again, after it resumed, the guess it was choosing when the power went. */
const RESUMED_MOVE_MS = 5000;
const MOVE_STEP_MS = 50;
const TAP_MS = 25;

const GOALS: Goal[] = [
  ...CODEBREAKER_PRESETS.flatMap((game) => MODE_MENU.map((mode): Goal => ({ game, harder: false, mode, games: 2 }))),
  { game: "brainflip", flipMode: "flip", players: 3, grid: 4, unitFlips: false },
];

interface CutReport {
  cuts: number;
  duringWrite: number;
  stages: Record<string, number>;
  resumedGames: number;
}

/** Plays `goal` with `cuts` power cuts; returns what it did, and throws on the first cut the unit did not survive. */
function playWithCuts(goal: Goal, seed: number, cuts: number): CutReport {
  const rng = new Prng(seed);
  const board = new VirtualBoard({ firmware: firmwareBundle(), seed });
  const log = new SaveLog(board);
  const player = new Player(R1, rng, 0.1);
  const report: CutReport = { cuts: 0, duringWrite: 0, stages: {}, resumedGames: 0 };
  board.powerOn();
  board.advance(CHECK_AT_MS);
  const tapAll = (keys: string[]) => {
    for (const k of keys) {
      if (!board.isOn) return;
      board.tap(k, TAP_MS, TAP_MS);
    }
  };
  for (let c = 0; c < cuts; c++) {
    const where = `${goalName(goal)} seed ${seed}, cut ${c + 1}`;
    const cutsBefore = board.powerCuts.length;
    const moves = rng.int(1, 3);
    if (rng.next() < 0.5) {
      // In the middle of one of the next saves, anywhere from before its first byte to after its last.
      const x = rng.next();
      // Small fractions land in the first 36 bytes programmed: the old copy's name word, then the new header.
      const fraction = x < 0.1 ? 0 : x < 0.2 ? 1 : x < 0.3 ? rng.range(0, 0.006) : x < 0.4 ? rng.range(0, 0.03) : rng.next();
      board.cutPowerDuringWrite(rng.int(1, 2), fraction);
    } else board.schedulePowerCut(board.now + rng.range(0, moves * 6 * 2 * TAP_MS));
    for (let i = 0; i < moves && board.isOn; i++) tapAll(player.next(readSavedState(board), goal).keys);
    // Not cut yet (the moves saved less than the write cut waited for): cut now.
    board.cancelPowerCuts();
    if (board.isOn) board.schedulePowerCut(board.now);
    board.advance(rng.int(0, 3000));
    const cut = board.powerCuts.at(-1)!;
    expect(board.powerCuts.length, where).toBe(cutsBefore + 1);
    report.cuts++;
    if (cut.write) {
      report.duringWrite++;
      const key = `${cut.write.op} ${cut.write.stage}`;
      report.stages[key] = (report.stages[key] ?? 0) + 1;
    }

    const how = cut.write
      ? `cut during Storage ${cut.write.op} "${cut.write.name}" (${cut.write.stage}, ${cut.write.bytesWritten}/${cut.write.dataBytes} bytes)`
      : "cut between two firmware calls";
    const at = `${where}, ${how} at t=${cut.at.toFixed(0)}`;
    const committed = log.committed?.state ?? null;
    const slots = slotCopies(board.storage);
    const lines = board.consoleLog.length;
    board.powerOn();
    board.advance(CHECK_AT_MS);
    expect(firmwareFailures(board), at).toEqual([]);
    // The unit resumes the last committed state: that is what Storage offers and what the LEDs show (plus the
    // guess the unit was choosing when the power went, which it chooses again and saves: where its table hands over
    // to its own search, that can take it more than CHECK_AT_MS, in slices; it is waited for, up to RESUMED_MOVE_MS).
    const resumed = resumedState(R1, committed);
    const movedBy = board.uptime + RESUMED_MOVE_MS;
    let waited = false;
    for (; board.uptime < movedBy && !isDeepStrictEqual(readSavedState(board), resumed); waited = true) board.advance(MOVE_STEP_MS);
    if (waited) {
      // The frame then blinks from when the guess was played: it is compared after the next power-on, which resumes the
      // guess as saved, at the same instant of the first blink as every other resumed frame.
      board.powerCycle();
      board.advance(CHECK_AT_MS);
    }
    expect(readSavedState(board), at).toEqual(resumed);
    expect(stateProblems(committed), at).toEqual([]);
    const warned = committed === null && slots.length > 0;
    const frame = boardFrame(board);
    expect(frameDiff(R1, expectedBootFrame(R1, committed, board.uptime, { warned }), frame), at).toEqual([]);
    if (committed && committed.screen !== "menu") report.resumedGames++;
    if (resumed?.screen === "play" && resumed.match) expect(playLedProblems(R1, frame, resumed.match), at).toEqual([]);
    if (warned)
      expect(
        board.consoleLog.slice(lines).some((l) => l.startsWith("brainboard: save not used")),
        at,
      ).toBe(true);
  }
  return report;
}

describe("power cuts at any instant, in every mode", () => {
  const reports: CutReport[] = [];
  for (const [i, goal] of GOALS.entries()) {
    it(`${goalName(goal)}: the unit resumes the last committed state after each of ${CUTS_PER_MODE} random cuts`, () => {
      const report = playWithCuts(goal, 1000 + i, CUTS_PER_MODE);
      reports.push(report);
      expect(report.cuts).toBe(CUTS_PER_MODE);
      expect(report.duringWrite).toBeGreaterThan(CUTS_PER_MODE / 4);
      expect(report.resumedGames).toBeGreaterThan(CUTS_PER_MODE / 4);
    });
  }
  afterAll(() => {
    // Over the whole file: at least 1,000 cuts, and saves cut at every stage of the write.
    if (reports.length < GOALS.length) return;
    const stages: Record<string, number> = {};
    for (const r of reports) for (const [k, v] of Object.entries(r.stages)) stages[k] = (stages[k] ?? 0) + v;
    expect(reports.reduce((n, r) => n + r.cuts, 0)).toBeGreaterThanOrEqual(1000);
    for (const stage of ["before", "old-trashed", "header", "data", "done"]) expect(stages[`create ${stage}`], stage).toBeGreaterThan(0);
  });
});
