/**
 * npx tsx hardware/gen-docs.ts [--check]   (npm run docs:hardware, npm run docs:hardware:check)
 *
 * Writes, from the profiles in hardware/profiles/: wiring-<id>.md (pins, LED chain, key matrices, parts) and
 * wiring-<id>.svg (a wiring diagram) for every profile, bom.csv for the reference unit, and the generated blocks of
 * hardware/README.md. With --check it writes nothing and exits 1 when any of them differs from what the profiles
 * produce, so the docs cannot drift from the data.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as prettier from "prettier";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BOARDS, type BoardInfo } from "./boards.ts";
import {
  columnPins,
  DEFAULT_PROFILE,
  keyList,
  ledCount,
  listProfiles,
  loadProfile,
  segmentOffsets,
  type KeyInfo,
  type Profile,
} from "./profile.ts";

import { design, enclosureSvg, layoutSvg, PRICES, schematicSvg, totalCost, type Part } from "./design.ts";

export const HARDWARE_DIR = fileURLToPath(new URL("./", import.meta.url));
export const README = "README.md";

// ----------------------------------------------------------------------------------------------- pins

export type PinGroup = "led" | "power" | "row" | "column" | "buzzer" | "battery" | "console" | "free";

export interface PinUse {
  pin: string;
  group: PinGroup;
  /** Short name on the diagram. */
  label: string;
  function: string;
  notes: string;
}

/** Data series resistor, gate and base resistors: the values the parts list and the notes use. */
const SERIES_OHMS = "330 Ω";
const DIVIDER_BOTTOM_KOHM = 100;

function boardOf(p: Profile): BoardInfo {
  return BOARDS[p.board];
}

/** How neopixel.write drives this pin: the SPI MOSI function on STM32, the RMT peripheral on ESP32. */
function ledDriver(board: BoardInfo, pin: string): string {
  return board.pinNotes?.[pin]?.match(/SPI[\d/]+ MOSI/)?.[0] ?? (board.espruinoBoard === "ESP32" ? "RMT" : "neopixel");
}

function dividerTopKOhm(ratio: number): number {
  return Math.round((ratio - 1) * DIVIDER_BOTTOM_KOHM * 10) / 10;
}

function keyNames(ids: string[]): string {
  const real = ids.filter(Boolean);
  return real.length > 3 ? `${real[0]}, ${real[1]} … ${real[real.length - 1]}` : real.join(", ");
}

/** Every pin the profile uses, in the order of the docs (LED data, LED power, rows, columns, buzzer, battery), then the rest. */
export function pinUses(p: Profile): PinUse[] {
  const board = boardOf(p);
  const out: PinUse[] = [];
  const note = (pin: string, text: string, known = "") => {
    const extra = board.pinNotes?.[pin];
    return extra && !known.includes(extra) ? `${text}. ${board.name}: ${extra}` : text;
  };
  const first = p.leds.segments[0];
  const driver = `LED data (${ledDriver(board, p.leds.pin)})`;
  out.push({
    pin: p.leds.pin,
    group: "led",
    label: "LED data",
    function: driver,
    notes: note(
      p.leds.pin,
      `via the level shifter (74AHCT125, 3.3 V → 5 V) and a ${SERIES_OHMS} series resistor to DIN of the first LED (segment "${first.name}"); ${ledCount(p)} ${p.leds.type} in one chain`,
      driver,
    ),
  });
  if (p.leds.powerPin) {
    const on = (p.leds.powerOnLevel ?? 1) === 1 ? "high" : "low";
    out.push({
      pin: p.leds.powerPin,
      group: "power",
      label: "LED power",
      function: "LED power switch",
      notes: note(
        p.leds.powerPin,
        `${on} = LEDs on: through a 4.7 kΩ base resistor (100 kΩ base pull-down) to the NPN that pulls the P-MOSFET's gate low through 10 kΩ; a 100 kΩ gate pull-up keeps the LEDs off while the MCU boots or sleeps (a dark WS2812B still draws ~${p.leds.idleMaPerPixel} mA), and 220 nF on the gate ramps the supply up softly`,
      ),
    });
  }
  p.keys.rowPins.forEach((pin, r) => {
    const uses = p.keys.matrices
      .map((m) => ({ m, i: m.rows.indexOf(r) }))
      .filter((u) => u.i >= 0)
      .map((u) => `${u.m.name} row ${u.i + 1} (${keyNames(u.m.keys[u.i])})`);
    out.push({
      pin,
      group: "row",
      label: `row ${r + 1}`,
      function: `key row line ${r + 1}`,
      notes: note(pin, `open-drain, driven low one row at a time; diode cathodes of ${uses.join(" and ")}`),
    });
  });
  let line = 0;
  const total = columnPins(p).length;
  for (const m of p.keys.matrices)
    m.colPins.forEach((pin, c) => {
      line++;
      out.push({
        pin,
        group: "column",
        label: `${m.name} col ${c + 1}`,
        function: `${m.name} column ${c + 1} (column line ${line} of ${total})`,
        notes: note(pin, `input with pull-up, watched to wake the unit; diode anodes of ${keyNames(m.keys.map((row) => row[c]))}`),
      });
    });
  if (p.buzzer)
    out.push({
      pin: p.buzzer.pin,
      group: "buzzer",
      label: "buzzer",
      function: "buzzer (PWM)",
      notes: note(p.buzzer.pin, "through a 1 kΩ base resistor to the NPN that switches the passive piezo"),
    });
  if (p.battery) {
    const b = p.battery;
    out.push({
      pin: b.pin,
      group: "battery",
      label: "battery",
      function: "battery voltage (ADC)",
      notes: note(
        b.pin,
        `the cell's + through a ${dividerTopKOhm(b.dividerRatio)} kΩ / ${DIVIDER_BOTTOM_KOHM} kΩ divider (ratio ${b.dividerRatio}; the ${board.name} has none): full ${b.fullV} V, low ${b.lowV} V, empty ${b.emptyV} V`,
      ),
    });
  }
  const used = new Set(out.map((u) => u.pin));
  for (const pin of board.pins) {
    if (used.has(pin)) continue;
    const console = board.consolePins?.includes(pin);
    out.push({
      pin,
      group: console ? "console" : "free",
      label: console ? "console" : "free",
      function: console ? "serial console (kept free)" : "free",
      notes: board.pinNotes?.[pin] ?? "",
    });
  }
  return out;
}

