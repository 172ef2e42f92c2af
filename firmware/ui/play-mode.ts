/** The codebreaker screen's modes (ui/codebreaker.ts mode()), which its keys and its picture both follow. */
/**
 * Where a match stands, for keys and drawing alike (mode()): the unit making its secret, a human keying
 * the secret or a guess, the unit choosing its guess, a human keying feedback, an answer being checked
 * for a contradiction, a game ended (OK for the next), the match over (OK for the menu). Numbers in the
 * bundle (a name string costs bytes at every comparison); PLAY_MODE_NAMES names them.
 */
export type PlayMode =
  | typeof UNIT_SECRET
  | typeof KEY_SECRET
  | typeof KEY_GUESS
  | typeof UNIT_THINKING
  | typeof KEY_FEEDBACK
  | typeof CHECKING
  | typeof GAME_ENDED
  | typeof MATCH_OVER;
export const UNIT_SECRET = 0;
export const KEY_SECRET = 1;
export const KEY_GUESS = 2;
export const UNIT_THINKING = 3;
export const KEY_FEEDBACK = 4;
export const CHECKING = 5;
export const GAME_ENDED = 6;
export const MATCH_OVER = 7;
/** The modes' names, by number (for views and tests; not in the bundle). */
export const PLAY_MODE_NAMES = [UNIT_SECRET, KEY_SECRET, KEY_GUESS, UNIT_THINKING, KEY_FEEDBACK, CHECKING, GAME_ENDED, MATCH_OVER];
