/**
 * The menu as data, one table per game of the list (ui/games.ts: the game row, the game's own items,
 * the unit's): which pad key sets which setting to what, in which colour. The menu screen's keys and
 * its drawing both read these tables; so can the simulator page's key labels and a printed legend
 * overlay, which name each item's options by its setting (ui/settings.ts SETTING_LEGENDS).
 *
 * An item sets one setting (ui/settings.ts SETTINGS), whose options are its options. It is either a
 * choice (one key per option, from grid position `at` along the row: the options
 * light in the item's colour, the chosen one white) or a cycle (one key at `at` stepping through the
 * options, lit in the colour of the current one). Settings that mean different things for different
 * games are different settings (a Brain Flip grid is not a match length).
 */
import { G_OK } from "./layout";
import { BLUE, CYAN, GREEN, OFF, RED, VIOLET, WHITE, YELLOW } from "./palette";
import { BLINK_ON, BLINK_PERIOD, Clock, FLASH_HALF } from "./frame";
import { TUNE_CLICK, TUNE_CONFIRM } from "./tunes";
import type { Screen } from "./screen";
import type { GameKind } from "./game";
import { gameIds, kindIndex } from "./game";
import type { Host } from "./host";
import type { Setting, Settings } from "./settings";
import { SETTINGS } from "./settings";

const ON_OFF_COLOURS = [GREEN, RED];

/** How long the menu waits for the OK that confirms a new game over an unfinished one. */
export const CONFIRM_MS = 3000;

/** Grid positions of the menu's own keys (row 6): the console lock, resume, OK (as on the play screen). */
export const G_LOCK = 31;
export const G_RESUME = 34;
/** Grid positions of the unit's settings on row 5. */
export const G_SLEEP = 28;
export const G_SOUND = 29;

export interface MenuItem {
  /** Grid position of the item's (first) key. */
  at: number;
  /** A cycle has one key that steps through the options; a choice (no `cycle`) has a key per option. */
  cycle?: boolean;
  /** The setting it reads and writes, and offers the options of. */
  setting: Setting;
  /** A choice: the colour of its options (the chosen one is white). A cycle: the colour of each option. */
  colours: number[];
  /** May the setting take this value now? (Not offered, or refused, when it may not.) */
  allowed?: (v: unknown, s: Settings, c: Host) => boolean;
}

/** Row 5 and the lock: the unit's own settings, the same for every game. */
const UNIT_ITEMS: MenuItem[] = [
  {
    at: 24,
    colours: [YELLOW],
    setting: SETTINGS.brightness,
  },
  {
    at: G_SLEEP,
    cycle: true,
    colours: [CYAN, BLUE, VIOLET],
    setting: SETTINGS.sleepMin,
  },
  {
    at: G_SOUND,
    cycle: true,
    colours: ON_OFF_COLOURS,
    setting: SETTINGS.sound,
  },
  {
    at: G_LOCK,
    cycle: true,
    colours: ON_OFF_COLOURS,
    setting: SETTINGS.lockConsole,
    // Issue 14: the codebreaker must not unlock the console to read a secret in play.
    allowed: (v, _s, c) => v === true || !c.secretHeld(),
  },
];

/**
 * The game row (row 1): a key per game of the list (ui/games.ts); an option this build cannot play is not
 * offered. The game setting's options are the list's games: set here, where the list is given.
 */
function gameRow(kinds: GameKind[]): MenuItem {
  SETTINGS.preset.options = gameIds(kinds);
  return {
    at: 0,
    colours: [YELLOW],
    setting: SETTINGS.preset,
    allowed: (v, _s, c) => {
      const kind = kinds[kindIndex(kinds, v)];
      return !kind.fits || kind.fits(c.layout, v as string);
    },
  };
}

/** Each game's menu, in the order of the list: the game row, the game's own items, then the unit's. */
export function menus(kinds: GameKind[]): MenuItem[][] {
  const row = gameRow(kinds);
  return kinds.map((kind) => [row].concat(kind.menu, UNIT_ITEMS));
}

/** The menu's keys that are not settings: grid position -> name. */
export const MENU_KEY_LEGENDS: Record<number, string> = { 34: "resume", 35: "OK: start" };

/** The menu screen: every key and every LED of it comes from the game's table above. */
export class MenuScreen implements Screen {
  readonly name = "menu";
  /** Until then a second OK starts a new game over the unfinished one. */
  confirmUntil = 0;
  /** The pad as last drawn, and what it was drawn from. */
  private readonly image = new Uint8Array(36);
  private stamp = "";

  /** Each game's menu, in the order of the list. */
  private readonly menus: MenuItem[][];

  constructor(
    readonly app: Host,
    private readonly kinds: GameKind[],
  ) {
    this.menus = menus(kinds);
  }

  /** The menu of the game chosen in the settings. */
  private items(): MenuItem[] {
    return this.menus[kindIndex(this.kinds, this.app.settings.preset)];
  }

  key(_k: number, g: number, down: boolean): void {
    const app = this.app;
    const s = app.settings;
    if (!down) return;
    const confirming = app.now < this.confirmUntil;
    this.confirmUntil = 0;
    if (g === G_OK) {
      // A new game would replace one begun and not over: the first OK asks (OK blinking fast, status LED 2
      // yellow, a warning tone), a second within CONFIRM_MS starts it; any other key lets it be.
      if (app.game().unfinished() && !confirming) {
        this.confirmUntil = app.warnUntil = app.now + CONFIRM_MS;
        app.tune = TUNE_CONFIRM;
      } else app.start();
      return;
    }
    if (confirming) app.warnUntil = 0;
    if (g === G_RESUME) {
      const game = app.game();
      if (game.resumable()) app.go(game);
      else app.refuse();
      return;
    }
    const items = this.items();
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const options = item.setting.options as unknown[];
      const name = item.setting.name;
      const n = options.length;
      const col = g - item.at;
      if (item.cycle ? col !== 0 : col < 0 || col >= n) continue;
      const v = item.cycle ? options[(options.indexOf(s[name]) + 1) % n] : options[col];
      if (item.allowed && !item.allowed(v, s, app)) break;
      (s as unknown as Record<string, unknown>)[name] = v;
      app.tune = TUNE_CLICK;
      app.saveWanted = true;
      return;
    }
    app.refuse();
  }

  draw(frame: Uint8Array, clock: Clock): void {
    const app = this.app;
    const L = app.layout;
    const s = app.settings;
    const p = L.seg.pad;
    if (p < 0) return;
    // Drawn again only when what it shows changed (the settings, resume, the console lock's say): the table
    // walk costs about a millisecond on the interpreter, while the OK key blinks twice a second.
    const resumable = app.game().resumable();
    const stamp = JSON.stringify(s) + resumable + app.secretHeld();
    const img = this.image;
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      img.fill(OFF);
      const items = this.items();
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const options = item.setting.options as unknown[];
        const value = s[item.setting.name];
        if (item.cycle) img[item.at] = item.colours[options.indexOf(value)];
        else
          for (let o = 0; o < options.length; o++)
            if (!item.allowed || item.allowed(options[o], s, app)) img[item.at + o] = options[o] === value ? WHITE : item.colours[0];
      }
      if (resumable) img[G_RESUME] = CYAN;
    }
    frame.set(img, p);
    const confirming = clock.now < this.confirmUntil;
    if (confirming) clock.at(this.confirmUntil);
    frame[p + G_OK] = (confirming ? clock.blink(FLASH_HALF * 2, FLASH_HALF) : clock.blink(BLINK_PERIOD, BLINK_ON)) ? GREEN : OFF;
  }
}