// ------------------------------------------------------------------------------------ parts list

export type { Part } from "./design.ts";

/** The parts for a profile (hardware/design.ts): counted from it, with reference designators and estimated prices. */
export function billOfMaterials(p: Profile): Part[] {
  return design(p).parts;
}

function csvField(s: string | number): string {
  const t = String(s);
  return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** The parts list as CSV, with each line's estimated price (PRICES: currency and date) and the total. */
export function bomCsv(parts: Part[]): string {
  const cur = PRICES.currency.toLowerCase();
  const rows: (string | number)[][] = [
    ["ref", "qty", "part", "value/spec", "note", `unit_${cur}`, `total_${cur}`],
    ...parts.map((x) => [x.ref, x.qty, x.part, x.spec, x.note, x.unit.toFixed(2), (x.qty * x.unit).toFixed(2)]),
    [
      "",
      "",
      "total",
      `estimate, ${PRICES.currency}, prices of ${PRICES.date}`,
      "one-off hobby-distributor prices; check before buying",
      "",
      totalCost(parts).toFixed(2),
    ],
  ];
  return rows.map((row) => row.map(csvField).join(",")).join("\n") + "\n";
}

// ------------------------------------------------------------------------------------- markdown

function mdCell(s: string | number): string {
  return String(s).replace(/\|/g, "\\|");
}

function mdTable(head: string[], rows: (string | number)[][]): string {
  return [
    `| ${head.map(mdCell).join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(mdCell).join(" | ")} |`),
  ].join("\n");
}

export function partsTable(p: Profile): string {
  const parts = billOfMaterials(p);
  return (
    mdTable(
      ["Ref", "Qty", "Part", "Value / spec", "Note", `Est. ${PRICES.currency}`],
      parts.map((x) => [x.ref, x.qty, x.part, x.spec, x.note, (x.qty * x.unit).toFixed(2)]),
    ) +
    `\n\nEstimated total: about ${totalCost(parts)} ${PRICES.currency} (one-off hobby-distributor prices as of ${PRICES.date}; estimates, not quotes).`
  );
}

export function profilesTable(ids: string[]): string {
  return mdTable(
    ["Profile", "Board", "Pegs x rows", "LEDs", "Keys (pads)", "LED budget", "Wiring"],
    ids.map((id) => {
      const p = loadProfile(id);
      return [
        `\`${id}\``,
        boardOf(p).name,
        `${p.pegs} x ${p.rows}`,
        ledCount(p),
        `${keyList(p).length} (${p.keys.matrices.map((m) => `${m.rows.length}x${m.colPins.length}`).join(" + ")})`,
        `${p.leds.budgetMa} mA`,
        `[wiring-${id}.md](wiring-${id}.md), [svg](wiring-${id}.svg)`,
      ];
    }),
  );
}

