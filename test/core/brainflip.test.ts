/** Brain Flip (docs/rules.md section 4): one test per rule, named after it, plus the module's decisions and refusals. */
import { describe, expect, it } from "vitest";
import {
  answerQuestion,
  checkFlipConfig,
  correctLastAnswer,
  eligible,
  FLIP_TARGET,
  guessCard,
  masterMistake,
  newFlipGame,
  nextRound,
  pickCard,
  questionLimit,
} from "../../firmware/core/brainflip";
import type { FlipConfig, FlipMode, FlipState } from "../../firmware/core/brainflip";
import type { Refusal, Result } from "../../firmware/core/types";
import { REFUSED_PHASE, REFUSED_RANGE, REFUSED_REPEAT } from "../../firmware/core/types.ts";
import {
  FLIP_ANSWER,
  FLIP_ASK,
  FLIP_GUESS,
  FLIP_OVER,
  FLIP_PICK,
  RESULT_FOUND,
  RESULT_MISTAKE,
  RESULT_NONE,
  RESULT_UNFOUND,
} from "../../firmware/core/brainflip.ts";

function config(players: number, mode: FlipMode, unitFlips?: boolean, grid?: number): FlipConfig {
  return { players: players, grid: grid ?? 6, mode: mode, unitFlips: unitFlips ?? false };
}

function ok(result: Result<FlipState>): FlipState {
  if (!result.ok) throw new Error("refused: " + JSON.stringify(result.refusal));
  return result.state;
}

function refusalOf(result: Result<FlipState>): Refusal {
  if (result.ok) throw new Error("accepted");
  return result.refusal;
}

/** A game whose Master `master` has picked `pick`: the first question is due. */
function picked(c: FlipConfig, master: number, pick: number): FlipState {
  return ok(pickCard(newFlipGame(c, master), pick));
}

/** Answers `n` questions with "no". */
function answerMany(s: FlipState, n: number): FlipState {
  for (let i = 0; i < n; i++) s = ok(answerQuestion(s, false));
  return s;
}

/** Plays rounds, each found by `finder` at the first question, until `finder` has `points`. */
function finderReaches(s: FlipState, finder: number, points: number): FlipState {
  while (s.scores[finder] < points) {
    if (s.round.phase === FLIP_OVER) s = ok(nextRound(s));
    if (s.round.master === finder) {
      // The finder is Master this round: let the next player find it.
      s = ok(guessCard(ok(pickCard(s, 0)), 0));
      continue;
    }
    s = ok(pickCard(s, 5));
    while (s.round.turn !== finder) s = ok(answerQuestion(s, true));
    s = ok(guessCard(s, 5));
  }
  return s;
}

