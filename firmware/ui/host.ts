/**
 * What a screen may ask of the unit (the app, ui/app.ts, is the one host): the build's layout, the
 * settings, the time of the event, and its effects (a tune, a save, a refusal shown, another screen).
 * The screens know only this, never the app or each other, so each can be read and tested alone.
 */
import type { Layout } from "./layout";
import type { Settings } from "./settings";
import type { FlashTarget, GameScreen, Screen } from "./screen";

export interface Host {
  readonly layout: Layout;
  settings: Settings;
  /** The time (ms) of the event being handled. */
  now: number;
  /** The tune to play after this event (the last one set wins). */
  tune?: ArrayLike<number> | null;
  /** Save the state after this event. */
  saveWanted?: boolean;
  /** A message-less alert (status LED) until this time. */
  warnUntil: number;
  /** The refusal being shown: on which holes (FLASH_*), at which positions. */
  flashTarget?: FlashTarget;
  flashPositions: number[];
  /** The frame lights the secret's holes under the codemaker's shield (the device then keeps the LEDs' current from telling their colours). */
  secretCovered?: boolean;
  /** Asked during background work: is the time slice over? The device layer sets it from its clock. */
  sliceOver?: () => boolean;
  /** Reads a solver table by its Storage name; the device layer sets it (tests may leave none: the unit then searches). */
  readTable?: (name: string) => Uint8Array | string | undefined;
  /** The menu screen (what a game's menu key goes back to). */
  readonly menu: Screen;
  /** The game screen of the kind chosen in the settings. */
  game(): GameScreen;
  /** Another screen, with a click; saved. */
  go(screen: Screen): void;
  /** A new game of the kind chosen in the settings (or a refusal when the settings make none). */
  start(): void;
  /** Does a game hold a secret the codebreaker must not read? */
  secretHeld(): boolean;
  /** A refused action (ui/app.ts App.refuse). */
  refuse(target?: FlashTarget, reason?: number, positions?: number[]): void;
}
