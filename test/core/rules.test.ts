/**
 * One scenario per rule of docs/rules.md sections 1-3 that the core owns, each named after its rule.
 * Symbols: colours 0..colours-1, the blank is `colours` (6 in Brainiac, 8 in the travel unit and the race).
 */
import { describe, expect, it } from "vitest";
import { firstConsistent } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import {
  answer,
  breaker,
  checkConfig,
  keepSecretInHead,
  newMatch,
  nextGame,
  rulesOf,
  setSecret,
  submitGuess,
  unitRole,
} from "../../firmware/core/match";
import { rulesFor } from "../../firmware/core/presets";
import { randomSecret } from "../../firmware/core/random";
import type { MatchConfig, MatchState, PresetId } from "../../firmware/core/types";
import { EMPTY } from "../../firmware/core/types";
import { checkSecret } from "../../firmware/core/validate";
import { seededRandom } from "./helpers";
import { guessAndAnswer, missFor, ok, playUnitFed, refusalOf } from "./play";
import {
  PHASE_FAILED,
  PHASE_FEEDBACK,
  PHASE_GUESS,
  PHASE_SECRET,
  PHASE_SOLVED,
  REFUSED_BLANK,
  REFUSED_INCOMPLETE,
  REFUSED_PHASE,
  REFUSED_REPEAT,
} from "../../firmware/core/types.ts";
import { ROLE_BREAKER, ROLE_MAKER } from "../../firmware/core/types.ts";

function match(preset: PresetId, mode: MatchConfig["mode"], games?: number, harder?: boolean): MatchState {
  return newMatch({ preset: preset, harder: harder ?? false, mode: mode, games: games ?? 2 });
}

