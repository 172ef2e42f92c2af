// The simulator page: draws the unit from /api/layout, paints it from the state the server streams
// (/api/events), and sends key presses and commands back (/api/command, /api/view). It keeps no
// state of the board or the view: every LED, switch and reading comes from the server.

import { apiEvents, apiFetch, currentToken, token } from "./api.ts";
import type { FlipCards, SimLayout, SimState, ViewSwitches } from "../types.ts";
import type { UnitStatus } from "../../views/status.ts";
import type { WatchStatus } from "../../play/watch.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const $ = <T extends HTMLElement = any>(id: string): T => document.getElementById(id) as T;
const unitEl = $<HTMLElement>("unit");
let layout: SimLayout = null as unknown as SimLayout;
/** Elements by segment name, index -> element that shows that LED (a hole, or a pad key's cap). */
const ledEls: Record<string, HTMLElement[]> = {};
const keyEls = new Map<string, HTMLElement>();
let lastState: SimState | null = null;
/** Brain Flip's 100 pictures by id ({name, url}), from /api/pictures. */
let pictures: Record<number, { name: string; url: string }> | null = null;

// ---------------------------------------------------------------- commands

let queue: Promise<unknown> = Promise.resolve();
/** Sends script lines to the board, one request after another (a release never overtakes its press). */
function command(text: string): Promise<unknown> {
  queue = queue
    .then(() => apiFetch("api/command", { method: "POST", headers: { "content-type": "text/plain" }, body: text }))
    .then(async (res) => {
      if (!res.ok) toast((await res.json()).error || `${text}: HTTP ${res.status}`);
    })
    .catch(() => showOffline(true));
  return queue;
}

