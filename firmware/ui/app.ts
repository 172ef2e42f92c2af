/**
 * The unit's ui: the settings, the active screen and the effects. Key presses go to the active screen
 * (ui/screen.ts); the screens ask for effects here (a tune to play, state to save, a refusal to show,
 * another screen), which the device layer drains through takeTune() and takeSave(). Pure: no I/O and
 * no clock; the time is an argument and randomness is injected.
 */
import { REFUSED_PHASE } from "../core/types";
import type { Layout } from "./layout";
import { SelfTestScreen } from "./selftest";
import { MenuScreen } from "./menu";
import type { Host } from "./host";
import type { GameKind, SavedState } from "./game";
import { kindIndex } from "./game";
import { GAMES } from "./games";
import type { Settings } from "./settings";
import { defaultSettings, settingsProblem } from "./settings";
import type { FlashTarget, GameScreen, Screen } from "./screen";
import { FLASH_ENTRY } from "./screen";
import { TUNE_ACCEPT, TUNE_CLICK, TUNE_REFUSE } from "./tunes";
import { SAVE_VERSION } from "../save-format";

export type { SavedState } from "./game";

/** A game screen with background work. */
export type Worker = GameScreen & Required<Pick<GameScreen, "think" | "working">>;

/** How long a refused action flashes the pegs at fault. */
export const FLASH_MS = 1200;

export class App implements Host {
  settings: Settings = defaultSettings();
  readonly menu: MenuScreen;
  /** Each game's screen, in the order of the list of games. */
  readonly games: GameScreen[];
  /**
   * The game with background work between key presses (GameScreen.think: the codebreaker's moves and hints), the
   * first of the list that has it (one is all the unit runs); the device layer runs its slices.
   */
  readonly worker: Worker;
  /** Set by the device layer for the games' background work (Host). */
  sliceOver?: () => boolean;
  readTable?: (name: string) => Uint8Array | string | undefined;
  readonly selfTest: SelfTestScreen;
  /** The active screen. */
  screen: Screen;
  /**
   * Effects for the device: the tune to play next, and whether to save (both taken once). Fields that
   * start undefined (falsy, like their zero) cost no initialiser in the bundle.
   */
  tune?: ArrayLike<number> | null;
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

  /** The list of games (ui/games.ts). */
  readonly kinds: GameKind[] = GAMES;

  constructor(
    readonly layout: Layout,
    rand: () => number,
  ) {
    const kinds = this.kinds;
    this.menu = new MenuScreen(this, kinds);
    const games = (this.games = kinds.map((kind) => kind.screen(this, rand)));
    this.worker = games.find((game) => game.think) as Worker;
    this.selfTest = new SelfTestScreen(this);
    this.screen = this.menu;
  }

  /** The game screen of the kind chosen in the settings (what OK starts and resume goes back to). */
  game(): GameScreen {
    return this.games[kindIndex(this.kinds, this.settings.preset)];
  }

  /** Resumes from saved data; returns "" or why the data could not be used (the unit then starts afresh). */
  restore(data: unknown, now: number): string {
    const s = data as SavedState;
    this.now = now;
    if (data === undefined) return ""; // nothing saved yet
    const set = s && s.settings;
    const kinds = this.kinds;
    // (Data that is not an object has no version either.)
    let problem = (s || ({} as SavedState)).v !== SAVE_VERSION ? "not a save of version " + SAVE_VERSION : settingsProblem(set);
    // Every game's state saved.
    for (let i = 0; i < kinds.length && !problem; i++) {
      const state = kinds[i].stateIn(s);
      if (state) problem = kinds[i].check(state);
    }
    if (problem) {
      this.warnUntil = now + 3000;
      return "saved state refused: " + problem;
    }
    const games = this.games;
    this.settings = set;
    this.screen = this.menu;
    for (let i = 0; i < kinds.length; i++) {
      games[i].load(kinds[i].stateIn(s) || null);
      if (s.screen === games[i].name && games[i].saved()) this.screen = games[i];
    }
    return "";
  }

  snapshot(): SavedState {
    const s = { v: SAVE_VERSION, screen: this.screen.name, settings: this.settings } as SavedState;
    for (let i = 0; i < this.kinds.length; i++) this.kinds[i].putState(s, this.games[i].saved());
    return s;
  }

  /** The tune the device should play now, if any (taken once). */
  takeTune(): ArrayLike<number> | null | undefined {
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
    const game = screen as GameScreen;
    if (game.enter) game.enter();
    this.tune = TUNE_CLICK;
    this.saveWanted = true;
  }

  /** OK on the menu: a new game of the chosen kind. */
  start(): void {
    const game = this.game();
    if (!game.start(this.settings)) {
      this.refuse();
      return;
    }
    this.screen = game;
    this.tune = TUNE_ACCEPT;
    this.saveWanted = !game.settled || game.settled();
  }

  /** Does a game hold a secret the codebreaker must not read (whatever the screen shows now)? */
  secretHeld(): boolean {
    return this.games.some((game) => game.holdsSecret());
  }

  /** Should the USB console be locked? While a two-player game holds a secret, if the setting says so. */
  consoleLockWanted(): boolean {
    return this.settings.lockConsole && this.secretHeld();
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
