/**
 * Brain Flip's picture cards for the simulator page (RULES.md 4: 36 cards drawn at random from 100
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

export type Pattern = "plain" | "stripes" | "dots";

export interface Picture {
  /** 0..99, the index in PICTURES. */
  id: number;
  /** "two blue striped cats with hats". */
  name: string;
  subject: string;
  colour: ColourName;
  count: number;
  pattern: Pattern;
  hat: boolean;
  /** What a question could be about: the subject's kind and features (animal, wheels, round...). */
  tags: string[];
  /** A standalone SVG document. */
  svg: string;
}

/** The colours a picture's main part comes in: [fill, darker shade]. */
export const COLOURS = {
  red: ["#e8453c", "#a9281f"],
  orange: ["#f7962f", "#b65f12"],
  yellow: ["#f9d43a", "#b8900f"],
  green: ["#4cb050", "#2a7a2e"],
  blue: ["#3d86f0", "#1b4fb8"],
  purple: ["#9b5bd3", "#64309c"],
  pink: ["#f47cb3", "#c0437c"],
  brown: ["#a26d48", "#6b4328"],
  grey: ["#a3acb8", "#65707e"],
} as const;
export type ColourName = keyof typeof COLOURS;

/** The outline, the card, and the fixed colours of details (eyes, leaves, wheels...). */
const INK = "#2b2733";
const CARD = "#fdf8ec";
const GLASS = "#bfe4f7";
const LEAF = "#4cb050";
const WOOD = "#8a5a3b";
const FLAME = "#f7962f";
const WHITE = "#ffffff";

/** How a subject's picture is painted: the colours of this variant and helpers for outlined shapes. */
interface Paint {
  colour: ColourName;
  c: string;
  d: string;
  /** Outline width for this copy (copies drawn smaller get thicker lines, so all look alike). */
  sw: number;
  /** An outlined shape in the main colour, with the variant's pattern over it: `el` is an element without fill (e.g. `<circle cx="50" cy="50" r="20"`). */
  body(el: string): string;
  /** An outlined shape in a given fill. */
  shape(el: string, fill: string): string;
  /** An outlined stroke (a line or a path drawn as a thick line) of colour `colour` and width `w`. */
  line(d: string, colour: string, w: number): string;
}

interface Subject {
  name: string;
  plural: string;
  kind: "animal" | "vehicle" | "food" | "sky" | "plant" | "thing";
  /** Features a question could ask about, besides the kind. */
  features: string[];
  /** The 4 colours of its 4 variants. */
  colours: [ColourName, ColourName, ColourName, ColourName];
  /** Takes stripes and dots on its body. */
  patterned: boolean;
  /** Where a top hat sits (base centre and tilt), for subjects that may wear one. */
  hat?: [number, number, number];
  draw(p: Paint): string;
}

const r1 = (v: number) => Math.round(v * 10) / 10;
const polar = (cx: number, cy: number, r: number, deg: number) => {
  const a = (deg * Math.PI) / 180;
  return `${r1(cx + r * Math.cos(a))},${r1(cy + r * Math.sin(a))}`;
};

