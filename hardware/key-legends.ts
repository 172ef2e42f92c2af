/**
 * What each key of the unit does on each screen, in words: the legends of the page's keys and of the
 * printed overlay (hardware/gen-overlay.ts). One table per screen:
 *
 *   menu          the menu's rows (docs/playing.md "The menu"), for the codebreaker games and for Brain Flip
 *   codebreaker   the play screen: colours, blank, hole choice, hint, menu, undo, clear, OK
 *   brainflip     the cards, and the Master's keys
 *
 * The positions and the option lists come from the firmware (firmware/ui/layout.ts, app.ts, flip.ts);
 * the words are the README's. The menu is the firmware's own table (ui/menu.ts: its items, each naming
 * its setting, whose options ui/settings.ts SETTING_LEGENDS names; MENU_KEY_LEGENDS); only the longer
 * words for tooltips are added here.
 */
import type { Profile } from "./profile.ts";
import { G_HINT } from "../firmware/ui/layout.ts";
import { settingLegend, type Settings } from "../firmware/ui/settings.ts";
import { GAME_IDS, GAME_NAMES, GAMES } from "../firmware/ui/games.ts";
import { menus, G_RESUME, MENU_KEY_LEGENDS, type MenuItem } from "../firmware/ui/menu.ts";
import { FG_CORRECT, FG_MENU, FG_MISTAKE, FG_NO, FG_OK, FG_YES } from "../firmware/ui/flip.ts";
import { G_BLANK, G_CLEAR, G_COLOUR, G_EXACT, G_MENU, G_NEAR, G_OK, G_SLOT, G_UNDO } from "../firmware/ui/layout.ts";
import { COLOUR_NAMES, PEG_NAMES } from "../firmware/ui/palette.ts";
import type { MatchMode } from "../firmware/core/types.ts";

export type ScreenId = "menu" | "codebreaker" | "brainflip";
export const SCREEN_IDS: ScreenId[] = ["menu", "codebreaker", "brainflip"];
export const SCREEN_TITLES: Record<ScreenId, string> = { menu: "Menu", codebreaker: "Codebreaker games", brainflip: "Brain Flip" };

/** A key's words on one screen: a short label (fits a key cap) and what it does, for tooltips and screen readers. */
export interface KeyLegend {
  label: string;
  about: string;
}

/** Per screen: the 36 pad positions (reading order, "" when the key does nothing) and the codemaker pad's keys by id. */
export interface ScreenLegends {
  pad: KeyLegend[];
  maker: Record<string, KeyLegend>;
}

const NONE: KeyLegend = { label: "", about: "" };

export { GAME_NAMES };

export const MODE_NAMES: Record<MatchMode, { label: string; about: string }> = {
  referee: { label: "1: unit referees", about: "roles 1: two players, the unit referees" },
  manual: { label: "2: maker answers", about: "roles 2: two players, the codemaker answers each row" },
  "unit-makes": { label: "3: vs unit, it makes", about: "roles 3: you against the unit, it makes the first code" },
  "unit-breaks": { label: "4: vs unit, it breaks", about: "roles 4: you against the unit, it breaks first" },
};

function blankPad(): KeyLegend[] {
  const pad: KeyLegend[] = [];
  for (let i = 0; i < 36; i++) pad.push(NONE);
  return pad;
}

/** The words two or more names begin with ("sound on", "sound off": "sound"), or "". */
function commonStart(names: string[]): string {
  const words = names.map((n) => n.split(" "));
  const out: string[] = [];
  for (let i = 0; words.every((w) => w.length > i + 1 && w[i] === words[0][i]); i++) out.push(words[0][i]);
  return out.join(" ");
}

/** Longer words for the menu's own keys' tooltips, by grid position. */
const MENU_KEY_ABOUT: Record<number, string> = {
  [G_RESUME]: "resume the game in progress (lit cyan when there is one)",
  [G_OK]: "OK: start a new match with these settings",
};

/**
 * The menu for the codebreaker games (`game` "codebreaker") or for Brain Flip: what each pad key sets,
 * from the firmware's menu table and its names. A key that steps through options is labelled by what it
 * sets ("sound"), or with `settings` by the option chosen now ("sound off").
 */
export function menuLegends(game: "codebreaker" | "brainflip", settings?: Settings): ScreenLegends {
  const pad = blankPad();
  const items: MenuItem[] = menus(GAMES)[game === "brainflip" ? 1 : 0];
  items.forEach((item) => {
    const { name, options: values = [] } = item.setting;
    const names = name === "preset" ? GAME_IDS.map((id) => GAME_NAMES[id]) : values.map((v) => settingLegend(name, v));
    if (item.cycle) {
      const options = names.map((n, o) => `${n} (${COLOUR_NAMES[item.colours[o]]})`).join(", ");
      const now = settings ? names[values.indexOf(settings[name])] : undefined;
      const label = now ?? (commonStart(names) || names.join(" / "));
      pad[item.at] = { label, about: `${label}: each press the next of ${options}` };
    } else
      names.forEach(
        (n, o) =>
          (pad[item.at + o] = { label: n, about: `${n} (menu row ${Math.floor(item.at / 6) + 1}; the chosen option lights white)` }),
      );
  });
  for (const g of Object.keys(MENU_KEY_LEGENDS).map(Number))
    pad[g] = { label: MENU_KEY_LEGENDS[g], about: MENU_KEY_ABOUT[g] ?? MENU_KEY_LEGENDS[g] };
  return { pad, maker: {} };
}

