/**
 * Tally's screen and its entry for the list of games: grid key 1 (p11) counts, the count lights green on
 * the pad's second row (the rest of the target white), the menu key goes back to the menu, and OK does
 * once the game is over.
 */
import type { GameKind } from "../../../firmware/ui/game.ts";
import type { Host } from "../../../firmware/ui/host.ts";
import type { GameScreen } from "../../../firmware/ui/screen.ts";
import { G_MENU, G_OK } from "../../../firmware/ui/layout.ts";
import { GREEN, WHITE, BLUE, OFF } from "../../../firmware/ui/palette.ts";
import { TUNE_CLICK, TUNE_MATCH_OVER } from "../../../firmware/ui/tunes.ts";
import { addOne, checkTally, newTally, type TallyState } from "./core.ts";

/** The grid position of the counting key, and the first of the count's LEDs. */
export const G_COUNT = 0;
export const G_TALLY = 6;
export const TALLY_TARGET = 5;

export class TallyScreen implements GameScreen {
  readonly name = "tally";
  state: TallyState | null = null;

  constructor(readonly host: Host) {}

  start(): boolean {
    this.state = newTally(TALLY_TARGET);
    return true;
  }
  saved(): TallyState | null {
    return this.state;
  }
  load(state: unknown): void {
    this.state = state as TallyState | null;
  }
  holdsSecret(): boolean {
    return false;
  }
  resumable(): boolean {
    return !!this.state && !this.state.over;
  }
  unfinished(): boolean {
    return this.resumable();
  }

  key(_k: number, g: number, down: boolean): void {
    const host = this.host;
    const s = this.state as TallyState;
    if (!down) return;
    if (g === G_MENU || (g === G_OK && s.over)) {
      host.go(host.menu);
      return;
    }
    const next = g === G_COUNT ? addOne(s) : null;
    if (!next) {
      host.refuse();
      return;
    }
    this.state = next;
    host.tune = next.over ? TUNE_MATCH_OVER : TUNE_CLICK;
    host.saveWanted = true;
  }

  draw(frame: Uint8Array): void {
    const s = this.state as TallyState;
    const p = this.host.layout.seg.pad;
    if (p < 0) return;
    for (let i = 0; i < s.target; i++) frame[p + G_TALLY + i] = i < s.count ? GREEN : WHITE;
    frame[p + G_COUNT] = s.over ? OFF : GREEN;
    frame[p + G_MENU] = BLUE;
    if (s.over) frame[p + G_OK] = GREEN;
  }
}

export const TALLY: GameKind = {
  ids: ["tally"],
  stateIn: (s) => s.tally,
  putState: (s, state) => (s.tally = state),
  menu: [],
  check: checkTally,
  screen: (host) => new TallyScreen(host),
};
