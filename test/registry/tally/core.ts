/**
 * Tally, a game made only to prove the list of games (its rules): the players count up to a target
 * together, one press at a time; the game is over at the target, and a press after that is refused.
 */
export interface TallyState {
  count: number;
  target: number;
  over: boolean;
}

export function newTally(target: number): TallyState {
  return { count: 0, target, over: false };
}

/** One more; null (refused) once the game is over. */
export function addOne(s: TallyState): TallyState | null {
  if (s.over) return null;
  const count = s.count + 1;
  return { count, target: s.target, over: count >= s.target };
}

/** Why a saved state is not a tally (null: it is one). */
export function checkTally(data: unknown): string | null {
  const s = data as TallyState;
  if (!s || typeof s !== "object") return "not a tally";
  if (!(s.target >= 1 && s.target <= 6) || !(s.count >= 0 && s.count <= s.target) || s.over !== s.count >= s.target) return "bad count";
  return null;
}
