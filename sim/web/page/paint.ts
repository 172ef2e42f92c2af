/**
 * Paints the unit from the state the server streams: each LED's colour (with a ring for dark colours),
 * the part of the board in play, the keys' legends and names, Brain Flip's cards, and the page's own
 * switches, clock and battery.
 */
import type { FlipCards, SimState } from "../types.ts";
import type { UnitStatus } from "../../views/status.ts";
import { $, keyEls, ledEls, page, setLabel, setText, shown, unitEl } from "./state.ts";
import { toast } from "./link.ts";
import { audio } from "./sound.ts";
import { fitLegends } from "./unit.ts";
import { paintStatus, paintWatch } from "./panel.ts";

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

export function paint(s: SimState): void {
  if (!page.lastState) requestAnimationFrame(() => requestAnimationFrame(() => unitEl.classList.add("ready")));
  if (page.lastState?.view.shield && !s.view.shield && s.status.secretHidden)
    toast("The codemaker's shield closed itself: the codebreaker is to move (the secret stays hidden until the game ends).");
  page.lastState = s;
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
      if (initial) initial.textContent = lit && px.name !== "hole" ? page.layout.initials[px.name] || "?" : "";
      if (el.classList.contains("hole")) setLabel(el, `${el.dataset.title}: ${colourWord(px.name)}`);
    });
  }
  for (const [id, el] of keyEls) el.classList.toggle("pressed", s.pressed.includes(id));
  paintCards(s);
  paintKeys(s);
  // (The board's part in play first: the latest row in the status copies its holes in play.)
  paintBoard(s.status.board);
  paintStatus(s.status, s.watch);

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
  fill.classList.toggle("low", page.layout.battery !== null && bat.volts <= page.layout.battery.lowV);

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

/**
 * Only the holes of the game on the unit are in play (the preset's holes of its rows, the key pixels it
 * uses, the secret's holes): the others are dimmed and left out of the accessibility tree (a lit one still shows its light).
 * The model line names the board and the game's part of it.
 */
function paintBoard(b: UnitStatus["board"]): void {
  const g = page.layout.geometry;
  setText($("model"), `${g.name} · ${b.about}`);
  const now = `${b.pegs}/${b.rows}/${b.keyPegs}`;
  if (now === shown.board) return;
  shown.board = now;
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

/**
 * The keys' legends follow the unit's screen (the server's status: menu names, the game's legends,
 * Brain Flip's cards and the Master's keys), and each key's name for screen readers says what it
 * does now and how it is lit.
 */
function paintKeys(s: SimState): void {
  const legends = s.status.keys;
  const now = JSON.stringify(legends);
  const changed = now !== shown.keyLegends;
  shown.keyLegends = now;
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

/**
 * Brain Flip's cards: while its screen shows, the server names the picture on each card of the grid
 * (s.flip). Each card's key keeps its LED: cyan around a card in play; a card whose LED is off
 * (guessed wrong) is shown out; the picked card blinks green at the end of a round.
 */
function paintCards(s: SimState): void {
  const flip: FlipCards | null = s.flip && page.pictures ? s.flip : null;
  unitEl.classList.toggle("flip", flip !== null);
  const pad = ledEls.pad || [];
  const now = flip ? `${flip.game}/${flip.grid}` : "";
  if (now !== shown.cards) {
    shown.cards = now;
    shown.keyLegends = ""; // the keys' legends and names are written again
    for (const el of pad) {
      if (!el) continue;
      el.classList.remove("card", "out", "picked");
      delete el.dataset.card;
      delete el.dataset.picture;
    }
    if (flip)
      flip.pictures.forEach((id, c) => {
        const el = pad[Math.floor(c / flip.grid) * 6 + (c % flip.grid)];
        const pic = page.pictures?.[id];
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
    `Game ${flip.game}: ${flip.grid * flip.grid} cards drawn at random from the ${Object.keys(page.pictures ?? {}).length} pictures, fixed until the next game.`;
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
