/**
 * One schematic sheet being drawn: symbols placed on the 2.54 mm grid, each pin ending in a wire stub and its net's
 * label (a global label, so every net keeps its bare name across the sheets and in the PCB), a power symbol for
 * GND and +5V, or a no-connect flag; wires, junctions and notes; then the sheet's .kicad_sch text.
 * UUIDs are derived from the sheet and what they belong to, so the same profile always gives the same files.
 */
import type { BoardPart } from "./netlist.ts";
import { createHash } from "node:crypto";
import { child, children, num, q, serialize, text, type SExpr } from "./sexpr.ts";
import { libSymbol, type SymbolPin } from "./symbols.ts";

/** KiCad 9's schematic format. */
export const SCH_VERSION = "20250114";

/** Nets drawn with a power symbol (KiCad's power library names them globally). */
export const POWER_SYMBOLS: Record<string, string> = { GND: "power:GND", "+5V": "power:+5V" };

export function uuid(seed: string): string {
  const h = createHash("sha1").update(`sch:${seed}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const FONT: SExpr = ["font", ["size", "1.27", "1.27"]];
const STROKE: SExpr = ["stroke", ["width", "0"], ["type", "default"]];

type Dir = "left" | "right" | "up" | "down";
const STEP: Record<Dir, [number, number]> = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

export interface Placed {
  /** Schematic coordinates of each pin's connection point, by pin number. */
  pins: Map<string, { x: number; y: number; out: Dir }>;
}

export class Sheet {
  private items: SExpr[] = [];
  private libIds = new Set<string>();
  private powerCount = 0;
  /** Power symbols without their net's name beside them (where one sits at every part, as in the chain). */
  quietPower = false;
  private seq = 0;

  constructor(
    readonly file: string,
    readonly title: string,
    readonly paper: string,
    /** The instance path of this sheet's symbols: "/<root uuid>" or "/<root uuid>/<sheet uuid>". */
    readonly path: string,
    readonly project: string,
    /** The first number of this sheet's power-symbol references, so every sheet's are distinct. */
    private powerBase: number,
  ) {}

  private id(what: string): string {
    return uuid(`${this.project}/${this.file}/${what}`);
  }

  /** Places a part; with `connect`, every pin gets its stub and label, power symbol or no-connect flag. */
  place(
    part: BoardPart,
    x: number,
    y: number,
    rot = 0,
    connect = true,
    skip: string[] = [],
    /** Where the reference and value go; "symbol": where the library symbol puts them (modules). */
    textAt: "right" | "above" | "left" | "below" | "symbol" = "right",
  ): Placed {
    const sym = libSymbol(part.symbol);
    this.libIds.add(part.symbol);
    x = snap(x);
    y = snap(y);
    const pins = new Map<string, { x: number; y: number; out: Dir }>();
    for (const pin of sym.pins) {
      if (pins.has(pin.number)) continue;
      pins.set(pin.number, pinAt(pin, x, y, rot));
    }
    const fields: [string, string, boolean][] = [
      ["Reference", part.ref, false],
      ["Value", part.value, false],
      ["Footprint", part.footprint, true],
      ["Datasheet", "~", true],
      ["Description", part.Description, true],
      ["MPN", part.MPN, true],
      ["Manufacturer", part.Manufacturer, true],
      ["Supplier", part.Supplier, true],
      ["SupplierPN", part.SupplierPN, true],
    ];
    const box = Math.max(...sym.pins.map((p) => Math.abs(p.x)), 2.54);
    this.items.push([
      ...symbolHead(part.symbol, x, y, rot, this.id(`sym/${part.ref}`)),
      ...fields.map(([name, value, hide], i): SExpr => {
        const beside = {
          right: [x + box + 1.27, y - 1.27 + i * 2.54],
          left: [x - box - 1.27, y - 1.27 + i * 2.54],
          above: [x - box + i * 2 * box, y - 3.81],
          below: [x + box - 1.27, y + 5.08 + i * 2.54],
          symbol: libFieldAt(sym.tree, name, x, y),
        }[textAt];
        // KiCad turns a field with its symbol: a quarter turn is undone by the field's own angle, a half turn
        // swaps its justification.
        const angle = rot === 90 || rot === 270 ? String(rot) : "0";
        const at = i < 2 ? ["at", num(beside[0]), num(beside[1]), angle] : ["at", num(x), num(y), "0"];
        const justify = (textAt === "left") !== (rot === 180 || rot === 90) ? "right" : "left";
        const aligned = i < 2 && textAt !== "symbol";
        return [
          "property",
          q(name),
          q(value),
          at,
          ["effects", FONT, ...(aligned ? [["justify", justify]] : []), ...(hide ? [["hide", "yes"]] : [])],
        ];
      }),
      ...[...pins.keys()].map((n): SExpr => ["pin", q(n), ["uuid", q(this.id(`pin/${part.ref}/${n}`))]]),
      ["instances", ["project", q(this.project), ["path", q(this.path), ["reference", q(part.ref)], ["unit", "1"]]]],
    ]);
    if (connect)
      for (const [n, at] of pins) {
        if (skip.includes(n)) continue;
        const net = part.pins[n];
        if (net === undefined) throw new Error(`${part.ref}: pin ${n} of ${part.symbol} has no net in the netlist`);
        this.terminate(at, net, `${part.ref}/${n}`);
      }
    return { pins };
  }

  /** A pin's end: no-connect flag, or a stub out of the body ending in a power symbol or a global label. */
  terminate(at: { x: number; y: number; out: Dir }, net: string | null, what: string): void {
    if (net === null) {
      this.items.push(["no_connect", ["at", num(at.x), num(at.y)], ["uuid", q(this.id(`nc/${what}`))]]);
      return;
    }
    const [dx, dy] = STEP[at.out];
    const end = { x: at.x + dx * 2.54, y: at.y + dy * 2.54 };
    this.wire(at.x, at.y, end.x, end.y);
    if (POWER_SYMBOLS[net]) this.power(net, end.x, end.y, at.out);
    else this.label(net, end.x, end.y, at.out);
  }

  wire(x1: number, y1: number, x2: number, y2: number): void {
    if (x1 === x2 && y1 === y2) return;
    this.items.push(["wire", ["pts", ["xy", num(x1), num(y1)], ["xy", num(x2), num(y2)]], STROKE, ["uuid", q(this.id(`w/${this.seq++}`))]]);
  }

  junction(x: number, y: number): void {
    this.items.push([
      "junction",
      ["at", num(x), num(y)],
      ["diameter", "0"],
      ["color", "0", "0", "0", "0"],
      ["uuid", q(this.id(`j/${this.seq++}`))],
    ]);
  }

  /** A global label whose text runs away from the wire it ends. */
  label(net: string, x: number, y: number, out: Dir): void {
    const angle = { right: 0, up: 90, left: 180, down: 270 }[out];
    const justify = out === "left" || out === "down" ? "right" : "left";
    this.items.push([
      "global_label",
      q(net),
      ["shape", "passive"],
      ["at", num(x), num(y), String(angle)],
      ["effects", FONT, ["justify", justify]],
      ["uuid", q(this.id(`gl/${this.seq++}`))],
      ["property", q("Intersheetrefs"), q("${INTERSHEET_REFS}"), ["at", num(x), num(y), "0"], ["effects", FONT, ["hide", "yes"]]],
    ]);
  }

  /** A power symbol (GND, +5V) or a PWR_FLAG, its drawing pointing away from the wire. */
  power(net: string, x: number, y: number, out: Dir, flag = false): void {
    const libId = flag ? "power:PWR_FLAG" : POWER_SYMBOLS[net];
    this.libIds.add(libId);
    const sym = libSymbol(libId);
    // GND draws downwards at rotation 0, +5V and PWR_FLAG upwards.
    const down = libId === "power:GND";
    const rot = down ? { down: 0, right: 90, up: 180, left: 270 }[out] : { up: 0, left: 90, down: 180, right: 270 }[out];
    const ref = `${flag ? "#FLG" : "#PWR"}${String(this.powerBase + ++this.powerCount).padStart(4, "0")}`;
    this.items.push([
      ...symbolHead(libId, x, y, rot, this.id(`pwr/${ref}`)),
      ["property", q("Reference"), q(ref), ["at", num(x), num(y), "0"], ["effects", FONT, ["hide", "yes"]]],
      [
        "property",
        q("Value"),
        q(flag ? "PWR_FLAG" : net),
        [
          "at",
          num(x + (out === "left" ? -2.54 : out === "right" ? 2.54 : 0)),
          num(y + (out === "down" ? 5.08 : out === "up" ? -5.08 : 0)),
          "0",
        ],
        ["effects", FONT, ...(flag || this.quietPower ? [["hide", "yes"]] : [])],
      ],
      ["property", q("Footprint"), q(""), ["at", num(x), num(y), "0"], ["effects", FONT, ["hide", "yes"]]],
      ["property", q("Datasheet"), q(""), ["at", num(x), num(y), "0"], ["effects", FONT, ["hide", "yes"]]],
      ["pin", q(sym.pins[0].number), ["uuid", q(this.id(`pwrpin/${ref}`))]],
      ["instances", ["project", q(this.project), ["path", q(this.path), ["reference", q(ref)], ["unit", "1"]]]],
    ]);
  }

  /** A PWR_FLAG on a net: a stub up from (x, y), the flag, and the net's label or power symbol beside it. */
  flag(net: string, x: number, y: number): void {
    this.wire(x, y, x, y - 2.54);
    this.power(net, x, y - 2.54, "up", true);
    this.wire(x, y, x + 2.54, y);
    if (POWER_SYMBOLS[net]) this.power(net, x + 2.54, y, "right");
    else this.label(net, x + 2.54, y, "right");
  }

  note(s: string, x: number, y: number, size = 1.27, bold = false): void {
    const font: SExpr = ["font", ["size", num(size), num(size)], ...(bold ? [["bold", "yes"]] : [])];
    this.items.push([
      "text",
      q(s),
      ["exclude_from_sim", "no"],
      ["at", num(x), num(y), "0"],
      ["effects", font, ["justify", "left", "bottom"]],
      ["uuid", q(this.id(`t/${this.seq++}`))],
    ]);
  }

  /** A child sheet's box on this (root) sheet. */
  sheetBox(name: string, file: string, sheetUuid: string, page: number, x: number, y: number): void {
    this.items.push([
      "sheet",
      ["at", num(x), num(y)],
      ["size", "40.64", "10.16"],
      ["exclude_from_sim", "no"],
      ["in_bom", "yes"],
      ["on_board", "yes"],
      ["dnp", "no"],
      ["fields_autoplaced", "yes"],
      ["stroke", ["width", "0.1524"], ["type", "solid"]],
      ["fill", ["color", "0", "0", "0", "0.0000"]],
      ["uuid", q(sheetUuid)],
      ["property", q("Sheetname"), q(name), ["at", num(x), num(y - 0.7), "0"], ["effects", FONT, ["justify", "left", "bottom"]]],
      ["property", q("Sheetfile"), q(file), ["at", num(x), num(y + 10.76), "0"], ["effects", FONT, ["justify", "left", "top"]]],
      ["instances", ["project", q(this.project), ["path", q(this.path), ["page", q(String(page))]]]],
    ]);
  }

  /** The sheet's file text; the root also lists the sheet instances. */
  toText(sheetUuid: string, comments: string[], root: boolean): string {
    const lib = [...this.libIds].sort().map((id) => libSymbol(id).tree);
    const tree: SExpr = [
      "kicad_sch",
      ["version", SCH_VERSION],
      ["generator", q("eeschema")],
      ["generator_version", q("9.0")],
      ["uuid", q(sheetUuid)],
      ["paper", q(this.paper)],
      [
        "title_block",
        ["title", q(this.title)],
        ["company", q("Brainboard")],
        ...comments.map((c, i): SExpr => ["comment", String(i + 1), q(c)]),
      ],
      ["lib_symbols", ...lib],
      ...this.items,
      ...(root ? [["sheet_instances", ["path", q("/"), ["page", q("1")]]] as SExpr] : []),
      ["embedded_fonts", "no"],
    ];
    return serialize(tree) + "\n";
  }
}

/** Where the library symbol puts a field, for a symbol placed unturned at (x, y). */
function libFieldAt(tree: SExpr[], name: string, x: number, y: number): number[] {
  const field = children(tree, "property").find((f) => text(f[1]) === name);
  const at = field && child(field, "at");
  return at ? [x + Number(at[1]), y - Number(at[2])] : [x, y];
}

/** The start of a placed symbol: which, where, turned how far, in the BOM and on the board. */
function symbolHead(libId: string, x: number, y: number, rot: number, id: string): SExpr[] {
  return [
    "symbol",
    ["lib_id", q(libId)],
    ["at", num(x), num(y), String(rot)],
    ["unit", "1"],
    ["exclude_from_sim", "no"],
    ["in_bom", "yes"],
    ["on_board", "yes"],
    ["dnp", "no"],
    ["uuid", q(id)],
  ];
}

/** Where a pin's connection point lands on the sheet, and which way is out of the body. */
function pinAt(pin: SymbolPin, x: number, y: number, rot: number): { x: number; y: number; out: Dir } {
  const r = (rot * Math.PI) / 180;
  const cos = Math.round(Math.cos(r));
  const sin = Math.round(Math.sin(r));
  const px = pin.x * cos - pin.y * sin;
  const py = pin.x * sin + pin.y * cos;
  // The pin's angle points into the body; out is the opposite, turned with the symbol (y up in the symbol).
  const a = (((pin.angle + rot + 180) % 360) + 360) % 360;
  const out: Dir = a === 0 ? "right" : a === 90 ? "up" : a === 180 ? "left" : "down";
  return { x: round(x + px), y: round(y - py), out };
}

/** Symbols sit on KiCad's 1.27 mm connection grid, so their pins do too. */
function snap(v: number): number {
  return round(Math.round(v / 1.27) * 1.27);
}

function round(v: number): number {
  return Math.round(v * 10000) / 10000;
}
