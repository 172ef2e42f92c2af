/**
 * Hardware profiles: one JSON file per build in hardware/profiles/. This module loads and checks
 * them, numbers the keys, and compiles the part the firmware needs into a module for the bundle.
 * The firmware build, the simulator and the docs all read profiles through here.
 */
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BOARDS, pinNumber, type BoardInfo } from "./boards.ts";

export const PROFILES_DIR = fileURLToPath(new URL("./profiles/", import.meta.url));
export const DEFAULT_PROFILE = "r1-pico";

export type SegmentName = "board" | "keys" | "secret" | "pad" | "track" | "status";
export const SEGMENT_NAMES: SegmentName[] = ["board", "keys", "secret", "pad", "track", "status"];
/** Segments every build must have; the others are optional. */
export const REQUIRED_SEGMENTS: SegmentName[] = ["board", "keys", "pad"];

export interface Segment {
  name: SegmentName;
  count: number;
  rows?: number;
  cols?: number;
  shielded?: boolean;
  about?: string;
}
export interface Matrix {
  name: string;
  about?: string;
  /** Indexes into keys.rowPins: the row lines this matrix shares. */
  rows: number[];
  colPins: string[];
  /** keys[r][c] is the key id at matrix row r (line rows[r]) and column c; "" for no key. */
  keys: string[][];
}
export interface MakerKeymap {
  colours: string[];
  blank: string;
  exact: string;
  near: string;
  yes: string;
  no: string;
  undo: string;
  ok: string;
}
export interface Profile {
  id: string;
  name: string;
  board: string;
  pegs: number;
  rows: number;
  leds: {
    pin: string;
    type: string;
    powerPin?: string;
    powerOnLevel?: 0 | 1;
    budgetMa: number;
    maPerChannel: number;
    idleMaPerPixel: number;
    segments: Segment[];
  };
  keys: {
    rowPins: string[];
    diodes: boolean;
    matrices: Matrix[];
    legends: Record<string, string>;
  };
  keymap: { grid: string[]; maker?: MakerKeymap };
  buzzer?: { pin: string };
  battery?: { pin: string; dividerRatio: number; fullV: number; lowV: number; emptyV: number };
}

/** A key of the unit, numbered in profile order (matrix by matrix, row by row). */
export interface KeyInfo {
  index: number;
  id: string;
  matrix: string;
  /** Index into keys.rowPins and into the combined column list (all matrices' colPins, in order). */
  rowLine: number;
  colLine: number;
  legend: string;
}

export class ProfileError extends Error {
  constructor(
    readonly profileId: string,
    readonly problems: string[],
  ) {
    super(`profile ${profileId} is invalid:\n  - ${problems.join("\n  - ")}`);
    this.name = "ProfileError";
  }
}

export function profilePath(nameOrPath: string): string {
  if (nameOrPath.endsWith(".json")) return nameOrPath;
  return PROFILES_DIR + nameOrPath + ".json";
}

export function loadProfile(nameOrPath: string = DEFAULT_PROFILE): Profile {
  const path = profilePath(nameOrPath);
  if (!existsSync(path)) throw new ProfileError(nameOrPath, [`no profile file at ${path}`]);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ProfileError(nameOrPath, [`${path} is not valid JSON: ${(e as Error).message}`]);
  }
  return checkProfile(data, nameOrPath);
}

/** Checks a parsed profile; throws a ProfileError naming every field at fault and why. */
export function checkProfile(data: unknown, label = "profile"): Profile {
  const problems = validateProfile(data);
  const id = (data as Profile | undefined)?.id ?? label;
  if (problems.length) throw new ProfileError(String(id), problems);
  return data as Profile;
}

