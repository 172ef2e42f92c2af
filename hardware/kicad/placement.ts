/**
 * Where every part of a board sits, in mm, as a pure function of its profile: the PCB writer places footprints
 * from it and the printable case (hardware/case/) cuts its openings and clearances from it. Origin: the board's
 * top-left corner, x right, y down, seen from the top (the side the keys and LEDs are on). Rotations are in degrees,
 * counter-clockwise seen from the top (KiCad's sense).
 *
 *   y 0-33     the codemaker's corner, under the shield: the secret's LEDs over the code columns, the 3x4
 *              codemaker pad over the main pad; the Pico top right, its USB plug over the right edge
 *   y 35       the track's top stretch
 *   y 42-119   the board: row 12 at the top ... row 1 at the bottom (nearest the codebreaker), 5 code LEDs
 *              and 5 key-peg LEDs a row; the track runs up the left side and down the right side of it
 *   x 78-155   the 6x6 pad, keys at 13 mm, each key's LED in the gap above it, its diode in the gap beside
 *   x 156-190  the power, LED switch, data and buzzer parts; the charger module at the bottom right, its
 *              USB socket at the bottom edge
 *
 * The interface is stable: fields are added, never renamed.
 */
import { keyList, type Profile, type SegmentName } from "../profile.ts";
import { netlist, type BoardPart, type Netlist } from "./netlist.ts";

export type Side = "top" | "bottom";

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedPart {
  ref: string;
  /** KiCad footprint id, as in the netlist. */
  footprint: string;
  /** Centre of the part's body, mm. */
  x: number;
  y: number;
  /** Degrees, counter-clockwise seen from the top. */
  rotation: number;
  side: Side;
  /** The body's extent as placed (axis-aligned), mm: what the case must clear. */
  body: { w: number; h: number };
  /** How far the part stands above the board's top face (below the bottom face for a bottom part), mm. */
  height: number;
}

export interface KeyPlace extends PlacedPart {
  /** The profile's key id ("p11", "m34"). */
  id: string;
  matrix: string;
  /** The key's diode (its ref; the diode is also in `parts`). */
  diode: string;
  /** The actuator's size (square), mm: the case's hole for the cap's stem. */
  actuator: number;
}

export interface LedPlace extends PlacedPart {
  /** Position in the chain, 1-based (LED1 gets the data first). */
  chain: number;
  segment: SegmentName;
  /** Index within its segment, 0-based, as the firmware numbers it. */
  segmentIndex: number;
  /** Its decoupling capacitor (its ref; the capacitor is also in `parts`). */
  cap: string;
}

export interface Hole {
  x: number;
  y: number;
  /** Drill, mm (M3 clearance: 3.2). */
  drill: number;
  /** Keep-out diameter around it (the screw head and its washer), mm. */
  keepout: number;
}

export interface BoardPlacement {
  profileId: string;
  outline: { width: number; height: number; cornerRadius: number; thickness: number; copperLayers: number };
  holes: Hole[];
  keys: KeyPlace[];
  leds: LedPlace[];
  /** Every other part (diodes, capacitors, the Pico, the charger, ...). */
  parts: PlacedPart[];
  /** The Pico's USB plug: the centre of where it leaves the board, which edge, and its size where it crosses the edge. */
  usb: { ref: string; x: number; y: number; edge: "right"; width: number; height: number; overhang: number };
  /** The charger's USB socket, at an edge; absent without a battery. */
  chargerUsb?: { ref: string; x: number; y: number; edge: "bottom"; width: number; height: number };
  /** The power switch; its lever moves along `direction` and sticks out of the top of the case. */
  powerSwitch?: { ref: string; x: number; y: number; direction: "x" | "y"; travel: number; leverHeight: number };
  /** The opaque shield over the secret's LEDs and the codemaker pad. */
  shield: Rect;
  /** Where each group lies: the overlay's and the silkscreen's frames. */
  regions: { board: Rect; pad: Rect; maker: Rect; track: Rect };
  pitch: { codeHole: number; keyPeg: number; row: number; padKey: number; makerKeyX: number; makerKeyY: number };
}