describe("docs/rules.md 1: what every preset shares", () => {
  it("the row where exact = pegs ends the game and the secret is revealed", () => {
    let m = ok(setSecret(match("brainiac", "referee"), [0, 1, 2, 3]));
    m = ok(submitGuess(m, [0, 1, 3, 2]));
    expect(m.game.phase).toBe(PHASE_GUESS);
    m = ok(submitGuess(m, [0, 1, 2, 3]));
    expect(m.game.phase).toBe(PHASE_SOLVED);
    expect(m.game.secret).toEqual([0, 1, 2, 3]);
    expect(m.history).toEqual([{ maker: 0, rowsPlayed: 2, solved: true, replayed: false, gained: [2, 0] }]);
    expect(refusalOf(submitGuess(m, [0, 1, 2, 3])).refused).toBe(REFUSED_PHASE);
  });

  it("the game ends when the last row is used without breaking the code", () => {
    const m = playUnitFed(match("brainiac", "referee"), [0, 1, 2, 3], null);
    expect(m.game.rows.length).toBe(12);
    expect(m.game.phase).toBe(PHASE_FAILED);
    expect(m.game.secret).toEqual([0, 1, 2, 3]);
    expect(refusalOf(submitGuess(m, [0, 1, 2, 3])).refused).toBe(REFUSED_PHASE);
  });

  it("a guess is always complete: a row with an empty hole is refused", () => {
    const m = ok(setSecret(match("brainiac", "referee"), [0, 1, 2, 3]));
    expect(refusalOf(submitGuess(m, [0, EMPTY, 2, EMPTY]))).toEqual({ refused: REFUSED_INCOMPLETE, positions: [1, 3] });
  });

  it("a blank counts as filled only where blanks are allowed", () => {
    const normal = ok(setSecret(match("brainiac", "referee"), [0, 1, 2, 3]));
    expect(refusalOf(submitGuess(normal, [6, 1, 2, 3]))).toEqual({ refused: REFUSED_BLANK, positions: [0] });
    const extra = ok(setSecret(match("brainiac", "referee", 2, true), [0, 1, 2, 3]));
    expect(ok(submitGuess(extra, [6, 1, 2, 3])).game.rows.length).toBe(1);
  });

  it("a refused guess costs no row", () => {
    const m = ok(submitGuess(ok(setSecret(match("race", "referee"), [0, 1, 2, 3, 4])), [5, 6, 7, 0, 1]));
    const refused = submitGuess(m, [0, 0, 1, 2, 3]);
    expect(refusalOf(refused)).toEqual({ refused: REFUSED_REPEAT, positions: [0, 1] });
    expect(m.game.rows.length).toBe(1);
    const next = ok(submitGuess(m, [0, 1, 2, 3, 4]));
    expect(next.game.rows.length).toBe(2);
    expect(next.history[0].rowsPlayed).toBe(2);
  });

  it("roles switch after every game", () => {
    let m = match("travel", "referee", 4);
    const makers: number[] = [];
    for (let game = 0; game < 4; game++) {
      makers.push(m.maker);
      expect(breaker(m)).toBe(1 - m.maker);
      m = playUnitFed(m, [0, 1, 2, 3], 3);
      if (!m.over) m = ok(nextGame(m));
    }
    expect(makers).toEqual([0, 1, 0, 1]);
    expect(m.history.map((g) => g.maker)).toEqual([0, 1, 0, 1]);
  });

  it("a match is an even number of games", () => {
    expect(checkConfig({ preset: "brainiac", harder: false, mode: "referee", games: 5 })).toBe("games must be even");
    expect(checkConfig({ preset: "travel", harder: true, mode: "manual", games: 6 })).toBeNull();
  });

  it("a match of 4 games ends after the fourth with the higher score winning (draw on a tie)", () => {
    const playMatch = (solveRows: number[]) => {
      let m = match("brainiac", "referee", 4);
      for (let game = 0; game < 4; game++) {
        expect(m.over).toBe(false);
        m = playUnitFed(m, [0, 1, 2, 3], solveRows[game]);
        if (game < 3) m = ok(nextGame(m));
      }
      return m;
    };
    // Makers: player 0, 1, 0, 1; each scores the rows the other played.
    const won = playMatch([3, 2, 4, 6]);
    expect(won.over).toBe(true);
    expect(won.scores).toEqual([7, 8]);
    expect(won.winner).toBe(1);
    const drawn = playMatch([3, 2, 4, 5]);
    expect(drawn.over).toBe(true);
    expect(drawn.scores).toEqual([7, 7]);
    expect(drawn.winner).toBe(-1);
  });

  it("scores are kept per player across games", () => {
    let m = playUnitFed(match("brainiac", "referee", 4), [0, 1, 2, 3], 5);
    expect(m.scores).toEqual([5, 0]);
    m = playUnitFed(ok(nextGame(m)), [0, 1, 2, 3], null);
    expect(m.scores).toEqual([5, 13]);
    m = playUnitFed(ok(nextGame(m)), [0, 1, 2, 3], 1);
    expect(m.scores).toEqual([6, 13]);
    expect(m.history.map((g) => g.gained)).toEqual([
      [5, 0],
      [0, 13],
      [1, 0],
    ]);
  });
});

