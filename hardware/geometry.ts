/**
 * Where everything sits on the unit, in millimetres, derived from the profile alone (the profile has
 * no geometry): every LED hole and key centre lies on a 10 mm grid. The page draws from this.
 *
 *   top (the codemaker's side)   the shield: the secret's LEDs over the code columns, the codemaker pad
 *                                the track's top stretch
 *   middle                       the board: row N at the top ... row 1 at the bottom, nearest the
 *                                codebreaker; code holes, the row number, the row's key pixels; the
 *                                track runs up the left side, across the top and down the right side
 *                                the 6x6 pad beside the board, one key every 2 grid steps, its LED under the cap
 *   bottom                       the status LEDs and the maker's mark
 *
 * Grid columns (P = pegs): track 1, code holes 2..P+1, row numbers P+2, key pixels P+3..2P+2,
 * track 2P+3, pad keys from 2P+6 every 2 steps.
 */
import { keyList, type KeyInfo, type Profile, type SegmentName } from "./profile.ts";
import { PEG_NAMES, PALETTE_RGB, COLOUR_NAMES } from "../firmware/ui/palette.ts";
import { keyAliases, keyboardShortcuts } from "./key-names.ts";

/** mm between neighbouring grid points. */
export const PITCH = 10;

export type LedKind = "peg" | "keypeg" | "secret" | "track" | "status";

export interface LedPlace {
  segment: SegmentName;
  index: number;
  kind: LedKind;
  /** Centre and diameter of the hole, mm. */
  x: number;
  y: number;
  d: number;
  title: string;
}

