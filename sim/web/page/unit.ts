/**
 * Draws the unit from its layout (/api/layout): the board and the pad on two plates (side by side, or
 * stacked on a phone), the holes, the keys, the shield, and the keyboard help; fits it to the window.
 */
import { $, keyEls, ledEls, mm, page, shown, unitEl } from "./state.ts";
import { setView } from "./link.ts";
import { bindKey } from "./input.ts";
import { hyphenateSync } from "hyphen/en-us";

function place(el: HTMLElement, x: number, y: number, w: number, h: number): void {
  el.style.left = mm(x - w / 2);
  el.style.top = mm(y - h / 2);
  el.style.width = mm(w);
  el.style.height = mm(h);
}

const COMBO_NAMES: Record<string, string> = { Enter: "⏎", Backspace: "⌫", Escape: "Esc", Delete: "Del" };
export function comboLabel(combo: string): string {
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

export function build() {
  const g = page.layout.geometry;
  unitEl.innerHTML = "";
  for (const seg of Object.keys(ledEls)) delete ledEls[seg];
  keyEls.clear();
  shown.cards = "";
  shown.keyLegends = "";
  shown.board = "";
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
      el.addEventListener("click", () => setView({ shield: !(page.lastState && page.lastState.view.shield) }));
    }
  }
  $("shield").hidden = !g.shield;

  // The keyboard help, from the server's shortcut table.
  const byAlias = new Map<string, string[]>();
  for (const s of page.layout.shortcuts) byAlias.set(s.alias, [...(byAlias.get(s.alias) || []), s.combo]);
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
  $("legend").textContent = page.layout.initialsLegend;
  $("flip-answers").innerHTML = flipAnswersHelp();
  if (page.layout.battery) {
    const b = $("battery");
    b.min = String(Math.floor((page.layout.battery.emptyV - 0.3) * 10) / 10);
    b.max = String(Math.ceil((page.layout.battery.fullV + 0.1) * 10) / 10);
  }
  resize();
}

/** How the Master answers: the codemaker pad's keys and their keyboard shortcuts (Z yes, X no...). */
function flipAnswersHelp() {
  const idOf = (alias: string) => page.layout.aliases.find((a) => a.alias === alias)?.id;
  const combo = (alias: string) => {
    const s = page.layout.shortcuts.find((x) => x.id === idOf(alias));
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
export function stickyPadding(): void {
  const sticky = document.body.classList.contains("phone");
  document.documentElement.style.scrollPaddingTop = sticky ? `${document.querySelector<HTMLElement>(".now")!.offsetHeight + 8}px` : "";
}

/** On a phone each piece of the shield keeps this margin (mm) from the screen's edges, its corners in view. */
const SHIELD_MARGIN = 2;

export function resize() {
  if (!page.layout) return;
  const g = page.layout.geometry;
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

/** The smallest font (px) a legend shrinks to so that its longest word fits on its key. */
const MIN_LEGEND_PX = 6;
/** Below this font (px) a long word rather breaks, hyphenated ("bright-ness"), and the font shrinks less. */
const HYPHENATE_BELOW_PX = 9;

/** Shrinks the legend's font from the style's size, no further than `floor` px, until it shows whole on `key`; does it? */
function shrinkToFit(legend: HTMLElement, key: HTMLElement, floor: number): boolean {
  legend.style.fontSize = "";
  let size = parseFloat(getComputedStyle(legend).fontSize);
  const bottom = key.getBoundingClientRect().bottom;
  const fits = () => legend.scrollWidth <= legend.clientWidth && legend.getBoundingClientRect().bottom <= bottom;
  while (!fits() && size > floor) {
    size -= 0.5;
    legend.style.fontSize = `${size}px`;
  }
  return fits();
}

/**
 * Each shown legend whole on its key: the font shrinks until no word runs past the key's sides; a word
 * that would need a font under HYPHENATE_BELOW_PX is hyphenated instead (soft hyphens, US English).
 */
export function fitLegends(): void {
  for (const el of keyEls.values()) {
    const legend = el.querySelector<HTMLElement>(".legend")!;
    const plain = (legend.textContent ?? "").replace(/\u00ad/g, "");
    if (legend.textContent !== plain) legend.textContent = plain;
    legend.style.fontSize = "";
    if (!plain || !legend.offsetParent) continue;
    if (shrinkToFit(legend, el, HYPHENATE_BELOW_PX)) continue;
    legend.textContent = hyphenateSync(plain);
    shrinkToFit(legend, el, MIN_LEGEND_PX);
  }
}