/** Every profile's drawings, linked, with its power choice and estimated cost. */
export function drawingsTable(ids: string[]): string {
  return mdTable(
    ["Profile", "Power", "Schematic", "Perfboard layout", "Enclosure top plate", "Parts, est."],
    ids.map((id) => {
      const p = loadProfile(id);
      return [
        `\`${id}\``,
        p.battery ? `battery (divider on ${p.battery.pin}) or USB` : "USB only",
        `[schematic-${id}.svg](schematic-${id}.svg)`,
        `[layout-${id}.svg](layout-${id}.svg)`,
        `[enclosure-${id}.svg](enclosure-${id}.svg)`,
        `${totalCost(billOfMaterials(p))} ${PRICES.currency}`,
      ];
    }),
  );
}

function segmentLayout(s: Profile["leds"]["segments"][number]): string {
  const shape = s.rows !== undefined ? `${s.rows} rows x ${s.cols}` : "a line";
  return s.shielded ? `${shape}, under the shield` : shape;
}

export function wiringMarkdown(p: Profile): string {
  const board = boardOf(p);
  const keys = keyList(p);
  const seg = segmentOffsets(p);
  const leds = ledCount(p);
  const uses = pinUses(p);
  const used = uses.filter((u) => u.group !== "free" && u.group !== "console");
  const spare = uses.filter((u) => u.group === "free" || u.group === "console");
  const byId = new Map(keys.map((k) => [k.id, k]));
  const colStart = new Map<string, number>();
  let cs = 0;
  for (const m of p.keys.matrices) {
    colStart.set(m.name, cs);
    cs += m.colPins.length;
  }
  const fullWhiteMa = leds * 3 * p.leds.maPerChannel;
  const out: string[] = [];
  out.push(`# Wiring: ${p.name}`);
  out.push("");
  out.push(
    `<!-- Generated by hardware/gen-docs.ts from hardware/profiles/${p.id}.json. Do not edit: change the profile and run npm run docs:hardware. -->`,
  );
  out.push("");
  out.push(
    `Board: **${board.name}**. Game board: ${p.pegs} pegs x ${p.rows} rows. LEDs: ${leds} ${p.leds.type} in one chain. ` +
      `Keys: ${keys.length} in ${p.keys.matrices.length} ${p.keys.diodes ? "diode " : ""}${p.keys.matrices.length > 1 ? "matrices" : "matrix"} ` +
      `on ${p.keys.rowPins.length} row lines and ${columnPins(p).length} column lines. LED current budget: ${p.leds.budgetMa} mA.`,
  );
  out.push("");
  out.push(`![Wiring diagram of ${p.name}](wiring-${p.id}.svg)`);
  out.push("");
  out.push("## Pins");
  out.push("");
  out.push(
    mdTable(
      ["Pin", "Function", "Notes"],
      used.map((u) => [u.pin, u.function, u.notes]),
    ),
  );
  out.push("");
  out.push(
    `Not used: ${spare.map((u) => (u.notes ? `${u.pin} (${u.notes})` : u.pin)).join(", ") || "none"}. Every GND (LEDs, level shifter, transistors, divider) goes to the board's GND.`,
  );
  out.push("");
  out.push("## LED chain");
  out.push("");
  out.push(`Data enters at the first pixel of the first segment and runs through the segments in this order.`);
  out.push("");
  out.push(
    mdTable(
      ["Order", "Segment", "Pixels", "Chain index", "Layout", "About"],
      p.leds.segments.map((s, i) => [
        i + 1,
        s.name,
        s.count,
        `${seg[s.name].start}–${seg[s.name].start + s.count - 1}`,
        segmentLayout(s),
        s.about ?? "",
      ]),
    ),
  );
  out.push("");
  out.push(
    `${leds} pixels. All dark they still draw about ${leds * p.leds.idleMaPerPixel} mA (${p.leds.idleMaPerPixel} mA each), which is why the supply is switched off in sleep. ` +
      `All white at full duty would be ${fullWhiteMa} mA (${p.leds.maPerChannel} mA per channel), so the firmware scales every frame to keep its estimate within ${p.leds.budgetMa} mA.`,
  );
  out.push("");
  out.push("## Key matrices");
  out.push("");
  out.push(
    p.keys.diodes
      ? "Each key is a switch in series with a 1N4148: anode to the column line, cathode to the row line. Rows are open-drain outputs driven low one at a time; columns are inputs with pull-ups, watched so a press wakes the unit. With the diodes, any number of keys held together reads correctly (no ghost keys)."
      : "This build has no diodes: the firmware ignores scans that show the ghost pattern of three or more keys held together.",
  );
  out.push("");
  for (const m of p.keys.matrices) {
    out.push(`### ${m.name}${m.about ? `: ${m.about}` : ""}`);
    out.push("");
    const base = colStart.get(m.name)!;
    out.push(
      mdTable(
        ["row line \\ column", ...m.colPins.map((pin, c) => `${pin} (col ${c + 1}, line ${base + c + 1})`)],
        m.keys.map((row, r) => [
          `${p.keys.rowPins[m.rows[r]]} (row ${m.rows[r] + 1})`,
          ...row.map((id) => (id ? `${id} (key ${byId.get(id)!.index})` : "—")),
        ]),
      ),
    );
    out.push("");
  }
  out.push("## Keys");
  out.push("");
  out.push("The self-test prints `key <n> down` and `key <n> up` on the USB console; n is the key number here.");
  out.push("");
  out.push(
    mdTable(
      ["Key", "Id", "Matrix", "Row pin", "Column pin", "Legend"],
      keys.map((k: KeyInfo) => [k.index, k.id, k.matrix, p.keys.rowPins[k.rowLine], columnPins(p)[k.colLine], k.legend]),
    ),
  );
  out.push("");
  out.push("## Parts");
  out.push("");
  out.push(partsTable(p));
  out.push("");
  return out.join("\n");
}