export function validateProfile(data: unknown): string[] {
  const p = data as Profile;
  const out: string[] = [];
  const need = (ok: unknown, msg: string) => {
    if (!ok) out.push(msg);
    return !!ok;
  };
  if (!need(p && typeof p === "object", "the profile must be a JSON object")) return out;
  need(typeof p.id === "string" && /^[a-z0-9-]+$/.test(p.id), "id: must be lower-case letters, digits and dashes");
  const board: BoardInfo | undefined = BOARDS[p.board];
  need(board, `board: unknown board "${p.board}" (known: ${Object.keys(BOARDS).join(", ")})`);
  need(Number.isInteger(p.pegs) && p.pegs >= 4 && p.pegs <= 5, "pegs: must be 4 or 5");
  need(Number.isInteger(p.rows) && p.rows >= 9 && p.rows <= 12, "rows: must be between 9 and 12");
  const used = new Map<string, string>();
  const usePin = (pin: unknown, field: string) => {
    if (!need(typeof pin === "string", `${field}: must be a pin name`)) return;
    const name = pin as string;
    if (board && !need(board.pins.includes(name), `${field}: ${name} is not a GPIO pin of the ${board.name}`)) return;
    const prev = used.get(name);
    need(!prev, `${field}: ${name} is already used by ${prev}`);
    used.set(name, field);
  };
  if (!need(p.leds && typeof p.leds === "object", "leds: missing")) return out;
  usePin(p.leds.pin, "leds.pin");
  if (board && typeof p.leds.pin === "string")
    need(
      board.neopixelPins.includes(p.leds.pin),
      `leds.pin: ${p.leds.pin} has no SPI MOSI function; neopixel.write needs one of ${board.neopixelPins.join(", ")}`,
    );
  if (p.leds.powerPin !== undefined) usePin(p.leds.powerPin, "leds.powerPin");
  need(p.leds.budgetMa > 0, "leds.budgetMa: must be a positive number of milliamps");
  need(p.leds.maPerChannel > 0, "leds.maPerChannel: must be positive");
  need(p.leds.idleMaPerPixel >= 0, "leds.idleMaPerPixel: must not be negative");
  const segs = Array.isArray(p.leds.segments) ? p.leds.segments : [];
  need(segs.length, "leds.segments: must list the LED chain's segments in chain order");
  const seen = new Set<string>();
  segs.forEach((s, i) => {
    const f = `leds.segments[${i}]`;
    need(SEGMENT_NAMES.includes(s.name), `${f}.name: "${s.name}" is not one of ${SEGMENT_NAMES.join(", ")}`);
    need(!seen.has(s.name), `${f}.name: segment "${s.name}" appears twice`);
    seen.add(s.name);
    need(Number.isInteger(s.count) && s.count > 0, `${f}.count: must be a positive whole number`);
    if (s.rows !== undefined || s.cols !== undefined)
      need(s.rows! * s.cols! === s.count, `${f}: rows x cols (${s.rows} x ${s.cols}) must equal count ${s.count}`);
  });
  for (const r of REQUIRED_SEGMENTS) need(seen.has(r), `leds.segments: the "${r}" segment is required`);
  const seg = (n: SegmentName) => segs.find((s) => s.name === n);
  if (seg("board")) need(seg("board")!.rows === p.rows && seg("board")!.cols === p.pegs, `leds.segments board: must be ${p.rows} rows x ${p.pegs} cols (rows x pegs)`);
  if (seg("keys")) need(seg("keys")!.rows === p.rows && seg("keys")!.cols === p.pegs, `leds.segments keys: must be ${p.rows} rows x ${p.pegs} cols`);
  if (seg("pad")) need(seg("pad")!.rows === 6 && seg("pad")!.cols === 6, "leds.segments pad: must be 6 rows x 6 cols, one pixel under each grid key");

  if (!need(p.keys && typeof p.keys === "object", "keys: missing")) return out;
  const rowPins = Array.isArray(p.keys.rowPins) ? p.keys.rowPins : [];
  need(rowPins.length > 0 && rowPins.length <= 16, "keys.rowPins: 1 to 16 row lines");
  rowPins.forEach((pin, i) => usePin(pin, `keys.rowPins[${i}]`));
  need(typeof p.keys.diodes === "boolean", "keys.diodes: must be true or false");
  const ids = new Set<string>();
  const colNumbers = new Map<number, string>();
  let colCount = 0;
  (p.keys.matrices ?? []).forEach((m, mi) => {
    const f = `keys.matrices[${mi}]`;
    (m.rows ?? []).forEach((r, i) => need(Number.isInteger(r) && r >= 0 && r < rowPins.length, `${f}.rows[${i}]: ${r} is not an index into keys.rowPins`));
    (m.colPins ?? []).forEach((pin, i) => {
      const cf = `${f}.colPins[${i}]`;
      usePin(pin, cf);
      if (board?.oneWatchPerPinNumber && typeof pin === "string") {
        const prev = colNumbers.get(pinNumber(pin));
        need(!prev, `${cf}: ${pin} has the same pin number as ${prev}; the ${board.name} can watch only one pin per number, and every column must be watched to wake the unit`);
        colNumbers.set(pinNumber(pin), pin);
      }
      if (board && typeof pin === "string") need(!board.unwatchablePins.includes(pin), `${cf}: ${pin} cannot be watched in deep sleep on the ${board.name}`);
      colCount++;
    });
    need(Array.isArray(m.keys) && m.keys.length === m.rows?.length, `${f}.keys: must have one row of key ids per matrix row`);
    (m.keys ?? []).forEach((row, r) => {
      need(row.length === m.colPins?.length, `${f}.keys[${r}]: must have one key id per column`);
      row.forEach((id) => {
        if (id === "") return;
        need(!ids.has(id), `${f}.keys: key id "${id}" appears twice`);
        ids.add(id);
        need(typeof p.keys.legends?.[id] === "string", `keys.legends: key "${id}" has no legend`);
      });
    });
  });
  need(colCount > 0 && colCount <= 16, "keys.matrices: 1 to 16 column lines in all");
  const keyRef = (id: unknown, field: string) => need(typeof id === "string" && ids.has(id), `${field}: "${id}" is not a key of keys.matrices`);
  need(Array.isArray(p.keymap?.grid) && p.keymap.grid.length === 36, "keymap.grid: must list the 36 keys of the 6x6 grid in reading order");
  (p.keymap?.grid ?? []).forEach((id, i) => keyRef(id, `keymap.grid[${i}]`));
  const mk = p.keymap?.maker;
  if (mk) {
    need(Array.isArray(mk.colours) && mk.colours.length === 8, "keymap.maker.colours: must list 8 colour keys");
    (mk.colours ?? []).forEach((id, i) => keyRef(id, `keymap.maker.colours[${i}]`));
    for (const k of ["blank", "exact", "near", "yes", "no", "undo", "ok"] as const) keyRef(mk[k], `keymap.maker.${k}`);
  }
  if (p.buzzer) usePin(p.buzzer.pin, "buzzer.pin");
  if (p.buzzer && board) need(board.pwmPins.includes(p.buzzer.pin), `buzzer.pin: ${p.buzzer.pin} has no PWM`);
  if (p.battery) {
    usePin(p.battery.pin, "battery.pin");
    if (board) need(board.adcPins.includes(p.battery.pin), `battery.pin: ${p.battery.pin} is not an analog input of the ${board.name}`);
    need(p.battery.dividerRatio >= 1, "battery.dividerRatio: must be >= 1 (VBAT / pin voltage)");
    need(p.battery.emptyV < p.battery.lowV && p.battery.lowV < p.battery.fullV, "battery: emptyV < lowV < fullV");
  }
  return out;
}

