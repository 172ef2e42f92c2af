/** Helpers to drive the match reducers in tests. */
import { forEachCode } from "../../firmware/core/codes";
import { feedback } from "../../firmware/core/feedback";
import { answer, rulesOf, setSecret, submitGuess } from "../../firmware/core/match";
import type { Code, Feedback, MatchState, Refusal, Result } from "../../firmware/core/types";
import { PHASE_GUESS } from "../../firmware/core/types.ts";

/** The state of an accepted action; throws with the refusal otherwise. */
export function ok(result: Result<MatchState>): MatchState {
  if (!result.ok) throw new Error("refused: " + JSON.stringify(result.refusal));
  return result.state;
}

/** The refusal of a refused action; throws if it was accepted. */
export function refusalOf(result: Result<MatchState>): Refusal {
  if (result.ok) throw new Error("accepted");
  return result.refusal;
}

/** A valid guess for the match's rules that is not `secret` (so it never solves the game). */
export function missFor(m: MatchState, secret: Code): Code {
  let miss: Code = [];
  forEachCode(rulesOf(m), false, (code) => {
    if (feedback(code, secret).exact === secret.length) return false;
    miss = code.slice();
    return true;
  });
  return miss;
}

/** Unit gives feedback (referee, or unit makes): sets `secret`, misses solveRow - 1 rows, then plays the secret (null: misses every row). */
export function playUnitFed(m: MatchState, secret: Code, solveRow: number | null): MatchState {
  let state = ok(setSecret(m, secret));
  const rows = rulesOf(m).rows;
  const miss = missFor(m, secret);
  for (let r = 1; r <= rows; r++) {
    state = ok(submitGuess(state, solveRow === r ? secret : miss));
    if (state.game.phase !== PHASE_GUESS) break;
  }
  return state;
}

/** Plays one row where the codemaker answers (manual mode or unit breaks). */
export function guessAndAnswer(m: MatchState, guess: Code, fb: Feedback): Result<MatchState> {
  return answer(ok(submitGuess(m, guess)), fb);
}