describe("docs/rules.md 2: Brainiac", () => {
  it("Brainiac: the secret and the guesses may repeat colours", () => {
    const m = ok(setSecret(match("brainiac", "referee"), [2, 2, 2, 5]));
    expect(ok(submitGuess(m, [5, 2, 2, 2])).game.rows[0].feedback).toEqual({ exact: 2, near: 2 });
  });

  it("Brainiac: the codemaker scores 1 point per row the codebreaker played", () => {
    const m = playUnitFed(match("brainiac", "referee"), [0, 1, 2, 3], 7);
    expect(m.scores).toEqual([7, 0]);
  });

  it("Brainiac: the codemaker scores 13 when row 12 fails", () => {
    const m = playUnitFed(match("brainiac", "referee"), [0, 1, 2, 3], null);
    expect(m.game.rows.length).toBe(12);
    expect(m.scores).toEqual([13, 0]);
    expect(m.history[0]).toEqual({ maker: 0, rowsPlayed: 12, solved: false, replayed: false, gained: [13, 0] });
  });

  it("Brainiac: a code solved in row 12 scores 12, not 13", () => {
    expect(playUnitFed(match("brainiac", "referee"), [0, 1, 2, 3], 12).scores).toEqual([12, 0]);
  });

  it("Brainiac: the blank is refused without the extra challenge", () => {
    expect(refusalOf(setSecret(match("brainiac", "referee"), [6, 1, 2, 3]))).toEqual({ refused: REFUSED_BLANK, positions: [0] });
  });

  it("Brainiac extra challenge: the blank is a seventh colour", () => {
    const rules = rulesFor("brainiac", true);
    expect(rules.colours + 1).toBe(7);
    // One or more holes may be left empty, and colours may still repeat.
    let m = ok(setSecret(match("brainiac", "referee", 2, true), [6, 6, 1, 1]));
    m = ok(submitGuess(m, [6, 1, 6, 0]));
    expect(m.game.rows[0].feedback).toEqual({ exact: 1, near: 2 });
    expect(checkSecret(rules, [6, 6, 6, 6])).toBeNull();
  });

  it("Brainiac: wrong information replays the game and gives the codebreaker 3 points", () => {
    let m = ok(setSecret(match("brainiac", "manual"), [0, 1, 2, 3]));
    m = ok(guessAndAnswer(m, [0, 5, 5, 5], { exact: 0, near: 1 }));
    expect(m.wrongInfo).toEqual({ rows: [0], correct: { exact: 1, near: 0 } });
    expect(m.scores).toEqual([0, 3]);
    expect(m.history).toEqual([{ maker: 0, rowsPlayed: 1, solved: false, replayed: true, gained: [0, 3] }]);
  });

  it("Brainiac: the player with the most points after the agreed number of games wins", () => {
    let m = playUnitFed(match("brainiac", "referee", 2), [0, 1, 2, 3], 9);
    expect(m.over).toBe(false);
    m = playUnitFed(ok(nextGame(m)), [0, 1, 2, 3], 4);
    expect(m.over).toBe(true);
    expect(m.scores).toEqual([9, 4]);
    expect(m.winner).toBe(0);
  });
});

describe("docs/rules.md 2: the Mastermind travel unit", () => {
  it("travel unit: a secret with a repeated colour is refused", () => {
    expect(refusalOf(setSecret(match("travel", "referee"), [7, 3, 7, 0]))).toEqual({ refused: REFUSED_REPEAT, positions: [0, 2] });
  });

  it("travel unit: guesses may repeat colours", () => {
    const m = ok(setSecret(match("travel", "referee"), [7, 3, 1, 0]));
    expect(ok(submitGuess(m, [7, 7, 7, 7])).game.rows[0].feedback).toEqual({ exact: 1, near: 0 });
  });

  it("travel unit: the blank is refused outside the expert variant", () => {
    expect(refusalOf(setSecret(match("travel", "referee"), [8, 3, 1, 0])).refused).toBe(REFUSED_BLANK);
  });

  it("travel unit: the codemaker scores 1 point per row the decoder played", () => {
    expect(playUnitFed(match("travel", "referee"), [0, 1, 2, 3], 4).scores).toEqual([4, 0]);
  });

  it("travel unit: the codemaker scores 9 when row 9 fails", () => {
    const m = playUnitFed(match("travel", "referee"), [0, 1, 2, 3], null);
    expect(m.game.rows.length).toBe(9);
    expect(m.game.phase).toBe(PHASE_FAILED);
    expect(m.scores).toEqual([9, 0]);
  });

  it("travel unit: wrong information replays the game and 3 points go to the decoder", () => {
    let m = ok(setSecret(match("travel", "manual"), [0, 1, 2, 3]));
    m = ok(guessAndAnswer(m, [4, 5, 6, 7], { exact: 0, near: 0 }));
    m = ok(guessAndAnswer(m, [1, 0, 4, 4], { exact: 0, near: 1 }));
    expect(m.wrongInfo).toEqual({ rows: [1], correct: { exact: 0, near: 2 } });
    expect(m.scores).toEqual([0, 3]);
    m = ok(nextGame(m));
    expect(m.maker).toBe(0);
  });

  it("travel expert: a secret may repeat the blank but no colour", () => {
    const m = match("travel", "referee", 2, true);
    expect(ok(setSecret(m, [8, 2, 8, 8])).game.phase).toBe(PHASE_GUESS);
    expect(refusalOf(setSecret(m, [8, 2, 8, 2]))).toEqual({ refused: REFUSED_REPEAT, positions: [1, 3] });
  });

  it("travel unit: feedback is shown with red and white arms", () => {
    expect(rulesFor("travel", false).look).toBe("arms");
    expect(rulesFor("brainiac", false).look).toBe("pegs");
    expect(rulesFor("race", false).look).toBe("pegs");
  });
});