/** What a game uses of the pad: its holes, colours and whether blanks are allowed (the whole pad when not given). */
export interface GameShape {
  pegs: number;
  colours: number;
  blanks: boolean;
}

/** The codebreaker games' play screen: the main pad and the codemaker pad (`game`: only the keys its rules use). */
export function codebreakerLegends(profile: Profile, game?: GameShape): ScreenLegends {
  const pad = blankPad();
  const pegs = Math.min(profile.pegs, game ? game.pegs : profile.pegs);
  const colours = game ? game.colours : PEG_NAMES.length;
  const blanks = game ? game.blanks : true;
  PEG_NAMES.forEach((name, i) => {
    pad[G_COLOUR + i] =
      i < colours
        ? { label: `${i + 1} ${name}`, about: `colour ${i + 1}, ${name}` }
        : { label: "", about: `colour ${i + 1}, not in this game (it uses ${colours} colours)` };
  });
  if (blanks) pad[G_BLANK] = { label: "blank", about: "blank (an empty hole; harder variants)" };
  pad[G_HINT] = { label: "hint", about: "hint: how many codes still fit, and one of them" };
  for (let i = 0; i < pegs; i++) pad[G_SLOT + i] = { label: `hole ${i + 1}`, about: `choose hole ${i + 1} to fill` };
  const mk = profile.keymap.maker;
  if (!mk) {
    pad[G_EXACT] = { label: "exact", about: "codemaker: one more exact (right colour, right place)" };
    pad[G_NEAR] = { label: "near", about: "codemaker: one more near (right colour, wrong place)" };
  }
  pad[G_MENU] = { label: "menu", about: "menu (the game is kept)" };
  pad[G_UNDO] = { label: "undo", about: "undo the last peg" };
  pad[G_CLEAR] = { label: "clear", about: "clear the row" };
  pad[G_OK] = { label: "OK", about: "OK: play the row; after a game, the next game" };
  const maker: Record<string, KeyLegend> = {};
  if (mk) {
    // As on the pad: a colour the game does not use has no legend, and says why.
    mk.colours.forEach(
      (id, i) =>
        (maker[id] =
          i < colours
            ? { label: `${i + 1} ${PEG_NAMES[i]}`, about: `codemaker: colour ${i + 1}, ${PEG_NAMES[i]}` }
            : { label: "", about: `codemaker: colour ${i + 1}, not in this game (it uses ${colours} colours)` }),
    );
    maker[mk.blank] = { label: "blank", about: "codemaker: blank" };
    const exact = maker[mk.exact] && mk.exact === mk.blank ? "blank · exact" : "exact";
    maker[mk.exact] = { label: exact, about: `codemaker: ${exact} (one more exact mark)` };
    maker[mk.near] = { label: "near", about: "codemaker: one more near mark" };
    maker[mk.undo] = { label: "undo", about: "codemaker: undo" };
    maker[mk.ok] = { label: "OK", about: "codemaker: OK (the secret, the answer)" };
  }
  return { pad, maker };
}

/** Brain Flip: every pad key is a card (the grid starts top-left); the Master's keys. */
export function brainFlipLegends(profile: Profile, grid = 6): ScreenLegends {
  const pad = blankPad();
  const mk = profile.keymap.maker;
  for (let r = 0; r < grid; r++)
    for (let c = 0; c < grid; c++) pad[r * 6 + c] = { label: `card ${r + 1}-${c + 1}`, about: `card, row ${r + 1}, column ${c + 1}` };
  const maker: Record<string, KeyLegend> = {};
  const master = {
    yes: { label: "yes", about: "Master: yes" },
    no: { label: "no", about: "Master: no" },
    undo: { label: "correct", about: "Master: correct the last answer" },
    mistake: { label: "mistake", about: "Master's mistake: the card cannot be found (-1 point)" },
    menu: { label: "menu", about: "menu (the game is kept)" },
    ok: { label: "next round", about: "OK: the next round; at the end, the menu" },
  };
  if (mk) {
    maker[mk.yes] = master.yes;
    maker[mk.no] = master.no;
    maker[mk.undo] = master.undo;
    maker[mk.colours[7]] = master.mistake;
    maker[mk.colours[0]] = master.menu;
    maker[mk.ok] = master.ok;
  } else {
    pad[FG_YES] = master.yes;
    pad[FG_NO] = master.no;
    pad[FG_CORRECT] = master.undo;
    pad[FG_MISTAKE] = master.mistake;
    pad[FG_MENU] = master.menu;
    pad[FG_OK] = master.ok;
  }
  return { pad, maker };
}

/** A screen's legends by key id, for the page (`grid`: Brain Flip's grid in play). */
export function legendsByKey(profile: Profile, legends: ScreenLegends): Record<string, KeyLegend> {
  const out: Record<string, KeyLegend> = {};
  profile.keymap.grid.forEach((id, g) => (out[id] = legends.pad[g]));
  for (const k of Object.keys(legends.maker)) out[k] = legends.maker[k];
  return out;
}