// ------------------------------------------------------------------------------------------ SVG

const COLOURS: Record<PinGroup, string> = {
  led: "#138a36",
  power: "#c0392b",
  row: "#1f5fbf",
  column: "#d35400",
  buzzer: "#8e44ad",
  battery: "#9a7d0a",
  console: "#888888",
  free: "#aaaaaa",
};

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

class Svg {
  private parts: string[] = [];
  width = 0;
  height = 0;

  private grow(x: number, y: number): void {
    this.width = Math.max(this.width, x);
    this.height = Math.max(this.height, y);
  }

  line(x1: number, y1: number, x2: number, y2: number, colour = "#222", width = 1.5): void {
    this.grow(Math.max(x1, x2), Math.max(y1, y2));
    this.parts.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${colour}" stroke-width="${width}"/>`);
  }

  path(d: string, colour = "#222", fill = "none", width = 1.5): void {
    this.parts.push(`<path d="${d}" stroke="${colour}" fill="${fill}" stroke-width="${width}" stroke-linejoin="round"/>`);
  }

  rect(x: number, y: number, w: number, h: number, opts: { fill?: string; stroke?: string; rx?: number } = {}): void {
    this.grow(x + w, y + h);
    this.parts.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${opts.rx ?? 3}" fill="${opts.fill ?? "#fff"}" stroke="${opts.stroke ?? "#222"}" stroke-width="1.5"/>`,
    );
  }

  dot(x: number, y: number, colour = "#222"): void {
    this.parts.push(`<circle cx="${x}" cy="${y}" r="3" fill="${colour}"/>`);
  }

  circle(x: number, y: number, r: number, colour = "#222"): void {
    this.grow(x + r, y + r);
    this.parts.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" stroke="${colour}" stroke-width="1.5"/>`);
  }

  text(
    x: number,
    y: number,
    s: string,
    opts: { size?: number; anchor?: "start" | "middle" | "end"; colour?: string; bold?: boolean } = {},
  ): void {
    const size = opts.size ?? 12;
    const anchor = opts.anchor ?? "start";
    // Rough text extent, so the canvas grows to fit labels too.
    const w = s.length * size * 0.6;
    this.grow(anchor === "start" ? x + w : anchor === "middle" ? x + w / 2 : x, y + 4);
    this.parts.push(
      `<text x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}"${opts.colour ? ` fill="${opts.colour}"` : ""}${opts.bold ? ' font-weight="bold"' : ""}>${esc(s)}</text>`,
    );
  }

  /** A ground symbol hanging from (x, y). */
  ground(x: number, y: number): void {
    this.line(x, y, x, y + 8);
    this.line(x - 8, y + 8, x + 8, y + 8);
    this.line(x - 5, y + 11, x + 5, y + 11);
    this.line(x - 2, y + 14, x + 2, y + 14);
  }

  /** A resistor (IEC box) between two points on a vertical or horizontal line. */
  resistor(x1: number, y1: number, x2: number, y2: number, label: string, colour = "#222"): void {
    const vertical = x1 === x2;
    const len = vertical ? y2 - y1 : x2 - x1;
    const body = Math.min(34, len - 10);
    const a = (len - body) / 2;
    if (vertical) {
      this.line(x1, y1, x1, y1 + a, colour);
      this.rect(x1 - 6, y1 + a, 12, body, { rx: 1 });
      this.line(x1, y1 + a + body, x1, y2, colour);
      this.text(x1 + 11, y1 + len / 2 + 4, label, { size: 11 });
    } else {
      this.line(x1, y1, x1 + a, y1, colour);
      this.rect(x1 + a, y1 - 6, body, 12, { rx: 1 });
      this.line(x1 + a + body, y1, x2, y1, colour);
      this.text(x1 + len / 2, y1 - 10, label, { size: 11, anchor: "middle" });
    }
  }

  toString(): string {
    const w = Math.ceil(this.width + 20);
    const h = Math.ceil(this.height + 20);
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="Helvetica, Arial, sans-serif">`,
      `<rect x="0" y="0" width="${w}" height="${h}" fill="#fff"/>`,
      ...this.parts,
      "</svg>",
      "",
    ].join("\n");
  }
}

interface Net {
  use: PinUse;
  pinY: number;
  /** Where the wire ends: it arrives horizontally from the left at (x, y) unless `busY` routes it down from above. */
  target: { x: number; y: number };
  channel: number;
}

/** The wiring diagram: the board with its pins, one wire per used pin to the LED chain, the key matrices, the buzzer and the divider. */
export function wiringSvg(p: Profile): string {
  const board = boardOf(p);
  const svg = new Svg();
  const uses = pinUses(p);
  const wired = uses.filter((u) => u.group !== "free" && u.group !== "console");
  const keys = keyList(p);
  const byId = new Map(keys.map((k) => [k.id, k]));

  svg.text(20, 28, `${p.name}: wiring`, { size: 18, bold: true });
  svg.text(20, 48, `generated from hardware/profiles/${p.id}.json by hardware/gen-docs.ts`, { size: 11, colour: "#666" });

  // The board: its pins down the right edge, in board order.
  const PIN_DY = 24;
  const BX = 20;
  const BW = 210;
  const BY = 80;
  const pinY = new Map<string, number>();
  // Pin rows at odd y, every target at even y: a pin's wire never runs along another net's wire.
  board.pins.forEach((pin, i) => pinY.set(pin, BY + 51 + i * PIN_DY));
  const boardH = 50 + board.pins.length * PIN_DY + 40;
  svg.rect(BX, BY, BW, boardH, { fill: "#f4f6f8" });
  svg.rect(BX + BW / 2 - 24, BY - 14, 48, 14, { fill: "#ddd" });
  svg.text(BX + BW / 2, BY - 3, "USB", { size: 10, anchor: "middle" });
  svg.text(BX + 10, BY + 22, board.name, { size: 14, bold: true });
  const useOf = new Map(uses.map((u) => [u.pin, u]));
  for (const pin of board.pins) {
    const y = pinY.get(pin)!;
    const u = useOf.get(pin)!;
    const colour = COLOURS[u.group];
    svg.line(BX + BW, y, BX + BW + 20, y, colour, 2);
    svg.text(BX + BW - 8, y + 4, pin, { size: 12, anchor: "end", bold: u.group !== "free" && u.group !== "console" });
    svg.text(BX + 10, y + 4, u.label, { size: 11, colour });
  }
  svg.text(BX + 10, BY + boardH - 14, "GND: common to every part", { size: 11 });

  // Routing: each wired pin gets its own vertical channel between the board and the parts.
  const CH0 = BX + BW + 40;
  const CH_DX = 10;
  const XC = CH0 + wired.length * CH_DX + 40;

  // ---- LED supply and chain.
  const RAIL_Y = 110;
  const DATA_Y = RAIL_Y + 120;
  svg.text(XC, RAIL_Y - 12, p.battery ? "+5V (U3)" : "VCC (USB)", { size: 11, bold: true });
  svg.line(XC, RAIL_Y, XC + 60, RAIL_Y, COLOURS.power);
  svg.rect(XC + 60, RAIL_Y - 9, 46, 18, { rx: 2 });
  svg.text(XC + 83, RAIL_Y + 4, "F1", { size: 11, anchor: "middle" });
  svg.text(XC + 83, RAIL_Y - 14, "500 mA PTC", { size: 10, anchor: "middle" });
  let railStart = XC + 106;
  const targets = new Map<string, { x: number; y: number; busY?: number }>();
  if (p.leds.powerPin) {
    const qx = XC + 130;
    svg.line(railStart, RAIL_Y, qx, RAIL_Y, COLOURS.power);
    svg.rect(qx, RAIL_Y - 16, 110, 32, { fill: "#fdecea" });
    svg.text(qx + 55, RAIL_Y - 2, "Q1 P-MOSFET", { size: 11, anchor: "middle" });
    svg.text(qx + 55, RAIL_Y + 11, "high-side switch", { size: 10, anchor: "middle" });
    svg.rect(qx, RAIL_Y + 40, 110, 40, { fill: "#fdecea" });
    svg.text(qx + 55, RAIL_Y + 55, "Q2 NPN gate driver", { size: 11, anchor: "middle" });
    svg.text(qx + 55, RAIL_Y + 70, "soft start: see schematic", { size: 9, anchor: "middle" });
    svg.line(qx + 55, RAIL_Y + 16, qx + 55, RAIL_Y + 40);
    svg.text(qx + 59, RAIL_Y + 31, "gate", { size: 9, colour: "#666" });
    svg.ground(qx + 90, RAIL_Y + 80);
    targets.set(p.leds.powerPin, { x: qx, y: RAIL_Y + 60 });
    railStart = qx + 110;
  }
  const C1X = railStart + 40;
  const SX = C1X + 60;
  const SEG_W = 118;
  const SEG_GAP = 30;
  const SEG_Y = DATA_Y - 28;
  const seg = segmentOffsets(p);
  svg.line(railStart, RAIL_Y, SX + (p.leds.segments.length - 1) * (SEG_W + SEG_GAP) + 20, RAIL_Y, COLOURS.power);
  svg.text(railStart + 6, RAIL_Y - 6, "LED +5 V", { size: 10, colour: COLOURS.power });
  // C1 across the LED supply, at the start of the chain.
  svg.dot(C1X, RAIL_Y);
  svg.line(C1X, RAIL_Y, C1X, RAIL_Y + 24);
  svg.line(C1X - 10, RAIL_Y + 24, C1X + 10, RAIL_Y + 24, "#222", 2);
  svg.path(`M ${C1X - 10} ${RAIL_Y + 33} Q ${C1X} ${RAIL_Y + 27} ${C1X + 10} ${RAIL_Y + 33}`, "#222", "none", 2);
  svg.text(C1X - 16, RAIL_Y + 24, "+", { size: 10 });
  svg.line(C1X, RAIL_Y + 30, C1X, RAIL_Y + 44);
  svg.ground(C1X, RAIL_Y + 44);
  svg.text(C1X + 12, RAIL_Y + 40, `${design(p).refs.bulk} 220 µF`, { size: 10 });
  // Data: level shifter, series resistor, then the segments in chain order.
  const U2X = XC + 10;
  svg.rect(U2X, DATA_Y - 20, 110, 40, { fill: "#eaf6ee" });
  svg.text(U2X + 55, DATA_Y - 4, "U2 74AHCT125", { size: 11, anchor: "middle" });
  svg.text(U2X + 55, DATA_Y + 10, "3.3 V → 5 V", { size: 10, anchor: "middle" });
  targets.set(p.leds.pin, { x: U2X, y: DATA_Y });
  svg.resistor(U2X + 110, DATA_Y, SX, DATA_Y, `R1 ${SERIES_OHMS}`, COLOURS.led);
  p.leds.segments.forEach((s, i) => {
    const x = SX + i * (SEG_W + SEG_GAP);
    svg.rect(x, SEG_Y, SEG_W, 56, { fill: s.shielded ? "#e8e8e8" : "#fffbe6" });
    svg.text(x + SEG_W / 2, SEG_Y + 17, `${i + 1}. ${s.name}`, { size: 12, anchor: "middle", bold: true });
    svg.text(x + SEG_W / 2, SEG_Y + 32, `${s.count} px, #${seg[s.name].start}–${seg[s.name].start + s.count - 1}`, {
      size: 10,
      anchor: "middle",
    });
    svg.text(x + SEG_W / 2, SEG_Y + 46, segmentLayout(s), { size: 10, anchor: "middle", colour: "#555" });
    svg.line(x + 20, SEG_Y, x + 20, RAIL_Y, COLOURS.power);
    svg.dot(x + 20, RAIL_Y, COLOURS.power);
    svg.ground(x + SEG_W - 20, SEG_Y + 56);
    if (i > 0) {
      const x0 = x - SEG_GAP;
      svg.line(x0, DATA_Y, x, DATA_Y, COLOURS.led);
      svg.path(`M ${x - 7} ${DATA_Y - 4} L ${x} ${DATA_Y} L ${x - 7} ${DATA_Y + 4}`, COLOURS.led);
    }
  });
  svg.text(SX, SEG_Y + 90, `${ledCount(p)} ${p.leds.type}: DIN of each segment from DOUT of the one before; 5 V and GND to every segment`, {
    size: 11,
  });

  // ---- Key matrices: rows across, columns down; the matrices share the row lines.
  const CELL = 64;
  const cols = columnPins(p);
  const KY = SEG_Y + 130;
  const MY = KY + cols.length * 10 + 40;
  const rowY = (r: number) => MY + 46 + r * CELL;
  const MX0 = XC + 110;
  let mx = MX0;
  const colX: number[] = [];
  const matrixX: number[] = [];
  for (const m of p.keys.matrices) {
    matrixX.push(mx);
    m.colPins.forEach((_, c) => colX.push(mx + c * CELL + 14));
    mx += m.colPins.length * CELL + 70;
  }
  // Rightmost columns take the topmost bus lines, so no bus crosses another column's line.
  const busY = (line: number) => KY + (cols.length - 1 - line) * 10;
  const lastRowOf = p.keys.matrices.map((m) => Math.max(...m.rows));
  p.keys.rowPins.forEach((pin, r) => {
    const y = rowY(r);
    const ends = p.keys.matrices.map((m, i) => (m.rows.includes(r) ? matrixX[i] + m.colPins.length * CELL : 0));
    svg.line(XC, y, Math.max(...ends), y, COLOURS.row);
    svg.text(XC + 4, y - 6, `${pin} · row ${r + 1}`, { size: 11, colour: COLOURS.row, bold: true });
    targets.set(pin, { x: XC, y });
  });
  let line = 0;
  p.keys.matrices.forEach((m, mi) => {
    const bottom = rowY(lastRowOf[mi]) - 40;
    m.colPins.forEach((pin, c) => {
      const x = colX[line];
      const y0 = busY(line);
      svg.line(x, y0, x, bottom, COLOURS.column);
      svg.text(x + 4, MY - 14, pin, { size: 11, colour: COLOURS.column, bold: true });
      svg.text(x + 4, MY - 2, `col ${c + 1}`, { size: 10, colour: COLOURS.column });
      targets.set(pin, { x, y: y0, busY: y0 });
      line++;
    });
    m.keys.forEach((row, r) =>
      row.forEach((id, c) => {
        if (!id) return;
        const cx = matrixX[mi] + c * CELL + 14;
        const ry = rowY(m.rows[r]);
        const bx = cx + 20;
        // Column -> diode (anode up, cathode bar down) -> switch -> row.
        svg.dot(cx, ry - 40, COLOURS.column);
        svg.line(cx, ry - 40, bx, ry - 40);
        if (p.keys.diodes) {
          svg.path(`M ${bx - 5} ${ry - 36} L ${bx + 5} ${ry - 36} L ${bx} ${ry - 28} Z`, "#222", "#222", 1);
          svg.line(bx - 5, ry - 28, bx + 5, ry - 28, "#222", 1.5);
          svg.line(bx, ry - 40, bx, ry - 36);
          svg.line(bx, ry - 28, bx, ry - 22);
        } else svg.line(bx, ry - 40, bx, ry - 22);
        svg.circle(bx, ry - 20, 2);
        svg.line(bx, ry - 18, bx + 7, ry - 8);
        svg.circle(bx, ry - 6, 2);
        svg.line(bx, ry - 4, bx, ry);
        svg.dot(bx, ry, COLOURS.row);
        svg.text(bx + 8, ry - 28, id, { size: 10 });
        svg.text(bx + 10, ry - 12, `#${byId.get(id)!.index}`, { size: 9, colour: "#777" });
      }),
    );
    const gridBottom = rowY(lastRowOf[mi]) + 22;
    svg.text(matrixX[mi], gridBottom, `${m.name}: ${m.about ?? "key matrix"} (${m.rows.length} rows x ${m.colPins.length} columns)`, {
      size: 11,
      bold: true,
    });
  });
  const keysBottom = rowY(p.keys.rowPins.length - 1) + 40;
  // Legend for one key.
  svg.text(
    XC,
    keysBottom + 10,
    p.keys.diodes
      ? "Each key: column → diode (anode at the column, cathode bar toward the row) → switch → row. Rows: open-drain, driven low one at a time. Columns: input with pull-up, watched."
      : "Each key: column → switch → row (no diodes). Rows: open-drain, driven low one at a time. Columns: input with pull-up, watched.",
    { size: 11 },
  );

  // ---- Buzzer and battery divider.
  const PY = keysBottom + 50;
  if (p.buzzer) {
    const y = PY + 30;
    svg.rect(XC + 40, y - 20, 130, 40, { fill: "#f5eefa" });
    svg.text(XC + 105, y - 4, `${design(p).refs.buzzerDriver} NPN, 1 k base, flyback diode`, { size: 11, anchor: "middle" });
    svg.text(XC + 105, y + 10, "1 k across BZ1", { size: 10, anchor: "middle" });
    svg.line(XC, y, XC + 40, y, COLOURS.buzzer);
    svg.ground(XC + 105, y + 20);
    svg.line(XC + 170, y, XC + 215, y);
    svg.circle(XC + 235, y, 20, COLOURS.buzzer);
    svg.text(XC + 235, y + 4, "BZ1", { size: 11, anchor: "middle" });
    svg.line(XC + 235, y - 20, XC + 235, y - 36);
    svg.text(XC + 241, y - 30, "5 V", { size: 10 });
    targets.set(p.buzzer.pin, { x: XC, y });
  }
  if (p.battery) {
    const x = XC + 420;
    const tapY = PY + 120;
    svg.text(x - 30, PY + 8, "BT1 + (LiPo, through U3)", { size: 11, bold: true });
    svg.line(x, PY + 14, x, PY + 30, COLOURS.battery);
    svg.resistor(x, PY + 30, x, tapY, `${dividerTopKOhm(p.battery.dividerRatio)} kΩ`, COLOURS.battery);
    svg.dot(x, tapY, COLOURS.battery);
    svg.resistor(x, tapY, x, tapY + 80, `${DIVIDER_BOTTOM_KOHM} kΩ`, COLOURS.battery);
    svg.ground(x, tapY + 80);
    svg.text(x + 10, tapY - 6, `ratio ${p.battery.dividerRatio}`, { size: 10, colour: COLOURS.battery });
    targets.set(p.battery.pin, { x, y: tapY });
  }

  // ---- The wires, pin to channel to part.
  const nets: Net[] = wired.map((use) => ({ use, pinY: pinY.get(use.pin)!, target: targets.get(use.pin)!, channel: 0 }));
  // Channels in the order of the targets from the top: nearer the parts for the targets further down.
  [...nets]
    .sort((a, b) => a.target.y - b.target.y || a.target.x - b.target.x)
    .forEach((n, i) => (n.channel = CH0 + (wired.length - 1 - i) * CH_DX));
  for (const n of nets) {
    const colour = COLOURS[n.use.group];
    const sx = BX + BW + 20;
    const t = targets.get(n.use.pin)!;
    svg.line(sx, n.pinY, n.channel, n.pinY, colour);
    svg.line(n.channel, n.pinY, n.channel, t.y, colour);
    svg.line(n.channel, t.y, t.x, t.y, colour);
    svg.dot(sx, n.pinY, colour);
  }
  return svg.toString();
}