describe("docs/rules.md 2: the five-peg race", () => {
  const SECRET = [0, 1, 2, 3, 4];
  const advance = [12, 12, 12, 12, 10, 10, 8, 8, 6, 6, 4, 4];
  for (let row = 1; row <= 12; row++) {
    it(`race: a solve in row ${row} advances ${advance[row - 1]} holes`, () => {
      const m = playUnitFed(match("race", "referee"), SECRET, row);
      expect(m.game.phase).toBe(PHASE_SOLVED);
      expect(m.game.rows.length).toBe(row);
      expect(m.scores).toEqual([0, advance[row - 1]]);
    });
  }

  it("race: an unsolved game advances the codebreaker 0 holes and gives the codemaker nothing", () => {
    const m = playUnitFed(match("race", "referee"), SECRET, null);
    expect(m.game.phase).toBe(PHASE_FAILED);
    expect(m.game.rows.length).toBe(12);
    expect(m.scores).toEqual([0, 0]);
  });

  it("race: the first to 30 wins", () => {
    let m = match("race", "referee");
    // Each codebreaker solves in row 1 (12 holes); player 1 breaks first, in games 1, 3 and 5.
    for (let game = 1; game <= 5; game++) {
      expect(m.over).toBe(false);
      m = playUnitFed(m, SECRET, 1);
      if (game < 5) m = ok(nextGame(m));
    }
    expect(m.over).toBe(true);
    expect(m.winner).toBe(1);
    expect(m.scores).toEqual([24, 36]); // the real sum, past hole 30
    expect(refusalOf(nextGame(m)).refused).toBe(REFUSED_PHASE);
  });

  it("race: a secret with a repeated colour or a blank is refused", () => {
    const m = match("race", "referee");
    expect(refusalOf(setSecret(m, [0, 1, 2, 3, 0]))).toEqual({ refused: REFUSED_REPEAT, positions: [0, 4] });
    expect(refusalOf(setSecret(m, [0, 1, 2, 3, 8]))).toEqual({ refused: REFUSED_BLANK, positions: [4] });
  });

  it("race: normal guesses must use five different colours and no blank", () => {
    const m = ok(setSecret(match("race", "referee"), SECRET));
    expect(refusalOf(submitGuess(m, [5, 5, 6, 7, 0]))).toEqual({ refused: REFUSED_REPEAT, positions: [0, 1] });
    expect(refusalOf(submitGuess(m, [5, 8, 6, 7, 0]))).toEqual({ refused: REFUSED_BLANK, positions: [1] });
    expect(ok(submitGuess(m, [5, 1, 6, 7, 0])).game.rows.length).toBe(1);
  });

  it("race advanced: guesses may repeat colours and use blanks", () => {
    const m = ok(setSecret(match("race", "referee", 2, true), SECRET));
    expect(ok(submitGuess(m, [0, 0, 8, 8, 4])).game.rows[0].feedback).toEqual({ exact: 2, near: 0 });
  });

  it("race advanced: the secret may repeat colours and use blanks", () => {
    const m = ok(setSecret(match("race", "referee", 2, true), [8, 8, 3, 3, 3]));
    expect(ok(submitGuess(m, [3, 8, 8, 3, 0])).game.rows[0].feedback).toEqual({ exact: 2, near: 2 });
  });

  it("race: wrong information replays the game and advances the codebreaker 3 holes", () => {
    let m = ok(setSecret(match("race", "manual"), SECRET));
    m = ok(guessAndAnswer(m, [4, 3, 2, 1, 0], { exact: 0, near: 5 }));
    expect(m.wrongInfo).toEqual({ rows: [0], correct: { exact: 1, near: 4 } });
    expect(m.scores).toEqual([0, 3]);
    expect(m.history[0].replayed).toBe(true);
    m = ok(nextGame(m));
    expect(m.maker).toBe(0);
    expect(m.game.phase).toBe(PHASE_SECRET);
  });

  it("race: a wrong-information bonus can end the race", () => {
    let m = match("race", "manual");
    // Player 1 solves in row 1 twice (24 holes) ...
    for (let game = 1; game <= 4; game++) {
      m = ok(setSecret(m, SECRET));
      m = ok(guessAndAnswer(m, SECRET, { exact: 5, near: 0 }));
      m = ok(nextGame(m));
    }
    expect(m.scores).toEqual([24, 24]);
    // ... then player 0 gives wrong information twice in game 5: 27, then 30.
    for (let replay = 0; replay < 2; replay++) {
      expect(m.maker).toBe(0);
      m = ok(setSecret(m, SECRET));
      m = ok(guessAndAnswer(m, [5, 6, 7, 0, 1], { exact: 0, near: 0 }));
      if (replay === 0) m = ok(nextGame(m));
    }
    expect(m.scores).toEqual([24, 30]);
    expect(m.over).toBe(true);
    expect(m.winner).toBe(1);
  });
});

