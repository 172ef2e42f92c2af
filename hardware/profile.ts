/**
 * Hardware profiles: one JSON file per build in hardware/profiles/. This module loads and checks
 * them, numbers the keys, and compiles the part the firmware needs into a module for the bundle.
 * The firmware build, the simulator and the docs all read profiles through here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { BOARDS, pinNumber, type BoardInfo } from "./boards.ts";
import { KEY_AT_BASE, type CompiledProfile, type Segments } from "../firmware/profile.ts";

export const PROFILES_DIR = fileURLToPath(new URL("./profiles/", import.meta.url));
export const DEFAULT_PROFILE = "r1-pico";
/**
 * The most a USB-only build may give its LEDs: with the Pico (~35 mA), the level shifter and the buzzer it keeps the
 * whole draw near 340 mA, under the Pico's 500 mA USB polyfuse as it warms (hardware/kicad/power.ts works it out).
 */
export const USB_ONLY_LED_BUDGET_MA = 300;

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
    /** ms from switching the LED supply on until the LEDs take data; DEFAULT_LED_SETTLE_MS when left out. */
    powerSettleMs?: number;
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
  /** Absent for a USB-only build (`"battery": { "kind": "none" }` in the file). */
  battery?: BatteryDivider;
}

/** A cell measured on an ADC pin through a resistor divider. */
export interface BatteryDivider {
  kind: "divider";
  pin: string;
  /** The cell's voltage (net VCELL) / the pin's voltage. */
  dividerRatio: number;
  fullV: number;
  lowV: number;
  emptyV: number;
  /** The pin voltage analogRead reports as 1; absent: the supply, as E.getAnalogVRef() measures it (Pico). */
  adcFullScaleV?: number;
  /** The ADC attenuation that full scale belongs to (ESP32: 11 dB, Espruino's setting). */
  adcAttenuationDb?: number;
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
  if (!existsSync(path)) throw new ProfileError(nameOrPath, [`no profile file at ${path} (profiles: ${listProfiles().join(", ")})`]);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ProfileError(nameOrPath, [`${path} is not valid JSON: ${(e as Error).message}`]);
  }
  return checkProfile(data, nameOrPath);
}

/** The profiles in hardware/profiles/, by id. */
export function listProfiles(): string[] {
  return readdirSync(PROFILES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

/** Checks a parsed profile: first its shape (profile.schema.json), then its meaning; throws a ProfileError naming every field at fault and why. */
export function checkProfile(data: unknown, label = "profile"): Profile {
  const id = typeof (data as Profile | undefined)?.id === "string" ? (data as Profile).id : label;
  const shape = schemaProblems(data);
  if (shape.length) throw new ProfileError(id, shape);
  const problems = validateProfile(data);
  if (problems.length) throw new ProfileError(id, problems);
  const profile = { ...(data as Profile) };
  // A USB-only build: the rest of the code knows it by the absence of a battery.
  if ((profile.battery as { kind: string } | undefined)?.kind === "none") delete profile.battery;
  return profile;
}

/** A loaded profile back in its file's form (a USB-only build says so with battery kind "none"), to check or save again. */
export function profileFile(p: Profile): unknown {
  return p.battery ? p : { ...p, battery: { kind: "none" } };
}

export const SCHEMA_PATH = fileURLToPath(new URL("./profile.schema.json", import.meta.url));
let schemaValidator: ValidateFunction | undefined;

/** The profile checked against hardware/profile.schema.json: one `<field path>: <reason>` per problem. */
export function schemaProblems(data: unknown): string[] {
  if (!schemaValidator) {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true });
    schemaValidator = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, "utf8")));
  }
  if (schemaValidator(data)) return [];
  const out: string[] = [];
  for (const e of schemaValidator.errors ?? []) {
    const msg = describeSchemaError(e);
    if (!out.includes(msg)) out.push(msg);
  }
  return out;
}

