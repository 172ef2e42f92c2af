/**
 * One screen of the unit: the menu, a codebreaker game, Brain Flip, the self-test. The app hands the
 * active screen every key press and asks it to draw; a screen tells the device, through the app, what
 * it needs of it: a game screen (GameScreen) says whether the USB console must be locked and whether
 * the menu may go back to it.
 */
import type { Clock } from "./frame";
import type { Settings } from "./settings";

/** The screens by name, as saved (SavedState.screen). */
export type ScreenName = string;

export interface Screen {
  readonly name: ScreenName;
  /** A debounced press (down) or release of key index k, at grid position g (-1: not on the 6x6 grid); its time is the app's `now`. */
  key(k: number, g: number, down: boolean): void;
  /**
   * Set by a screen whose draw() sets every LED of the frame: render() then does not clear it first (a fill of the
   * chain costs about as much as a few dozen statements on the interpreter, in every frame).
   */
  readonly opaque?: boolean;
  /** Draws the screen into the frame (cleared unless `opaque`; the alerts go over status LED 2 afterwards); `flashOff`: a refused entry's holes are dark now. */
  draw(frame: Uint8Array, clock: Clock, flashOff: boolean): void;
}

/** A screen with a game in it: what it asks of the device and of the menu, and its state for the save. */
export interface GameScreen extends Screen {
  /** A new game from the settings; false when they make none (the menu then refuses OK). */
  start(s: Settings): boolean;
  /** Its game's state as saved (null: none). */
  saved(): unknown;
  /** Takes a saved state that passed its GameKind.check (or null: no game), as after a power cut. */
  load(state: unknown): void;
  /** Shown again (resumed from the menu), when the screen has something to set up then. */
  enter?(): void;
  /** After start(): is the new game's state final, to be saved now? (Not while the unit still makes its secret.) Yes when absent. */
  settled?(): boolean;
  /** Does this screen's game hold a secret the codebreaker must not read over USB (the console lock)? */
  holdsSecret(): boolean;
  /** Is there a game here for the menu's resume key to go back to? */
  resumable(): boolean;
  /** Is a game of this kind begun and not over (a new one would replace it)? */
  unfinished(): boolean;
  /**
   * Work the screen does in the background, between key presses, in slices (the unit's moves, hints): one more
   * slice; true when it finished, and the unit then shows it. None when absent. The device layer runs the first
   * game of the list that has it (ui/app.ts App.worker: the codebreaker games).
   */
  think?(now: number): boolean;
  /** Has it background work waiting for think()? */
  working?(): boolean | undefined;
}

/** Where a refusal is shown: the row being keyed (or no holes: the status LED only), the secret, the feedback. */
export type FlashTarget = number;
export const FLASH_ENTRY = 0;
export const FLASH_SECRET = 1;
export const FLASH_FEEDBACK = 2;