describe("docs/rules.md 3: who makes and who breaks", () => {
  it("referee: the unit computes the feedback, so no feedback error is possible", () => {
    let m = ok(setSecret(match("race", "referee"), [0, 1, 2, 3, 4]));
    m = ok(submitGuess(m, [4, 3, 2, 1, 0]));
    expect(m.game.rows[0].feedback).toEqual({ exact: 1, near: 4 });
    expect(refusalOf(answer(m, { exact: 0, near: 0 })).refused).toBe(REFUSED_PHASE);
  });

  it("manual feedback: a wrong answer replays the game and gives the codebreaker 3 points", () => {
    let m = ok(setSecret(match("brainiac", "manual", 2), [0, 1, 2, 3]));
    m = ok(guessAndAnswer(m, [3, 3, 3, 3], { exact: 1, near: 0 }));
    m = ok(guessAndAnswer(m, [0, 0, 1, 1], { exact: 2, near: 0 }));
    expect(m.wrongInfo).toEqual({ rows: [1], correct: { exact: 1, near: 1 } });
    expect(m.game.rows[1].feedback).toEqual({ exact: 2, near: 0 }); // the row as given, to show it
    expect(m.scores).toEqual([0, 3]);
    expect(m.over).toBe(false);
    m = ok(nextGame(m));
    expect(m.maker).toBe(0); // the same codemaker again: a replay
    expect(m.wrongInfo).toBeNull();
    expect(m.game).toEqual({ secret: null, rows: [], pending: null, phase: PHASE_SECRET });
    // The replayed game does not count: two more games finish the match of 2.
    m = playUnitFedManual(m, 2);
    expect(m.over).toBe(false);
    m = playUnitFedManual(ok(nextGame(m)), 3);
    expect(m.over).toBe(true);
    expect(m.scores).toEqual([2, 6]);
  });

  it("unit makes: the unit is player 1, draws a valid random secret and gives the feedback", () => {
    let m = match("travel", "unit-makes", 2, true);
    expect(unitRole(m)).toBe(ROLE_MAKER);
    expect(m.maker).toBe(1);
    const secret = randomSecret(rulesOf(m), seededRandom(3));
    expect(checkSecret(rulesOf(m), secret)).toBeNull();
    m = ok(setSecret(m, secret));
    const guess = missFor(m, secret);
    m = ok(submitGuess(m, guess));
    expect(m.game.rows).toEqual([{ guess: guess, feedback: feedback(guess, secret) }]);
  });

  it("unit modes: roles switch, so the unit breaks the second game and the player answers", () => {
    let m = playUnitFed(match("brainiac", "unit-makes"), [0, 1, 2, 3], 2);
    expect(m.scores).toEqual([0, 2]);
    m = ok(nextGame(m));
    expect(unitRole(m)).toBe(ROLE_BREAKER);
    m = ok(keepSecretInHead(m));
    m = ok(submitGuess(m, [0, 0, 1, 1]));
    expect(m.game.phase).toBe(PHASE_FEEDBACK);
  });

  it("keeping the code in the head is only for a unit codebreaker", () => {
    expect(refusalOf(keepSecretInHead(match("brainiac", "manual"))).refused).toBe(REFUSED_PHASE);
    expect(refusalOf(keepSecretInHead(match("brainiac", "unit-makes"))).refused).toBe(REFUSED_PHASE);
    const m = ok(keepSecretInHead(match("brainiac", "unit-breaks")));
    expect(m.game.secret).toBeNull();
    expect(m.game.phase).toBe(PHASE_GUESS);
  });

  it("unit breaks: the player keeps the code in their head, the unit guesses and breaks it", () => {
    const thought = [5, 0, 5, 2];
    let m = ok(keepSecretInHead(match("brainiac", "unit-breaks")));
    while (m.game.phase === PHASE_GUESS) {
      // (The unit's own choice is the solver's, tested in test/solver and test/scenarios; any consistent code plays here.)
      const guess = firstConsistent(rulesOf(m), m.game.rows);
      expect(guess).not.toBeNull();
      m = ok(guessAndAnswer(m, guess as number[], feedback(guess as number[], thought)));
    }
    expect(m.game.phase).toBe(PHASE_SOLVED);
    expect(m.game.rows[m.game.rows.length - 1].guess).toEqual(thought);
    expect(m.scores).toEqual([m.game.rows.length, 0]);
  });

  it("unit breaks: contradictory feedback names the conflicting rows", () => {
    let m = ok(keepSecretInHead(match("brainiac", "unit-breaks")));
    m = ok(guessAndAnswer(m, [0, 0, 1, 1], { exact: 0, near: 0 })); // no 0, no 1
    m = ok(guessAndAnswer(m, [2, 2, 3, 3], { exact: 1, near: 0 }));
    expect(m.wrongInfo).toBeNull();
    m = ok(guessAndAnswer(m, [0, 1, 4, 4], { exact: 3, near: 0 })); // needs a 0 or a 1
    expect(m.wrongInfo).toEqual({ rows: [0, 2], correct: null });
    expect(m.scores).toEqual([0, 3]); // the unit, player 1, is the codebreaker
    expect(m.history[0]).toEqual({ maker: 0, rowsPlayed: 3, solved: false, replayed: true, gained: [0, 3] });
    m = ok(nextGame(m));
    expect(m.maker).toBe(0);
    expect(unitRole(m)).toBe(ROLE_BREAKER);
  });

  it("unit breaks: a code entered hidden is checked, so a wrong answer is caught on its row", () => {
    let m = ok(setSecret(match("brainiac", "unit-breaks"), [1, 2, 3, 4]));
    m = ok(guessAndAnswer(m, [1, 1, 2, 2], { exact: 1, near: 1 }));
    m = ok(guessAndAnswer(m, [4, 3, 2, 1], { exact: 0, near: 3 }));
    expect(m.wrongInfo).toEqual({ rows: [1], correct: { exact: 0, near: 4 } });
    expect(m.scores).toEqual([0, 3]);
  });
});

/** Manual mode: the codebreaker solves in row `solveRow`, the codemaker answering truthfully. */
function playUnitFedManual(m: MatchState, solveRow: number): MatchState {
  const secret = [0, 1, 2, 3];
  let state = ok(setSecret(m, secret));
  const miss = missFor(state, secret);
  for (let r = 1; r <= solveRow; r++) {
    const guess = r === solveRow ? secret : miss;
    state = ok(guessAndAnswer(state, guess, feedback(guess, secret)));
  }
  return state;
}