describe("Brain Flip rules (docs/rules.md 4)", () => {
  it("grids of 2x2 to 6x6 on the 6x6 pad", () => {
    for (let grid = 2; grid <= 6; grid++) {
      expect(checkFlipConfig(config(2, "flip", false, grid))).toBeNull();
      const s = newFlipGame(config(2, "flip", false, grid), 0);
      const last = grid * grid - 1;
      expect(ok(pickCard(s, last)).round.pick).toBe(last);
      expect(refusalOf(pickCard(s, last + 1))).toEqual({ refused: REFUSED_RANGE, positions: [last + 1] });
    }
    expect(checkFlipConfig(config(2, "flip", false, 1))).toBe("grid must be 2 to 6");
    expect(checkFlipConfig(config(2, "flip", false, 7))).toBe("grid must be 2 to 6");
  });

  it("2 to 6 players", () => {
    for (let players = 2; players <= 6; players++) {
      expect(checkFlipConfig(config(players, "straight"))).toBeNull();
      const s = newFlipGame(config(players, "straight"), 0);
      expect(s.scores).toEqual(new Array(players).fill(0));
      expect(s.round.barred).toEqual(new Array(players).fill(false));
    }
    expect(checkFlipConfig(config(1, "flip"))).toBe("players must be 2 to 6");
    expect(checkFlipConfig(config(7, "flip"))).toBe("players must be 2 to 6");
  });

  it("the Master secretly picks one card of the grid on the unit before any question", () => {
    const s = newFlipGame(config(3, "flip"), 1);
    expect(s.round).toMatchObject({ master: 1, pick: -1, phase: FLIP_PICK, asked: 0, result: RESULT_NONE, finder: -1 });
    expect(s.rounds).toBe(1);
    expect(refusalOf(answerQuestion(s, true))).toEqual({ refused: REFUSED_PHASE, positions: [] });
    const after = ok(pickCard(s, 17));
    expect(after.round.pick).toBe(17);
    expect(after.round.phase).toBe(FLIP_ASK);
  });

  it("turns go clockwise starting from the player on the Master's left", () => {
    let s = picked(config(4, "flip"), 2, 0);
    const turns: number[] = [];
    for (let i = 0; i < 7; i++) {
      turns.push(s.round.turn);
      s = ok(answerQuestion(s, i % 2 === 0));
    }
    expect(turns).toEqual([3, 0, 1, 3, 0, 1, 3]);
    expect(s.round.log.map((e) => e.player)).toEqual(turns);
    expect(eligible(s, 2)).toBe(false);
  });

  it("Brain Flip rules allow 10 questions in all", () => {
    expect(questionLimit("flip")).toBe(10);
    let s = answerMany(picked(config(3, "flip"), 0, 4), 9);
    expect(s.round.phase).toBe(FLIP_ASK);
    expect(s.round.asked).toBe(9);
    s = ok(answerQuestion(s, false));
    expect(s.round.phase).toBe(FLIP_OVER);
    expect(s.round.asked).toBe(10);
  });

  it("play it straight allows 6 questions", () => {
    expect(questionLimit("straight")).toBe(6);
    let s = answerMany(picked(config(3, "straight"), 0, 4), 5);
    expect(s.round.phase).toBe(FLIP_ASK);
    s = ok(answerQuestion(s, false));
    expect(s.round.phase).toBe(FLIP_OVER);
    expect(s.round.asked).toBe(6);
  });

  it("by default the Master keys in the answer as spoken, in both modes", () => {
    for (const mode of ["flip", "straight"] as FlipMode[]) {
      const s = ok(answerQuestion(ok(answerQuestion(picked(config(2, mode), 0, 1), true)), false));
      expect(s.round.log).toEqual([
        { player: 1, kind: FLIP_ANSWER, yes: true, card: -1 },
        { player: 1, kind: FLIP_ANSWER, yes: false, card: -1 },
      ]);
    }
  });

  it("with the unit flipping, the Master keys the true answer and the opposite is shown", () => {
    const s = ok(answerQuestion(ok(answerQuestion(picked(config(2, "flip", true), 0, 1), true)), false));
    expect(s.round.log.map((e) => e.yes)).toEqual([false, true]);
    // Playing it straight there is nothing to flip, whatever the setting.
    const straight = ok(answerQuestion(picked(config(2, "straight", true), 0, 1), true));
    expect(straight.round.log[0].yes).toBe(true);
  });

  it("a guess counts as a question", () => {
    let s = picked(config(3, "straight"), 0, 7);
    s = ok(answerQuestion(s, true));
    s = ok(guessCard(s, 8));
    expect(s.round.asked).toBe(2);
    expect(s.round.log[1]).toEqual({ player: 2, kind: FLIP_GUESS, yes: false, card: 8 });
    // The guess used the 6th question: the round ends unfound.
    s = answerMany(picked(config(3, "straight"), 0, 7), 5);
    s = ok(guessCard(s, 8));
    expect(s.round.phase).toBe(FLIP_OVER);
    expect(s.round.result).toBe(RESULT_UNFOUND);
  });

  it("a guess is always answered truthfully, even in Brain Flip mode", () => {
    const s = picked(config(3, "flip", true), 0, 7);
    const wrong = ok(guessCard(s, 8));
    expect(wrong.round.log[0].yes).toBe(false);
    expect(wrong.round.result).toBe(RESULT_NONE);
    const right = ok(guessCard(s, 7));
    expect(right.round.log[0].yes).toBe(true);
    expect(right.round.result).toBe(RESULT_FOUND);
  });

  it("a right guess scores 1 and ends the round", () => {
    let s = ok(answerQuestion(picked(config(3, "flip"), 0, 12), true));
    s = ok(guessCard(s, 12));
    expect(s.scores).toEqual([0, 0, 1]);
    expect(s.round).toMatchObject({ phase: FLIP_OVER, result: RESULT_FOUND, finder: 2, asked: 2 });
    expect(s.over).toBe(false);
    expect(refusalOf(answerQuestion(s, true)).refused).toBe(REFUSED_PHASE);
    expect(refusalOf(guessCard(s, 13)).refused).toBe(REFUSED_PHASE);
  });

  it("a wrong guesser cannot score this round, and is skipped in the turn order", () => {
    let s = picked(config(4, "flip"), 0, 3);
    s = ok(guessCard(s, 0));
    expect(s.round.barred).toEqual([false, true, false, false]);
    expect(eligible(s, 1)).toBe(false);
    expect(eligible(s, 2)).toBe(true);
    expect(s.round.phase).toBe(FLIP_ASK);
    const turns: number[] = [];
    for (let i = 0; i < 4; i++) {
      turns.push(s.round.turn);
      s = ok(answerQuestion(s, false));
    }
    expect(turns).toEqual([2, 3, 2, 3]);
  });

  it("a card guessed wrong is lit out and cannot be guessed again", () => {
    let s = picked(config(3, "flip"), 0, 3);
    s = ok(guessCard(s, 0));
    expect(s.round.wrongCards).toEqual([0]);
    const before = s;
    expect(refusalOf(guessCard(s, 0))).toEqual({ refused: REFUSED_REPEAT, positions: [0] });
    // The refusal costs nothing: same questions used, same player's turn.
    expect(s).toBe(before);
    expect(s.round.asked).toBe(1);
    expect(s.round.turn).toBe(2);
  });

  it("if nobody finds the card within the limit the Master scores 1", () => {
    let s = picked(config(3, "straight"), 1, 4);
    s = ok(guessCard(s, 0));
    s = answerMany(s, 5);
    expect(s.scores).toEqual([0, 1, 0]);
    expect(s.round).toMatchObject({ phase: FLIP_OVER, result: RESULT_UNFOUND, finder: -1 });
  });

  it("when every other player is barred the round ends and the Master scores", () => {
    let s = picked(config(3, "flip"), 0, 4);
    s = ok(guessCard(s, 0));
    expect(s.round.phase).toBe(FLIP_ASK);
    s = ok(guessCard(s, 1));
    expect(s.round.asked).toBe(2);
    expect(s.round).toMatchObject({ phase: FLIP_OVER, result: RESULT_UNFOUND });
    expect(s.scores).toEqual([1, 0, 0]);
  });

  it("the Master role moves clockwise after every round", () => {
    let s = newFlipGame(config(3, "straight"), 1);
    const masters: number[] = [];
    for (let r = 0; r < 4; r++) {
      masters.push(s.round.master);
      expect(s.rounds).toBe(r + 1);
      expect(refusalOf(nextRound(s)).refused).toBe(REFUSED_PHASE);
      s = ok(nextRound(ok(guessCard(ok(pickCard(s, 0)), 0))));
      expect(s.round).toMatchObject({ pick: -1, phase: FLIP_PICK, asked: 0, log: [], wrongCards: [], result: RESULT_NONE, finder: -1 });
      expect(s.round.turn).toBe((s.round.master + 1) % 3);
    }
    expect(masters).toEqual([1, 2, 0, 1]);
  });

  it("the game ends when a player reaches 3 points", () => {
    expect(FLIP_TARGET).toBe(3);
    const s = finderReaches(newFlipGame(config(3, "flip"), 0), 1, 3);
    expect(s.scores[1]).toBe(3);
    expect(s.over).toBe(true);
    expect(s.winner).toBe(1);
    expect(refusalOf(nextRound(s)).refused).toBe(REFUSED_PHASE);
  });

  it("the Master's point for an unfound card can win the Master the game", () => {
    let s = finderReaches(newFlipGame(config(2, "straight"), 1), 0, 2);
    expect(s.over).toBe(false);
    s = ok(nextRound(s));
    expect(s.round.master).toBe(0);
    s = answerMany(ok(pickCard(s, 2)), 6);
    expect(s.round.result).toBe(RESULT_UNFOUND);
    expect(s.scores[0]).toBe(3);
    expect(s.over).toBe(true);
    expect(s.winner).toBe(0);
  });

  it("a Master mistake corrected at once has no consequence", () => {
    let s = ok(answerQuestion(picked(config(3, "flip"), 0, 9), true));
    const turn = s.round.turn;
    s = ok(correctLastAnswer(s));
    expect(s.round.log).toEqual([{ player: 1, kind: FLIP_ANSWER, yes: false, card: -1 }]);
    expect(s.round).toMatchObject({ asked: 1, turn: turn, phase: FLIP_ASK });
    expect(s.scores).toEqual([0, 0, 0]);
  });

  it("a correction is only possible before the next question", () => {
    const s = picked(config(3, "flip"), 0, 9);
    expect(refusalOf(correctLastAnswer(s))).toEqual({ refused: REFUSED_PHASE, positions: [] });
    // Once the next question is answered, only that newest answer can still be corrected.
    const two = ok(answerQuestion(ok(answerQuestion(s, true)), true));
    expect(ok(correctLastAnswer(two)).round.log.map((e) => e.yes)).toEqual([true, false]);
    // A guess is not a Master's answer: after one there is nothing to correct.
    expect(refusalOf(correctLastAnswer(ok(guessCard(two, 0)))).refused).toBe(REFUSED_PHASE);
    // Nor once the round is over.
    expect(refusalOf(correctLastAnswer(answerMany(s, 10))).refused).toBe(REFUSED_PHASE);
  });

  it("a Master mistake that makes the card impossible costs the Master a point and starts a new round with the next Master", () => {
    let s = finderReaches(newFlipGame(config(3, "flip"), 2), 2, 2);
    s = ok(nextRound(s));
    while (s.round.master !== 2) s = ok(nextRound(ok(masterMistake(ok(pickCard(s, 0))))));
    s = ok(masterMistake(ok(answerQuestion(ok(pickCard(s, 0)), true))));
    expect(s.scores[2]).toBe(1);
    expect(s.round).toMatchObject({ phase: FLIP_OVER, result: RESULT_MISTAKE, finder: -1 });
    const others = [s.scores[0], s.scores[1]];
    s = ok(nextRound(s));
    expect(s.round.master).toBe(0);
    expect(s.round.phase).toBe(FLIP_PICK);
    expect([s.scores[0], s.scores[1]]).toEqual(others);
  });

  it("a Master mistake at 0 points stays at 0", () => {
    const s = ok(masterMistake(picked(config(2, "flip"), 0, 0)));
    expect(s.scores).toEqual([0, 0]);
    expect(s.round.result).toBe(RESULT_MISTAKE);
    expect(ok(nextRound(s)).round.master).toBe(1);
  });
});

