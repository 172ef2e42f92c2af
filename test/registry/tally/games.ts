/** The unit's list of games with Tally added: the one change a new game needs beyond its own two files. */
import { GAMES as BUILT_IN } from "../../../firmware/ui/games.ts";
import { TALLY } from "./screen.ts";

export const GAMES = BUILT_IN.concat([TALLY]);