function setView(change: Partial<ViewSwitches>): void {
  apiFetch("api/view", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(change) }).catch(() =>
    showOffline(true),
  );
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
function toast(message: string): void {
  const el = $("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

/** The server is gone (or back): the page says so, greys the unit out and stops its clock. */
function showOffline(on: boolean): void {
  const was = document.body.classList.contains("offline");
  $("offline").hidden = !on;
  document.body.classList.toggle("offline", on);
  if (on && !was) {
    $("status").textContent =
      "The unit is not reachable: the simulator has stopped. Start it again (npm start); this page reconnects by itself.";
    $("alert").hidden = true;
    $("clock").textContent = "not reachable · the clock has stopped";
    audio.silence();
  }
}

// ---------------------------------------------------------------- drawing the unit

function mm(v: number): string {
  return `calc(var(--mm) * ${v})`;
}

function place(el: HTMLElement, x: number, y: number, w: number, h: number): void {
  el.style.left = mm(x - w / 2);
  el.style.top = mm(y - h / 2);
  el.style.width = mm(w);
  el.style.height = mm(h);
}

const COMBO_NAMES: Record<string, string> = { Enter: "⏎", Backspace: "⌫", Escape: "Esc", Delete: "Del" };
function comboLabel(combo: string): string {
  const shift = combo.startsWith("Shift+");
  const base = shift ? combo.slice(6) : combo;
  return (shift ? "⇧" : "") + (COMBO_NAMES[base] || base.toUpperCase());
}

/**
 * The unit is drawn on two plates that meet where the board ends and the pad begins: side by side
 * they are the unit as built; on a phone they stack, each scaled to the screen's width (the pad's
 * keys then stay at least 44 px), and the page scrolls.
 */
interface Plate {
  el: HTMLElement;
  /** Where it starts on the unit, its width and height (mm). */
  x0: number;
  w: number;
  h: number;
}
const plates: Record<"board" | "pad", Plate> = { board: null as unknown as Plate, pad: null as unknown as Plate };

/** Which plate an element centred at x (mm) belongs to. */
function plateAt(x: number): Plate {
  return x < plates.pad.x0 ? plates.board : plates.pad;
}

function placeOn(plate: Plate, el: HTMLElement, x: number, y: number, w: number, h: number): void {
  place(el, x - plate.x0, y, w, h);
  plate.el.append(el);
}

function build() {
  const g = layout.geometry;
  unitEl.innerHTML = "";
  for (const seg of Object.keys(ledEls)) delete ledEls[seg];
  keyEls.clear();
  cardsShown = "";
  keyLegendsShown = "";
  boardShown = "";
  $("model").textContent = `${g.name}: a board of ${g.pegs} holes × ${g.rows} rows`;
  // The pad's plate starts just left of the pad's well (its leftmost key, less 13 mm).
  const padLeft = Math.min(...g.keys.filter((k) => k.padLed !== undefined).map((k) => k.x)) - 13;
  for (const [name, x0, x1] of [
    ["board", 0, padLeft],
    ["pad", padLeft, g.width],
  ] as const) {
    const el = document.createElement("div");
    el.className = `plate plate-${name}`;
    el.dataset.plate = name;
    plates[name] = { el, x0, w: x1 - x0, h: g.height };
    unitEl.append(el);
  }

  for (const w of g.wells) {
    const el = document.createElement("div");
    el.className = `well well-${w.kind}`;
    placeOn(plateAt(w.x + w.w / 2), el, w.x + w.w / 2, w.y + w.h / 2, w.w, w.h);
  }
  for (const t of g.texts) {
    const el = document.createElement("div");
    el.className = `silk silk-${t.kind} anchor-${t.anchor}`;
    el.textContent = t.text;
    el.setAttribute("aria-hidden", "true");
    if (t.kind === "row") el.dataset.row = t.text;
    const plate = plateAt(t.anchor === "end" ? t.x - 1 : t.x + 1);
    el.style.left = mm(t.x - plate.x0);
    el.style.top = mm(t.y);
    el.style.fontSize = `max(11px, ${mm(t.size * 1.4)})`;
    plate.el.append(el);
  }
  for (const l of g.leds) {
    const hole = document.createElement("div");
    hole.className = `hole hole-${l.kind}${l.segment === "secret" ? " shielded" : ""}`;
    hole.dataset.segment = l.segment;
    hole.dataset.index = String(l.index);
    hole.dataset.title = l.title;
    hole.setAttribute("role", "img");
    hole.setAttribute("aria-label", `${l.title}: off`);
    hole.title = l.title;
    const light = document.createElement("div");
    light.className = "light";
    const initial = document.createElement("span");
    initial.className = "initial";
    initial.setAttribute("aria-hidden", "true");
    light.append(initial);
    hole.append(light);
    placeOn(plateAt(l.x), hole, l.x, l.y, l.d + 1.6, l.d + 1.6);
    (ledEls[l.segment] ||= [])[l.index] = hole;
  }
  // The pad's keys come first in the tab order, the codemaker pad's after them.
  for (const k of [...g.keys.filter((k) => k.padLed !== undefined), ...g.keys.filter((k) => k.padLed === undefined)]) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = `key key-${k.padLed === undefined ? "maker shielded" : "pad"}`;
    el.dataset.key = k.id;
    if (k.aliases.length) el.dataset.alias = k.aliases[0];
    el.dataset.shortcuts = k.shortcuts.length ? ` (keyboard: ${k.shortcuts.map(comboLabel).join(", ")})` : "";
    el.title = `${k.title}${el.dataset.shortcuts}`;
    el.innerHTML = `<span class="cap"></span><span class="legend" aria-hidden="true"></span><span class="sub" aria-hidden="true"></span><span class="kbd" aria-hidden="true"></span><span class="initial" aria-hidden="true"></span>`;
    el.dataset.title = el.title;
    el.dataset.legend = k.legend;
    el.dataset.sublegend = k.sublegend;
    el.querySelector<HTMLElement>(".legend")!.textContent = k.legend;
    el.querySelector<HTMLElement>(".sub")!.textContent = k.sublegend;
    const shortcut = k.shortcuts.find((s) => s !== k.legend);
    if (shortcut) el.querySelector<HTMLElement>(".kbd")!.textContent = comboLabel(shortcut);
    if (k.dot) {
      const dot = document.createElement("span");
      dot.className = "dot-print";
      dot.style.background = k.dot;
      el.append(dot);
    }
    if (k.padLed !== undefined) {
      // Brain Flip's picture card, shown on the key while the Brain Flip screen is on.
      const face = document.createElement("span");
      face.className = "card-face";
      face.innerHTML = `<img alt="" draggable="false" /><span class="card-name"></span>`;
      el.append(face);
      el.dataset.segment = "pad";
      el.dataset.index = String(k.padLed);
      (ledEls.pad ||= [])[k.padLed] = el;
    }
    bindKey(el, k.id);
    keyEls.set(k.id, el);
    placeOn(plateAt(k.x), el, k.x, k.y, k.size, k.size);
  }
  if (g.shield) {
    // The shield covers both plates: one cover on each, opened and closed together.
    const s = g.shield;
    for (const plate of [plates.board, plates.pad]) {
      const x0 = Math.max(s.x, plate.x0);
      const x1 = Math.min(s.x + s.w, plate.x0 + plate.w);
      if (x1 <= x0) continue;
      const el = document.createElement("button");
      el.type = "button";
      el.className = "shield shield-cover";
      el.setAttribute("aria-label", "the codemaker's shield");
      el.dataset.x = String(x0 - plate.x0);
      el.dataset.w = String(x1 - x0);
      placeOn(plate, el, (x0 + x1) / 2, s.y + s.h / 2, x1 - x0, s.h);
      el.innerHTML =
        plate === plates.board
          ? `<span class="shield-title">Codemaker's shield</span><span class="shield-hint">click or press Space to open</span><span class="hinge"></span>`
          : `<span class="shield-title">Codemaker pad</span><span class="shield-hint">under the shield</span><span class="hinge"></span>`;
      el.addEventListener("click", () => setView({ shield: !(lastState && lastState.view.shield) }));
    }
  }
  $("shield").hidden = !g.shield;

  // The keyboard help, from the server's shortcut table.
  const byAlias = new Map<string, string[]>();
  for (const s of layout.shortcuts) byAlias.set(s.alias, [...(byAlias.get(s.alias) || []), s.combo]);
  const help = $("shortcuts");
  help.innerHTML = "";
  for (const [alias, combos] of byAlias) {
    const row = document.createElement("div");
    row.innerHTML = `<span class="keys"></span><span class="what"></span>`;
    row.querySelector(".keys")!.append(
      ...combos.map((c) => {
        const k = document.createElement("kbd");
        k.textContent = comboLabel(c);
        return k;
      }),
    );
    row.querySelector(".what")!.textContent = alias;
    help.append(row);
  }
  $("legend").textContent = layout.initialsLegend;
  $("flip-answers").innerHTML = flipAnswersHelp();
  if (layout.battery) {
    const b = $("battery");
    b.min = String(Math.floor((layout.battery.emptyV - 0.3) * 10) / 10);
    b.max = String(Math.ceil((layout.battery.fullV + 0.1) * 10) / 10);
  }
  resize();
}

/** How the Master answers: the codemaker pad's keys and their keyboard shortcuts (Z yes, X no...). */
function flipAnswersHelp() {
  const idOf = (alias: string) => layout.aliases.find((a) => a.alias === alias)?.id;
  const combo = (alias: string) => {
    const s = layout.shortcuts.find((x) => x.id === idOf(alias));
    return s ? `<kbd>${comboLabel(s.combo)}</kbd>` : "";
  };
  if (!idOf("maker.yes"))
    return "The Master's keys light beside the cards: green yes, red no, orange undo, violet a Master's mistake, white OK; blue is the menu.";
  const what = [
    ["maker.yes", "yes"],
    ["maker.no", "no"],
    ["maker.undo", "undo"],
    ["maker.ok", "next round"],
  ];
  return `The Master answers on the codemaker pad, or: ${what.map(([a, w]) => `${combo(a)} ${w}`).join(" · ")}.`;
}

/** Below this width the plates stack (a phone): each fills the width. */
const STACK_BELOW = 760;

/** A phone: what scrolls into view (a key reached with Tab, a tap's target) is not left under the sticky status line. */
function stickyPadding(): void {
  const sticky = document.body.classList.contains("phone");
  document.documentElement.style.scrollPaddingTop = sticky ? `${document.querySelector<HTMLElement>(".now")!.offsetHeight + 8}px` : "";
}

/** On a phone each piece of the shield keeps this margin (mm) from the screen's edges, its corners in view. */
const SHIELD_MARGIN = 2;

function resize() {
  if (!layout) return;
  const g = layout.geometry;
  const stacked = window.innerWidth < STACK_BELOW;
  unitEl.classList.toggle("stacked", stacked);
  document.body.classList.toggle("phone", stacked);
  stickyPadding();
  for (const plate of [plates.board, plates.pad])
    for (const el of Array.from(plate.el.querySelectorAll<HTMLElement>(".shield-cover"))) {
      const x = Number(el.dataset.x);
      const x0 = stacked ? Math.max(x, SHIELD_MARGIN) : x;
      const x1 = stacked ? Math.min(x + Number(el.dataset.w), plate.w - SHIELD_MARGIN) : x + Number(el.dataset.w);
      el.style.left = mm(x0);
      el.style.width = mm(x1 - x0);
    }
  if (stacked) {
    const width = document.documentElement.clientWidth;
    for (const plate of [plates.board, plates.pad]) {
      plate.el.style.setProperty("--mm", `${(width / plate.w).toFixed(3)}px`);
      plate.el.style.left = "";
      plate.el.style.width = mm(plate.w);
      plate.el.style.height = mm(plate.h);
    }
    unitEl.style.width = "";
    unitEl.style.height = "";
    fitLegends();
    return;
  }
  const stage = $<HTMLElement>("stage");
  const room = stage.clientHeight - stage.querySelector<HTMLElement>(".now")!.offsetHeight;
  const k = Math.min((stage.clientWidth - 32) / g.width, (room - 32) / g.height);
  document.documentElement.style.setProperty("--mm", `${Math.max(1, k).toFixed(3)}px`);
  unitEl.style.width = mm(g.width);
  unitEl.style.height = mm(g.height);
  for (const plate of [plates.board, plates.pad]) {
    plate.el.style.removeProperty("--mm");
    plate.el.style.left = mm(plate.x0);
    plate.el.style.width = mm(plate.w);
    plate.el.style.height = mm(plate.h);
  }
  fitLegends();
}

// ---------------------------------------------------------------- input

/** Keys this page holds down (mouse or keyboard), so that they are released when it loses focus. */
const held = new Map<string, string>();

/** The latest key pressed that does nothing now: its reason completes the refusal that follows. */
let idlePress: { about: string; at: number } | null = null;

/** When each held key went down (ms): a release comes no sooner than MIN_HOLD_MS after. */
const heldSince = new Map<string, number>();
/** The shortest press sent to the unit, longer than its debounce: a quick tap on a touch screen still counts. */
const MIN_HOLD_MS = 80;

function down(source: string, id: string): void {
  if (held.has(source)) return;
  heldSince.set(source, performance.now());
  const el = keyEls.get(id);
  if (el?.classList.contains("idle")) idlePress = { about: el.title.split(" · ")[0], at: performance.now() };
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

function bindKey(el: HTMLElement, id: string): void {
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
  if (!layout || e.ctrlKey || e.metaKey || e.altKey || ownKeys(e)) return;
  // A focused key of the unit: Space or Enter hold it down (every key is reachable with Tab).
  const focusedKey = e.target instanceof Element ? e.target.closest<HTMLElement>(".key") : null;
  if (focusedKey && (e.key === " " || e.key === "Enter")) {
    e.preventDefault();
    if (!e.repeat) down(`key:${e.code}`, focusedKey.dataset.key ?? "");
    return;
  }
  const combo = comboOf(e);
  const hit = layout.shortcuts.find((s) => s.combo === combo);
  if (hit) {
    e.preventDefault();
    if (!e.repeat) down(`key:${e.code}`, hit.id);
    return;
  }
  if (e.repeat || !lastState) return;
  if (combo === " " && layout.geometry.shield) setView({ shield: !lastState.view.shield });
  else if (combo === "l") setView({ labels: !lastState.view.labels });
  else if (combo === "Shift+M") setView({ muted: !lastState.view.muted });
  else return;
  e.preventDefault();
  audio.unlock();
});
window.addEventListener("keyup", (e) => up(`key:${e.code}`));
window.addEventListener("blur", () => {
  for (const source of [...held.keys()]) up(source);
});
window.addEventListener("resize", resize);
new ResizeObserver(stickyPadding).observe(document.querySelector(".now")!);

/** Starts or stops watching the unit play (the server runs the watcher; its status comes with the state). */
function watch(body: Record<string, unknown>): void {
  apiFetch("api/watch", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    .then(async (res) => {
      if (!res.ok) toast((await res.json()).error || `watch: HTTP ${res.status}`);
    })
    .catch(() => showOffline(true));
}
$("watch").addEventListener("click", () => {
  audio.unlock();
  const preset = $("watch-preset").value;
  watch({
    action: "start",
    ...(preset ? { preset } : {}),
    ...($("watch-harder").checked ? { harder: true } : {}),
    secret: $("watch-head").checked ? "head" : "keyed",
  });
});
$("watch-stop").addEventListener("click", () => watch({ action: "stop" }));

$("power").addEventListener("click", () => command(lastState && lastState.on ? "power off" : "power on"));
$("cycle").addEventListener("click", () => command("power cycle"));
$("shield").addEventListener("click", () => setView({ shield: !lastState?.view.shield }));
$("labels").addEventListener("click", () => setView({ labels: !lastState?.view.labels }));
$("sound").addEventListener("click", () => {
  audio.unlock();
  setView({ muted: !lastState?.view.muted });
});
const sendBattery = () => command(`battery ${Number($("battery").value).toFixed(2)}${$("usb").checked ? " usb" : ""}`);
$("battery").addEventListener("change", sendBattery);
$("battery").addEventListener("input", () => {
  $("battery-text").textContent = `${Number($("battery").value).toFixed(2)} V`;
});
$("usb").addEventListener("change", sendBattery);

// ---------------------------------------------------------------- painting the state

/** WCAG relative luminance of an sRGB colour. */
function luminance(rgb: readonly number[]): number {
  const lin = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4)));
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

