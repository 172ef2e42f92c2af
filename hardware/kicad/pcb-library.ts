/**
 * The repo's own footprint library, Brainboard.pretty: the parts KiCad's library has no footprint for. Written by
 * `npm run pcb` from the tables here, so the pads' numbers are the pin names in pico-pins.ts.
 *
 * Espruino Pico, seen from the top, origin in the middle of its long-edge pin field, its USB plug towards +x: two
 * rows of 9 at 0.1" (2.54 mm), 0.6" (15.24 mm) apart, and the 0.05" (1.27 mm) end row of 8 at the far end, 0.775 mm
 * beyond the last long-edge column and starting 1.885 mm from the A8 row (the offsets of Espruino's own footprint,
 * EspruinoBoard/Pico/Component). Through-holes, for pin headers (or the Pico soldered flat through them); its board
 * is 33 x 15.2 mm with the USB tongue, which starts 11.5 mm from the origin and overhangs the board's edge.
 *
 * Adafruit PowerBoost 1000C: its 6-pin header row (BAT, EN, GND, LBO, USB, 5V, 0.1") along one short end of its
 * 22.9 x 36.2 mm board, its micro-USB socket at the other end. Check the row against the module in hand before
 * ordering: the pin order is Adafruit's silkscreen's; the row's place on the module is drawn, not measured.
 */
import { PICO_BOTTOM_ROW, PICO_END_ROW, PICO_TOP_ROW, POWERBOOST_PINS } from "./pico-pins.ts";
import { num, q, serialize, type SExpr } from "./sexpr.ts";
import { uuidOf } from "./pcb-footprints.ts";

const FONT: SExpr = ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]];

function rect(x0: number, y0: number, x1: number, y1: number, layer: string, width: number, id: string): SExpr[] {
  return [
    "fp_rect",
    ["start", num(x0), num(y0)],
    ["end", num(x1), num(y1)],
    ["stroke", ["width", num(width)], ["type", "solid"]],
    ["fill", "no"],
    ["layer", q(layer)],
    ["uuid", q(uuidOf(id))],
  ];
}

function pad(name: string, x: number, y: number, size: number, drill: number, first: boolean, id: string): SExpr[] {
  return [
    "pad",
    q(name),
    "thru_hole",
    first ? "rect" : "circle",
    ["at", num(x), num(y)],
    ["size", num(size), num(size)],
    ["drill", num(drill)],
    ["layers", q("*.Cu"), q("*.Mask")],
    ["remove_unused_layers", "no"],
    ["uuid", q(uuidOf(`${id}/pad/${name}`))],
  ];
}

function footprint(name: string, descr: string, items: SExpr[], refY: number, valueY: number): string {
  const node: SExpr[] = [
    "footprint",
    q(name),
    ["version", "20241229"],
    ["generator", q("brainboard")],
    ["layer", q("F.Cu")],
    ["descr", q(descr)],
    [
      "property",
      q("Reference"),
      q("REF**"),
      ["at", "0", num(refY), "0"],
      ["layer", q("F.SilkS")],
      ["uuid", q(uuidOf(`${name}/ref`))],
      FONT,
    ],
    ["property", q("Value"), q(name), ["at", "0", num(valueY), "0"], ["layer", q("F.Fab")], ["uuid", q(uuidOf(`${name}/value`))], FONT],
    ["attr", "through_hole"],
    ...items,
  ];
  return serialize(node) + "\n";
}

/** Where each Pico pin's hole is, from the footprint's origin. */
export function picoPads(): { name: string; x: number; y: number; size: number; drill: number }[] {
  const out: { name: string; x: number; y: number; size: number; drill: number }[] = [];
  // Both long rows are listed from the USB end.
  PICO_BOTTOM_ROW.forEach((p, i) => out.push({ name: p.name, x: 10.16 - 2.54 * i, y: -7.62, size: 1.7, drill: 1.0 }));
  PICO_TOP_ROW.forEach((p, i) => out.push({ name: p.name, x: 10.16 - 2.54 * i, y: 7.62, size: 1.7, drill: 1.0 }));
  // The end row, listed A4 ... B8: B8 is nearest the A8 row.
  const n = PICO_END_ROW.length;
  PICO_END_ROW.forEach((p, i) => out.push({ name: p.name, x: -10.935, y: -7.62 + 1.885 + 1.27 * (n - 1 - i), size: 1.0, drill: 0.6 }));
  return out;
}

function pico(): string {
  const id = "Espruino_Pico";
  const items: SExpr[] = picoPads().map((p, i) => pad(p.name, p.x, p.y, p.size, p.drill, i === 0, id));
  items.push(
    rect(-12.1, -7.6, 20.9, 7.6, "F.Fab", 0.1, `${id}/fab`),
    rect(-12.4, -9, 11.3, 9, "F.SilkS", 0.12, `${id}/silk`),
    rect(-12.6, -9.2, 11.5, 9.2, "F.CrtYd", 0.05, `${id}/crtyd`),
  );
  return footprint(
    id,
    "Espruino Pico on pin headers: 2 x 9 at 2.54 mm, 15.24 mm apart, and the 1x8 1.27 mm end row; USB plug towards +x",
    items,
    -10.2,
    10.2,
  );
}

function powerBoost(): string {
  const id = "Adafruit_PowerBoost_1000C";
  const items: SExpr[] = POWERBOOST_PINS.map((p, i) => pad(p.name, -6.35 + 2.54 * i, 0, 1.7, 1.0, i === 0, id));
  items.push(
    rect(-11.45, -1.4, 11.45, 34.8, "F.Fab", 0.1, `${id}/fab`),
    rect(-11.6, -1.6, 11.6, 35, "F.SilkS", 0.12, `${id}/silk`),
    rect(-11.7, -1.7, 11.7, 35.1, "F.CrtYd", 0.05, `${id}/crtyd`),
  );
  return footprint(id, "Adafruit PowerBoost 1000C on a 1x6 0.1-inch header; micro-USB socket at the far end (+y)", items, -2.8, 17);
}

/** The library's files: name -> text. */
export function repoLibrary(): Record<string, string> {
  return { "Espruino_Pico.kicad_mod": pico(), "Adafruit_PowerBoost_1000C.kicad_mod": powerBoost() };
}