/** "/leds/segments/2/count" -> "leds.segments[2].count" (JSON Pointer to the field path people read). */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (child !== undefined) parts.push(child);
  let out = "";
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out || "(the profile)";
}

function describeSchemaError(e: ErrorObject): string {
  const got = e.data === undefined ? "" : ` (got ${JSON.stringify(e.data)})`;
  const about = (e.parentSchema as { description?: string } | undefined)?.description;
  switch (e.keyword) {
    case "required":
      return `${fieldPath(e.instancePath, (e.params as { missingProperty: string }).missingProperty)}: is required but missing`;
    case "additionalProperties": {
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      return `${fieldPath(e.instancePath, extra)}: is not a field here${known.length ? ` (fields: ${known.join(", ")})` : ""}`;
    }
    case "type":
      return `${fieldPath(e.instancePath)}: must be ${e.params.type === "integer" ? "a whole number" : `of type ${e.params.type}`}${got}`;
    case "enum":
      return `${fieldPath(e.instancePath)}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}${got}`;
    case "pattern":
      return `${fieldPath(e.instancePath)}: ${JSON.stringify(e.data)} is not ${about ?? `matching ${e.params.pattern}`}`;
    case "propertyNames":
      return `${fieldPath(e.instancePath, (e.params as { propertyName: string }).propertyName)}: is not a valid key id`;
    default:
      return `${fieldPath(e.instancePath)}: ${e.message}${got}`;
  }
}