/** Does black text contrast more than white on this colour? (Red, green, yellow, orange, pink, cyan, white: yes.) */
function wantsDarkText(rgb: readonly number[]): boolean {
  const l = luminance(rgb);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05);
}

/**
 * The least luminance of the ring drawn round a lit LED: a dark colour (violet, blue, red) keeps its true
 * colour inside and gets a lighter ring of its own hue, legible on the black board (contrast 7:1 and more).
 */
const RING_LUMINANCE = 0.33;

/** The ring's colour for an LED of this colour ("r,g,b": the colour mixed towards white), or "" when it needs none. */
function ringOf(rgb: readonly number[]): string {
  for (let t = 0; t <= 1; t += 0.1) {
    const c = rgb.map((v) => Math.round(v + (255 - v) * t));
    if (luminance(c) >= RING_LUMINANCE) return t === 0 ? "" : c.join(",");
  }
  return "255,255,255";
}

/** An LED's colour in words, for screen readers. */
function colourWord(name: string): string {
  if (name === "off") return "off";
  if (name === "hole") return "empty hole, to fill";
  if (name === "violet") return "violet (black)";
  return name;
}

function setText(el: Element | null, text: string): void {
  if (!el) return;
  if (el.textContent !== text) el.textContent = text;
}

function setLabel(el: Element, text: string): void {
  if (el.getAttribute("aria-label") !== text) el.setAttribute("aria-label", text);
}

