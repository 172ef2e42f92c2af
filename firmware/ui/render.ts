/**
 * The app -> a frame: one logical colour (palette index) per LED of the chain. The alerts on status
 * LED 2 first, then the active screen draws. Pure; the time is an argument and render() returns when
 * the picture next changes (a blink), or -1 if it is still.
 */
import { CYAN, OFF, ORANGE, PINK, RED, VIOLET, WHITE, YELLOW } from "./palette";
import { BLINK_ON, BLINK_PERIOD, Clock, FLASH_HALF } from "./frame";
import type { App } from "./app";

export { drawFeedback, symbolColour } from "./frame";
export { PLAYER_COLOURS } from "./codebreaker-picture";
export { SELFTEST_STEP_MS } from "./selftest";

export { FLASH_HALF } from "./frame";
/**
 * Status LED 2 while a refusal shows, by reason (REFUSED_*): red, a key that does nothing now; white, a
 * row with empty holes; violet, a colour used twice where the rules forbid it; cyan, a blank where the
 * rules have none; red, a symbol out of range; pink, feedback that no code can give. The holes at fault
 * flash meanwhile. (Colours the LED's other uses do not take: yellow warns, orange is a failed game or a
 * low battery, green a solve.)
 */
export const REFUSAL_COLOURS = [RED, WHITE, VIOLET, CYAN, RED, PINK];

/** The renders' clock (set again for each: a new one per frame cost the interpreter an allocation). */
const CLOCK = new Clock();

export function render(app: App, frame: Uint8Array, now: number): number {
  const screen = app.screen;
  if (!screen.opaque) frame.fill(OFF);
  // (Set inline: a call less.)
  const clock = CLOCK;
  clock.now = now;
  clock.epoch = Math.min(app.blinkEpoch, now);
  clock.next = -1;
  const flashing = now < app.flashUntil;
  if (flashing) clock.at(app.flashUntil);
  app.secretCovered = false;
  screen.draw(frame, clock, flashing && !clock.blink(FLASH_HALF * 2, FLASH_HALF));
  // (Most frames show no alert: none of its conditions is looked at again.)
  if (flashing || now < app.warnUntil || app.keysStuck || app.lowBattery) drawAlert(app, frame, clock, flashing);
  return clock.next;
}

/**
 * Status LED 2 shows alerts over what the screen put there: a refusal (red), a warning (yellow), a stuck key (yellow,
 * blinking), a low battery (orange, blinking).
 */
function drawAlert(app: App, frame: Uint8Array, clock: Clock, flashing: boolean): void {
  const L = app.layout;
  if (L.seg.status < 0 || L.segLen.status < 2) return;
  const alert = L.seg.status + 1;
  if (flashing) frame[alert] = REFUSAL_COLOURS[app.flashReason as number];
  else if (clock.now < app.warnUntil) {
    frame[alert] = YELLOW;
    clock.at(app.warnUntil);
  } else if ((app.keysStuck || app.lowBattery) && clock.blink(BLINK_PERIOD, BLINK_ON)) frame[alert] = app.keysStuck ? YELLOW : ORANGE;
}