/** What a profile means, beyond its shape: pins of the board and their conflicts, sizes, references between fields. */
export function validateProfile(data: unknown): string[] {
  const p = data as Profile;
  const out: string[] = [];
  const need = (ok: unknown, msg: string) => {
    if (!ok) out.push(msg);
    return !!ok;
  };
  if (!need(p && typeof p === "object", "(the profile): must be a JSON object")) return out;
  need(typeof p.id === "string" && /^[a-z0-9-]+$/.test(p.id), "id: must be lower-case letters, digits and dashes");
  const board: BoardInfo | undefined = BOARDS[p.board];
  need(board, `board: unknown board "${p.board}" (known: ${Object.keys(BOARDS).join(", ")})`);
  need(Number.isInteger(p.pegs) && p.pegs >= 4 && p.pegs <= 5, "pegs: must be 4 or 5");
  need(Number.isInteger(p.rows) && p.rows >= 9 && p.rows <= 12, "rows: must be between 9 and 12");
  const used = new Map<string, string>();
  /** Records a pin's use; `drives` when the pin must be an output (or have a pull-up, which input-only pins lack). */
  const usePin = (pin: unknown, field: string, drives: boolean) => {
    if (!need(typeof pin === "string", `${field}: must be a pin name`)) return false;
    const name = pin as string;
    if (
      board &&
      !need(board.pins.includes(name), `${field}: ${name} is not a GPIO pin of the ${board.name} (pins: ${board.pins.join(", ")})`)
    )
      return false;
    const prev = used.get(name);
    need(!prev, `${field}: ${name} is already used by ${prev}`);
    used.set(name, field);
    if (board?.consolePins?.includes(name)) need(false, `${field}: ${name} is the ${board.name}'s serial console; keep it free`);
    if (drives && board?.inputOnlyPins?.includes(name))
      need(false, `${field}: ${name} is input only on the ${board.name} (no output, no pull-up)`);
    return true;
  };
  if (!need(p.leds && typeof p.leds === "object", "leds: is required but missing")) return out;
  if (usePin(p.leds.pin, "leds.pin", true) && board)
    need(
      board.neopixelPins.includes(p.leds.pin),
      `leds.pin: ${p.leds.pin} has no SPI MOSI function; neopixel.write needs one of ${board.neopixelPins.join(", ")}`,
    );
  if (p.leds.powerPin !== undefined) usePin(p.leds.powerPin, "leds.powerPin", true);
  need(p.leds.budgetMa > 0, "leds.budgetMa: must be a positive number of milliamps");
  const usbOnly = (p.battery as { kind?: string } | undefined)?.kind === "none";
  need(
    !usbOnly || !(p.leds.budgetMa > USB_ONLY_LED_BUDGET_MA),
    `leds.budgetMa: ${p.leds.budgetMa} mA is more than a USB-only build may give its LEDs (${USB_ONLY_LED_BUDGET_MA} mA): the Pico, the LEDs and the rest all draw through the Pico's 500 mA USB fuse and its diode; lower it or add a battery`,
  );
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
  const shape = (name: SegmentName, rows: number, cols: number, why: string) => {
    const i = segs.findIndex((s) => s.name === name);
    if (i < 0) return;
    const s = segs[i];
    need(
      s.rows === rows && s.cols === cols,
      `leds.segments[${i}]: the ${name} segment must be ${rows} rows x ${cols} cols ${why}, not ${s.rows} x ${s.cols}`,
    );
  };
  shape("board", p.rows, p.pegs, "(rows x pegs)");
  shape("keys", p.rows, p.pegs, "(a key pixel per hole: rows x pegs)");
  shape("pad", 6, 6, "(one pixel under each key of the 6x6 grid)");

  if (!need(p.keys && typeof p.keys === "object", "keys: is required but missing")) return out;
  const rowPins = Array.isArray(p.keys.rowPins) ? p.keys.rowPins : [];
  need(rowPins.length > 0 && rowPins.length <= 16, "keys.rowPins: 1 to 16 row lines");
  rowPins.forEach((pin, i) => usePin(pin, `keys.rowPins[${i}]`, true));
  need(typeof p.keys.diodes === "boolean", "keys.diodes: must be true or false");
  const ids = new Set<string>();
  const colNumbers = new Map<number, string>();
  let colCount = 0;
  (p.keys.matrices ?? []).forEach((m, mi) => {
    const f = `keys.matrices[${mi}]`;
    (m.rows ?? []).forEach((r, i) =>
      need(Number.isInteger(r) && r >= 0 && r < rowPins.length, `${f}.rows[${i}]: ${r} is not an index into keys.rowPins`),
    );
    (m.colPins ?? []).forEach((pin, i) => {
      const cf = `${f}.colPins[${i}]`;
      colCount++;
      if (!usePin(pin, cf, true)) return;
      if (board?.oneWatchPerPinNumber) {
        const prev = colNumbers.get(pinNumber(pin));
        need(
          !prev,
          `${cf}: ${pin} has the same pin number as ${prev}; the ${board.name} can watch only one pin per number, and every column must be watched to wake the unit`,
        );
        colNumbers.set(pinNumber(pin), pin);
      }
      if (board) need(!board.unwatchablePins.includes(pin), `${cf}: ${pin} cannot be watched in deep sleep on the ${board.name}`);
    });
    need(
      Array.isArray(m.keys) && m.keys.length === m.rows?.length,
      `${f}.keys: must have one row of key ids per matrix row (${m.rows?.length})`,
    );
    (m.keys ?? []).forEach((row, r) => {
      need(row.length === m.colPins?.length, `${f}.keys[${r}]: must have one key id per column (${m.colPins?.length})`);
      row.forEach((id, c) => {
        if (id === "") return;
        need(!ids.has(id), `${f}.keys[${r}][${c}]: key id "${id}" appears twice`);
        ids.add(id);
        need(typeof p.keys.legends?.[id] === "string", `keys.legends.${id}: key "${id}" has no legend`);
      });
    });
  });
  need(colCount > 0 && colCount <= 16, "keys.matrices: 1 to 16 column lines in all");
  for (const id of Object.keys(p.keys.legends ?? {})) need(ids.has(id), `keys.legends.${id}: "${id}" is not a key of keys.matrices`);
  const keyRef = (id: unknown, field: string) =>
    need(typeof id === "string" && ids.has(id), `${field}: "${id}" is not a key of keys.matrices`);
  need(Array.isArray(p.keymap?.grid) && p.keymap.grid.length === 36, "keymap.grid: must list the 36 keys of the 6x6 grid in reading order");
  (p.keymap?.grid ?? []).forEach((id, i) => keyRef(id, `keymap.grid[${i}]`));
  const gridSeen = new Map<string, number>();
  (p.keymap?.grid ?? []).forEach((id, i) => {
    const prev = gridSeen.get(id);
    need(prev === undefined, `keymap.grid[${i}]: "${id}" is already grid position ${prev}`);
    gridSeen.set(id, i);
  });
  const mk = p.keymap?.maker;
  if (mk) {
    need(Array.isArray(mk.colours) && mk.colours.length === 8, "keymap.maker.colours: must list 8 colour keys");
    (mk.colours ?? []).forEach((id, i) => keyRef(id, `keymap.maker.colours[${i}]`));
    for (const k of ["blank", "exact", "near", "yes", "no", "undo", "ok"] as const) keyRef(mk[k], `keymap.maker.${k}`);
  }
  if (p.buzzer && usePin(p.buzzer.pin, "buzzer.pin", true) && board)
    need(board.pwmPins.includes(p.buzzer.pin), `buzzer.pin: ${p.buzzer.pin} has no PWM output on the ${board.name}`);
  const bat = p.battery as (Omit<Partial<BatteryDivider>, "kind"> & { kind: string }) | undefined;
  if (bat?.kind === "none") {
    const extra = Object.keys(bat).filter((k) => k !== "kind");
    need(!extra.length, `battery: kind "none" (USB only) takes no other fields (got ${extra.join(", ")})`);
  }
  if (bat?.kind === "divider") {
    const missing = (["pin", "dividerRatio", "fullV", "lowV", "emptyV"] as const).filter((k) => bat[k] === undefined);
    if (!need(!missing.length, `battery: kind "divider" needs ${missing.join(", ")}`)) return out;
  }
  if (p.battery?.kind === "divider") {
    if (board && board.analogVRef === false && p.battery.adcFullScaleV === undefined)
      need(
        false,
        `battery.adcFullScaleV: the ${board.name} has no E.getAnalogVRef(), so give the ADC's full scale in volts (ESP32: 3.9 at Espruino's 11 dB attenuation)`,
      );
    if (usePin(p.battery.pin, "battery.pin", false) && board)
      need(
        board.adcPins.includes(p.battery.pin),
        `battery.pin: ${p.battery.pin} is not an analog input of the ${board.name} (ADC pins: ${board.adcPins.join(", ")})`,
      );
    need(p.battery.dividerRatio >= 1, "battery.dividerRatio: must be >= 1 (cell voltage / pin voltage)");
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
        if (id) out.push({ index: 0, id, matrix: m.name, rowLine: m.rows[r], colLine: colBase + c, legend: p.keys.legends[id] });
      }),
    );
    colBase += m.colPins.length;
  }
  // The grid's keys are numbered by grid position (the firmware then needs no table from key to position),
  // the others after them in matrix order.
  const grid = p.keymap?.grid ?? [];
  const rank = (k: KeyInfo) => {
    const g = grid.indexOf(k.id);
    return g < 0 ? 36 : g;
  };
  const ordered = out.map((k, i) => [rank(k), i, k] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return ordered.map(([, , k], i) => ({ ...k, index: i }));
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

/**
 * The LED supply's settle time when the profile does not give one: the slew-limited switch of
 * hardware/kicad/power.ts is up within 77 ms of its pin going on (a gate delay of up to 71 ms, then a
 * 3.5-6.2 ms ramp), so 80.
 */
export const DEFAULT_LED_SETTLE_MS = 80;

/** ms from switching the LED supply on until the LEDs take data (0 when the supply is not switched). */
export function ledSettleMs(p: Profile): number {
  return p.leds.powerPin === undefined ? 0 : (p.leds.powerSettleMs ?? DEFAULT_LED_SETTLE_MS);
}

export function ledCount(p: Profile): number {
  return p.leds.segments.reduce((n, s) => n + s.count, 0);
}

/** A pin in a compiled profile made in Node: written into the bundle as Espruino's global pin name (B15). */
export class PinName {
  constructor(readonly name: string) {}
}

/**
 * The profile as the firmware sees it (CompiledProfile, firmware/ui/layout.ts): the build writes it
 * into the bundle (firmwareProfileSource), the tests use it as the ui's Layout.
 */
export function compileProfile(p: Profile): CompiledProfile<PinName> {
  const keys = keyList(p);
  const cols = columnPins(p);
  const byId = new Map(keys.map((k) => [k.id, k.index]));
  const index = (id: string): number => {
    const k = byId.get(id);
    if (k === undefined) throw new ProfileError(p.id, [`no key ${id}`]);
    return k;
  };
  const keyAt: number[] = new Array(p.keys.rowPins.length * cols.length).fill(-1);
  for (const k of keys) keyAt[k.rowLine * cols.length + k.colLine] = k.index;
  // A third of the bytes of a list of numbers in the bundle (and all printable: see KEY_AT_BASE).
  const keyAtText = String.fromCharCode(...keyAt.map((k) => k + KEY_AT_BASE));
  const seg = segmentOffsets(p);
  const mk = p.keymap.maker;
  const pin = (name: string) => new PinName(name);
  const segments = (field: "start" | "count"): Segments =>
    Object.fromEntries(SEGMENT_NAMES.map((n) => [n, seg[n][field]])) as unknown as Segments;
  return {
    pegs: p.pegs,
    rows: p.rows,
    led: pin(p.leds.pin),
    ledCount: ledCount(p),
    ledPower: p.leds.powerPin ? pin(p.leds.powerPin) : undefined,
    ledPowerOn: p.leds.powerOnLevel ?? 1,
    ledSettleMs: ledSettleMs(p),
    budgetMa: p.leds.budgetMa,
    maPerChannel: p.leds.maPerChannel,
    idleMa: p.leds.idleMaPerPixel,
    seg: segments("start"),
    segLen: segments("count"),
    secretShielded: p.leds.segments.some((s) => s.name === "secret" && s.shielded === true),
    rowPins: p.keys.rowPins.map(pin),
    colPins: cols.map(pin),
    diodes: p.keys.diodes,
    keyAt: keyAtText,
    keyCount: keys.length,
    maker: mk && {
      colours: mk.colours.map(index),
      blank: index(mk.blank),
      exact: index(mk.exact),
      near: index(mk.near),
      yes: index(mk.yes),
      no: index(mk.no),
      undo: index(mk.undo),
      ok: index(mk.ok),
    },
    buzzer: p.buzzer ? pin(p.buzzer.pin) : undefined,
    deepSleep: BOARDS[p.board].deepSleep,
    battery: p.battery && {
      pin: pin(p.battery.pin),
      ratio: p.battery.dividerRatio,
      fullV: p.battery.fullV,
      lowV: p.battery.lowV,
      emptyV: p.battery.emptyV,
      fullScale: p.battery.adcFullScaleV ?? 0,
    },
  };
}

/**
 * A JavaScript literal with unquoted keys (the bundler mangles property names only where they are not
 * quoted, and the firmware reads these objects through its own, mangled, names); pins bare, as
 * Espruino's globals, so the same bundle works on the device and on the virtual board.
 */
function jsLiteral(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value instanceof PinName) return value.name;
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}:${jsLiteral(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** The compiled profile as the JavaScript source of an ES module, for the bundle. */
export function firmwareProfileSource(p: Profile): string {
  return `export default ${jsLiteral(compileProfile(p))};\n`;
}