// ------------------------------------------------------------------------------ files and check

export interface GeneratedFile {
  /** Relative to hardware/. */
  path: string;
  content: string;
}

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in a hand-written file. */
export function fillBlocks(text: string, blocks: Record<string, string>, file: string): string {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`${file} has no <!-- generated:${name} --> ... <!-- /generated:${name} --> block`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}

/** Markdown as the project's Prettier settings print it, so `prettier --check .` and --check agree. */
async function formatMarkdown(path: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(HARDWARE_DIR + path)) ?? {};
  return prettier.format(text, { ...options, filepath: HARDWARE_DIR + path });
}

/** Every generated file, as the profiles say it should be. */
export async function generateAll(): Promise<GeneratedFile[]> {
  const ids = listProfiles();
  const files: GeneratedFile[] = [];
  for (const id of ids) {
    const p = loadProfile(id);
    files.push({ path: `wiring-${id}.md`, content: await formatMarkdown(`wiring-${id}.md`, wiringMarkdown(p)) });
    files.push({ path: `wiring-${id}.svg`, content: wiringSvg(p) });
    files.push({ path: `schematic-${id}.svg`, content: schematicSvg(p) });
    files.push({ path: `layout-${id}.svg`, content: layoutSvg(p) });
    files.push({ path: `enclosure-${id}.svg`, content: enclosureSvg(p) });
  }
  const reference = loadProfile(DEFAULT_PROFILE);
  files.push({ path: "bom.csv", content: bomCsv(billOfMaterials(reference)) });
  const readmePath = HARDWARE_DIR + README;
  if (existsSync(readmePath))
    files.push({
      path: README,
      content: await formatMarkdown(
        README,
        fillBlocks(
          readFileSync(readmePath, "utf8"),
          { profiles: profilesTable(ids), parts: partsTable(reference), drawings: drawingsTable(ids) },
          README,
        ),
      ),
    });
  return files;
}

/** The generated files whose committed copy differs from what the profiles produce. */
export function staleFiles(files: GeneratedFile[]): string[] {
  return files
    .filter((f) => !existsSync(HARDWARE_DIR + f.path) || readFileSync(HARDWARE_DIR + f.path, "utf8") !== f.content)
    .map((f) => f.path);
}

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const files = await generateAll();
  if (check) {
    const stale = staleFiles(files);
    if (stale.length) {
      console.error(`hardware docs differ from the profiles: ${stale.join(", ")}\nrun: npm run docs:hardware`);
      return 1;
    }
    console.log(`hardware docs match the profiles (${files.length} files)`);
    return 0;
  }
  for (const f of files) writeFileSync(HARDWARE_DIR + f.path, f.content);
  console.log(`wrote ${files.map((f) => `hardware/${f.path}`).join(", ")}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
