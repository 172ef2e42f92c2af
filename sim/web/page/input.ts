/** Input: the unit's keys held with the mouse, a finger or the keyboard, and the page's own keyboard switches. */
import { keyEls, page } from "./state.ts";
import { command, setView } from "./link.ts";
import { audio } from "./sound.ts";

/** Keys this page holds down (mouse or keyboard), so that they are released when it loses focus. */
const held = new Map<string, string>();

/** When each held key went down (ms): a release comes no sooner than MIN_HOLD_MS after. */
const heldSince = new Map<string, number>();
/** The shortest press sent to the unit, longer than its debounce: a quick tap on a touch screen still counts. */
const MIN_HOLD_MS = 80;

function down(source: string, id: string): void {
  if (held.has(source)) return;
  heldSince.set(source, performance.now());
  const el = keyEls.get(id);
  if (el?.classList.contains("idle")) page.idlePress = { about: el.title.split(" · ")[0], at: performance.now() };
  held.set(source, id);
  audio.unlock();
  command(`press ${id}`);
}

function up(source: string): void {
  const id = held.get(source);
  if (id === undefined) return;
  held.delete(source);
  const wait = MIN_HOLD_MS - (performance.now() - (heldSince.get(source) ?? 0));
  heldSince.delete(source);
  if (wait > 0) setTimeout(() => command(`release ${id}`), wait);
  else command(`release ${id}`);
}

/** A touch held this long on a Brain Flip card previews it instead of pressing it. */
const PREVIEW_MS = 450;

/** How long a card clicked or tapped shows larger. */
const CARD_SHOWN_MS = 1500;
let shownCard: { el: HTMLElement; timer: ReturnType<typeof setTimeout> } | null = null;

function showCard(el: HTMLElement): void {
  if (shownCard) {
    clearTimeout(shownCard.timer);
    shownCard.el.classList.remove("shown");
  }
  el.classList.add("shown");
  shownCard = { el, timer: setTimeout(() => el.classList.remove("shown"), CARD_SHOWN_MS) };
}

export function bindKey(el: HTMLElement, id: string): void {
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  el.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    // A Brain Flip card just pressed (the Master's pick, a guess) does not grow under the pointer.
    el.classList.add("touched");
    if (e.pointerType === "touch" && el.classList.contains("card")) {
      // Touch: a tap presses the card; a touch held on it shows it larger and presses nothing.
      clearTimeout(previewTimer);
      el.dataset.touch = "tap";
      previewTimer = setTimeout(() => {
        el.dataset.touch = "preview";
        el.classList.add("preview");
      }, PREVIEW_MS);
      return;
    }
    down(`pointer:${e.pointerId}`, id);
  });
  const release = (e: PointerEvent) => {
    clearTimeout(previewTimer);
    // A card clicked or tapped (the Master's pick, a guess) shows larger for a moment, as hovering it does.
    if (e.type === "pointerup" && el.classList.contains("card") && el.dataset.touch !== "preview") showCard(el);
    if (el.dataset.touch === "tap" && e.type === "pointerup") {
      down(`pointer:${e.pointerId}`, id);
      setTimeout(() => up(`pointer:${e.pointerId}`), 90);
    } else up(`pointer:${e.pointerId}`);
    delete el.dataset.touch;
    el.classList.remove("preview");
  };
  el.addEventListener("pointerup", release);
  el.addEventListener("pointerleave", (e) => {
    // (A finger lifted leaves the key hovered on a touch screen: a card tapped stays touched, so it does not stay large.)
    if (e.pointerType !== "touch") el.classList.remove("touched");
    release(e);
  });
  el.addEventListener("pointercancel", release);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}

function comboOf(e: KeyboardEvent): string {
  let base = e.key;
  if (/^Digit\d$/.test(e.code)) base = e.code.slice(5);
  else if (/^Key[A-Z]$/.test(e.code)) base = e.code.slice(3).toLowerCase();
  return (e.shiftKey ? "Shift+" : "") + base;
}

/** The page's own controls keep their keys: Space and Enter work a focused button or box, never the unit. */
function ownKeys(e: KeyboardEvent): boolean {
  const t = e.target instanceof Element ? e.target.closest("button, input, select, textarea, a[href], summary") : null;
  if (!t || t.classList.contains("key")) return false;
  if (t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return true;
  if (t instanceof HTMLInputElement && t.type === "range" && /^(Arrow|Home|End|Page)/.test(e.key)) return true;
  return e.key === " " || e.key === "Enter";
}

window.addEventListener("keydown", (e) => {
  if (!page.layout || e.ctrlKey || e.metaKey || e.altKey || ownKeys(e)) return;
  // A focused key of the unit: Space or Enter hold it down (every key is reachable with Tab).
  const focusedKey = e.target instanceof Element ? e.target.closest<HTMLElement>(".key") : null;
  if (focusedKey && (e.key === " " || e.key === "Enter")) {
    e.preventDefault();
    if (!e.repeat) down(`key:${e.code}`, focusedKey.dataset.key ?? "");
    return;
  }
  const combo = comboOf(e);
  const hit = page.layout.shortcuts.find((s) => s.combo === combo);
  if (hit) {
    e.preventDefault();
    if (!e.repeat) down(`key:${e.code}`, hit.id);
    return;
  }
  if (e.repeat || !page.lastState) return;
  if (combo === " " && page.layout.geometry.shield) setView({ shield: !page.lastState.view.shield });
  else if (combo === "l") setView({ labels: !page.lastState.view.labels });
  else if (combo === "Shift+M") setView({ muted: !page.lastState.view.muted });
  else return;
  e.preventDefault();
  audio.unlock();
});
window.addEventListener("keyup", (e) => up(`key:${e.code}`));
window.addEventListener("blur", () => {
  for (const source of [...held.keys()]) up(source);
});
