/**
 * Saved games for the flash tests: one the first firmware wrote (format 1), and matches in progress as the current
 * firmware saves them, played on the simulator with the built bundle.
 */
import { VirtualBoard } from "../../sim/board/board.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { firmwareBundle, R1 } from "../device/helpers.ts";
import { Player, type Goal } from "../saves/player.ts";
import { readSavedState } from "../saves/saved-state.ts";
import { SAVE_SLOT_NAMES } from "../../firmware/tools/save-upgrade.ts";
import { saveCrc } from "../../sim/board/saves.ts";

/**
 * Written by the firmware of commit 4a92e49 (format 1, as test/saves/save-format.test.ts has it): Brainiac,
 * referee, secret 5 4 3 2, one row (red green blue yellow: 0 exact, 2 near), the console lock on: the unit resumes it
 * with its console locked.
 */
export const OLD_SAVE =
  'BB1|5|41226|{"v":1,"s":"play","p":{"n":"brainiac","d":false,"rn":"referee","f":4,"oe":1,"ie":true,"Pt":5,"lockConsole":true,"se":"flip","c":3,"re":6,"w":false},"hn":{"r":{"n":"brainiac","d":false,"rn":"referee","f":4},"l":[0,0],"Yt":0,"e":{"secret":[5,4,3,2],"Wt":[{"Jt":[0,1,2,3],"Qt":{"o":0,"a":2}}],"x":null,"Kt":"guess"},"Sn":[],"m":null,"jt":false,"O":-1},"qt":null}';

/** The settings of OLD_SAVE as a list, in the order format 2 held them before they were named. */
export const LISTED_SETTINGS = ["brainiac", false, "referee", 4, 1, true, 5, true, "flip", 3, 6, false];

/** OLD_SAVE as format 2 wrote it before the settings were named: phase by number, version 2, the settings a list (BB2 header). */
export function listedSettingsSave(): string {
  const json = OLD_SAVE.slice(OLD_SAVE.indexOf("{"))
    .replace('"v":1', '"v":2')
    .replace('"Kt":"guess"', '"Kt":1')
    .replace(/"p":\{[^}]*\}/, `"p":${JSON.stringify(LISTED_SETTINGS)}`);
  return `BB2|5|${saveCrc(json)}|${json}`;
}

/** A Brainiac match against the unit (it makes the code: nothing to lock the console for). */
export const UNIT_MAKES: Goal = { game: "brainiac", harder: false, mode: "unit-makes", games: 2 };

/**
 * A match played on the simulator until its game has `rows` rows: the unit (still on), its slots as it left them (both
 * written, the newer one the game now) and what its board and key-peg LEDs showed.
 */
export function playedMatch(
  goal: Goal,
  rows: number,
  seed = 4,
): { unit: VirtualBoard; slots: Record<string, string>; board: string[]; keys: string[] } {
  const board = new VirtualBoard({ firmware: firmwareBundle(), seed });
  const player = new Player(R1, new Prng(seed), 0);
  board.powerOn();
  board.advance(200);
  for (let i = 0; i < 500; i++) {
    const state = readSavedState(board);
    if (state?.match && state.match.game.rows.length >= rows) break;
    for (const k of player.next(state, goal).keys) board.tap(k, 30, 30);
  }
  board.advance(300);
  const state = readSavedState(board);
  if (!state?.match || state.match.game.rows.length < rows) throw new Error(`no game of ${rows} rows was played`);
  const slots: Record<string, string> = {};
  for (const n of SAVE_SLOT_NAMES) {
    const text = board.storage.readString(n);
    if (text !== undefined) slots[n] = text;
  }
  return { unit: board, slots, board: board.colours("board"), keys: board.colours("keys") };
}
