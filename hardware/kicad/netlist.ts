/**
 * The electrical design of a board as a netlist, a pure function of its profile: every part on the board with its
 * reference, value, KiCad symbol and footprint, what net each pin is on (null: no-connect), and its ordering
 * fields; then the parts that are not on the board (key caps, the cell, screws, the case). The schematic writer,
 * the BOM and the PCB writer all read this one model, so they cannot disagree.
 *
 * The circuit (the Pico's own pin names throughout):
 * - Power. With a battery: the cell (net VCELL) plugs into U3, a charger with load sharing and a 5 V boost; U3's 5V
 *   is the +5V rail, which feeds the Pico's BAT_IN; the power switch pulls U3's EN to GND (off). USB only: the
 *   Pico's VBAT pin (USB 5 V less the Pico's Schottky diode) is the +5V rail and BAT_IN stays unconnected.
 * - F1 (500 mA PTC) makes +5V_F, which feeds the LED switch, the level shifter and the buzzer.
 * - The LED switch: Q1, a P-FET, slew-rate limited by C_GD from its gate to its drain (power.ts works the ramp out),
 *   makes +5V_LED; Q2 pulls Q1's gate down through R_G when the profile's LED power pin goes high.
 * - The chain: U2 (74AHCT1G125) lifts the data to 5 V, R_S in series into LED1's DIN, then DOUT to DIN in chain
 *   order, a 100 nF capacitor at every LED.
 * - The key matrices: per key a switch from its column line to a diode, the diode's cathode on its row line.
 * - The buzzer from +5V_F, switched on its low side by Q3; the cell's divider into the profile's ADC pin.
 */
import { keyList, ledCount, type Profile } from "../profile.ts";
import { PICO_PINS } from "./pico-pins.ts";
import * as cat from "./parts.ts";
import { SOFT_START } from "./power.ts";

/** Where a part is drawn: the schematic writer lays each block out on its own. */
export type Block =
  | { kind: "mcu" }
  | { kind: "power" }
  | { kind: "ledSwitch" }
  | { kind: "data" }
  | { kind: "led"; index: number }
  | { kind: "key"; matrix: string; row: number; col: number }
  | { kind: "buzzer" }
  | { kind: "battery" };

export interface BoardPart extends cat.OrderFields {
  ref: string;
  value: string;
  symbol: string;
  footprint: string;
  /** Pin (or pad) number -> net name; null: deliberately not connected. */
  pins: Record<string, string | null>;
  block: Block;
}

/** A part that is not soldered to the board: it has no symbol and no footprint, only a line in the BOM. */
export interface OffBoardItem extends cat.OrderFields {
  ref: string;
  qty: number;
  value: string;
}

export interface Netlist {
  id: string;
  name: string;
  parts: BoardPart[];
  offBoard: OffBoardItem[];
}

/** Net names other code relies on. */
export const NET = {
  gnd: "GND",
  rail: "+5V",
  fused: "+5V_F",
  ledRail: "+5V_LED",
  cell: "VCELL",
  data3v3: "LED_DATA",
  data5v: "LED_DATA_5V",
  din: (i: number) => `DIN${i}`,
  row: (i: number) => `ROW${i + 1}`,
  col: (i: number) => `COL${i + 1}`,
} as const;

/** The nets the profile's pins drive, by pin: what the firmware uses. */
export function pinNets(p: Profile): Map<string, string> {
  const m = new Map<string, string>();
  m.set(p.leds.pin, NET.data3v3);
  if (p.leds.powerPin) m.set(p.leds.powerPin, "LED_ON");
  p.keys.rowPins.forEach((pin, i) => m.set(pin, NET.row(i)));
  p.keys.matrices.flatMap((x) => x.colPins).forEach((pin, i) => m.set(pin, NET.col(i)));
  if (p.buzzer) m.set(p.buzzer.pin, "BUZZER");
  if (p.battery) m.set(p.battery.pin, "VCELL_SENSE");
  return m;
}

