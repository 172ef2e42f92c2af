/**
 * The unit's ui: the settings, the active screen and the effects. Key presses go to the active screen
 * (ui/screen.ts); the screens ask for effects here (a tune to play, state to save, a refusal to show,
 * another screen), which the device layer drains through takeTune() and takeSave(). Pure: no I/O and
 * no clock; the time is an argument and randomness is injected.
 */
import { checkConfig, checkMatchState } from "../core/match";
import type { MatchState } from "../core/types";
import { REFUSED_PHASE } from "../core/types";
import { checkFlipConfig, checkFlipState } from "../core/brainflip";
import type { FlipState } from "../core/brainflip";
import type { Layout } from "./layout";
import { CodebreakerScreen } from "./codebreaker";
import { FlipScreen } from "./flip";
import { SelfTestScreen } from "./selftest";
import { BRIGHTNESS_STEPS, MenuScreen, SLEEP_MENU } from "./menu";
import type { MenuContext, Settings } from "./menu";
import { flipConfig, matchConfig, S_BRIGHTNESS, S_GAME, S_LOCK, S_SLEEP, S_SOUND, SETTINGS_COUNT } from "./menu";
import type { FlashTarget, Screen, ScreenName } from "./screen";
import { FLASH_ENTRY } from "./screen";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_REFUSE } from "./tunes";

export { SOLVER_SLICE, G_HINT, HINT_MS } from "./codebreaker";
export type { PlayMode } from "./codebreaker";
export {
  BRIGHTNESS_STEPS,
  FLIP_GRID_MENU,
  FLIP_PLAYERS_MENU,
  G_LOCK,
  G_RESUME,
  G_SLEEP,
  G_SOUND,
  GAMES_MENU,
  MODE_MENU,
  PRESET_MENU,
  presetFits,
  SLEEP_MENU,
} from "./menu";
export type { GameId, Settings } from "./menu";

/** The saved state's own version (its field `v`): 2 since phases, kinds and results are numbers. */
export const SAVE_VERSION = 2;
/** How long a refused action flashes the pegs at fault. */
export const FLASH_MS = 1200;

/** What survives a power loss (in Storage in the format of device/save-format.ts). */
export interface SavedState {
  v: number;
  screen: ScreenName;
  settings: Settings;
  match: MatchState | null;
  flip: FlipState | null;
}
export { FLASH_ENTRY, FLASH_FEEDBACK, FLASH_SECRET } from "./screen";
export type { FlashTarget } from "./screen";

/** Brainiac refereed, 4 games; brightness 2 of 4, sound on, sleep after 5 minutes, console lock on; Brain Flip for 3 on 6x6. */
export function defaultSettings(): Settings {
  return ["brainiac", false, "referee", 4, 1, true, 5, true, "flip", 3, 6, false];
}

export class App implements MenuContext {
  settings: Settings = defaultSettings();
  readonly menu: MenuScreen;
  readonly play: CodebreakerScreen;
  readonly flip: FlipScreen;
  readonly selfTest: SelfTestScreen;
  /** The active screen. */
  screen: Screen;
  /**
   * Effects for the device: the tune to play next, and whether to save (both taken once). Fields that
   * start undefined (falsy, like their zero) cost no initialiser in the bundle.
   */
  tune?: number[] | null;
  saveWanted?: boolean;
  /** A refusal shows until then, on the target's holes at these positions. */
  flashUntil = 0;
  flashTarget?: FlashTarget;
  /** Why (REFUSED_*, core/types.ts): status LED 2 says it by its colour. */
  flashReason?: number;
  flashPositions: number[] = [];
  /** A message-less alert (status LED) until this time, e.g. after resuming from a bad save. */
  warnUntil = 0;
  /** Alerts the device layer reports: the battery is low; a key is stuck down (and ignored). */
  lowBattery?: boolean;
  keysStuck?: boolean;
  /** The frame lights the secret's holes under the codemaker's shield: their colours must not change the LEDs' current budget. */
  secretCovered?: boolean;
  /** Blinks restart, lit, at every key press, so what a press changed shows at once. */
  blinkEpoch = 0;
  /** The time (ms) of the event being handled (a key, a slice of background work, a restore). */
  now = 0;

  constructor(
    readonly layout: Layout,
    rand: () => number,
  ) {
    this.menu = new MenuScreen(this);
    this.play = new CodebreakerScreen(this, rand);
    this.flip = new FlipScreen(this);
    this.selfTest = new SelfTestScreen(this);
    this.screen = this.menu;
  }

  /** The game screen of the kind chosen in the settings (what OK starts and resume goes back to). */
  game(): CodebreakerScreen | FlipScreen {
    return this.settings[S_GAME] === "brainflip" ? this.flip : this.play;
  }