/** Body size (at rotation 0), height above the board, and body centre relative to the footprint's origin. */
export interface FootprintBody {
  w: number;
  h: number;
  height: number;
  centre: [number, number];
}

/** The bodies of the footprints the boards use (KiCad library drawings and makers' datasheets). */
export const BODIES: Record<string, FootprintBody> = {
  "LED_SMD:LED_WS2812B-2020_PLCC4_2.0x2.0mm": { w: 2.2, h: 2.2, height: 0.9, centre: [0, 0] },
  "Capacitor_SMD:C_0805_2012Metric": { w: 2.0, h: 1.25, height: 1.25, centre: [0, 0] },
  "Resistor_SMD:R_0805_2012Metric": { w: 2.0, h: 1.25, height: 0.6, centre: [0, 0] },
  "Diode_SMD:D_SOD-123": { w: 3.7, h: 1.6, height: 1.35, centre: [0, 0] },
  "Button_Switch_THT:SW_PUSH_6mm_H5mm": { w: 6.0, h: 6.0, height: 5.0, centre: [3.25, 2.25] },
  "Package_TO_SOT_SMD:SOT-23": { w: 2.9, h: 2.4, height: 1.1, centre: [0, 0] },
  "Package_TO_SOT_SMD:SOT-23-5": { w: 2.9, h: 2.8, height: 1.45, centre: [0, 0] },
  "Fuse:Fuse_1812_4532Metric": { w: 4.5, h: 3.2, height: 1.0, centre: [0, 0] },
  "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm": { w: 6.3, h: 6.3, height: 11.5, centre: [1.25, 0] },
  "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm": { w: 12.2, h: 12.2, height: 6.5, centre: [2.5, 0] },
  "Button_Switch_THT:SW_Slide_SPDT_Straight_CK_OS102011MS2Q": { w: 8.6, h: 4.3, height: 9.5, centre: [2, 0] },
  "Brainboard:Espruino_Pico": { w: 33, h: 15.2, height: 13.5, centre: [4.4, 0] },
  "Brainboard:Adafruit_PowerBoost_1000C": { w: 22.9, h: 36.2, height: 14, centre: [0, 16.7] },
  // Earlier catalogue choices, kept so a netlist that still names them places (they do not fit the pitches above).
  "Button_Switch_Keyboard:SW_Cherry_MX_1.00u_PCB": { w: 15.6, h: 15.6, height: 11.6, centre: [-2.54, 5.08] },
  "Button_Switch_THT:SW_PUSH-12mm": { w: 12, h: 12, height: 7.3, centre: [6.25, 2.5] },
  "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm": { w: 5, h: 5, height: 1.6, centre: [0, 0] },
};

export const BOARD_W = 190;
export const BOARD_H = 130;

const CODE_X0 = 12;
const CODE_PITCH = 7;
const PEG_X0 = 46;
const PEG_PITCH = 4.5;
const ROW_PITCH = 7;
const ROW1_Y = 119;
const TRACK_LEFT_X = 5;
const TRACK_RIGHT_X = 70;
const TRACK_TOP_Y = 35;
const SECRET_Y = 18;
const PAD_X0 = 84;
const PAD_Y0 = 56;
const PAD_PITCH = 13;
const MAKER_X0 = 97.75;
const MAKER_Y0 = 8;
const MAKER_PITCH_X = 12.5;
const MAKER_PITCH_Y = 10;
/** The Pico: the middle of its long-edge pin field, USB towards +x; its body runs from -12.1 to +20.9 along x. */
/** Where the Pico's board ends and its USB tongue begins, from the middle of its pin field: at the board's edge. */
const PICO_TONGUE_FROM = 11.5;
const PICO_X = BOARD_W - PICO_TONGUE_FROM;
const PICO_Y = 14;
/** The misc parts' area: right of the pad, below the Pico, above the charger. */
const MISC: Rect = { x: 158, y: 29, w: 31, h: 60 };

