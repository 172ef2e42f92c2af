/**
 * The electrical design of a build, as data derived from its profile: the parts with their reference designators,
 * what each costs (an estimate), and three drawings generated from it: the schematic at pin level (power path, LED
 * switch with soft start, level shifter, buzzer, battery divider), the perfboard layout on the 10 mm grid, and the
 * enclosure's top plate with its cut-outs. gen-docs.ts writes them; nothing here is edited by hand.
 *
 * Power (issue 17). USB only (battery kind "none"): everything runs from the Pico's VCC pin, which is USB 5 V less
 * the Pico's Schottky drop (about 4.7 V). With a battery (kind "divider"): a charger with a load-sharing power path
 * and a 5 V boost (U3) charges the cell from its own USB socket and feeds a 5 V rail to the Pico's BAT_IN (3.5-16 V)
 * and to the LEDs; a slide switch on U3's EN pin is the power switch. The Pico's VCC pin is then left unconnected (it
 * would tie the Pico's USB to the rail). Facts about the Pico: espruino.com/Pico (EspruinoDocs boards/Pico.md) and
 * boards/PICO_R1_3.py in the Espruino source.
 */
import { BOARDS, type BoardInfo } from "./boards.ts";
import { keyList, ledCount, type Profile } from "./profile.ts";
import { unitGeometry, type UnitGeometry } from "./geometry.ts";

/** The date the price estimates were made, and their currency. */
export const PRICES = { currency: "EUR", date: "2026-11-24" };

/** The Pico's end row, 0.05" (1.27 mm) pitch (PICO_R1_3.py, board "right"): needs a 1.27 mm header or an adaptor shim. */
export const PICO_END_ROW = ["A4", "A3", "A2", "A1", "A0", "A10", "B9", "B8"];

export interface Part {
  ref: string;
  qty: number;
  part: string;
  spec: string;
  note: string;
  /** Estimated price of one, in PRICES.currency. */
  unit: number;
}

/** The reference designators of the parts the drawings name, fixed by the profile. */
export interface Refs {
  pico: string;
  shifter: string;
  bulk: string;
  shifterCap: string;
  series: string;
  fuse: string;
  fet?: string;
  driver?: string;
  gatePullUp?: string;
  gateSeries?: string;
  softStart?: string;
  baseResistor?: string;
  basePullDown?: string;
  buzzer?: string;
  buzzerDriver?: string;
  buzzerBase?: string;
  buzzerBleed?: string;
  flyback?: string;
  cell?: string;
  powerPath?: string;
  powerSwitch?: string;
  dividerTop?: string;
  dividerBottom?: string;
  dividerCap?: string;
  endHeader?: string;
}

function boardOf(p: Profile): BoardInfo {
  return BOARDS[p.board];
}

export const DIVIDER_BOTTOM_KOHM = 100;

export function dividerTopKOhm(ratio: number): number {
  return Math.round((ratio - 1) * DIVIDER_BOTTOM_KOHM * 10) / 10;
}

function span(prefix: string, from: number, count: number): string {
  if (count === 1) return `${prefix}${from}`;
  if (count === 2) return `${prefix}${from}, ${prefix}${from + 1}`;
  return `${prefix}${from}–${prefix}${from + count - 1}`;
}

/** The pins of a profile on the Pico's 0.05" end row. */
export function endRowPins(p: Profile): string[] {
  if (p.board !== "pico") return [];
  const used = new Set<string>([p.leds.pin, ...(p.leds.powerPin ? [p.leds.powerPin] : []), ...p.keys.rowPins]);
  for (const m of p.keys.matrices) for (const c of m.colPins) used.add(c);
  if (p.buzzer) used.add(p.buzzer.pin);
  if (p.battery) used.add(p.battery.pin);
  return PICO_END_ROW.filter((pin) => used.has(pin));
}