function paint(s: SimState): void {
  if (!lastState) requestAnimationFrame(() => requestAnimationFrame(() => unitEl.classList.add("ready")));
  if (lastState?.view.shield && !s.view.shield && s.status.secretHidden)
    toast("The codemaker's shield closed itself: the codebreaker is to move (the secret stays hidden until the game ends).");
  lastState = s;
  unitEl.dataset.now = String(s.now);
  unitEl.classList.toggle("powered", s.on);
  unitEl.classList.toggle("shield-open", s.view.shield);
  unitEl.classList.toggle("labels", s.view.labels);
  for (const [segment, pixels] of Object.entries(s.segments)) {
    const els = ledEls[segment] || [];
    pixels.forEach((px, i) => {
      const el = els[i];
      if (!el) return;
      el.dataset.colour = px.name;
      el.dataset.rgb = px.rgb.join(",");
      const lit = px.name !== "off";
      el.classList.toggle("lit", lit);
      el.style.setProperty("--c", px.screen.join(","));
      const ring = lit && el.classList.contains("hole") ? ringOf(px.screen) : "";
      if (ring) el.style.setProperty("--ring", ring);
      else el.style.removeProperty("--ring");
      el.classList.toggle("ringed", !!ring);
      el.classList.toggle("bright", lit && wantsDarkText(px.screen));
      const initial = el.querySelector<HTMLElement>(".initial");
      if (initial) initial.textContent = lit && px.name !== "hole" ? layout.initials[px.name] || "?" : "";
      if (el.classList.contains("hole")) setLabel(el, `${el.dataset.title}: ${colourWord(px.name)}`);
    });
  }
  for (const [id, el] of keyEls) el.classList.toggle("pressed", s.pressed.includes(id));
  paintCards(s);
  paintKeys(s);
  paintStatus(s.status, s.watch);
  paintBoard(s.status.board);

  $("power").textContent = s.on ? "Switch off" : "Switch on";
  $("led-power").classList.toggle("on", s.on);
  const time = s.engine === "espruino" ? "real time, on the real Espruino interpreter" : "virtual time";
  $("clock").textContent = `${s.on ? "on" : "off"} · ${(s.now / 1000).toFixed(1)} s ${time}${s.running ? "" : " (paused)"}${
    s.tone ? ` · ♪ ${s.tone.freq} Hz` : ""
  }`;
  const bat = s.battery;
  if (document.activeElement !== $("battery")) $("battery").value = String(bat.volts);
  $("usb").checked = bat.usb;
  $("battery-text").textContent =
    `${bat.volts.toFixed(2)} V${bat.level !== null ? ` · ${Math.round(bat.level * 100)} %` : ""}${bat.usb ? " · USB" : ""}`;
  const fill = $("battery-fill");
  fill.style.width = `${Math.round((bat.level ?? 1) * 100)}%`;
  fill.classList.toggle("low", layout.battery !== null && bat.volts <= layout.battery.lowV);

  for (const [id, on] of [
    ["shield", s.view.shield],
    ["labels", s.view.labels],
    ["sound", !s.view.muted],
  ] as const)
    $(id).setAttribute("aria-pressed", String(on));
  const cover = unitEl.querySelector(".plate-board .shield-cover");
  if (cover) {
    const how = unitEl.classList.contains("stacked") ? "tap" : "click or press Space";
    setText(cover.querySelector(".shield-hint"), s.view.shield ? `open · ${how} to close` : `${how} to open`);
    for (const c of Array.from(unitEl.querySelectorAll(".shield-cover")))
      setLabel(c, `the codemaker's shield: ${s.view.shield ? "open (click to close)" : "closed (click to open)"}`);
  }

  paintWatch(s.watch);

  const errors = $("errors");
  // A save the simulator could not write is shown first: the match since then will not survive a restart.
  const problems = (s.storageProblem ? ["Not saved: " + s.storageProblem] : []).concat(s.errors);
  errors.hidden = problems.length === 0;
  errors.textContent = problems.join("\n");
  const con = $("console");
  con.textContent = s.console.join("\n") || "(nothing printed)";
  con.scrollTop = con.scrollHeight;
  if (s.view.muted) audio.silence();
}

