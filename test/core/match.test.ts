import { describe, expect, it } from "vitest";
import {
  answer,
  breaker,
  checkConfig,
  gamesPlayed,
  keepSecretInHead,
  newMatch,
  nextGame,
  rulesOf,
  setSecret,
  submitGuess,
  unitRole,
} from "../../firmware/core/match";
import { rulesFor } from "../../firmware/core/presets";
import type { MatchConfig, MatchState, PresetId } from "../../firmware/core/types";
import { EMPTY } from "../../firmware/core/types";
import { guessAndAnswer, ok, playUnitFed, refusalOf } from "./play";
import {
  PHASE_FEEDBACK,
  PHASE_GUESS,
  PHASE_SECRET,
  REFUSED_FEEDBACK_RANGE,
  REFUSED_INCOMPLETE,
  REFUSED_PHASE,
  REFUSED_REPEAT,
} from "../../firmware/core/types.ts";
import { ROLE_BREAKER, ROLE_MAKER, ROLE_NONE } from "../../firmware/core/types.ts";

function config(preset: PresetId, mode: MatchConfig["mode"], games?: number, harder?: boolean): MatchConfig {
  return { preset: preset, harder: harder ?? false, mode: mode, games: games ?? 2 };
}

describe("match setup", () => {
  it("a new match starts with the first game waiting for the secret, scores at 0", () => {
    const m = newMatch(config("brainiac", "referee"));
    expect(m.scores).toEqual([0, 0]);
    expect(m.game).toEqual({ secret: null, rows: [], pending: null, phase: PHASE_SECRET });
    expect(m.history).toEqual([]);
    expect(m.wrongInfo).toBeNull();
    expect(m.over).toBe(false);
    expect(m.maker).toBe(0);
    expect(breaker(m)).toBe(1);
    expect(rulesOf(m)).toEqual(rulesFor("brainiac", false));
  });

  it("player 1 is the unit: it makes the first code in unit-makes and breaks it in unit-breaks", () => {
    const unitMakes = newMatch(config("travel", "unit-makes"));
    expect(unitMakes.maker).toBe(1);
    expect(unitRole(unitMakes)).toBe(ROLE_MAKER);
    const unitBreaks = newMatch(config("travel", "unit-breaks"));
    expect(unitBreaks.maker).toBe(0);
    expect(unitRole(unitBreaks)).toBe(ROLE_BREAKER);
    expect(unitRole(newMatch(config("travel", "manual")))).toBe(ROLE_NONE);
    expect(unitRole(newMatch(config("travel", "referee")))).toBe(ROLE_NONE);
  });

  it("checkConfig accepts an even number of games and explains what is wrong otherwise", () => {
    expect(checkConfig(config("brainiac", "referee", 4))).toBeNull();
    expect(checkConfig(config("brainiac", "referee", 3))).toBe("games must be even");
    expect(checkConfig(config("travel", "manual", 0))).toBe("a match needs at least 2 games");
    expect(checkConfig({ preset: "chess" as PresetId, harder: false, mode: "referee", games: 2 })).toBe("unknown preset chess");
    expect(checkConfig({ preset: "race", harder: false, mode: "solo" as MatchConfig["mode"], games: 2 })).toBe("unknown mode solo");
    // The race is first to the target: its games count is ignored.
    expect(checkConfig(config("race", "unit-makes", 0))).toBeNull();
  });

  it("newMatch keeps its own copy of the config", () => {
    const c = config("brainiac", "referee", 2);
    const m = newMatch(c);
    c.games = 8;
    expect(m.config.games).toBe(2);
  });
});

