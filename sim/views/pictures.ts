/**
 * Brain Flip's picture cards for the simulator page (docs/rules.md 4: 36 cards drawn at random from 100
 * images). The unit never sees the pictures; the page lays them on the pad keys, and the server
 * deals a new set for every Brain Flip game the firmware starts (PictureDeal, below).
 *
 * The 100 pictures are generated from combinations: 25 subjects (sun, cat, car, apple...) in 4
 * variants each, a variant being a colour (different for each variant of a subject, so every
 * picture is unique), a count (one, two or three of it), a pattern (plain, striped or spotted) and,
 * for some subjects, a top hat. So the spoken questions of the real game make sense and split the
 * grid: "is it an animal?", "is there something red?", "does it have wheels?", "is it round?",
 * "are there two or more?", "is it striped?", "is anything wearing a hat?".
 *
 * Each picture is a small SVG (viewBox 0 0 100 100, a cartoon with dark outlines on a cream card)
 * with a name for tooltips and screen readers ("two blue striped cats with hats").
 */
import { decodeSlot, expandKeys } from "../../firmware/save-format.ts";
import { saveCrc } from "../board/saves.ts";
import type { VirtualStorage } from "../board/storage.ts";
import { FLIP_PICK } from "../../firmware/core/brainflip.ts";
import {
  COLOURS,
  INK,
  r1,
  SUBJECTS,
  WHITE,
  type ColourName,
  type Paint,
  type Pattern,
  type Picture,
  type Subject,
} from "./picture-subjects.ts";

export { COLOURS, type ColourName, type Pattern, type Picture } from "./picture-subjects.ts";

const COUNT_WORDS = ["", "", "two", "three"];
/** A top hat, base centre (x, y), tilted by `deg`. */
function topHat(x: number, y: number, deg: number, sw: number): string {
  return (
    `<g transform="rotate(${deg} ${x} ${y})" stroke="${INK}" stroke-width="${sw * 0.6}" stroke-linejoin="round">` +
    `<rect x="${x - 16}" y="${y - 5}" width="32" height="6" rx="3" fill="${INK}"/>` +
    `<rect x="${x - 10}" y="${y - 25}" width="20" height="21" rx="2" fill="${INK}"/>` +
    `<rect x="${x - 10}" y="${y - 10}" width="20" height="5" fill="#d9dee6"/></g>`
  );
}

/** Where copies go, by count: [x, y] of each copy's centre and the scale. */
const LAYOUTS: Record<number, { at: [number, number][]; scale: number }> = {
  1: { at: [[50, 50]], scale: 0.9 },
  2: {
    at: [
      [29, 33],
      [71, 67],
    ],
    scale: 0.56,
  },
  3: {
    at: [
      [50, 27],
      [26, 71],
      [74, 71],
    ],
    scale: 0.48,
  },
};