const SUBJECTS: Subject[] = [
  {
    name: "sun",
    plural: "suns",
    kind: "sky",
    features: ["round", "face", "hot"],
    colours: ["yellow", "orange", "red", "pink"],
    patterned: false,
    hat: [50, 30, -10],
    draw: (p) => {
      let rays = "";
      for (let k = 0; k < 8; k++) {
        const a = k * 45 + 22.5;
        rays += p.shape(`<polygon points="${polar(50, 52, 29, a - 13)} ${polar(50, 52, 45, a)} ${polar(50, 52, 29, a + 13)}"`, p.c);
      }
      return (
        rays +
        p.body(`<circle cx="50" cy="52" r="24"`) +
        `<circle cx="42" cy="48" r="3" fill="${INK}"/><circle cx="58" cy="48" r="3" fill="${INK}"/>` +
        `<path d="M41 58 Q50 66 59 58" fill="none" stroke="${INK}" stroke-width="${p.sw}" stroke-linecap="round"/>`
      );
    },
  },
  {
    name: "moon",
    plural: "moons",
    kind: "sky",
    features: ["night"],
    colours: ["yellow", "blue", "purple", "grey"],
    patterned: false,
    draw: (p) =>
      p.body(`<path d="M62 12 A38 38 0 1 0 88 66 A30 30 0 0 1 62 12 Z"`) +
      `<circle cx="44" cy="44" r="3" fill="${INK}"/>` +
      `<path d="M34 60 Q40 64 46 60" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.8}" stroke-linecap="round"/>`,
  },
  {
    name: "star",
    plural: "stars",
    kind: "sky",
    features: ["pointed"],
    colours: ["yellow", "red", "blue", "green"],
    patterned: true,
    draw: (p) => {
      const pts: string[] = [];
      for (let k = 0; k < 10; k++) pts.push(polar(50, 54, k % 2 ? 19 : 43, -90 + k * 36));
      return p.body(`<polygon points="${pts.join(" ")}"`);
    },
  },
  {
    name: "cloud",
    plural: "clouds",
    kind: "sky",
    features: ["weather"],
    colours: ["blue", "grey", "pink", "purple"],
    patterned: true,
    draw: (p) => p.body(`<path d="M24 74 C10 74 6 56 20 50 C18 34 36 26 46 36 C52 20 76 22 78 40 C92 40 96 58 86 66 C84 74 78 74 74 74 Z"`),
  },
  {
    name: "heart",
    plural: "hearts",
    kind: "thing",
    features: ["love"],
    colours: ["red", "pink", "purple", "green"],
    patterned: true,
    draw: (p) => p.body(`<path d="M50 88 C22 68 10 52 12 36 C14 18 38 12 50 30 C62 12 86 18 88 36 C90 52 78 68 50 88 Z"`),
  },
  {
    name: "flower",
    plural: "flowers",
    kind: "plant",
    features: ["leaf", "grows"],
    colours: ["red", "pink", "blue", "yellow"],
    patterned: false,
    draw: (p) => {
      let petals = "";
      for (let k = 0; k < 6; k++) {
        const [x, y] = polar(50, 38, 19, k * 60 - 90).split(",");
        petals += p.shape(`<circle cx="${x}" cy="${y}" r="13"`, p.c);
      }
      return (
        p.line("M50 54 L50 94", LEAF, 6) +
        p.shape(`<ellipse cx="63" cy="80" rx="12" ry="6" transform="rotate(-30 63 80)"`, LEAF) +
        petals +
        p.shape(`<circle cx="50" cy="38" r="11"`, p.colour === "yellow" ? COLOURS.orange[0] : COLOURS.yellow[0])
      );
    },
  },
  {
    name: "tree",
    plural: "trees",
    kind: "plant",
    features: ["leaf", "grows", "wood"],
    colours: ["green", "orange", "pink", "yellow"],
    patterned: true,
    draw: (p) =>
      p.shape(`<path d="M43 60 L57 60 L59 92 L41 92 Z"`, WOOD) +
      p.body(`<path d="M28 66 C8 66 8 40 24 36 C22 16 46 6 58 16 C74 10 92 26 84 42 C96 54 84 72 68 66 C60 74 38 74 28 66 Z"`),
  },
  {
    name: "house",
    plural: "houses",
    kind: "thing",
    features: ["door", "window", "building"],
    colours: ["red", "blue", "yellow", "green"],
    patterned: true,
    draw: (p) =>
      p.body(`<rect x="22" y="46" width="56" height="42"`) +
      p.shape(`<polygon points="12,50 50,14 88,50"`, p.d) +
      p.shape(`<rect x="54" y="62" width="14" height="26"`, WOOD) +
      p.shape(`<rect x="30" y="58" width="15" height="14"`, GLASS) +
      `<path d="M37.5 58 V72 M30 65 H45" stroke="${INK}" stroke-width="${p.sw * 0.6}"/>`,
  },
  {
    name: "car",
    plural: "cars",
    kind: "vehicle",
    features: ["wheels", "window"],
    colours: ["red", "blue", "green", "yellow"],
    patterned: true,
    draw: (p) =>
      p.body(`<path d="M8 68 L8 54 Q8 46 18 45 L30 44 L38 30 Q40 26 46 26 L66 26 Q71 26 74 30 L84 44 Q92 46 92 54 L92 68 Z"`) +
      p.shape(`<path d="M41 42 L46 31 L56 31 L56 42 Z"`, GLASS) +
      p.shape(`<path d="M61 42 L61 31 L69 31 L76 42 Z"`, GLASS) +
      p.shape(`<circle cx="28" cy="69" r="11"`, INK) +
      p.shape(`<circle cx="72" cy="69" r="11"`, INK) +
      `<circle cx="28" cy="69" r="4.5" fill="#d5dae1"/><circle cx="72" cy="69" r="4.5" fill="#d5dae1"/>`,
  },
  {
    name: "bicycle",
    plural: "bicycles",
    kind: "vehicle",
    features: ["wheels"],
    colours: ["red", "blue", "green", "orange"],
    patterned: false,
    draw: (p) =>
      `<circle cx="24" cy="66" r="17" fill="none" stroke="${INK}" stroke-width="${p.sw * 1.4}"/>` +
      `<circle cx="76" cy="66" r="17" fill="none" stroke="${INK}" stroke-width="${p.sw * 1.4}"/>` +
      p.line("M24 66 L42 40 L68 40 L76 66 M42 40 L50 66 L24 66 M50 66 L68 40", p.c, 6) +
      p.line("M68 40 L64 26 L74 24", INK, 3) +
      p.line("M36 32 L50 32", INK, 4) +
      `<circle cx="24" cy="66" r="3.5" fill="${INK}"/><circle cx="76" cy="66" r="3.5" fill="${INK}"/>`,
  },
  {
    name: "boat",
    plural: "boats",
    kind: "vehicle",
    features: ["water", "sail"],
    colours: ["red", "blue", "brown", "yellow"],
    patterned: true,
    draw: (p) =>
      p.line("M48 12 L48 62", INK, 1.5) +
      p.shape(`<polygon points="52,14 52,56 84,56"`, WHITE) +
      p.shape(`<polygon points="44,22 44,56 20,56"`, WHITE) +
      p.body(`<path d="M8 60 L92 60 L78 80 L22 80 Z"`) +
      `<path d="M4 90 Q14 84 24 90 T44 90 T64 90 T84 90 T104 90" fill="none" stroke="${COLOURS.blue[0]}" stroke-width="${p.sw * 1.2}" stroke-linecap="round"/>`,
  },
  {
    name: "rocket",
    plural: "rockets",
    kind: "vehicle",
    features: ["flies", "window", "hot"],
    colours: ["grey", "red", "blue", "purple"],
    patterned: true,
    draw: (p) =>
      p.shape(`<path d="M42 72 L50 96 L58 72 Z"`, FLAME) +
      p.shape(`<polygon points="37,52 20,78 38,72"`, p.d) +
      p.shape(`<polygon points="63,52 80,78 62,72"`, p.d) +
      p.body(`<path d="M50 6 C68 22 68 48 63 74 L37 74 C32 48 32 22 50 6 Z"`) +
      p.shape(`<circle cx="50" cy="38" r="8"`, GLASS),
  },
  {
    name: "fish",
    plural: "fish",
    kind: "animal",
    features: ["water", "face", "tail"],
    colours: ["orange", "blue", "green", "pink"],
    patterned: true,
    hat: [38, 35, -8],
    draw: (p) =>
      p.shape(`<polygon points="70,50 94,32 94,68"`, p.c) +
      p.body(`<ellipse cx="44" cy="52" rx="32" ry="21"`) +
      p.shape(`<path d="M40 52 Q50 46 56 56 Q48 62 40 52 Z"`, p.d) +
      p.shape(`<circle cx="27" cy="47" r="5.5"`, WHITE) +
      `<circle cx="26" cy="47" r="2.6" fill="${INK}"/>` +
      `<path d="M13 56 Q17 58 20 56" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.7}" stroke-linecap="round"/>`,
  },
  {
    name: "cat",
    plural: "cats",
    kind: "animal",
    features: ["face", "ears", "whiskers"],
    colours: ["orange", "grey", "brown", "purple"],
    patterned: true,
    hat: [50, 30, -10],
    draw: (p) =>
      p.shape(`<polygon points="20,46 24,10 48,30"`, p.c) +
      p.shape(`<polygon points="80,46 76,10 52,30"`, p.c) +
      `<polygon points="26,36 28,20 38,30" fill="${COLOURS.pink[0]}"/><polygon points="74,36 72,20 62,30" fill="${COLOURS.pink[0]}"/>` +
      p.body(`<ellipse cx="50" cy="56" rx="34" ry="29"`) +
      `<ellipse cx="38" cy="52" rx="4" ry="6" fill="${INK}"/><ellipse cx="62" cy="52" rx="4" ry="6" fill="${INK}"/>` +
      `<polygon points="45,63 55,63 50,69" fill="${COLOURS.pink[0]}" stroke="${INK}" stroke-width="${p.sw * 0.5}" stroke-linejoin="round"/>` +
      `<path d="M30 64 L8 60 M30 69 L8 72 M70 64 L92 60 M70 69 L92 72 M44 74 Q50 78 56 74" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.55}" stroke-linecap="round"/>`,
  },
  {
    name: "dog",
    plural: "dogs",
    kind: "animal",
    features: ["face", "ears"],
    colours: ["brown", "yellow", "grey", "orange"],
    patterned: true,
    hat: [50, 26, 10],
    draw: (p) =>
      p.body(`<ellipse cx="50" cy="54" rx="29" ry="30"`) +
      p.shape(`<ellipse cx="20" cy="50" rx="10" ry="21" transform="rotate(18 20 50)"`, p.d) +
      p.shape(`<ellipse cx="80" cy="50" rx="10" ry="21" transform="rotate(-18 80 50)"`, p.d) +
      p.shape(`<ellipse cx="50" cy="70" rx="15" ry="11"`, "#f5e8d4") +
      `<ellipse cx="50" cy="64" rx="6.5" ry="4.5" fill="${INK}"/>` +
      `<circle cx="39" cy="48" r="4" fill="${INK}"/><circle cx="61" cy="48" r="4" fill="${INK}"/>` +
      `<path d="M50 68 L50 73 M44 74 Q50 78 56 74" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.6}" stroke-linecap="round"/>`,
  },
  {
    name: "bird",
    plural: "birds",
    kind: "animal",
    features: ["flies", "face", "wings", "beak", "tail"],
    colours: ["blue", "red", "yellow", "green"],
    patterned: true,
    hat: [54, 30, 8],
    draw: (p) =>
      p.line("M42 80 L40 93 M54 80 L56 93", FLAME, 2) +
      p.shape(`<polygon points="24,54 6,42 10,66"`, p.d) +
      p.shape(`<polygon points="72,46 90,54 72,62"`, FLAME) +
      p.body(`<circle cx="48" cy="56" r="27"`) +
      p.shape(`<path d="M30 58 Q44 48 58 58 Q46 74 30 58 Z"`, p.d) +
      `<circle cx="61" cy="47" r="4" fill="${INK}"/>`,
  },
  {
    name: "butterfly",
    plural: "butterflies",
    kind: "animal",
    features: ["flies", "wings"],
    colours: ["purple", "blue", "orange", "pink"],
    patterned: true,
    draw: (p) =>
      p.body(`<ellipse cx="29" cy="36" rx="21" ry="17" transform="rotate(-25 29 36)"`) +
      p.body(`<ellipse cx="71" cy="36" rx="21" ry="17" transform="rotate(25 71 36)"`) +
      p.body(`<ellipse cx="34" cy="68" rx="15" ry="13" transform="rotate(20 34 68)"`) +
      p.body(`<ellipse cx="66" cy="68" rx="15" ry="13" transform="rotate(-20 66 68)"`) +
      `<path d="M48 28 Q42 12 34 10 M52 28 Q58 12 66 10" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.7}" stroke-linecap="round"/>` +
      `<ellipse cx="50" cy="54" rx="5.5" ry="27" fill="${INK}"/>`,
  },
  {
    name: "apple",
    plural: "apples",
    kind: "food",
    features: ["round", "fruit", "leaf"],
    colours: ["red", "green", "yellow", "orange"],
    patterned: false,
    draw: (p) =>
      p.line("M50 32 Q50 20 57 12", WOOD, 4) +
      p.shape(`<ellipse cx="66" cy="22" rx="11" ry="5.5" transform="rotate(-28 66 22)"`, LEAF) +
      p.body(`<path d="M50 32 C36 22 12 26 14 52 C16 78 34 94 50 86 C66 94 84 78 86 52 C88 26 64 22 50 32 Z"`) +
      `<ellipse cx="30" cy="48" rx="5" ry="9" fill="${WHITE}" opacity="0.55" transform="rotate(20 30 48)"/>`,
  },
  {
    name: "ice cream",
    plural: "ice creams",
    kind: "food",
    features: ["cold", "sweet"],
    colours: ["pink", "brown", "green", "yellow"],
    patterned: true,
    draw: (p) =>
      p.shape(`<polygon points="30,50 70,50 50,96"`, "#e8b66c") +
      `<path d="M38 56 L58 78 M50 54 L64 68 M62 56 L42 78 M50 54 L36 68" stroke="#b98742" stroke-width="${p.sw * 0.6}"/>` +
      p.body(
        `<path d="M26 50 C18 44 22 26 34 24 C38 10 62 10 66 24 C78 26 82 44 74 50 C68 56 60 52 56 56 C50 60 44 54 38 56 C32 58 28 54 26 50 Z"`,
      ),
  },
  {
    name: "cup",
    plural: "cups",
    kind: "thing",
    features: ["handle", "hot", "kitchen"],
    colours: ["blue", "red", "green", "purple"],
    patterned: true,
    draw: (p) =>
      `<path d="M36 22 Q30 16 36 10 M50 22 Q44 16 50 10" fill="none" stroke="#9aa3ae" stroke-width="${p.sw}" stroke-linecap="round"/>` +
      p.line("M68 42 C90 40 90 74 66 72", p.c, 7) +
      p.body(`<path d="M16 30 L72 30 L67 84 Q66 90 60 90 L28 90 Q22 90 21 84 Z"`) +
      `<ellipse cx="44" cy="30" rx="28" ry="4" fill="${p.d}" stroke="${INK}" stroke-width="${p.sw * 0.7}"/>`,
  },
  {
    name: "umbrella",
    plural: "umbrellas",
    kind: "thing",
    features: ["handle", "weather"],
    colours: ["red", "purple", "blue", "yellow"],
    patterned: true,
    draw: (p) =>
      p.line("M50 50 L50 84 Q50 92 42 92 Q36 92 35 85", INK, 1.5) +
      p.line("M50 14 L50 7", INK, 1) +
      p.body(`<path d="M8 54 C10 30 28 14 50 14 C72 14 90 30 92 54 Q82 44 71 54 Q61 44 50 54 Q39 44 29 54 Q18 44 8 54 Z"`),
  },
  {
    name: "key",
    plural: "keys",
    kind: "thing",
    features: ["metal", "door"],
    colours: ["yellow", "grey", "orange", "blue"],
    patterned: false,
    draw: (p) =>
      p.body(`<path d="M40 44 L90 44 L90 56 L84 56 L84 66 L76 66 L76 56 L70 56 L70 64 L62 64 L62 56 L40 56 Z"`) +
      p.body(`<circle cx="28" cy="50" r="18"`) +
      `<circle cx="24" cy="50" r="6.5" fill="${CARD}" stroke="${INK}" stroke-width="${p.sw}"/>`,
  },
  {
    name: "clock",
    plural: "clocks",
    kind: "thing",
    features: ["round", "numbers", "time"],
    colours: ["red", "blue", "green", "orange"],
    patterned: false,
    draw: (p) => {
      let ticks = "";
      for (let k = 0; k < 12; k++) ticks += `M${polar(50, 52, 24, k * 30)} L${polar(50, 52, k % 3 ? 27 : 29, k * 30)} `;
      return (
        p.shape(`<circle cx="50" cy="52" r="40"`, p.c) +
        p.shape(`<circle cx="50" cy="52" r="31"`, WHITE) +
        `<path d="${ticks}" stroke="${INK}" stroke-width="${p.sw * 0.6}" stroke-linecap="round"/>` +
        `<path d="M50 52 L50 32 M50 52 L64 60" stroke="${INK}" stroke-width="${p.sw * 1.1}" stroke-linecap="round"/>` +
        `<circle cx="50" cy="52" r="3.5" fill="${p.d}"/>`
      );
    },
  },
  {
    name: "ball",
    plural: "balls",
    kind: "thing",
    features: ["round", "toy"],
    colours: ["red", "blue", "orange", "purple"],
    patterned: true,
    draw: (p) =>
      p.body(`<circle cx="50" cy="52" r="38"`) +
      `<path d="M24 24 Q44 52 24 80 M76 24 Q56 52 76 80" fill="none" stroke="${WHITE}" stroke-width="${p.sw * 1.3}" stroke-linecap="round"/>` +
      `<circle cx="50" cy="52" r="38" fill="none" stroke="${INK}" stroke-width="${p.sw}"/>`,
  },
  {
    name: "balloon",
    plural: "balloons",
    kind: "thing",
    features: ["flies", "toy", "string"],
    colours: ["red", "blue", "pink", "green"],
    patterned: true,
    draw: (p) =>
      `<path d="M50 80 Q42 86 50 92 Q56 96 50 99" fill="none" stroke="${INK}" stroke-width="${p.sw * 0.6}" stroke-linecap="round"/>` +
      p.shape(`<polygon points="45,80 55,80 50,72"`, p.c) +
      p.body(`<path d="M50 6 C72 6 84 24 82 42 C80 62 62 76 50 76 C38 76 20 62 18 42 C16 24 28 6 50 6 Z"`) +
      `<ellipse cx="36" cy="30" rx="5" ry="10" fill="${WHITE}" opacity="0.55" transform="rotate(25 36 30)"/>`,
  },
];

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