/** The parts of a build, counted from its profile, with reference designators and estimated prices. */
export function design(p: Profile): { parts: Part[]; refs: Refs } {
  const board = boardOf(p);
  const leds = ledCount(p);
  const keys = keyList(p);
  const perMatrix = p.keys.matrices.map((m) => `${m.keys.flat().filter(Boolean).length} in matrix "${m.name}"`).join(" + ");
  const parts: Part[] = [];
  const n = { R: 1, C: 1, Q: 1, D: keys.length + 1 };
  const next = (k: keyof typeof n) => `${k}${n[k]++}`;
  const add = (part: Part) => parts.push(part);
  const bat = p.battery;
  const rail = bat
    ? "+5V (U3's 5 V out)"
    : `${board.id === "pico" ? "the Pico's VCC pin" : "the board's 5V pin"} (USB 5 V less a diode drop)`;

  const refs: Refs = { pico: "U1", shifter: "", bulk: "", shifterCap: "", series: "", fuse: "F1" };
  add(
    board.id === "pico"
      ? {
          ref: "U1",
          qty: 1,
          part: "Espruino Pico",
          spec: "STM32F401, Espruino 2v29 or later; rev 1v4 has a 500 mA polyfuse on USB, 1v3 none",
          note: bat
            ? "powered from +5V at BAT_IN (3.5–16 V); its VCC pin stays unconnected"
            : "powers the unit from its USB plug; VCC feeds the LEDs",
          unit: 30,
        }
      : {
          ref: "U1",
          qty: 1,
          part: board.name,
          spec: `Espruino 2v29 (${board.espruinoBoard})`,
          note: "ESP32-WROOM-32 module (on WROVER, GPIO16/17 are PSRAM)",
          unit: 9,
        },
  );
  const end = endRowPins(p);
  if (end.length) {
    refs.endHeader = "J1";
    add({
      ref: "J1",
      qty: 1,
      part: 'pin header, 1.27 mm (0.05") pitch, 1x8',
      spec: `for the Pico's end row (${PICO_END_ROW.join(", ")})`,
      note: `${p.id} uses ${end.length} of its pins (${end.join(", ")}); or an Espruino Pico adaptor shim`,
      unit: 1,
    });
  }
  add({ ref: "J2, J3", qty: 2, part: 'pin header, 2.54 mm (0.1") pitch, 1x9', spec: "the Pico's two long edges", note: "", unit: 0.3 });
  if (bat) {
    refs.powerPath = "U3";
    refs.cell = "BT1";
    refs.powerSwitch = "SW_PWR";
    add({
      ref: refs.powerPath,
      qty: 1,
      part: "LiPo charger + 5 V boost with load sharing (power path)",
      spec: "e.g. Adafruit PowerBoost 1000C: load-sharing charger, JST-PH cell socket, 5.2 V 1 A out, EN pin (to GND: off)",
      note: "charges BT1 from its own USB socket while powering the unit; its 5 V out is the +5V rail; EN low switches it off",
      unit: 22,
    });
    add({
      ref: "BT1",
      qty: 1,
      part: "LiPo cell, 1S, with protection circuit",
      spec: `3.7 V nominal (${bat.emptyV}–${bat.fullV} V as the profile counts it), e.g. 2000 mAh, JST-PH 2-pin lead`,
      note: `plugs into ${refs.powerPath}; check the lead's polarity against the socket before plugging in`,
      unit: 10,
    });
    add({
      ref: "SW_PWR",
      qty: 1,
      part: "slide switch, SPDT",
      spec: "panel or PCB mount, ≥ 50 mA",
      note: `power switch: common to ${refs.powerPath}'s EN, one throw to GND (off); the other throw open (on)`,
      unit: 0.5,
    });
  }
  add({
    ref: "F1",
    qty: 1,
    part: "resettable fuse (PTC)",
    spec: "500 mA hold, 1 A trip",
    note: `between ${rail} and the LED switch: a short in the LED wiring trips it, not the USB port (a Pico 1v3 has no fuse)`,
    unit: 0.3,
  });
  add({
    ref: span("LED", 1, leds),
    qty: leds,
    part: p.leds.type,
    spec: "5 V addressable RGB LED, 5050, GRB order; on a small breakout (or strip pieces) for perfboard",
    note: `in chain order: ${p.leds.segments.map((s) => `${s.name} ${s.count}`).join(" + ")} = ${leds}`,
    unit: 0.12,
  });
  const ledCaps = next("C");
  n.C += leds - 1;
  add({
    ref: span("C", Number(ledCaps.slice(1)), leds),
    qty: leds,
    part: "ceramic capacitor",
    spec: "100 nF, X7R",
    note: "one per LED, VDD to GND, next to it (LED breakouts and strips already have it)",
    unit: 0.02,
  });
  refs.shifter = "U2";
  add({
    ref: refs.shifter,
    qty: 1,
    part: "74AHCT125 (DIP-14)",
    spec: "quad buffer with TTL-level inputs, powered from the 5 V rail before the LED switch",
    note: "level shifter for the 3.3 V LED data: pin 1 (1OE) GND, 2 (1A) data in, 3 (1Y) data out, 7 GND, 14 VCC; pins 4, 10, 13 (OE) to VCC, 5, 9, 12 (A) to GND",
    unit: 0.5,
  });
  refs.shifterCap = next("C");
  add({ ref: refs.shifterCap, qty: 1, part: "ceramic capacitor", spec: "100 nF", note: `at ${refs.shifter} pin 14`, unit: 0.05 });
  refs.series = next("R");
  add({
    ref: refs.series,
    qty: 1,
    part: "resistor",
    spec: "330 Ω",
    note: `in series with the LED data line, from ${refs.shifter} pin 3 to the first LED's DIN, next to the LED`,
    unit: 0.03,
  });
  refs.bulk = next("C");
  add({
    ref: refs.bulk,
    qty: 1,
    part: "electrolytic capacitor, low ESR",
    spec: "220 µF, 10 V",
    note: "across the switched LED supply at the first LED (kept small: with the soft start the inrush stays near 0.25 A)",
    unit: 0.2,
  });
  if (p.leds.powerPin) {
    refs.fet = next("Q");
    refs.driver = next("Q");
    refs.gatePullUp = next("R");
    refs.gateSeries = next("R");
    refs.softStart = next("C");
    refs.baseResistor = next("R");
    refs.basePullDown = next("R");
    add({
      ref: refs.fet,
      qty: 1,
      part: "P-channel MOSFET, logic level: AO3401A (SOT-23)",
      spec: "V_DS −30 V, I_D 4 A, R_DS(on) < 60 mΩ at V_GS −4.5 V; pins: 1 gate, 2 source, 3 drain",
      note: "high-side switch of the LED supply (a dark LED still draws ~1 mA); on a SOT-23 to DIP adaptor for perfboard",
      unit: 0.1,
    });
    add({
      ref: refs.driver,
      qty: 1,
      part: "NPN transistor 2N3904 (TO-92)",
      spec: "pins, flat face towards you, leads down: E, B, C (a BC547 is C, B, E: turn it round)",
      note: `pulls ${refs.fet}'s gate low through ${refs.gateSeries} when ${p.leds.powerPin} goes high`,
      unit: 0.05,
    });
    add({
      ref: refs.gatePullUp,
      qty: 1,
      part: "resistor",
      spec: "100 kΩ",
      note: `${refs.fet} gate to source: LEDs off by default`,
      unit: 0.03,
    });
    add({
      ref: refs.gateSeries,
      qty: 1,
      part: "resistor",
      spec: "10 kΩ",
      note: `${refs.driver}'s collector to ${refs.fet}'s gate: with ${refs.softStart}, the soft start (V_GS −4.5 V when on)`,
      unit: 0.03,
    });
    add({
      ref: refs.softStart,
      qty: 1,
      part: "ceramic capacitor",
      spec: "220 nF",
      note: `${refs.fet} gate to source: the supply ramps up over ~5 ms (τ ≈ 9 kΩ x 220 nF = 2 ms), so ${refs.bulk} charges at ~0.25 A, not in one surge`,
      unit: 0.05,
    });
    add({
      ref: refs.baseResistor,
      qty: 1,
      part: "resistor",
      spec: "4.7 kΩ",
      note: `${refs.driver} base resistor from ${p.leds.powerPin}`,
      unit: 0.03,
    });
    add({
      ref: refs.basePullDown,
      qty: 1,
      part: "resistor",
      spec: "100 kΩ",
      note: `${refs.driver} base to GND: keeps the LEDs off while ${p.leds.powerPin} floats at boot`,
      unit: 0.03,
    });
  }
  add({
    ref: span("SW", 1, keys.length),
    qty: keys.length,
    part: "key switch",
    spec: "pad: MX-compatible switch with a clear housing and a translucent cap (its LED shines through); other pads: 12 mm tactile switch",
    note: perMatrix,
    unit: 0.35,
  });
  if (p.keys.diodes)
    add({
      ref: span("D", 1, keys.length),
      qty: keys.length,
      part: "1N4148",
      spec: "small-signal diode, DO-35",
      note: "one per key, in series with its switch: anode to the column line, cathode (band) to the row line",
      unit: 0.02,
    });
  if (p.buzzer) {
    refs.buzzer = "BZ1";
    refs.buzzerDriver = next("Q");
    refs.buzzerBase = next("R");
    refs.buzzerBleed = next("R");
    refs.flyback = next("D");
    add({
      ref: "BZ1",
      qty: 1,
      part: "buzzer, passive (piezo or magnetic)",
      spec: "no built-in oscillator: driven by PWM",
      note: `from 5 V through ${refs.buzzerDriver}`,
      unit: 0.5,
    });
    add({
      ref: refs.buzzerDriver,
      qty: 1,
      part: "NPN transistor 2N3904 (TO-92)",
      spec: "pins E, B, C (flat face towards you)",
      note: `switches BZ1's low side from ${p.buzzer.pin}`,
      unit: 0.05,
    });
    add({ ref: refs.buzzerBase, qty: 1, part: "resistor", spec: "1 kΩ", note: `${refs.buzzerDriver} base resistor`, unit: 0.03 });
    add({
      ref: refs.buzzerBleed,
      qty: 1,
      part: "resistor",
      spec: "1 kΩ",
      note: "across BZ1: a piezo discharges between pulses",
      unit: 0.03,
    });
    add({
      ref: refs.flyback,
      qty: 1,
      part: "1N4148",
      spec: "flyback diode",
      note: "across BZ1, cathode to 5 V: a magnetic buzzer's coil kicks back when switched off (harmless with a piezo)",
      unit: 0.02,
    });
  }
  if (bat) {
    const top = dividerTopKOhm(bat.dividerRatio);
    refs.dividerTop = next("R");
    refs.dividerBottom = next("R");
    refs.dividerCap = next("C");
    add({
      ref: `${refs.dividerTop}, ${refs.dividerBottom}`,
      qty: 2,
      part: "resistor",
      spec: top === DIVIDER_BOTTOM_KOHM ? `${DIVIDER_BOTTOM_KOHM} kΩ, 1 %` : `${top} kΩ and ${DIVIDER_BOTTOM_KOHM} kΩ, 1 %`,
      note: `battery divider from ${refs.powerPath}'s BAT pin to ${bat.pin}, ratio ${bat.dividerRatio}; draws ~20 µA`,
      unit: 0.03,
    });
    add({
      ref: refs.dividerCap,
      qty: 1,
      part: "ceramic capacitor",
      spec: "100 nF",
      note: "across the divider's lower resistor: a steady ADC reading",
      unit: 0.05,
    });
  }
  const shielded = p.leds.segments.some((s) => s.name === "secret" && s.shielded) || p.keys.matrices.length > 1;
  add({
    ref: "—",
    qty: 1,
    part: "enclosure, 3 mm top plate",
    spec: `laser-cut or printed from enclosure-${p.id}.svg; 3 mm opal acrylic diffusers (or tracing paper) under the LED holes`,
    note: shielded ? "with an opaque shield over the secret LEDs and the codemaker pad" : "one pad, no codemaker shield",
    unit: 25,
  });
  add({
    ref: "—",
    qty: 1,
    part: "perfboard, wire",
    spec: "2.54 mm perfboard laid out on the 10 mm grid (layout-*.svg); AWG 22 for the LED supply, AWG 28 for signals",
    note: "",
    unit: 15,
  });
  return { parts, refs };
}