/** The SVG of one picture: `count` copies of the subject in `colour`, with the pattern and the hat. */
export function pictureSvg(subject: Subject, colour: ColourName, count: number, pattern: Pattern, hat: boolean): string {
  const [c, d] = COLOURS[colour];
  const layout = LAYOUTS[count];
  // Outlines keep about the same width on screen whatever the copies' scale.
  const sw = r1(3.6 / Math.sqrt(layout.scale / 0.9));
  const stroke = `stroke="${INK}" stroke-width="${sw}" stroke-linejoin="round" stroke-linecap="round"`;
  const light = colour === "yellow" || colour === "grey" || colour === "pink";
  const patternFill = pattern === "plain" ? "" : `url(#${pattern})`;
  const paint: Paint = {
    colour,
    c,
    d,
    sw,
    body: (el) => `${el} fill="${c}" ${stroke}/>` + (patternFill ? `${el} fill="${patternFill}"/>${el} fill="none" ${stroke}/>` : ""),
    shape: (el, fill) => `${el} fill="${fill}" ${stroke}/>`,
    line: (path, colour, w) =>
      `<path d="${path}" fill="none" stroke="${INK}" stroke-width="${r1(w + 2 * sw)}" stroke-linecap="round" stroke-linejoin="round"/>` +
      (colour === INK
        ? ""
        : `<path d="${path}" fill="none" stroke="${colour}" stroke-width="${w}" stroke-linecap="round" stroke-linejoin="round"/>`),
  };
  const one = subject.draw(paint) + (hat && subject.hat ? topHat(subject.hat[0], subject.hat[1], subject.hat[2], sw) : "");
  const defs =
    pattern === "stripes"
      ? `<pattern id="stripes" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><rect width="5" height="12" fill="${light ? d : WHITE}" opacity="${light ? 0.7 : 0.6}"/></pattern>`
      : pattern === "dots"
        ? `<pattern id="dots" width="14" height="14" patternUnits="userSpaceOnUse"><circle cx="4" cy="4" r="3" fill="${light ? d : WHITE}"/><circle cx="11" cy="11" r="3" fill="${light ? d : WHITE}"/></pattern>`
        : "";
  const copies = layout.at
    .map(
      ([x, y]) => `<g transform="translate(${r1(x - 50 * layout.scale)} ${r1(y - 50 * layout.scale)}) scale(${layout.scale})">${one}</g>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${defs ? `<defs>${defs}</defs>` : ""}${copies}</svg>`;
}

/** "two blue striped cats with hats". */
function pictureName(subject: Subject, colour: ColourName, count: number, pattern: Pattern, hat: boolean): string {
  const words = [
    COUNT_WORDS[count],
    colour,
    pattern === "stripes" ? "striped" : pattern === "dots" ? "spotted" : "",
    count > 1 ? subject.plural : subject.name,
    hat ? (count > 1 ? "with hats" : "with a hat") : "",
  ];
  const name = words.filter(Boolean).join(" ");
  return count === 1 ? `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}` : name;
}

/** The counts of a subject's 4 variants, rotated from subject to subject: two singles, a pair and a trio. */
const COUNTS = [1, 2, 1, 3];
const PATTERNS: Pattern[] = ["plain", "stripes", "dots", "plain"];

function generate(): Picture[] {
  const out: Picture[] = [];
  SUBJECTS.forEach((s, i) => {
    s.colours.forEach((colour, v) => {
      const count = COUNTS[(v + i) % 4];
      const pattern = s.patterned ? PATTERNS[(v + 2 * i + 1) % 4] : "plain";
      // Two variants of a subject that may wear one; spread over the counts, not tied to one.
      const hat = s.hat !== undefined && (v + i + 1 + (i >> 1)) % 2 === 0;
      const tags = [s.kind, ...s.features, colour, pattern, count > 1 ? "several" : "one"];
      if (hat) tags.push("hat");
      out.push({
        id: out.length,
        name: pictureName(s, colour, count, pattern, hat),
        subject: s.name,
        colour,
        count,
        pattern,
        hat,
        tags,
        svg: pictureSvg(s, colour, count, pattern, hat),
      });
    });
  });
  return out;
}

/** The 100 pictures: the box's images. */
export const PICTURES: readonly Picture[] = generate();

/** What the page needs of every picture. */
export function pictureList(): { id: number; name: string; svg: string }[] {
  return PICTURES.map((p) => ({ id: p.id, name: p.name, svg: p.svg }));
}

/** `n` distinct picture ids drawn at random (a partial Fisher-Yates shuffle), `random` giving floats in [0, 1). */
export function drawPictures(n: number, random: () => number): number[] {
  const ids = PICTURES.map((p) => p.id);
  if (!(n >= 0 && n <= ids.length)) throw new Error(`cannot draw ${n} of ${ids.length} pictures`);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids.slice(0, n);
}

// ---------------------------------------------------------------- dealing a set for every game

/** One game's cards: picture ids in card order (card = row * grid + column), fixed for the whole game. */
export interface Deal {
  /** Counts the games dealt (1, 2, ...), so the page knows when the cards changed. */
  game: number;
  grid: number;
  pictures: number[];
}

/**
 * The firmware's saved state (firmware/ui/app.ts snapshot()), as far as the cards need it: the
 * screen, and the Brain Flip game in it (null when there is none).
 */
export interface Saved {
  screen: string;
  flip: {
    grid: number;
    /** A game as newFlipGame() makes it: round 1, no card picked, nothing asked, no points. */
    atStart: boolean;
    /** The game's whole saved state as text: equal text, the same game in the same state. */
    text: string;
  } | null;
}

/** The names of the firmware's save slots (firmware/device/store.ts). */
const SAVE_SLOTS = ["bb.s0", "bb.s1"];

/**
 * Reads a snapshot as saved (the save format's short keys, firmware/save-format.ts; an unminified
 * bundle saves the source's names, which read the same); null when it is not one.
 */
export function decodeSaved(saved: unknown): Saved | null {
  if (!saved || typeof saved !== "object") return null;
  const data = expandKeys(saved);
  const get = (o: unknown, name: string): unknown => (o && typeof o === "object" ? (o as Record<string, unknown>)[name] : undefined);
  const screen = get(data, "screen");
  if (typeof screen !== "string") return null;
  const game = get(data, "flip");
  const grid = get(get(game, "config"), "grid");
  if (!game || typeof grid !== "number") return { screen, flip: null };
  const round = get(game, "round");
  const scores = get(game, "scores");
  const log = get(round, "log");
  const atStart =
    get(game, "rounds") === 1 &&
    get(game, "over") === false &&
    get(round, "phase") === FLIP_PICK &&
    get(round, "asked") === 0 &&
    Array.isArray(log) &&
    log.length === 0 &&
    Array.isArray(scores) &&
    scores.every((v) => v === 0);
  return { screen, flip: { grid, atStart, text: JSON.stringify(game) } };
}

/**
 * The unit's latest complete save, read as the firmware reads it at boot (firmware/device/store.ts with
 * the save format's decoder: the valid copy with the highest sequence), with its text.
 */
export function readSaved(storage: Pick<VirtualStorage, "readString">): { text: string; saved: Saved } | null {
  let best: { seq: number; text: string; saved: Saved } | null = null;
  for (const name of SAVE_SLOTS) {
    const text = storage.readString(name);
    if (text === undefined) continue;
    const slot = decodeSlot(text, saveCrc);
    if (typeof slot === "string") continue;
    const saved = decodeSaved(slot.data);
    if (saved && (!best || slot.seq > best.seq)) best = { seq: slot.seq, text, saved };
  }
  return best && { text: best.text, saved: best.saved };
}

/** Do the pad's LEDs look like the Brain Flip screen: the cards cyan (in play), off (out or dark) or green (the picked card's blink)? */
export function padShowsCards(pad: string[], grid: number): boolean {
  for (let c = 0; c < grid * grid; c++) {
    const colour = pad[Math.floor(c / grid) * 6 + (c % grid)];
    if (colour !== "cyan" && colour !== "off" && colour !== "green") return false;
  }
  return true;
}

/**
 * Deals the pictures for each Brain Flip game the firmware starts, by watching its saves (the
 * firmware saves its state after every committed action, so every start of a game is saved at once).
 *
 * The signal: a save showing the Brain Flip screen with a game at its very start (round 1, no card
 * picked, nothing asked, no points: only newFlipGame() makes that) that differs from the game of
 * the save before. A game that was started and left to the menu before the pick saves the same
 * state when it is resumed and when a new game is started with the same settings; the key tells
 * them apart: the menu's OK key (a new game) is held while the firmware saves, its resume key is not.
 * The cards then stay the same through every round and every power cycle of that game.
 */
export class PictureDeal {
  deal: Deal | null = null;
  /** The screen of the latest save ("menu", "play", "flip"...). */
  screen = "menu";
  private lastFlip: string | null = null;
  private games = 0;

  /** `random(game)` gives the random numbers for game number `game`. */
  constructor(private readonly random: (game: number) => () => number) {}

  /**
   * Starts from the unit's saved state as it is when the simulator starts: a Brain Flip game in
   * it keeps `kept` (the cards it had before a restart) when they fit its grid, or gets a new deal.
   */
  start(saved: Saved | null, kept: Deal | null = null): void {
    this.screen = saved?.screen ?? "menu";
    this.lastFlip = saved?.flip?.text ?? null;
    this.games = kept?.game ?? 0;
    const flip = saved?.flip;
    if (!flip) return;
    const grid = flip.grid;
    if (kept && kept.grid === grid && kept.pictures.length === grid * grid) this.deal = kept;
    else this.dealNew(grid);
  }

  /** One save of the firmware; `okHeld`: the menu's OK key is down as it saves. Returns true when a new game was dealt. */
  saw(saved: Saved, okHeld: boolean): boolean {
    const flip = saved.flip;
    const json = flip?.text ?? null;
    const from = this.screen;
    this.screen = saved.screen;
    let dealt = false;
    if (flip && saved.screen === "flip") {
      const grid = flip.grid;
      const fresh = flip.atStart && (json !== this.lastFlip || (okHeld && from !== "flip"));
      if (fresh || !this.deal || this.deal.grid !== grid) {
        this.dealNew(grid);
        dealt = true;
      }
    }
    this.lastFlip = json;
    return dealt;
  }

  private dealNew(grid: number): void {
    const game = ++this.games;
    this.deal = { game, grid, pictures: drawPictures(grid * grid, this.random(game)) };
  }
}