/** The part of the board in play, as last painted ("pegs/rows/keyPegs"). */
let boardShown = "";

/**
 * Only the holes of the game on the unit are in play (the preset's holes of its rows, the key pixels it
 * uses, the secret's holes): the others are dimmed and left out of the accessibility tree (a lit one still shows its light).
 * The model line names the board and the game's part of it.
 */
function paintBoard(b: UnitStatus["board"]): void {
  const g = layout.geometry;
  setText($("model"), `${g.name} · ${b.about}`);
  const shown = `${b.pegs}/${b.rows}/${b.keyPegs}`;
  if (shown === boardShown) return;
  boardShown = shown;
  for (const [segment, holes] of [
    ["board", b.pegs],
    ["keys", b.keyPegs],
    ["secret", b.pegs],
  ] as const)
    (ledEls[segment] || []).forEach((el, i) => {
      const out = Math.floor(i / g.pegs) >= b.rows || i % g.pegs >= holes;
      el.classList.toggle("unused", out);
      if (out) el.setAttribute("aria-hidden", "true");
      else el.removeAttribute("aria-hidden");
      el.title = out ? `${el.dataset.title} (not in play)` : (el.dataset.title ?? "");
    });
  for (const el of Array.from(unitEl.querySelectorAll<HTMLElement>(".silk-row")))
    el.classList.toggle("unused", Number(el.dataset.row) > b.rows);
}