/** The estimated cost of a build, in PRICES.currency. */
export function totalCost(parts: Part[]): number {
  return Math.round(parts.reduce((sum, x) => sum + x.qty * x.unit, 0));
}

// ------------------------------------------------------------------------------------------- drawing

class Svg {
  private parts: string[] = [];
  constructor(
    readonly width: number,
    readonly height: number,
    readonly title: string,
    /** "mm": the drawing is to scale, one user unit a millimetre (for cutting). */
    readonly unit = "",
  ) {}
  add(s: string): void {
    this.parts.push(s);
  }
  text(x: number, y: number, s: string, o: { size?: number; anchor?: string; colour?: string; weight?: string } = {}): void {
    this.add(
      `<text x="${r(x)}" y="${r(y)}" font-size="${o.size ?? 11}"${o.anchor ? ` text-anchor="${o.anchor}"` : ""}${o.weight ? ` font-weight="${o.weight}"` : ""} fill="${o.colour ?? "#222"}">${esc(s)}</text>`,
    );
  }
  line(x1: number, y1: number, x2: number, y2: number, colour = "#222", width = 1.2, dash?: string): void {
    this.add(
      `<line x1="${r(x1)}" y1="${r(y1)}" x2="${r(x2)}" y2="${r(y2)}" stroke="${colour}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`,
    );
  }
  rect(
    x: number,
    y: number,
    w: number,
    h: number,
    o: { fill?: string; stroke?: string; width?: number; rx?: number; dash?: string } = {},
  ): void {
    this.add(
      `<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}"${o.rx ? ` rx="${o.rx}"` : ""} fill="${o.fill ?? "none"}" stroke="${o.stroke ?? "#222"}" stroke-width="${o.width ?? 1.2}"${o.dash ? ` stroke-dasharray="${o.dash}"` : ""}/>`,
    );
  }
  circle(x: number, y: number, radius: number, o: { fill?: string; stroke?: string; width?: number } = {}): void {
    this.add(
      `<circle cx="${r(x)}" cy="${r(y)}" r="${r(radius)}" fill="${o.fill ?? "none"}" stroke="${o.stroke ?? "#222"}" stroke-width="${o.width ?? 1}"/>`,
    );
  }
  toString(): string {
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${r(this.width)}${this.unit}" height="${r(this.height)}${this.unit}" viewBox="0 0 ${r(this.width)} ${r(this.height)}" font-family="sans-serif">`,
      `<title>${esc(this.title)}</title>`,
      `<rect width="100%" height="100%" fill="#fff"/>`,
      ...this.parts,
      "</svg>",
      "",
    ].join("\n");
  }
}