function bodyOf(footprint: string): FootprintBody {
  const b = BODIES[footprint];
  if (!b) throw new Error(`placement: no body size for footprint ${footprint} (add it to BODIES in hardware/kicad/placement.ts)`);
  return b;
}

function placed(part: BoardPart, x: number, y: number, rotation = 0, side: Side = "top"): PlacedPart {
  const b = bodyOf(part.footprint);
  const turned = rotation % 180 !== 0;
  return {
    ref: part.ref,
    footprint: part.footprint,
    x: round(x),
    y: round(y),
    rotation,
    side,
    body: { w: turned ? b.h : b.w, h: turned ? b.w : b.h },
    height: b.height,
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** The LED positions of each segment, in segment order. */
function ledSpots(p: Profile): Record<SegmentName, [number, number][]> {
  const seg = (n: SegmentName) => p.leds.segments.find((s) => s.name === n);
  const rowY = (r: number) => ROW1_Y - ROW_PITCH * (r - 1);
  const out = { board: [], keys: [], secret: [], pad: [], track: [], status: [] } as Record<SegmentName, [number, number][]>;
  for (let r = 1; r <= p.rows; r++)
    for (let i = 0; i < p.pegs; i++) {
      out.board.push([CODE_X0 + CODE_PITCH * i, rowY(r)]);
      out.keys.push([PEG_X0 + PEG_PITCH * i, rowY(r)]);
    }
  for (let i = 0; i < (seg("secret")?.count ?? 0); i++) out.secret.push([CODE_X0 + CODE_PITCH * i, SECRET_Y]);
  p.keymap.grid.forEach((_, gi) => out.pad.push([PAD_X0 + PAD_PITCH * (gi % 6), PAD_Y0 + PAD_PITCH * Math.floor(gi / 6) - PAD_PITCH / 2]));
  // The track: up the left side from row 1, across the top, down the right side (as the simulator's page draws it).
  const n = seg("track")?.count ?? 0;
  const side = Math.min(p.rows, Math.floor(n / 2));
  const top = n - 2 * side;
  const step = top > 1 ? (TRACK_RIGHT_X - TRACK_LEFT_X - 14) / (top - 1) : 0;
  for (let i = 0; i < n; i++) {
    if (i < side) out.track.push([TRACK_LEFT_X, rowY(1 + i)]);
    else if (i < side + top) out.track.push([TRACK_LEFT_X + 7 + step * (i - side), TRACK_TOP_Y]);
    else out.track.push([TRACK_RIGHT_X, rowY(p.rows) + ROW_PITCH * (i - side - top)]);
  }
  for (let i = 0; i < (seg("status")?.count ?? 0); i++) out.status.push([26 + 8 * i, 127]);
  return out;
}

/** Checks the profile is one this layout is drawn for; names what is not. */
function checkFits(p: Profile): void {
  const problems: string[] = [];
  const seg = (n: SegmentName) => p.leds.segments.find((s) => s.name === n);
  if (p.board !== "pico") problems.push(`board "${p.board}": the PCB is drawn for the Espruino Pico`);
  if (p.pegs > 5 || p.rows > 12) problems.push(`${p.pegs} pegs x ${p.rows} rows: the board holds at most 5 x 12`);
  if ((seg("track")?.count ?? 0) > 2 * p.rows + 8) problems.push(`track of ${seg("track")?.count}: at most ${2 * p.rows + 8}`);
  if ((seg("status")?.count ?? 0) > 4) problems.push("more than 4 status LEDs");
  if (p.keymap.grid.length !== 36) problems.push("the main pad must be 6x6");
  const maker = p.keys.matrices[1];
  if (maker && (maker.keys.length > 3 || maker.keys.some((r) => r.length > 4))) problems.push("the codemaker pad holds at most 3x4 keys");
  if (problems.length) throw new Error(`profile ${p.id} does not fit the handheld PCB layout:\n  - ${problems.join("\n  - ")}`);
}

/** Where every part of the profile's board sits (`net`: its netlist, when the caller has it already). */
export function placement(p: Profile, net: Netlist = netlist(p)): BoardPlacement {
  checkFits(p);
  const byRef = new Map(net.parts.map((x) => [x.ref, x]));
  const done = new Set<string>();
  const take = (ref: string) => {
    const part = byRef.get(ref);
    if (!part) throw new Error(`placement: the netlist of ${p.id} has no ${ref}`);
    done.add(ref);
    return part;
  };
  const parts: PlacedPart[] = [];

  // LEDs, each with its capacitor 3 mm below it (above it on the bottom row of the pad, where the key is below).
  const spots = ledSpots(p);
  const leds: LedPlace[] = [];
  const ledParts = net.parts.filter((x) => x.block.kind === "led");
  let chain = 0;
  for (const s of p.leds.segments) {
    spots[s.name].forEach(([x, y], segmentIndex) => {
      chain++;
      const led = take(`LED${chain}`);
      const cap = ledParts.find((x) => x.ref !== led.ref && x.block.kind === "led" && x.block.index === chain);
      if (!cap) throw new Error(`placement: no decoupling capacitor for LED${chain}`);
      done.add(cap.ref);
      // Pad LEDs sit in the gap above their key: the capacitor goes beside the LED; elsewhere below it.
      const capAt: [number, number] = s.name === "pad" ? [x + 3.6, y] : s.name === "status" ? [x + 3.6, y] : [x, y + 2.9];
      parts.push(placed(cap, capAt[0], capAt[1]));
      leds.push({ ...placed(led, x, y), chain, segment: s.name, segmentIndex, cap: cap.ref });
    });
  }

  // Keys: the pad's in reading order (keymap.grid), the codemaker's in its matrix; each key's diode beside it.
  const keys: KeyPlace[] = [];
  const list = keyList(p);
  const padMatrix = p.keys.matrices[0].name;
  for (const k of list) {
    let x: number;
    let y: number;
    let diodeAt: [number, number];
    if (k.matrix === padMatrix) {
      const gi = p.keymap.grid.indexOf(k.id);
      if (gi < 0) throw new Error(`placement: pad key ${k.id} is not in keymap.grid`);
      x = PAD_X0 + PAD_PITCH * (gi % 6);
      y = PAD_Y0 + PAD_PITCH * Math.floor(gi / 6);
      diodeAt = [x + PAD_PITCH / 2, y];
    } else {
      const m = p.keys.matrices.find((mm) => mm.name === k.matrix)!;
      const r = m.keys.findIndex((row) => row.includes(k.id));
      const c = m.keys[r].indexOf(k.id);
      x = MAKER_X0 + MAKER_PITCH_X * c;
      y = MAKER_Y0 + MAKER_PITCH_Y * r;
      diodeAt = [x + MAKER_PITCH_X / 2, y];
    }
    const sw = take(`SW${k.index + 1}`);
    const diode = take(`D${k.index + 1}`);
    parts.push(placed(diode, diodeAt[0], diodeAt[1], 90));
    keys.push({ ...placed(sw, x, y), id: k.id, matrix: k.matrix, diode: diode.ref, actuator: 3.5 });
  }

  // The Pico, top right, its USB tongue over the right edge.
  const pico = take("U1");
  parts.push(placed(pico, PICO_X + bodyOf(pico.footprint).centre[0], PICO_Y));
  const usb = {
    ref: "U1",
    x: BOARD_W,
    y: PICO_Y,
    edge: "right" as const,
    width: 12,
    height: 4.5,
    overhang: round(20.9 - PICO_TONGUE_FROM),
  };

  // The charger (with a battery): bottom right, its USB socket at the bottom edge; the power switch beside the Pico.
  let chargerUsb: BoardPlacement["chargerUsb"];
  let powerSwitch: BoardPlacement["powerSwitch"];
  const charger = net.parts.find((x) => x.footprint === "Brainboard:Adafruit_PowerBoost_1000C");
  if (charger) {
    take(charger.ref);
    const b = bodyOf(charger.footprint);
    parts.push(placed(charger, BOARD_W - 3 - b.w / 2, BOARD_H - b.h / 2 - 0.5));
    chargerUsb = { ref: charger.ref, x: BOARD_W - 3 - b.w / 2, y: BOARD_H, edge: "bottom", width: 8, height: 3 };
  }
  const sw = net.parts.find((x) => x.footprint.includes("SW_Slide"));
  if (sw) {
    take(sw.ref);
    const sx = 163;
    const sy = 29;
    parts.push(placed(sw, sx, sy));
    powerSwitch = { ref: sw.ref, x: sx, y: sy, direction: "x", travel: 2, leverHeight: bodyOf(sw.footprint).height };
  }

  // Everything else, packed in rows into the area right of the pad, 2.5 mm apart (room for tracks between them).
  const rest = net.parts.filter((x) => !done.has(x.ref));
  let cx = MISC.x;
  let cy = MISC.y + (sw ? 6 : 0);
  let rowH = 0;
  for (const part of rest) {
    const b = bodyOf(part.footprint);
    const w = b.w + 2.5;
    const h = b.h + 2.5;
    if (cx + w > MISC.x + MISC.w) {
      cx = MISC.x;
      cy += rowH;
      rowH = 0;
    }
    if (cy + h > MISC.y + MISC.h) throw new Error(`placement: the parts area right of the pad is full at ${part.ref}`);
    parts.push(placed(part, cx + w / 2, cy + h / 2));
    cx += w;
    rowH = Math.max(rowH, h);
  }

  const rowY = (r: number) => ROW1_Y - ROW_PITCH * (r - 1);
  const makerCols = Math.max(0, ...p.keys.matrices.slice(1).map((m) => m.colPins.length));
  const makerRows = Math.max(0, ...p.keys.matrices.slice(1).map((m) => m.keys.length));
  return {
    profileId: p.id,
    outline: { width: BOARD_W, height: BOARD_H, cornerRadius: 3, thickness: 1.6, copperLayers: 4 },
    holes: [
      [4, 4],
      [74, 4],
      [4, 126.5],
      [74, 126.5],
      [186, 30],
      [154, 35],
    ].map(([x, y]) => ({ x, y, drill: 3.2, keepout: 6.4 })),
    keys,
    leds,
    parts,
    usb,
    chargerUsb,
    powerSwitch,
    shield: { x: 6, y: 2, w: 137, h: 30.5 },
    regions: {
      board: { x: CODE_X0 - 4, y: rowY(p.rows) - 3.5, w: PEG_X0 + PEG_PITCH * (p.pegs - 1) - CODE_X0 + 8, h: ROW_PITCH * p.rows },
      pad: { x: PAD_X0 - 6.5, y: PAD_Y0 - 13, w: PAD_PITCH * 6, h: PAD_PITCH * 6 + 3 },
      maker: {
        x: MAKER_X0 - 6.25,
        y: MAKER_Y0 - 5,
        w: MAKER_PITCH_X * makerCols,
        h: MAKER_PITCH_Y * makerRows,
      },
      track: { x: TRACK_LEFT_X - 2, y: TRACK_TOP_Y - 2, w: TRACK_RIGHT_X - TRACK_LEFT_X + 4, h: rowY(1) - TRACK_TOP_Y + 4 },
    },
    pitch: {
      codeHole: CODE_PITCH,
      keyPeg: PEG_PITCH,
      row: ROW_PITCH,
      padKey: PAD_PITCH,
      makerKeyX: MAKER_PITCH_X,
      makerKeyY: MAKER_PITCH_Y,
    },
  };
}