/** The smallest font (px) a legend shrinks to so that its longest word fits on its key. */
const MIN_LEGEND_PX = 6;

/** Each shown legend whole on its key: the font shrinks (from the style's size) until no word runs past the key's sides. */
function fitLegends(): void {
  for (const el of keyEls.values()) {
    const legend = el.querySelector<HTMLElement>(".legend")!;
    legend.style.fontSize = "";
    if (!legend.textContent || !legend.offsetParent) continue;
    let size = parseFloat(getComputedStyle(legend).fontSize);
    const bottom = el.getBoundingClientRect().bottom;
    while ((legend.scrollWidth > legend.clientWidth || legend.getBoundingClientRect().bottom > bottom) && size > MIN_LEGEND_PX) {
      size -= 0.5;
      legend.style.fontSize = `${size}px`;
    }
  }
}

/** The screen whose legends the keys show ("menu/brainflip"...), so they are rewritten only when it changes. */
let keyLegendsShown = "";

/**
 * The keys' legends follow the unit's screen (the server's status: menu names, the game's legends,
 * Brain Flip's cards and the Master's keys), and each key's name for screen readers says what it
 * does now and how it is lit.
 */
function paintKeys(s: SimState): void {
  const legends = s.status.keys;
  const shown = JSON.stringify(legends);
  const changed = shown !== keyLegendsShown;
  keyLegendsShown = shown;
  unitEl.dataset.screen = s.status.screen;
  // Off or asleep there are no legends: the keys show what is printed on them.
  const printed = Object.keys(legends).length === 0;
  for (const [id, el] of keyEls) {
    const legend = printed ? undefined : legends[id] || { label: "", about: "" };
    if (el.classList.contains("card") && s.flip) continue; // a card is named by its picture (paintCards)
    if (changed) {
      // Off, asleep or before the first state: the printed legends (the play screen's).
      setText(el.querySelector(".legend"), legend ? legend.label : (el.dataset.legend ?? ""));
      setText(el.querySelector(".sub"), legend ? "" : (el.dataset.sublegend ?? ""));
      el.classList.toggle("idle", !!legend && !legend.label);
      el.title = `${legend && legend.about ? legend.about : el.dataset.title}${legend ? ` · key ${id}${el.dataset.shortcuts}` : ""}`;
    }
    // A key that does nothing now, or one under the closed shield (Brain Flip leaves the codemaker pad open), is left out of the tab order.
    const covered = el.classList.contains("key-maker") && !s.view.shield && s.status.screen !== "brainflip";
    const idle = (!!legend && !legend.label) || covered;
    el.tabIndex = idle ? -1 : 0;
    const what = legend ? legend.about || "does nothing on this screen" : el.dataset.title;
    const light = el.dataset.colour && el.dataset.colour !== "off" ? `, lit ${colourWord(el.dataset.colour)}` : "";
    setLabel(el, `${what}${light} (key ${id})`);
  }
  if (changed) fitLegends();
}

/** What the live region said last. */
let lastSaid = "";

/** The status line (what the unit shows, what to do next), the passing alert, and the numbers panel. */
function paintStatus(st: UnitStatus, watching: WatchStatus | null): void {
  // While the unit plays both sides the status line speaks to the person watching, not to a player.
  setText(
    $("status"),
    watching?.running ? `Watching the unit play: ${watching.line}. Press Stop (or any key of the unit) to take over.` : st.line,
  );
  // Refusals and each row's answer are said through a live region, once each.
  const alert = $("alert");
  alert.hidden = !st.alert;
  const why = idlePress && performance.now() - idlePress.at < 1500 && st.alert ? ` (${idlePress.about})` : "";
  setText(alert, `${st.alert ?? ""}${why}`);
  const said = st.alert ? alert.textContent : st.lastRow || "";
  if (said && said !== lastSaid) setText($("announce"), said);
  lastSaid = said;
  paintLastRow(st.lastRow);
  setText($("game"), st.game || "No game yet.");
  const list = <T>(el: HTMLElement, rows: T[], item: (row: T) => HTMLElement[]) => {
    const text = JSON.stringify(rows);
    if (el.dataset.text === text) return;
    el.dataset.text = text;
    el.replaceChildren(...rows.flatMap(item));
  };
  const pair = (term: string, value: string) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    return [dt, dd];
  };
  // "1 point", "1 hole": the unit is named in the plural.
  list($("scores"), st.scores, (sc) => pair(sc.name, `${sc.value} ${sc.value === 1 ? sc.unit.replace(/s$/, "") : sc.unit}`));
  list($("facts"), st.facts, (f) => pair(f.label, f.value));
  list($("history"), st.history, (h) => {
    const li = document.createElement("li");
    li.textContent = h;
    return [li];
  });
  $("history-title").hidden = st.history.length === 0;
}