function r(v: number): string {
  return String(Math.round(v * 100) / 100);
}

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A part drawn as a box with numbered pins on its left and right, each pin ending in a labelled net. */
interface BlockPin {
  pin: string;
  name: string;
  net: string;
}

function block(svg: Svg, x: number, y: number, ref: string, title: string, left: BlockPin[], right: BlockPin[]): void {
  const rows = Math.max(left.length, right.length);
  const w = 150;
  const h = 20 + rows * 18;
  svg.rect(x, y, w, h, { fill: "#f6f6f6" });
  svg.text(x + w / 2, y - 6, `${ref}  ${title}`, { anchor: "middle", weight: "bold" });
  const pin = (p: BlockPin, i: number, side: -1 | 1) => {
    const py = y + 20 + i * 18;
    const px = side < 0 ? x : x + w;
    svg.line(px, py, px + side * 40, py);
    svg.text(px - side * 4, py + 4, p.name, { size: 10, anchor: side < 0 ? "start" : "end" });
    svg.text(px + side * 6, py - 3, p.pin, { size: 9, anchor: side < 0 ? "end" : "start", colour: "#777" });
    svg.text(px + side * 44, py + 4, p.net, { size: 10, anchor: side < 0 ? "end" : "start", colour: "#1a5fb4" });
  };
  left.forEach((p, i) => pin(p, i, -1));
  right.forEach((p, i) => pin(p, i, 1));
}