/** All the column pins, matrix after matrix: the order of the firmware's combined column read. */
export function columnPins(p: Profile): string[] {
  return p.keys.matrices.flatMap((m) => m.colPins);
}

/** Every key, numbered as the firmware numbers them. */
export function keyList(p: Profile): KeyInfo[] {
  const out: KeyInfo[] = [];
  let colBase = 0;
  for (const m of p.keys.matrices) {
    m.keys.forEach((row, r) =>
      row.forEach((id, c) => {
        if (id) out.push({ index: out.length, id, matrix: m.name, rowLine: m.rows[r], colLine: colBase + c, legend: p.keys.legends[id] });
      }),
    );
    colBase += m.colPins.length;
  }
  return out;
}

export function segmentOffsets(p: Profile): Record<SegmentName, { start: number; count: number }> {
  const out = {} as Record<SegmentName, { start: number; count: number }>;
  let start = 0;
  for (const s of SEGMENT_NAMES) out[s] = { start: -1, count: 0 };
  for (const s of p.leds.segments) {
    out[s.name] = { start, count: s.count };
    start += s.count;
  }
  return out;
}

export function ledCount(p: Profile): number {
  return p.leds.segments.reduce((n, s) => n + s.count, 0);
}

/**
 * The profile as the firmware sees it (type FirmwareProfile in firmware/types/profile.d.ts), as the
 * JavaScript source of an ES module. Pins are written as Espruino's global pin names (B15), so the
 * same bundle works on the device and on the virtual board, which defines the same globals.
 */