/**
 * The latest row played, in words ("row 3: 2 exact, 1 near") and as small pegs copied from the board: on a
 * phone it stays in view with the status line while the player keys on the pad, a screen below the board.
 */
function paintLastRow(words: string | undefined): void {
  const el = $<HTMLElement>("last-row");
  const n = words ? Number(/^row (\d+)/.exec(words)?.[1]) : 0;
  el.hidden = !words;
  if (!words) return;
  setText(el.querySelector(".last-row-words"), words);
  const pegs = el.querySelector<HTMLElement>(".last-row-pegs")!;
  const g = layout.geometry;
  // The row's holes and key LEDs as the board shows them (a board of fewer rows than the game's: words only).
  const holes =
    n >= 1 && n <= g.rows
      ? [...(ledEls.board || []).slice((n - 1) * g.pegs, n * g.pegs), null, ...(ledEls.keys || []).slice((n - 1) * g.pegs, n * g.pegs)]
      : [];
  const shown = holes.filter((h) => !h || !h.classList.contains("unused"));
  while (pegs.children.length > shown.length) pegs.lastElementChild!.remove();
  while (pegs.children.length < shown.length) pegs.append(document.createElement("i"));
  shown.forEach((hole, i) => {
    const peg = pegs.children[i] as HTMLElement;
    peg.className = hole
      ? `mini${hole.classList.contains("hole-keypeg") ? " mini-key" : ""}${hole.classList.contains("lit") ? " lit" : ""}`
      : "gap";
    peg.style.cssText = hole ? (hole.style.cssText.match(/--(c|ring):[^;]*;/g)?.join("") ?? "") : "";
  });
}

/** Watching the unit play: the buttons, the latest line, the recent ones (newest last). */
function paintWatch(w: WatchStatus | null): void {
  $("watch").disabled = !!(w && w.running);
  $("watch").textContent = w && !w.running ? "Watch again" : "Watch the unit play";
  $("watch-stop").disabled = !(w && w.running);
  if (!w) return;
  const status = $("watch-status");
  status.textContent = (w.running ? "▶ " : "■ ") + w.line;
  status.classList.toggle("running", w.running);
  const log = $("watch-log");
  log.hidden = w.log.length === 0;
  const text = w.log.join("\n");
  if (log.dataset.text === text) return;
  log.dataset.text = text;
  log.replaceChildren(
    ...w.log.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }),
  );
  log.scrollTop = log.scrollHeight;
}

/** The Brain Flip game whose cards are on the pad ("game/grid"), or "" when none are. */
let cardsShown = "";

/**
 * Brain Flip's cards: while its screen shows, the server names the picture on each card of the grid
 * (s.flip). Each card's key keeps its LED: cyan around a card in play; a card whose LED is off
 * (guessed wrong) is shown out; the picked card blinks green at the end of a round.
 */
function paintCards(s: SimState): void {
  const flip: FlipCards | null = s.flip && pictures ? s.flip : null;
  unitEl.classList.toggle("flip", flip !== null);
  const pad = ledEls.pad || [];
  const shown = flip ? `${flip.game}/${flip.grid}` : "";
  if (shown !== cardsShown) {
    cardsShown = shown;
    keyLegendsShown = ""; // the keys' legends and names are written again
    for (const el of pad) {
      if (!el) continue;
      el.classList.remove("card", "out", "picked");
      delete el.dataset.card;
      delete el.dataset.picture;
    }
    if (flip)
      flip.pictures.forEach((id, c) => {
        const el = pad[Math.floor(c / flip.grid) * 6 + (c % flip.grid)];
        const pic = pictures?.[id];
        if (!el || !pic) return;
        el.classList.add("card");
        el.dataset.picture = String(id);
        el.dataset.card = String(c);
        el.dataset.name = pic.name;
        el.querySelector<HTMLImageElement>(".card-face img")!.src = pic.url;
        el.querySelector(".card-name")!.textContent = pic.name;
      });
  }
  $("flip-help").hidden = flip === null;
  if (!flip) return;
  $("flip-game").textContent =
    `Game ${flip.game}: ${flip.grid * flip.grid} cards drawn at random from the ${Object.keys(pictures ?? {}).length} pictures, fixed until the next game.`;
  const dark = !s.on || !s.ledsPowered; // asleep: every LED is off, no card is out
  for (const el of pad) {
    if (!el || !el.classList.contains("card")) continue;
    // The Master's card blinks green at the end of a round: between blinks it is not out.
    const picked = Number(el.dataset.card) === flip.picked;
    const out = !dark && !picked && !el.classList.contains("lit");
    el.classList.toggle("out", out);
    el.classList.toggle("picked", picked);
    const label = `${el.dataset.name}${out ? " (out)" : picked ? " (the Master's card)" : ""}`;
    if (el.getAttribute("aria-label") !== label) {
      el.setAttribute("aria-label", label);
      el.title = `${label} · ${el.dataset.key}`;
    }
  }
}

