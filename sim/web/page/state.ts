/**
 * What the page's modules share: its elements, the layout and the latest state the server sent (the page
 * keeps no state of its own of the board or the view), and the small helpers that write the DOM.
 */
import type { SimLayout, SimState } from "../types.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const $ = <T extends HTMLElement = any>(id: string): T => document.getElementById(id) as T;
export const unitEl = $<HTMLElement>("unit");

export const page = {
  layout: null as unknown as SimLayout,
  lastState: null as SimState | null,
  /** Brain Flip's 100 pictures by id ({name, url}), from /api/pictures. */
  pictures: null as Record<number, { name: string; url: string }> | null,
  /** The latest key pressed that does nothing now: its reason completes the refusal that follows. */
  idlePress: null as { about: string; at: number } | null,
};

/** Elements by segment name, index -> element that shows that LED (a hole, or a pad key's cap). */
export const ledEls: Record<string, HTMLElement[]> = {};
export const keyEls = new Map<string, HTMLElement>();

/** What was last painted, so that only a change is painted again (emptied when the unit is drawn anew). */
export const shown = {
  /** The Brain Flip game whose cards are on the pad ("game/grid"), or "" when none are. */
  cards: "",
  /** The screen whose legends the keys show ("menu/brainflip"...), so they are rewritten only when it changes. */
  keyLegends: "",
  /** The part of the board in play ("pegs/rows/keyPegs"). */
  board: "",
};

export function mm(v: number): string {
  return `calc(var(--mm) * ${v})`;
}

export function setText(el: Element | null, text: string): void {
  if (!el) return;
  if (el.textContent !== text) el.textContent = text;
}

export function setLabel(el: Element, text: string): void {
  if (el.getAttribute("aria-label") !== text) el.setAttribute("aria-label", text);
}
