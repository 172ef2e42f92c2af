/**
 * The 25 subjects of Brain Flip's picture cards (see pictures.ts): how each is drawn, in any colour,
 * and what a question could be about (its tags). Data and small SVG helpers only.
 */
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
export const INK = "#2b2733";
export const CARD = "#fdf8ec";
export const GLASS = "#bfe4f7";
export const LEAF = "#4cb050";
export const WOOD = "#8a5a3b";
export const FLAME = "#f7962f";
export const WHITE = "#ffffff";

/** How a subject's picture is painted: the colours of this variant and helpers for outlined shapes. */
export interface Paint {
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

export interface Subject {
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

export const r1 = (v: number) => Math.round(v * 10) / 10;
export const polar = (cx: number, cy: number, r: number, deg: number) => {
  const a = (deg * Math.PI) / 180;
  return `${r1(cx + r * Math.cos(a))},${r1(cy + r * Math.sin(a))}`;
};

export const SUBJECTS: Subject[] = [
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