describe("phases and refusals", () => {
  it("setSecret is refused outside the secret phase, and an invalid secret names its holes", () => {
    const m = newMatch(config("travel", "referee"));
    expect(refusalOf(setSecret(m, [1, 2, 1, 3]))).toEqual({ refused: REFUSED_REPEAT, positions: [0, 2] });
    expect(refusalOf(setSecret(m, [1, EMPTY, 2, 3]))).toEqual({ refused: REFUSED_INCOMPLETE, positions: [1] });
    const playing = ok(setSecret(m, [1, 2, 3, 4]));
    expect(playing.game.phase).toBe(PHASE_GUESS);
    expect(refusalOf(setSecret(playing, [1, 2, 3, 4]))).toEqual({ refused: REFUSED_PHASE, positions: [] });
  });

  it("a guess is refused before the secret is set, and an answer is refused when nothing is pending", () => {
    const m = newMatch(config("brainiac", "manual"));
    expect(refusalOf(submitGuess(m, [0, 0, 0, 0])).refused).toBe(REFUSED_PHASE);
    const playing = ok(setSecret(m, [0, 1, 2, 3]));
    expect(refusalOf(answer(playing, { exact: 0, near: 0 })).refused).toBe(REFUSED_PHASE);
  });

  it("referee: the unit computes every row's feedback, so the codemaker is never asked", () => {
    let m = ok(setSecret(newMatch(config("brainiac", "referee")), [0, 1, 2, 3]));
    m = ok(submitGuess(m, [0, 2, 5, 5]));
    expect(m.game.rows).toEqual([{ guess: [0, 2, 5, 5], feedback: { exact: 1, near: 1 } }]);
    expect(m.game.phase).toBe(PHASE_GUESS);
    expect(m.game.pending).toBeNull();
    expect(refusalOf(answer(m, { exact: 1, near: 1 })).refused).toBe(REFUSED_PHASE);
  });

  it("manual feedback: the guess waits for the codemaker's answer, and a correct answer stands", () => {
    let m = ok(setSecret(newMatch(config("brainiac", "manual")), [0, 1, 2, 3]));
    m = ok(submitGuess(m, [0, 2, 5, 5]));
    expect(m.game.phase).toBe(PHASE_FEEDBACK);
    expect(m.game.pending).toEqual([0, 2, 5, 5]);
    expect(m.game.rows).toEqual([]);
    expect(refusalOf(submitGuess(m, [1, 1, 1, 1])).refused).toBe(REFUSED_PHASE);
    m = ok(answer(m, { exact: 1, near: 1 }));
    expect(m.game.rows).toEqual([{ guess: [0, 2, 5, 5], feedback: { exact: 1, near: 1 } }]);
    expect(m.game.phase).toBe(PHASE_GUESS);
    expect(m.wrongInfo).toBeNull();
  });

  it("manual feedback: counts no code can give are refused and cost nothing", () => {
    const m = ok(submitGuess(ok(setSecret(newMatch(config("brainiac", "manual")), [0, 1, 2, 3])), [0, 2, 5, 5]));
    for (const fb of [
      { exact: -1, near: 0 },
      { exact: 0, near: -1 },
      { exact: 3, near: 2 },
      { exact: 3, near: 1 },
      { exact: 0.5, near: 0 },
    ]) {
      expect(refusalOf(answer(m, fb))).toEqual({ refused: REFUSED_FEEDBACK_RANGE, positions: [] });
    }
    const race = ok(submitGuess(ok(setSecret(newMatch(config("race", "manual")), [0, 1, 2, 3, 4])), [0, 1, 2, 3, 5]));
    expect(refusalOf(answer(race, { exact: 4, near: 1 })).refused).toBe(REFUSED_FEEDBACK_RANGE);
  });

  it("nextGame is refused while the game is being played", () => {
    const m = newMatch(config("brainiac", "referee"));
    expect(refusalOf(nextGame(m)).refused).toBe(REFUSED_PHASE);
    expect(refusalOf(nextGame(ok(setSecret(m, [0, 1, 2, 3])))).refused).toBe(REFUSED_PHASE);
  });

  it("nothing is accepted after the match is over", () => {
    let m = newMatch(config("brainiac", "referee", 2));
    m = playUnitFed(m, [0, 1, 2, 3], 1);
    m = playUnitFed(ok(nextGame(m)), [0, 1, 2, 3], 2);
    expect(m.over).toBe(true);
    expect(refusalOf(nextGame(m)).refused).toBe(REFUSED_PHASE);
    expect(refusalOf(submitGuess(m, [0, 1, 2, 3])).refused).toBe(REFUSED_PHASE);
    expect(refusalOf(setSecret(m, [0, 1, 2, 3])).refused).toBe(REFUSED_PHASE);
  });

  it("the state keeps its own copy of codes passed in", () => {
    const secret = [0, 1, 2, 3];
    const guess = [3, 2, 1, 0];
    let m = ok(setSecret(newMatch(config("brainiac", "referee")), secret));
    m = ok(submitGuess(m, guess));
    secret[0] = 5;
    guess[0] = 5;
    expect(m.game.secret).toEqual([0, 1, 2, 3]);
    expect(m.game.rows[0].guess).toEqual([3, 2, 1, 0]);
  });

  it("reducers never change the state they are given", () => {
    const check = (m: MatchState, step: (s: MatchState) => unknown) => {
      const before = JSON.stringify(m);
      step(m);
      expect(JSON.stringify(m)).toBe(before);
    };
    const start = newMatch(config("brainiac", "manual"));
    check(start, (s) => setSecret(s, [0, 1, 2, 3]));
    const playing = ok(setSecret(start, [0, 1, 2, 3]));
    check(playing, (s) => submitGuess(s, [0, 1, 2, 3]));
    const pending = ok(submitGuess(playing, [0, 1, 2, 3]));
    check(pending, (s) => answer(s, { exact: 4, near: 0 }));
    check(pending, (s) => answer(s, { exact: 2, near: 0 }));
    const solved = ok(answer(pending, { exact: 4, near: 0 }));
    check(solved, (s) => nextGame(s));
    const head = newMatch(config("brainiac", "unit-breaks"));
    check(head, (s) => keepSecretInHead(s));
    const thinking = ok(submitGuess(ok(keepSecretInHead(head)), [0, 0, 1, 1]));
    check(thinking, (s) => answer(s, { exact: 4, near: 0 }));
  });

  it("gamesPlayed counts the games that were not replayed", () => {
    let m = ok(setSecret(newMatch(config("brainiac", "manual", 4)), [0, 1, 2, 3]));
    m = ok(guessAndAnswer(m, [0, 0, 0, 0], { exact: 0, near: 0 })); // wrong: one 0 is in place
    expect(gamesPlayed(m)).toBe(0);
    m = ok(nextGame(m));
    m = ok(setSecret(m, [0, 1, 2, 3]));
    m = ok(guessAndAnswer(m, [0, 1, 2, 3], { exact: 4, near: 0 }));
    expect(gamesPlayed(m)).toBe(1);
    expect(m.history.length).toBe(2);
  });
});