export function firmwareProfileSource(p: Profile): string {
  const keys = keyList(p);
  const cols = columnPins(p);
  const byId = new Map(keys.map((k) => [k.id, k.index]));
  const keyAt: number[] = new Array(p.keys.rowPins.length * cols.length).fill(-1);
  for (const k of keys) keyAt[k.rowLine * cols.length + k.colLine] = k.index;
  const seg = segmentOffsets(p);
  const mk = p.keymap.maker;
  const pins = (list: string[]) => `[${list.join(",")}]`;
  const lines = [
    `id:${JSON.stringify(p.id)}`,
    `pegs:${p.pegs}`,
    `rows:${p.rows}`,
    `led:${p.leds.pin}`,
    `ledCount:${ledCount(p)}`,
    `ledPower:${p.leds.powerPin ?? "undefined"}`,
    `ledPowerOn:${p.leds.powerOnLevel ?? 1}`,
    `budgetMa:${p.leds.budgetMa}`,
    `maPerChannel:${p.leds.maPerChannel}`,
    `idleMa:${p.leds.idleMaPerPixel}`,
    `seg:${JSON.stringify(Object.fromEntries(SEGMENT_NAMES.map((n) => [n, seg[n].start])))}`,
    `segLen:${JSON.stringify(Object.fromEntries(SEGMENT_NAMES.map((n) => [n, seg[n].count])))}`,
    `secretShielded:${p.leds.segments.some((s) => s.name === "secret" && s.shielded)}`,
    `rowPins:${pins(p.keys.rowPins)}`,
    `colPins:${pins(cols)}`,
    `diodes:${p.keys.diodes}`,
    `keyAt:${JSON.stringify(keyAt)}`,
    `keyCount:${keys.length}`,
    `grid:${JSON.stringify(p.keymap.grid.map((id) => byId.get(id)))}`,
    `maker:${
      mk
        ? JSON.stringify({
            colours: mk.colours.map((id) => byId.get(id)),
            blank: byId.get(mk.blank),
            exact: byId.get(mk.exact),
            near: byId.get(mk.near),
            yes: byId.get(mk.yes),
            no: byId.get(mk.no),
            undo: byId.get(mk.undo),
            ok: byId.get(mk.ok),
          })
        : "undefined"
    }`,
    `buzzer:${p.buzzer ? p.buzzer.pin : "undefined"}`,
    `battery:${p.battery ? `{pin:${p.battery.pin},ratio:${p.battery.dividerRatio},fullV:${p.battery.fullV},lowV:${p.battery.lowV},emptyV:${p.battery.emptyV}}` : "undefined"}`,
  ];
  return `export default {${lines.join(",\n")}};\n`;
}