/** A two-terminal part between two nets, drawn as a labelled line segment. */
function twoPin(svg: Svg, x: number, y: number, ref: string, value: string, a: string, b: string): void {
  svg.text(x, y + 4, a, { size: 10, anchor: "end", colour: "#1a5fb4" });
  svg.line(x + 4, y, x + 30, y);
  svg.rect(x + 30, y - 6, 44, 12, { fill: "#fff" });
  svg.line(x + 74, y, x + 100, y);
  svg.text(x + 104, y + 4, b, { size: 10, colour: "#1a5fb4" });
  svg.text(x + 52, y - 10, `${ref} ${value}`, { size: 10, anchor: "middle" });
}

/**
 * The schematic at pin level, drawn with net labels (blue): every pin of every part ends in the name of its net, and
 * parts with the same net name are connected. Pin numbers are grey.
 */
export function schematicSvg(p: Profile): string {
  const board = boardOf(p);
  const { refs } = design(p);
  const bat = p.battery;
  const svg = new Svg(1100, 900, `Schematic of ${p.name} (${p.id}), generated from the profile`);
  svg.text(20, 28, `${p.name} — schematic (net labels in blue join; pin numbers grey). Generated from profiles/${p.id}.json.`, {
    size: 14,
    weight: "bold",
  });
  svg.text(
    20,
    48,
    bat
      ? "Battery build: U3 powers the unit; SW_PWR on its EN pin is the power switch; the Pico's VCC pin is left unconnected."
      : "USB-only build: the Pico's USB plug powers everything through its VCC pin; plugging in is power-on.",
    { size: 11 },
  );
  const rail = bat ? "+5V" : "VCC";
  // The board.
  const picoLeft: BlockPin[] =
    board.id === "pico"
      ? [
          { pin: "top 1", name: "BAT_IN", net: bat ? "+5V" : "(n.c.)" },
          { pin: "bottom 2", name: "VCC", net: bat ? "(n.c.)" : "VCC" },
          { pin: "bottom 3", name: "3.3V", net: "(n.c.)" },
          { pin: "bottom 1", name: "GND", net: "GND" },
          { pin: "USB", name: "USB-A plug", net: "computer / charger" },
        ]
      : [
          { pin: "5V", name: "5V", net: bat ? "+5V" : "VCC" },
          { pin: "GND", name: "GND", net: "GND" },
          { pin: "USB", name: "micro-USB", net: "computer / charger" },
        ];
  const picoRight: BlockPin[] = [{ pin: p.leds.pin, name: "LED data", net: "DATA_3V3" }];
  if (p.leds.powerPin) picoRight.push({ pin: p.leds.powerPin, name: "LED power", net: "LED_ON" });
  if (p.buzzer) picoRight.push({ pin: p.buzzer.pin, name: "buzzer PWM", net: "BUZ" });
  if (bat) picoRight.push({ pin: bat.pin, name: "battery ADC", net: "VBAT_SENSE" });
  picoRight.push({ pin: "rows/cols", name: "key matrices", net: "see wiring-*.svg" });
  block(svg, 160, 90, refs.pico, board.name, picoLeft, picoRight);

  let y = 90;
  if (bat) {
    block(
      svg,
      660,
      y,
      refs.powerPath!,
      "charger + 5 V boost",
      [
        { pin: "USB", name: "USB in", net: "charger" },
        { pin: "BAT", name: "BAT", net: "VBAT" },
        { pin: "EN", name: "EN", net: "EN" },
      ],
      [
        { pin: "5V", name: "5V out", net: "+5V" },
        { pin: "GND", name: "GND", net: "GND" },
      ],
    );
    twoPin(svg, 560, 200, "BT1", "LiPo 1S", "VBAT", "GND");
    twoPin(svg, 760, 200, "SW_PWR", "off = GND", "EN", "GND");
  }
  y = 300;
  svg.text(20, y - 45, "LED supply: fuse, high-side switch with soft start, bulk capacitor", { size: 12, weight: "bold" });
  twoPin(svg, 60, y, refs.fuse, "500 mA PTC", rail, "+5V_F");
  if (refs.fet) {
    block(
      svg,
      300,
      y - 10,
      refs.fet,
      "AO3401A P-MOSFET",
      [
        { pin: "2", name: "S", net: "+5V_F" },
        { pin: "1", name: "G", net: "GATE" },
      ],
      [{ pin: "3", name: "D", net: "+5V_LED" }],
    );
    twoPin(svg, 660, y, refs.gatePullUp!, "100 kΩ", "GATE", "+5V_F");
    twoPin(svg, 660, y + 30, refs.softStart!, "220 nF", "GATE", "+5V_F");
    twoPin(svg, 660, y + 60, refs.gateSeries!, "10 kΩ", "GATE", "Q_COL");
    block(
      svg,
      300,
      y + 80,
      refs.driver!,
      "2N3904 NPN (E B C)",
      [
        { pin: "2", name: "B", net: "Q_BASE" },
        { pin: "1", name: "E", net: "GND" },
      ],
      [{ pin: "3", name: "C", net: "Q_COL" }],
    );
    twoPin(svg, 660, y + 100, refs.baseResistor!, "4.7 kΩ", "LED_ON", "Q_BASE");
    twoPin(svg, 660, y + 130, refs.basePullDown!, "100 kΩ", "Q_BASE", "GND");
  }
  twoPin(svg, 60, y + 40, refs.bulk, "220 µF", refs.fet ? "+5V_LED" : "+5V_F", "GND");

  y = 530;
  svg.text(20, y - 30, "LED data: level shifter, series resistor, the chain (100 nF at every LED)", { size: 12, weight: "bold" });
  block(
    svg,
    160,
    y,
    refs.shifter,
    "74AHCT125",
    [
      { pin: "2", name: "1A", net: "DATA_3V3" },
      { pin: "1", name: "1OE", net: "GND" },
      { pin: "7", name: "GND", net: "GND" },
      { pin: "4, 10, 13", name: "2-4OE", net: "+5V_F" },
      { pin: "5, 9, 12", name: "2-4A", net: "GND" },
    ],
    [
      { pin: "3", name: "1Y", net: "DATA_5V" },
      { pin: "14", name: "VCC", net: "+5V_F" },
    ],
  );
  twoPin(svg, 460, y + 80, refs.shifterCap, "100 nF", "+5V_F", "GND");
  twoPin(svg, 460, y + 20, refs.series, "330 Ω", "DATA_5V", "DIN_1");
  block(
    svg,
    700,
    y,
    "LED1",
    `${p.leds.type} (first of ${ledCount(p)})`,
    [
      { pin: "4", name: "DIN", net: "DIN_1" },
      { pin: "1", name: "VDD", net: refs.fet ? "+5V_LED" : "+5V_F" },
      { pin: "3", name: "GND", net: "GND" },
    ],
    [{ pin: "2", name: "DOUT", net: "DIN of LED2 …" }],
  );

  y = 740;
  if (p.buzzer) {
    svg.text(20, y - 20, "Buzzer", { size: 12, weight: "bold" });
    twoPin(svg, 110, y, "BZ1", "buzzer", "+5V_F", "BUZ_LO");
    twoPin(svg, 110, y + 30, refs.flyback!, "1N4148", "BUZ_LO (anode)", "+5V_F (cathode)");
    twoPin(svg, 110, y + 60, refs.buzzerBleed!, "1 kΩ", "+5V_F", "BUZ_LO");
    twoPin(svg, 400, y, refs.buzzerBase!, "1 kΩ", "BUZ", "Q3_BASE");
    svg.text(370, y + 40, `${refs.buzzerDriver} 2N3904: B (2) Q3_BASE, C (3) BUZ_LO, E (1) GND`, { size: 10 });
  }
  if (bat) {
    svg.text(640, y - 20, "Battery divider", { size: 12, weight: "bold" });
    twoPin(svg, 700, y, refs.dividerTop!, `${dividerTopKOhm(bat.dividerRatio)} kΩ`, "VBAT", "VBAT_SENSE");
    twoPin(svg, 700, y + 30, refs.dividerBottom!, `${DIVIDER_BOTTOM_KOHM} kΩ`, "VBAT_SENSE", "GND");
    twoPin(svg, 700, y + 60, refs.dividerCap!, "100 nF", "VBAT_SENSE", "GND");
  }
  return svg.toString();
}