// ---------------------------------------------------------------- sound

/** The buzzer, as a square wave at the tone's frequency; notes keep their virtual-time spacing. */
const audio = {
  ctx: null as AudioContext | null,
  osc: null as unknown as OscillatorNode,
  gain: null as unknown as GainNode,
  offset: null as number | null,
  unlock() {
    if (this.ctx) {
      if (this.ctx.state === "suspended") this.ctx.resume();
      return;
    }
    const AC = window.AudioContext || (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    this.ctx = new AC();
    this.osc = this.ctx.createOscillator();
    this.osc.type = "square";
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.osc.connect(this.gain).connect(this.ctx.destination);
    this.osc.start();
  },
  play(now: number, tones: { at: number; freq: number }[]) {
    if (!this.ctx || !lastState || lastState.view.muted) return;
    const t = this.ctx.currentTime;
    // Virtual ms -> audio seconds; re-anchored when the stream falls behind or runs far ahead.
    const guess = t + 0.03 - now / 1000;
    if (this.offset === null || this.offset < guess - 0.05 || this.offset > guess + 0.25) this.offset = guess;
    for (const tone of tones) {
      const when = Math.max(t, tone.at / 1000 + this.offset);
      if (tone.freq > 0) this.osc.frequency.setValueAtTime(tone.freq, when);
      this.gain.gain.setTargetAtTime(tone.freq > 0 ? 0.05 : 0, when, 0.002);
    }
  },
  silence() {
    if (this.ctx) this.gain.gain.setTargetAtTime(0, this.ctx.currentTime, 0.002);
  },
};

// ---------------------------------------------------------------- start

let layoutText = "";
/** Fetches the unit's layout and (re)draws the unit when it differs (the server may restart with another profile). */
async function loadLayout() {
  const text = await (await apiFetch("api/layout")).text();
  if (text === layoutText) return;
  layoutText = text;
  layout = JSON.parse(text) as SimLayout;
  build();
}

/** Brain Flip's pictures, once: each SVG becomes an image URL for the cards. */
async function loadPictures() {
  const list = (await (await apiFetch("api/pictures")).json()) as { id: number; name: string; svg: string }[];
  pictures = {};
  for (const p of list) pictures[p.id] = { name: p.name, url: URL.createObjectURL(new Blob([p.svg], { type: "image/svg+xml" })) };
  if (lastState) paint(lastState);
}

/** Polls the server while it is not reachable, this often. */
const RECONNECT_MS = 1000;

/**
 * Follows the server's event stream. When the stream closes (the simulator stopped), the page asks its own
 * origin for the page again until it answers: the same token opens the stream again; a new token (the
 * simulator restarted) reloads the page, which then carries it.
 */
function follow(): void {
  const events = apiEvents("api/events");
  events.addEventListener("open", () => loadLayout().catch(() => showOffline(true)));
  events.addEventListener("state", (e: MessageEvent<string>) => {
    showOffline(false);
    paint(JSON.parse(e.data));
  });
  events.addEventListener("tone", (e: MessageEvent<string>) => {
    const d = JSON.parse(e.data);
    audio.play(d.now, d.tones);
  });
  events.addEventListener("error", () => {
    showOffline(true);
    // The browser retries by itself while the server is merely away; a refusal (403: a new token) closes the stream.
    if (events.readyState === EventSource.CLOSED) void reconnect();
  });
}

async function reconnect(): Promise<void> {
  for (;;) {
    await new Promise((r) => setTimeout(r, RECONNECT_MS));
    const now = await currentToken();
    if (now === null) continue;
    // A new token, or a page that never drew the unit: load the page again.
    if (now !== token() || !layoutText) location.reload();
    else follow();
    return;
  }
}

async function start() {
  await loadLayout();
  loadPictures().catch((e) => console.error(e));
  follow();
  document.addEventListener("pointerdown", () => audio.unlock(), { once: true });
}

start().catch((e) => {
  showOffline(true);
  console.error(e);
  void reconnect();
});