export function netlist(p: Profile): Netlist {
  if (p.board !== "pico")
    throw new Error(`profile ${p.id}: KiCad output is drawn for the Espruino Pico only (board "${p.board}" has no symbol or footprint)`);
  const parts: BoardPart[] = [];
  const counters: Record<string, number> = {};
  const next = (prefix: string) => `${prefix}${(counters[prefix] = (counters[prefix] ?? 0) + 1)}`;
  const add = (ref: string, c: cat.CatalogPart, pins: Record<string, string | null>, block: Block) => {
    const { value, symbol, footprint, MPN, Manufacturer, Supplier, SupplierPN, Description } = c;
    parts.push({ ref, value, symbol, footprint, MPN, Manufacturer, Supplier, SupplierPN, Description, pins, block });
  };
  const { gnd, rail, fused } = NET;
  const ledRail = p.leds.powerPin ? NET.ledRail : fused;
  const bat = p.battery;
  const leds = ledCount(p);
  const keys = keyList(p);

  // The Pico: every pin on its net or explicitly unconnected.
  const byPin = pinNets(p);
  const picoPins: Record<string, string | null> = {};
  for (const pin of PICO_PINS) picoPins[pin.name] = byPin.get(pin.name) ?? null;
  picoPins.GND = gnd;
  if (bat) picoPins.BAT_IN = rail;
  else picoPins.VBAT = rail;
  add("U1", cat.PICO, picoPins, { kind: "mcu" });

  // Power in.
  if (bat) {
    add("U3", cat.POWERBOOST, { BAT: NET.cell, EN: "BOOST_EN", GND: gnd, LBO: null, USB: null, "5V": rail }, { kind: "battery" });
    add(`SW${keys.length + 1}`, cat.POWER_SWITCH, { "1": gnd, "2": "BOOST_EN", "3": null }, { kind: "battery" });
  }
  add("F1", cat.POLYFUSE, { "1": rail, "2": fused }, { kind: "power" });

  // The chain's decoupling first, so C1..Cn sit beside LED1..LEDn.
  for (let i = 1; i <= leds; i++) {
    add(`LED${i}`, cat.LED, { "1": i < leds ? NET.din(i + 1) : null, "2": gnd, "3": NET.din(i), "4": ledRail }, { kind: "led", index: i });
    add(next("C"), cat.ceramic("100nF", `decoupling of LED${i}`), { "1": ledRail, "2": gnd }, { kind: "led", index: i });
  }

  // The LED data path.
  add("U2", cat.BUFFER, { "1": gnd, "2": NET.data3v3, "3": gnd, "4": NET.data5v, "5": fused }, { kind: "data" });
  add(next("C"), cat.ceramic("100nF", "decoupling of U2"), { "1": fused, "2": gnd }, { kind: "data" });
  add(next("R"), cat.resistor("330", "in series with the data into LED1"), { "1": NET.data5v, "2": NET.din(1) }, { kind: "data" });
  add(next("C"), cat.BULK_CAP, { "1": ledRail, "2": gnd }, { kind: "ledSwitch" });

  // The LED switch with its slew-rate limit (values: power.ts).
  if (p.leds.powerPin) {
    const s = SOFT_START;
    add("Q1", cat.PFET, { "1": "LED_GATE", "2": fused, "3": ledRail }, { kind: "ledSwitch" });
    add("Q2", cat.NPN, { "1": "LED_ON_B", "2": gnd, "3": "LED_GATE_PULL" }, { kind: "ledSwitch" });
    add(
      next("R"),
      cat.resistor(s.rGs.value, "Q1 gate to source: LEDs off by default"),
      { "1": fused, "2": "LED_GATE" },
      { kind: "ledSwitch" },
    );
    add(
      next("R"),
      cat.resistor(s.rG.value, "Q2 to Q1's gate: sets the gate current of the ramp"),
      { "1": "LED_GATE", "2": "LED_GATE_PULL" },
      {
        kind: "ledSwitch",
      },
    );
    add(
      next("C"),
      cat.ceramic(s.cGd.value, "Q1 gate to drain: limits the LED rail's slew rate"),
      { "1": "LED_GATE", "2": ledRail },
      {
        kind: "ledSwitch",
      },
    );
    add(
      next("C"),
      cat.ceramic(s.cGs.value, "Q1 gate to source: holds Q1 off while +5V comes up"),
      { "1": fused, "2": "LED_GATE" },
      {
        kind: "ledSwitch",
      },
    );
    add(
      next("R"),
      cat.resistor("4.7k", `Q2's base resistor from ${p.leds.powerPin}`),
      { "1": "LED_ON", "2": "LED_ON_B" },
      { kind: "ledSwitch" },
    );
    add(
      next("R"),
      cat.resistor("100k", `Q2 base to GND: LEDs off while ${p.leds.powerPin} floats at boot`),
      { "1": "LED_ON_B", "2": gnd },
      {
        kind: "ledSwitch",
      },
    );
  }

  // The key matrices: switch from column to diode anode, cathode to row.
  const colBase = new Map<string, number>();
  let base = 0;
  for (const m of p.keys.matrices) {
    colBase.set(m.name, base);
    base += m.colPins.length;
  }
  for (const k of keys) {
    const m = p.keys.matrices.find((x) => x.name === k.matrix)!;
    const col = k.colLine - colBase.get(m.name)!;
    const row = m.rows.indexOf(k.rowLine);
    const node = `KEY_${k.id}`;
    const block: Block = { kind: "key", matrix: m.name, row, col };
    add(`SW${k.index + 1}`, cat.KEY_SWITCH, { "1": NET.col(k.colLine), "2": node }, block);
    add(`D${k.index + 1}`, cat.KEY_DIODE, { "1": NET.row(k.rowLine), "2": node }, block);
  }
  counters.D = keys.length;

  if (p.buzzer) {
    add("BZ1", cat.BUZZER, { "1": fused, "2": "BUZZER_LO" }, { kind: "buzzer" });
    add("Q3", cat.NPN, { "1": "BUZZER_B", "2": gnd, "3": "BUZZER_LO" }, { kind: "buzzer" });
    add(next("R"), cat.resistor("1k", `Q3's base resistor from ${p.buzzer.pin}`), { "1": "BUZZER", "2": "BUZZER_B" }, { kind: "buzzer" });
    add(
      next("R"),
      cat.resistor("1k", "across BZ1: the piezo discharges between pulses"),
      { "1": fused, "2": "BUZZER_LO" },
      { kind: "buzzer" },
    );
    add(
      next("D"),
      { ...cat.KEY_DIODE, Description: "Small-signal diode, SOD-123: flyback diode across BZ1" },
      { "1": fused, "2": "BUZZER_LO" },
      { kind: "buzzer" },
    );
  }

  if (bat) {
    const topK = Math.round((bat.dividerRatio - 1) * 100 * 10) / 10;
    add(
      next("R"),
      cat.resistor(`${topK}k`, `cell divider, top (ratio ${bat.dividerRatio})`),
      { "1": NET.cell, "2": "VCELL_SENSE" },
      {
        kind: "battery",
      },
    );
    add(next("R"), cat.resistor("100k", "cell divider, bottom"), { "1": "VCELL_SENSE", "2": gnd }, { kind: "battery" });
    add(
      next("C"),
      cat.ceramic("100nF", "across the divider's lower resistor: a steady ADC reading"),
      { "1": "VCELL_SENSE", "2": gnd },
      {
        kind: "battery",
      },
    );
  }

  return { id: p.id, name: p.name, parts, offBoard: offBoard(p) };
}