// ------------------------------------------------------------------------------------ layout, enclosure

/** Where the electronics go: a strip along the bottom edge, below the grid, in the unit's mm. */
function electronicsZone(g: UnitGeometry): { x: number; y: number; w: number; h: number } {
  return { x: 0, y: g.height + 5, w: g.width, h: 45 };
}

/** The Pico (or DevKit) stands at the strip's left end, its USB plug out through the bottom wall. */
function boardPlace(g: UnitGeometry): { x: number; y: number; w: number; h: number } {
  const z = electronicsZone(g);
  return { x: z.x + 10, y: z.y + z.h - 33, w: 15, h: 33 };
}

/** Every LED's centre in chain order: the segments' holes, and the pad's LEDs under their keys. */
function ledsInChainOrder(p: Profile, g: UnitGeometry): { x: number; y: number; segment: string }[] {
  const all = g.leds.map((l) => ({ x: l.x, y: l.y, segment: l.segment as string, at: ledIndex(p, l.segment, l.index) }));
  for (const k of g.keys) if (k.padLed !== undefined) all.push({ x: k.x, y: k.y, segment: "pad", at: ledIndex(p, "pad", k.padLed) });
  return all.sort((a, b) => a.at - b.at);
}

/**
 * The perfboard layout, seen from the component side, on the 10 mm grid of the unit (hardware/geometry.ts, the simulator
 * page's geometry too): every LED and key at its grid point, the LED chain's order drawn as a path, the Pico and the
 * power parts in a strip below. 1 unit = 1 mm, drawn 3 times larger.
 */
