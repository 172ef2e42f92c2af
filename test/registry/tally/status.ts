/** Tally's entry for the page's status (sim/views/game-status.ts): what its screen says, in words. */
import { screenStatus, type GameStatus } from "../../../sim/views/game-status.ts";
import type { TallyState } from "./core.ts";
import { TALLY, TALLY_TARGET } from "./screen.ts";

export const TALLY_STATUS: GameStatus = {
  kind: TALLY,
  screen: "tally",
  menuRows: "row 1 the game, row 5 brightness",
  chosen: () => `Tally, counting to ${TALLY_TARGET} together`,
  board: (profile) => ({ pegs: 0, rows: 0, keyPegs: 0, about: `Tally: the board of ${profile.pegs} × ${profile.rows} is not used` }),
  playing(state) {
    const s = state as TallyState;
    const st = screenStatus(
      "tally",
      s.over
        ? `Tally: all ${s.target} counted. OK returns to the menu.`
        : `Tally: ${s.count} of ${s.target} counted; the green key counts one more.`,
    );
    st.game = `Tally, counting to ${s.target} together`;
    st.facts.push({ label: "count", value: `${s.count} of ${s.target}` });
    return st;
  },
  unfinished: (state) => !!state && !(state as TallyState).over,
  kept: (st, state) => st.facts.push({ label: "count", value: `${(state as TallyState).count} of ${(state as TallyState).target}` }),
};
