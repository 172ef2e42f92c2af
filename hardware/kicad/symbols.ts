/**
 * Schematic symbols: KiCad's standard ones copied out of the installed libraries (/usr/share/kicad/symbols), with
 * a derived symbol ("extends") flattened into its parent's drawing as a schematic's lib_symbols needs, and the
 * project's own (the Espruino Pico, the PowerBoost module) drawn here from their pin lists and written to
 * hardware/kicad/Brainboard.kicad_sym.
 */
import { existsSync, readFileSync } from "node:fs";
import { POWERBOOST_PINS, PICO_BOTTOM_ROW, PICO_END_ROW, PICO_TOP_ROW, type ModulePin } from "./pico-pins.ts";
import { child, children, head, num, parse, q, serialize, text, type SExpr } from "./sexpr.ts";

export const KICAD_SYMBOL_DIR = process.env.KICAD9_SYMBOL_DIR ?? "/usr/share/kicad/symbols";

export interface SymbolPin {
  number: string;
  name: string;
  type: string;
  /** The connection point, in the symbol's coordinates (y up, mm). */
  x: number;
  y: number;
  /** The direction from the connection point into the body, degrees. */
  angle: number;
}

export interface LibSymbol {
  libId: string;
  /** The flattened symbol, named by its lib id, ready for a schematic's lib_symbols. */
  tree: SExpr[];
  pins: SymbolPin[];
  power: boolean;
}

const libCache = new Map<string, SExpr[]>();
const symbolCache = new Map<string, LibSymbol>();

function library(name: string): SExpr[] {
  let lib = libCache.get(name);
  if (!lib) {
    if (name === "Brainboard") lib = brainboardLibrary();
    else {
      const file = `${KICAD_SYMBOL_DIR}/${name}.kicad_sym`;
      if (!existsSync(file)) throw new Error(`KiCad symbol library ${file} not found (install KiCad 9 or set KICAD9_SYMBOL_DIR)`);
      lib = parse(readFileSync(file, "utf8")) as SExpr[];
    }
    libCache.set(name, lib);
  }
  return lib;
}

function findSymbol(lib: SExpr[], name: string): SExpr[] {
  const s = children(lib, "symbol").find((x) => text(x[1]) === name);
  if (!s) throw new Error(`symbol ${name} not in its library`);
  return s;
}

/** A symbol by lib id ("Device:R"), flattened and renamed for a schematic. */
export function libSymbol(libId: string): LibSymbol {
  const cached = symbolCache.get(libId);
  if (cached) return cached;
  const [libName, name] = libId.split(":");
  const lib = library(libName);
  const own = findSymbol(lib, name);
  const ext = child(own, "extends");
  let tree: SExpr[];
  if (ext) {
    const parent = findSymbol(lib, text(ext[1]));
    const parentName = text(parent[1]);
    // The parent's fields in the derived symbol's values, then the derived symbol's own (as KiCad flattens).
    const own_ = children(own, "property");
    const props: SExpr[] = children(parent, "property").map((pp) => own_.find((c) => c[1] === pp[1]) ?? pp);
    for (const c of own_) if (!props.some((pp) => (pp as SExpr[])[1] === c[1])) props.push(c);
    const body = parent.slice(2).filter((c) => head(c) !== "property");
    const firstUnit = body.findIndex((c) => head(c) === "symbol" || head(c) === "embedded_fonts");
    tree = [
      "symbol",
      q(libId),
      ...body.slice(0, firstUnit),
      ...props,
      ...body.slice(firstUnit).map((c) => (head(c) === "symbol" ? renameUnit(c as SExpr[], parentName, name) : c)),
    ];
  } else {
    tree = ["symbol", q(libId), ...own.slice(2)];
  }
  const pins: SymbolPin[] = [];
  for (const unit of children(tree, "symbol")) {
    const m = /_(\d+)_(\d+)$/.exec(text(unit[1]));
    if (m && Number(m[2]) > 1) continue; // the De Morgan body style
    for (const pin of children(unit, "pin")) {
      const at = child(pin, "at")!;
      pins.push({
        number: text(child(pin, "number")![1]),
        name: text(child(pin, "name")![1]),
        type: pin[1] as string,
        x: Number(at[1]),
        y: Number(at[2]),
        angle: Number(at[3] ?? 0),
      });
    }
  }
  const result = { libId, tree, pins, power: !!child(tree, "power") };
  symbolCache.set(libId, result);
  return result;
}