export function layoutSvg(p: Profile): string {
  const g = unitGeometry(p);
  const { refs } = design(p);
  const zone = electronicsZone(g);
  const pico = boardPlace(g);
  const scale = 3;
  const svg = new Svg((g.width + 20) * scale, (zone.y + zone.h + 36) * scale, `Perfboard layout of ${p.name} (${p.id}) on the 10 mm grid`);
  const s = (v: number) => (v + 16) * scale;
  svg.text(10, 20, `${p.name} — perfboard layout, component side, 10 mm grid (1 square = 10 mm).`, { size: 14, weight: "bold" });
  svg.text(10, 38, `Generated from profiles/${p.id}.json; the holes and cut-outs of enclosure-${p.id}.svg sit over these points.`, {
    size: 11,
  });
  for (let x = 0; x <= g.width; x += 10) svg.line(s(x), s(0), s(x), s(g.height), "#e4e4e4", 0.6);
  for (let y = 0; y <= g.height; y += 10) svg.line(s(0), s(y), s(g.width), s(y), "#e4e4e4", 0.6);
  svg.rect(s(0), s(0), g.width * scale, g.height * scale, { stroke: "#555" });
  const chain = ledsInChainOrder(p, g);
  for (const k of g.keys) {
    const half = (k.matrix === "pad" ? 14 : 12) / 2;
    svg.rect(s(k.x) - half * scale, s(k.y) - half * scale, 2 * half * scale, 2 * half * scale, {
      stroke: "#2c3e50",
      width: 1,
      dash: "4 2",
    });
    svg.text(s(k.x), s(k.y) + half * scale + 9, k.id, { size: 8, anchor: "middle", colour: "#2c3e50" });
  }
  for (let i = 1; i < chain.length; i++)
    svg.line(s(chain[i - 1].x), s(chain[i - 1].y), s(chain[i].x), s(chain[i].y), "#c0392b", 0.8, "3 2");
  for (const l of chain)
    svg.rect(s(l.x) - 2.5 * scale, s(l.y) - 2.5 * scale, 5 * scale, 5 * scale, { fill: "#fff8e0", stroke: "#b7950b", width: 0.8 });
  const first = chain[0];
  svg.text(s(first.x) + 10, s(first.y) + 22, `LED1 (${first.segment}): DIN from ${refs.series}`, { size: 10, colour: "#c0392b" });
  // The electronics strip.
  svg.rect(s(zone.x), s(zone.y), zone.w * scale, zone.h * scale, { fill: "#f4f9f4", stroke: "#27ae60" });
  svg.rect(s(pico.x), s(pico.y), pico.w * scale, pico.h * scale, { fill: "#dfe", stroke: "#222" });
  svg.text(s(pico.x + pico.w / 2), s(pico.y) - 4, refs.pico, { size: 10, anchor: "middle" });
  svg.text(s(pico.x + pico.w / 2), s(pico.y + pico.h) + 12, "USB ↓ wall", { size: 9, anchor: "middle" });
  const endRow = endRowPins(p);
  const items = [
    `${refs.pico} ${boardOf(p).name}, standing with its USB plug through the bottom wall`,
    endRow.length ? `${refs.endHeader}: 1.27 mm header on its end row (${endRow.join(", ")})` : "",
    `${refs.shifter} 74AHCT125 + ${refs.shifterCap}; ${refs.series} next to LED1`,
    refs.fet
      ? `${refs.fuse}, ${refs.fet}, ${refs.driver}, ${refs.gatePullUp}, ${refs.gateSeries}, ${refs.softStart}, ${refs.baseResistor}, ${refs.basePullDown}; ${refs.bulk} at LED1`
      : `${refs.fuse}, ${refs.bulk}`,
    p.buzzer ? `BZ1, ${refs.buzzerDriver}, ${refs.buzzerBase}, ${refs.buzzerBleed}, ${refs.flyback}: buzzer` : "",
    p.battery
      ? `${refs.powerPath} charger/boost and BT1 under the board; SW_PWR and ${refs.powerPath}'s USB in the bottom wall; ${refs.dividerTop}, ${refs.dividerBottom}, ${refs.dividerCap}`
      : "USB only: no battery parts",
  ].filter(Boolean);
  items.forEach((t, i) => svg.text(s(pico.x + pico.w + 10), s(zone.y + 7 + i * 6.5), t, { size: 10 }));
  svg.text(
    s(0),
    s(zone.y + zone.h) + 24,
    "Small squares: 5050 LEDs with their 100 nF (the pad's under its keys); dashed squares: key switches; red dashes: the chain's order.",
    { size: 10 },
  );
  return svg.toString();
}