  /** Resumes from saved data; returns "" or why the data could not be used (the unit then starts afresh). */
  restore(data: unknown, now: number): string {
    const s = data as SavedState;
    this.now = now;
    if (data === undefined) return ""; // nothing saved yet
    if (!s || typeof s !== "object") {
      this.warnUntil = now + 3000;
      return "saved state refused: not an object";
    }
    const set = s.settings;
    const problem =
      s.v !== SAVE_VERSION || !set || !settingsValid(set)
        ? "bad version or settings"
        : s.match
          ? checkMatchState(s.match)
          : s.flip
            ? checkFlipState(s.flip)
            : null;
    if (problem) {
      this.warnUntil = now + 3000;
      return "saved state refused: " + problem;
    }
    const play = this.play;
    this.settings = set;
    play.match = s.match || null;
    this.flip.state = s.flip || null;
    this.screen = s.screen === "play" && play.match ? play : s.screen === "flip" && this.flip.state ? this.flip : this.menu;
    // A power cut while the unit was thinking: it takes the work up again (think(), which saves what it then plays).
    play.enter();
    return "";
  }

  snapshot(): SavedState {
    return { v: SAVE_VERSION, screen: this.screen.name, settings: this.settings, match: this.play.match, flip: this.flip.state };
  }

  /** The tune the device should play now, if any (taken once). */
  takeTune(): number[] | null | undefined {
    const t = this.tune;
    this.tune = null;
    return t;
  }

  /** True once after every committed action: the device then saves snapshot(). */
  takeSave(): boolean | undefined {
    const s = this.saveWanted;
    this.saveWanted = false;
    return s;
  }

  /** The wiring check: LED segments light in turn and every key is echoed. Left by power-cycling. */
  enterSelfTest(now: number): void {
    this.screen = this.selfTest;
    this.selfTest.since = now;
    this.tune = TUNE_ACCEPT;
  }

  /** Handles one debounced key event (releases matter only to the self-test). */
  key(k: number, down: boolean, now: number): void {
    this.now = now;
    if (down && this.screen !== this.selfTest) this.blinkEpoch = now;
    // Keys 0..35 are the grid's, by position (hardware/profile.ts keyList).
    this.screen.key(k, k < 36 ? k : -1, down);
  }

  /** Another screen (the menu, or a game resumed), with a click; saved. */
  go(screen: Screen): void {
    this.screen = screen;
    if (screen === this.play) this.play.enter();
    this.tune = TUNE_CLICK;
    this.saveWanted = true;
  }

  /** OK on the menu: a new game of the chosen kind. */
  start(): void {
    const s = this.settings;
    if (s[S_GAME] === "brainflip") this.flip.start(s);
    else if (!this.play.start(s)) {
      this.refuse();
      return;
    }
    this.screen = this.game();
    this.tune = TUNE_ACCEPT;
    this.saveWanted = this.screen !== this.play || this.play.settled();
  }

  /** Does a game hold a secret the codebreaker must not read (whatever the screen shows now)? */
  secretHeld(): boolean {
    return this.play.holdsSecret() || this.flip.holdsSecret();
  }

  /** Should the USB console be locked? While a two-player game holds a secret, if the setting says so. */
  consoleLockWanted(): boolean {
    return this.settings[S_LOCK] && this.secretHeld();
  }

  /**
   * A refused action: a low tone, status LED 2 in the reason's colour (REFUSAL_COLOURS) and the holes at
   * fault (of the entry, the secret or the feedback: `target`) flashing, for FLASH_MS; nothing changes.
   * With no arguments: a key that does nothing now.
   */
  refuse(target?: FlashTarget, reason?: number, positions?: number[]): void {
    this.flashTarget = target || FLASH_ENTRY;
    this.flashReason = reason || REFUSED_PHASE;
    this.flashPositions = positions || [];
    this.flashUntil = this.now + FLASH_MS;
    this.tune = TUNE_REFUSE;
  }
}

function settingsValid(set: Settings): boolean {
  if (
    !Array.isArray(set) ||
    set.length !== SETTINGS_COUNT ||
    SLEEP_MENU.indexOf(set[S_SLEEP]) < 0 ||
    typeof set[S_LOCK] !== "boolean" ||
    typeof set[S_SOUND] !== "boolean" ||
    !(set[S_BRIGHTNESS] >= 0 && set[S_BRIGHTNESS] < BRIGHTNESS_STEPS)
  )
    return false;
  const flipOk = !checkFlipConfig(flipConfig(set));
  if (set[S_GAME] === "brainflip") return flipOk;
  return flipOk && !checkConfig(matchConfig(set));
}