describe("Brain Flip decisions and refusals", () => {
  it("the pick can't be changed after it is made", () => {
    const s = picked(config(2, "flip"), 0, 3);
    expect(refusalOf(pickCard(s, 4))).toEqual({ refused: REFUSED_PHASE, positions: [] });
  });

  it("checkFlipConfig names what is wrong", () => {
    expect(checkFlipConfig(config(4, "flip", true, 4))).toBeNull();
    expect(checkFlipConfig(config(2.5, "flip"))).toBe("players must be 2 to 6");
    expect(checkFlipConfig(config(Number.NaN, "flip"))).toBe("players must be 2 to 6");
    expect(checkFlipConfig({ players: "3", grid: 3, mode: "flip", unitFlips: false } as unknown as FlipConfig)).toBe(
      "players must be 2 to 6",
    );
    expect(checkFlipConfig(config(3, "flip", false, 3.5))).toBe("grid must be 2 to 6");
    expect(checkFlipConfig(config(3, "upside" as FlipMode))).toBe("unknown mode upside");
  });

  it("newFlipGame keeps its own copy of the config", () => {
    const c = config(3, "flip");
    const s = newFlipGame(c, 0);
    c.players = 5;
    expect(s.config.players).toBe(3);
  });

  it("cards outside the grid are refused with the card", () => {
    const s = picked(config(2, "flip", false, 3), 0, 4);
    expect(refusalOf(guessCard(s, 9))).toEqual({ refused: REFUSED_RANGE, positions: [9] });
    expect(refusalOf(guessCard(s, -1))).toEqual({ refused: REFUSED_RANGE, positions: [-1] });
    expect(refusalOf(guessCard(s, 1.5))).toEqual({ refused: REFUSED_RANGE, positions: [1.5] });
    expect(refusalOf(pickCard(newFlipGame(config(2, "flip", false, 3), 0), -1))).toEqual({ refused: REFUSED_RANGE, positions: [-1] });
  });

  it("nothing but the pick is accepted during the pick", () => {
    const s = newFlipGame(config(3, "flip"), 0);
    const phase = { refused: REFUSED_PHASE, positions: [] };
    expect(refusalOf(answerQuestion(s, true))).toEqual(phase);
    expect(refusalOf(guessCard(s, 0))).toEqual(phase);
    expect(refusalOf(correctLastAnswer(s))).toEqual(phase);
    expect(refusalOf(masterMistake(s))).toEqual(phase);
    expect(refusalOf(nextRound(s))).toEqual(phase);
  });

  it("eligible: not the Master, not barred, a seated player", () => {
    const s = ok(guessCard(picked(config(3, "flip"), 1, 0), 1));
    expect([0, 1, 2].map((p) => eligible(s, p))).toEqual([true, false, false]);
    expect(eligible(s, 3)).toBe(false);
    expect(eligible(s, -1)).toBe(false);
  });

  it("the state is plain JSON and survives a save and restore", () => {
    const s = ok(guessCard(ok(answerQuestion(picked(config(3, "flip", true), 0, 5), true)), 2));
    const restored = JSON.parse(JSON.stringify(s)) as FlipState;
    expect(restored).toEqual(s);
    expect(ok(guessCard(restored, 5))).toEqual(ok(guessCard(s, 5)));
  });

  it("reducers never change the state they are given", () => {
    const steps: ((s: FlipState) => Result<FlipState>)[] = [
      (s) => pickCard(s, 5),
      (s) => answerQuestion(s, true),
      (s) => correctLastAnswer(s),
      (s) => guessCard(s, 0),
      (s) => answerQuestion(s, false),
      (s) => guessCard(s, 1),
      (s) => guessCard(s, 2),
      (s) => nextRound(s),
      (s) => pickCard(s, 2),
      (s) => masterMistake(s),
      (s) => nextRound(s),
      (s) => pickCard(s, 3),
      (s) => guessCard(s, 3),
    ];
    let s = newFlipGame(config(4, "flip", true), 0);
    for (let i = 0; i < steps.length; i++) {
      const before = structuredClone(s);
      const next = ok(steps[i](s));
      expect(s).toEqual(before);
      expect(next).not.toBe(s);
      expect(next.round).not.toBe(s.round);
      s = next;
    }
    expect(s.rounds).toBe(3);
  });
});