export interface KeyPlace {
  id: string;
  matrix: string;
  /** Centre and cap size (square), mm. */
  x: number;
  y: number;
  size: number;
  /** Printed on the cap: a main word and an optional second line. */
  legend: string;
  sublegend: string;
  /** A colour dot printed on the cap (codemaker colour keys), as CSS rgb(). */
  dot?: string;
  /** The profile's legend, for the tooltip. */
  title: string;
  aliases: string[];
  /** Keyboard shortcuts, as the page's combos ("1", "q", "Enter", "Shift+1"). */
  shortcuts: string[];
  /** The LED under the cap (pad keys): index in the pad segment. */
  padLed?: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TextPlace {
  text: string;
  x: number;
  y: number;
  /** Cap height, mm. */
  size: number;
  anchor: "start" | "middle" | "end";
  kind: "row" | "label" | "brand" | "model";
}

export interface UnitGeometry {
  id: string;
  name: string;
  pegs: number;
  rows: number;
  pitch: number;
  width: number;
  height: number;
  leds: LedPlace[];
  keys: KeyPlace[];
  /** Recessed areas of the top plate: the board, the pad, the codemaker's corner. */
  wells: (Rect & { kind: "board" | "pad" | "maker" | "status" })[];
  /** What the codemaker's shield covers (the secret and the codemaker pad), if the build has one. */
  shield?: Rect;
  texts: TextPlace[];
}

/** The maker pad's roles, in the order a key's main legend is chosen. */
const MAKER_ROLES = ["ok", "undo", "exact", "near", "blank", "yes", "no"] as const;

/** The unit's layout for a profile; `keyInfo`: its keys as keyList numbers them, when worked out already. */
export function unitGeometry(p: Profile, keyInfo: KeyInfo[] = keyList(p)): UnitGeometry {
  const P = p.pegs;
  const R = p.rows;
  const seg = (name: SegmentName) => p.leds.segments.find((s) => s.name === name);
  const g = (v: number) => v * PITCH;
  const leds: LedPlace[] = [];
  const keys: KeyPlace[] = [];
  const texts: TextPlace[] = [];
  const wells: UnitGeometry["wells"] = [];
  const led = (segment: SegmentName, index: number, kind: LedKind, gx: number, gy: number, d: number, title: string) =>
    leds.push({ segment, index, kind, x: g(gx), y: g(gy), d, title });

  const maker = p.keys.matrices.find((m) => m.name !== "pad" && keyInfo.some((k) => k.matrix === m.name));
  const secret = seg("secret");
  const track = seg("track");
  const hasShieldZone = !!(maker || secret);
  const makerRows = maker ? maker.keys.length : 1;
  // Grid rows: the shield zone (codemaker pad rows every 2 steps), the track's top stretch, the board.
  const shieldTop = 1;
  const shieldBottom = hasShieldZone ? shieldTop + 2 * makerRows : 0;
  const trackTopRow = hasShieldZone ? shieldBottom + 1 : 1;
  const boardTop = trackTopRow + 1; // grid row of board row R
  const rowY = (r: number) => boardTop + (R - r); // board row r (1..R)
  const codeX = (i: number) => 2 + i;
  const keyPegX = (i: number) => P + 3 + i;
  const rightTrackX = 2 * P + 3;
  const padX0 = 2 * P + 6;
  const padY0 = boardTop + Math.max(0, Math.floor((R - 11) / 2)); // the pad's 6 keys x 2 steps beside the board

  // The board: code holes and key pixels, row by row.
  for (let r = 1; r <= R; r++) {
    for (let i = 0; i < P; i++) {
      led("board", (r - 1) * P + i, "peg", codeX(i), rowY(r), 6, `board row ${r}, hole ${i + 1}`);
      led("keys", (r - 1) * P + i, "keypeg", keyPegX(i), rowY(r), 3.6, `key pegs of row ${r}, pixel ${i + 1}`);
    }
    texts.push({ text: String(r), x: g(P + 2), y: g(rowY(r)), size: 2.6, anchor: "middle", kind: "row" });
  }
  wells.push({ kind: "board", x: g(1.45), y: g(boardTop - 0.55), w: g(2 * P + 1.1), h: g(R - 1 + 1.1) });

  // The track: up the left side from row 1, across the top, down the right side.
  if (track) {
    const n = track.count;
    const side = Math.min(R, Math.floor(n / 2));
    const top = n - 2 * side;
    const inner = 2 * P + 1; // grid columns between the two sides
    const step = top > 1 ? Math.max(1, Math.min(2, Math.floor((inner - 1) / (top - 1)))) : 1;
    const x0 = 2 + (inner - 1 - step * (top - 1)) / 2;
    for (let i = 0; i < n; i++) {
      let gx: number;
      let gy: number;
      if (i < side) [gx, gy] = [1, rowY(1) - i];
      else if (i < side + top) [gx, gy] = [x0 + step * (i - side), trackTopRow];
      else [gx, gy] = [rightTrackX, rowY(R) + (i - side - top)];
      led("track", i, "track", gx, gy, 4.2, `track hole ${i + 1}`);
    }
  }

  // The codemaker's corner: the secret over the code columns, the codemaker pad over the main pad.
  let shield: Rect | undefined;
  if (hasShieldZone) {
    const midY = shieldTop + makerRows; // the middle of the shield zone
    if (secret) {
      for (let i = 0; i < secret.count; i++) led("secret", i, "secret", codeX(i), midY, 6, `secret, hole ${i + 1}`);
      texts.push({ text: "SECRET", x: g(codeX(0)) - 3, y: g(midY - 1), size: 2.6, anchor: "start", kind: "label" });
    }
    if (maker) {
      const cols = maker.colPins.length;
      const mx0 = padX0 + 5 - (cols - 1); // centred over the main pad
      const mk = p.keymap.maker;
      maker.keys.forEach((row, r) =>
        row.forEach((id, c) => {
          if (!id) return;
          let legend = "";
          let sub = "";
          let dot: string | undefined;
          const colour = mk ? mk.colours.indexOf(id) : -1;
          if (colour >= 0) {
            legend = String(colour + 1);
            sub = PEG_NAMES[colour];
            dot = pegCss(colour);
          } else if (mk) {
            const roles = MAKER_ROLES.filter((role) => mk[role] === id);
            legend = roles[0] ?? "";
            sub = roles.slice(1).join(" · ");
          }
          keys.push(keyPlace(p, id, maker.name, g(mx0 + 2 * c), g(shieldTop + 1 + 2 * r), 14, legend, sub, dot));
        }),
      );
      wells.push({ kind: "maker", x: g(mx0 - 1), y: g(shieldTop), w: g(2 * cols), h: g(2 * makerRows) });
    }
    shield = { x: g(1.2), y: g(shieldTop - 0.4), w: g(padX0 + 11 - 1.2 + 0.2), h: g(2 * makerRows + 0.8) };
    if (maker) {
      const mx0 = padX0 + 5 - (maker.colPins.length - 1);
      texts.push({ text: "CODEMAKER", x: g(mx0 - 1.5), y: g(midY), size: 2.6, anchor: "end", kind: "label" });
    }
  }

  // The 6x6 pad, keys in reading order (keymap.grid), each with its LED.
  const aliasOf = new Map<string, string[]>();
  for (const a of keyAliases(p)) aliasOf.set(a.id, [...(aliasOf.get(a.id) ?? []), a.alias]);
  p.keymap.grid.forEach((id, gi) => {
    const r = Math.floor(gi / 6);
    const c = gi % 6;
    const names = (aliasOf.get(id) ?? []).filter((a) => !a.startsWith("maker."));
    const colour = PEG_NAMES.findIndex((n) => names.includes(n));
    let legend = "";
    if (colour >= 0) legend = String(colour + 1);
    else if (names.length) legend = names[0].replace(/^slot(\d+)$/, "slot $1");
    const k = keyPlace(p, id, keyInfo.find((x) => x.id === id)!.matrix, g(padX0 + 2 * c), g(padY0 + 2 * r), 16, legend, "", undefined);
    k.padLed = gi;
    keys.push(k);
  });
  wells.push({ kind: "pad", x: g(padX0 - 1), y: g(padY0 - 1), w: g(12), h: g(12) });

  // Status LEDs and the maker's mark, below the board.
  const bottomY = Math.max(rowY(1), padY0 + 10) + 2;
  const status = seg("status");
  if (status) {
    const about = statusNames(status.about, status.count);
    for (let i = 0; i < status.count; i++) led("status", i, "status", 2 + 2 * i, bottomY, 4.2, `status ${i + 1}: ${about[i]}`);
    texts.push({ text: "STATUS", x: g(2 + 2 * status.count) - 2, y: g(bottomY), size: 2.6, anchor: "start", kind: "label" });
  }
  texts.push({ text: "BRAINBOARD", x: g(padX0 + 11), y: g(bottomY) + 1, size: 5, anchor: "end", kind: "brand" });
  texts.push({ text: p.name, x: g(padX0 + 11), y: g(bottomY) + 6, size: 2.2, anchor: "end", kind: "model" });

  return {
    id: p.id,
    name: p.name,
    pegs: P,
    rows: R,
    pitch: PITCH,
    width: g(padX0 + 12),
    height: g(bottomY + 1.5),
    leds,
    keys,
    wells,
    shield,
    texts,
  };
}

function keyPlace(
  p: Profile,
  id: string,
  matrix: string,
  x: number,
  y: number,
  size: number,
  legend: string,
  sublegend: string,
  dot: string | undefined,
): KeyPlace {
  return {
    id,
    matrix,
    x,
    y,
    size,
    legend,
    sublegend,
    dot,
    title: `${id}: ${p.keys.legends[id] ?? ""}`,
    aliases: keyAliases(p)
      .filter((a) => a.id === id)
      .map((a) => a.alias),
    shortcuts: keyboardShortcuts(p)
      .filter((s) => s.id === id)
      .map((s) => s.combo),
  };
}

/** CSS colour of peg colour i (its palette RGB, as the eye should see it). */
function pegCss(i: number): string {
  const name = PEG_NAMES[i] === "black" ? "violet" : PEG_NAMES[i];
  const j = COLOUR_NAMES.indexOf(name);
  return `rgb(${PALETTE_RGB[3 * j]}, ${PALETTE_RGB[3 * j + 1]}, ${PALETTE_RGB[3 * j + 2]})`;
}

/** "1: whose turn / role, 2: alerts" -> ["whose turn / role", "alerts"]. */
function statusNames(about: string | undefined, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const m = about && new RegExp(`(?:^|,\\s*)${i + 1}:\\s*([^,]+)`).exec(about);
    out.push(m ? m[1].trim() : `LED ${i + 1}`);
  }
  return out;
}