function ledIndex(p: Profile, segment: string, index: number): number {
  let start = 0;
  for (const s of p.leds.segments) {
    if (s.name === segment) return start + index;
    start += s.count;
  }
  return start + index;
}

/**
 * The enclosure's top plate, to cut (laser, CNC or 3D print) at 1:1, in millimetres: its outline (the grid and the
 * electronics strip, with a margin), a hole for every LED (with a diffuser under it), a square cut-out for every key
 * (14 mm for the MX pad switches, 12.5 mm for tactile caps), the shield's outline, and the bottom wall's openings:
 * the USB plug's, and with a battery the charging socket's and the power switch's.
 */
export function enclosureSvg(p: Profile): string {
  const g = unitGeometry(p);
  const zone = electronicsZone(g);
  const pico = boardPlace(g);
  const margin = 10;
  const W = g.width + 2 * margin;
  const H = zone.y + zone.h + 2 * margin;
  const ox = 10;
  const oy = 22;
  const svg = new Svg(W + 20, H + 50, `Enclosure top plate of ${p.name} (${p.id}), mm`, "mm");
  const at = (v: number) => margin + v;
  svg.text(ox, 8, `${p.name}: enclosure top plate, 1:1 in mm, outline ${W} x ${H} mm, 3 mm sheet.`, { size: 5, weight: "bold" });
  svg.text(ox, 15, `Generated from profiles/${p.id}.json; holes over the LEDs and keys of layout-${p.id}.svg.`, { size: 4 });
  svg.rect(ox, oy, W, H, { stroke: "#000", width: 0.3, rx: 4 });
  for (const l of g.leds) svg.circle(ox + at(l.x), oy + at(l.y), l.d / 2, { stroke: "#c0392b", width: 0.25 });
  for (const k of g.keys) {
    const c = k.matrix === "pad" ? 14 : 12.5;
    svg.rect(ox + at(k.x) - c / 2, oy + at(k.y) - c / 2, c, c, { stroke: "#000", width: 0.25 });
  }
  if (g.shield) svg.rect(ox + at(g.shield.x), oy + at(g.shield.y), g.shield.w, g.shield.h, { stroke: "#555", width: 0.25, dash: "2 1" });
  // The bottom wall's openings, marked on the plate's bottom edge (they are cut in the wall below it).
  const wall = (x: number, w: number, label: string, row: number) => {
    svg.rect(ox + at(x), oy + H - 1, w, 2, { fill: "#000", stroke: "#000", width: 0.2 });
    svg.text(ox + at(x), oy + H + 6 + row * 5, label, { size: 3.5 });
  };
  wall(pico.x + 1, 13, `USB plug: 13 x 6 mm, centred on ${boardOf(p).name}`, 0);
  if (p.battery) {
    wall(pico.x + 60, 10, "U3 USB (charging): 10 x 4 mm", 1);
    wall(pico.x + 90, 12, "SW_PWR: 12 x 5 mm", 2);
  }
  svg.text(
    ox,
    oy + H + 22,
    "Red circles: LED holes (3 mm opal acrylic or tracing paper under them); squares: key cut-outs; dashed: the codemaker's shield.",
    {
      size: 3.5,
    },
  );
  return svg.toString();
}