/** The parts that are not on the board, for the BOM. */
function offBoard(p: Profile): OffBoardItem[] {
  const keys = keyList(p);
  const items: OffBoardItem[] = [];
  const item = (x: OffBoardItem) => items.push(x);
  item({
    ref: "H_PICO",
    qty: 2,
    value: "1x9 pin header 2.54 mm",
    MPN: "TSW-109-07-G-S",
    Manufacturer: "Samtec",
    Supplier: "Mouser",
    SupplierPN: "",
    Description: "The Pico's long edges to the board (solder the Pico flat, or through these headers)",
  });
  item({
    ref: "H_PICO_END",
    qty: 1,
    value: "1x8 pin header 1.27 mm",
    MPN: "M50-3500842",
    Manufacturer: "Harwin",
    Supplier: "Mouser",
    SupplierPN: "",
    Description: "The Pico's 0.05-inch end row to the board",
  });
  item({
    ref: "KEYCAP",
    qty: keys.length,
    value: "printed key cap",
    MPN: "print: hardware/case/key-cap-*.stl",
    Manufacturer: "self-printed",
    Supplier: "-",
    SupplierPN: "",
    Description: "A cap on each tactile switch's plunger, printed with the case (hardware/case/parts.md lists the sizes and counts)",
  });
  if (p.battery)
    item({
      ref: "BT1",
      qty: 1,
      value: "LiPo 1S 2000 mAh",
      MPN: "2011",
      Manufacturer: "Adafruit",
      Supplier: "Adafruit",
      SupplierPN: "2011",
      Description: "LiPo cell 3.7 V 2000 mAh with protection circuit and JST-PH lead: plugs into U3 (check its polarity first)",
    });
  item({
    ref: "CASE",
    qty: 1,
    value: "printed case",
    MPN: "print: hardware/case/*.stl",
    Manufacturer: "self-printed",
    Supplier: "-",
    SupplierPN: "",
    Description:
      "The case: bottom and top shells, the codemaker's shield and the power switch's knob, printed from hardware/case/<id>/ (hardware/case/README.md)",
  });
  return items;
}

/** Every net of the board, sorted. */
export function netNames(n: Netlist): string[] {
  const s = new Set<string>();
  for (const part of n.parts) for (const net of Object.values(part.pins)) if (net) s.add(net);
  return [...s].sort();
}