/** The number of the pin called `name` on a symbol. */
export function pinNumber(libId: string, name: string): string {
  const pin = libSymbol(libId).pins.find((x) => x.name === name);
  if (!pin) throw new Error(`${libId} has no pin called ${name}`);
  return pin.number;
}

function renameUnit(unit: SExpr[], from: string, to: string): SExpr[] {
  const n = text(unit[1]);
  return ["symbol", q(to + n.slice(from.length)), ...unit.slice(2)];
}

// ---------------------------------------------------------------------------------------- own symbols

const font = ["effects", ["font", ["size", "1.27", "1.27"]]];
const hidden = ["effects", ["font", ["size", "1.27", "1.27"]], ["hide", "yes"]];

function prop(name: string, value: string, x: number, y: number, hide = false): SExpr[] {
  return ["property", q(name), q(value), ["at", num(x), num(y), "0"], hide ? hidden : font];
}

function pinNode(p: ModulePin, x: number, y: number, angle: number): SExpr[] {
  return [
    "pin",
    p.kind,
    "line",
    ["at", num(x), num(y), String(angle)],
    ["length", "2.54"],
    ["name", q(p.name), font],
    ["number", q(p.name), font],
  ];
}

/** A module drawn as a box: `left` pins down its left side, `right` down its right, pin numbers hidden. */
function moduleSymbol(name: string, ref: string, value: string, description: string, left: ModulePin[], right: ModulePin[]): SExpr[] {
  const rows = Math.max(left.length, right.length);
  const half = Math.ceil(rows / 2) * 2.54;
  const w = 12.7;
  const top = half;
  const pins = [
    ...left.map((p, i) => pinNode(p, -w - 2.54, top - 2.54 * (i + 1), 0)),
    ...right.map((p, i) => pinNode(p, w + 2.54, top - 2.54 * (i + 1), 180)),
  ];
  return [
    "symbol",
    q(name),
    ["pin_numbers", ["hide", "yes"]],
    ["pin_names", ["offset", "1.016"]],
    ["exclude_from_sim", "no"],
    ["in_bom", "yes"],
    ["on_board", "yes"],
    prop("Reference", ref, 0, top + 2.54),
    prop("Value", value, 0, top - 2.54 * (rows + 2)),
    prop("Footprint", `Brainboard:${name === "PowerBoost_1000C" ? "Adafruit_PowerBoost_1000C" : name}`, 0, 0, true),
    prop("Datasheet", "", 0, 0, true),
    prop("Description", description, 0, 0, true),
    [
      "symbol",
      q(`${name}_0_1`),
      [
        "rectangle",
        ["start", num(-w), num(top)],
        ["end", num(w), num(top - 2.54 * (rows + 1))],
        ["stroke", ["width", "0.254"], ["type", "default"]],
        ["fill", ["type", "background"]],
      ],
    ],
    ["symbol", q(`${name}_1_1`), ...pins],
    ["embedded_fonts", "no"],
  ];
}

function brainboardLibrary(): SExpr[] {
  return [
    "kicad_symbol_lib",
    ["version", "20241209"],
    ["generator", q("brainboard")],
    ["generator_version", q("9.0")],
    moduleSymbol(
      "Espruino_Pico",
      "U",
      "Espruino Pico",
      "Espruino Pico (STM32F401): pins by Espruino's names; VBAT is USB 5 V less a diode, BAT_IN takes 3.5-16 V, 3.3 is the regulator's output",
      [...PICO_TOP_ROW, ...PICO_END_ROW],
      PICO_BOTTOM_ROW,
    ),
    moduleSymbol(
      "PowerBoost_1000C",
      "U",
      "PowerBoost 1000C",
      "Adafruit PowerBoost 1000C: LiPo charger with load sharing and 5.2 V boost; EN low = boost off",
      POWERBOOST_PINS.filter((p) => ["BAT", "EN", "USB"].includes(p.name)),
      POWERBOOST_PINS.filter((p) => ["5V", "GND", "LBO"].includes(p.name)),
    ),
  ];
}

/** hardware/kicad/Brainboard.kicad_sym: the project's own symbols, for opening the schematic in KiCad. */
export function brainboardLibraryText(): string {
  return serialize(brainboardLibrary()) + "\n";
}
