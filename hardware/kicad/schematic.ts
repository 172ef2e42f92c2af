/**
 * A board's schematic in KiCad 9's format, drawn from its netlist (netlist.ts) with KiCad's standard symbols: the
 * root sheet holds the Pico, power, the LED switch, the data buffer, the buzzer and the cell's divider; the "LED
 * chain" sheet the LEDs in chain order with their capacitors; the "Keys" sheet each key matrix drawn as a matrix
 * (row and column lines as wires, a switch and a diode at every crossing). Every net carries its netlist name.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "../profile.ts";
import { netlist, NET, type BoardPart, type Netlist } from "./netlist.ts";
import { softStart, sleepDrain, usbOnlyBudget } from "./power.ts";
import { Sheet, uuid } from "./sheet.ts";
import { brainboardLibraryText, pinNumber } from "./symbols.ts";

export interface SchematicFile {
  /** Path relative to the board's directory. */
  path: string;
  content: string;
}

const SHEETS = { chain: { name: "LED chain", file: "leds.kicad_sch" }, keys: { name: "Keys", file: "keys.kicad_sch" } };

/** Every schematic file of a board: the root sheet, its two child sheets and the project's symbol table. */
export function schematicFiles(p: Profile): SchematicFile[] {
  const n = netlist(p);
  const project = p.id;
  const rootUuid = uuid(`${project}/root`);
  const chainUuid = uuid(`${project}/sheet/chain`);
  const keysUuid = uuid(`${project}/sheet/keys`);
  const comments = [`Generated from hardware/profiles/${p.id}.json by hardware/kicad/schematic.ts: do not edit`, n.name];

  const root = new Sheet(`${project}.kicad_sch`, `${n.name}: Pico, power, LED switch and data`, "A2", `/${rootUuid}`, project, 0);
  drawRoot(root, n, p);
  root.sheetBox(SHEETS.chain.name, SHEETS.chain.file, chainUuid, 2, 30, 370);
  root.sheetBox(SHEETS.keys.name, SHEETS.keys.file, keysUuid, 3, 90, 370);

  const chain = new Sheet(SHEETS.chain.file, `${n.name}: the LED chain`, "A1", `/${rootUuid}/${chainUuid}`, project, 1000);
  chain.quietPower = true;
  drawChain(chain, n, p);
  const keys = new Sheet(SHEETS.keys.file, `${n.name}: the key matrices`, "A2", `/${rootUuid}/${keysUuid}`, project, 2000);
  drawKeys(keys, n, p);

  return [
    { path: `${project}.kicad_sch`, content: root.toText(rootUuid, comments, true) },
    { path: SHEETS.chain.file, content: chain.toText(chainUuid, comments, false) },
    { path: SHEETS.keys.file, content: keys.toText(keysUuid, comments, false) },
    { path: "sym-lib-table", content: libTable("sym", n) },
    { path: "fp-lib-table", content: libTable("fp", n) },
  ];
}

/** Writes the schematic files into `dir` (hardware/kicad/<id>/) and the project's symbol library beside it. */
export function writeSchematic(p: Profile, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const f of schematicFiles(p)) {
    writeFileSync(join(dir, f.path), f.content);
    written.push(join(dir, f.path));
  }
  const lib = join(dir, "..", "Brainboard.kicad_sym");
  writeFileSync(lib, brainboardLibraryText());
  written.push(lib);
  return written;
}

/** The project's library tables: its own libraries beside the boards, KiCad's from the installation. */
function libTable(kind: "sym" | "fp", n: Netlist): string {
  const ids = n.parts.map((x) => (kind === "sym" ? x.symbol : x.footprint));
  if (kind === "sym") ids.push("power:GND");
  const libs = [...new Set(ids.map((id) => id.split(":")[0]))].sort();
  const dir = kind === "sym" ? "${KICAD9_SYMBOL_DIR}" : "${KICAD9_FOOTPRINT_DIR}";
  const uri = (lib: string) =>
    lib === "Brainboard"
      ? `\${KIPRJMOD}/../Brainboard.${kind === "sym" ? "kicad_sym" : "pretty"}`
      : `${dir}/${lib}.${kind === "sym" ? "kicad_sym" : "pretty"}`;
  const rows = libs.map((lib) => `\t(lib (name "${lib}")(type "KiCad")(uri "${uri(lib)}")(options "")(descr ""))`);
  return `(${kind}_lib_table\n\t(version 7)\n${rows.join("\n")}\n)\n`;
}

function byBlock(n: Netlist, kind: BoardPart["block"]["kind"]): BoardPart[] {
  return n.parts.filter((x) => x.block.kind === kind);
}

/** Parts in a row from (x, y), `step` apart; modules keep their library's field places, switches name themselves below. */
function row(s: Sheet, parts: BoardPart[], x: number, y: number, step = 30.48): void {
  parts.forEach((part, i) =>
    s.place(
      part,
      x + i * step,
      y,
      0,
      true,
      [],
      part.symbol.startsWith("Brainboard:") ? "symbol" : part.symbol === "Switch:SW_SPDT" ? "below" : "right",
    ),
  );
}

function drawRoot(s: Sheet, n: Netlist, p: Profile): void {
  const st = softStart(p);
  s.note(`${n.name} (${p.id})`, 20, 20, 3, true);
  s.note("Pin names are the Espruino Pico's own: VBAT is the Pico's USB 5 V less its diode; VCELL is the LiPo's plus.", 20, 27);
  const pico = n.parts.find((x) => x.ref === "U1")!;
  s.note("U1: Espruino Pico", 50, 45, 2, true);
  s.place(pico, 78.74, 78.74, 0, true, [], "symbol");

  s.note("Power in", 150, 45, 2, true);
  if (p.battery) drawPowerIn(s, n, 210.82, 68.58);
  else row(s, byBlock(n, "power"), 170.18, 68.58);
  s.note(
    p.battery
      ? `Battery build: the cell (VCELL) plugs into U3; U3's 5V is +5V and feeds the Pico's BAT_IN. The power switch pulls U3's EN to GND (off).`
      : "USB only: the Pico's VBAT pin (USB 5 V less the Pico's diode) is +5V; BAT_IN stays unconnected.",
    150,
    102,
  );
  const flags = ["GND", NET.fused, ...(p.leds.powerPin ? [NET.ledRail] : [])];
  s.note("Power flags (ERC: these nets are driven)", 150, 110);
  flags.forEach((net, i) => s.flag(net, 154.94 + i * 30.48, 124.46));

  s.note("LED switch: Q1 slew-rate limited by its gate-drain capacitor", 150, 140, 2, true);
  if (p.leds.powerPin) {
    drawLedSwitch(s, n, 177.8, 160.02);
    s.note(
      `The rail rises in ${st.riseMs[0]}-${st.riseMs[1]} ms (Miller plateau 1.0-2.5 V): ${st.inrushMa[1]}-${st.inrushMa[0]} mA into ${st.railUf} uF, plus the dark LEDs' ${st.idleMa} mA; it is up at most ${st.settleMs} ms after ${p.leds.powerPin} goes high.`,
      150,
      205,
    );
  } else row(s, byBlock(n, "ledSwitch"), 160.02, 165.1);

  s.note("LED data: 3.3 V to 5 V, series resistor into LED1", 150, 218, 2, true);
  row(s, byBlock(n, "data"), 160.02, 238.76);

  if (p.buzzer) {
    s.note("Buzzer", 150, 265, 2, true);
    row(s, byBlock(n, "buzzer"), 160.02, 289.56);
  }
  if (p.battery) {
    s.note("Cell divider", 340, 265, 2, true);
    row(
      s,
      byBlock(n, "battery").filter((x) => x.ref.startsWith("R") || x.ref.startsWith("C")),
      350.52,
      284.48,
    );
  }
  const usb = usbOnlyBudget(p);
  const sleep = sleepDrain(p);
  s.note(
    `USB only: LEDs at most ${usb.ledMa} mA, all together ${usb.totalMa} mA through the Pico's 500 mA polyfuse (${Math.round(usb.fuseShare * 100)} %).`,
    150,
    320,
  );
  if (sleep)
    s.note(
      `Asleep but switched on, the unit draws about ${sleep.totalMa} mA (the boost's own ${5} mA): a 2000 mAh cell lasts about ${sleep.days} days. Switch it off.`,
      150,
      336,
    );
  s.note("Sheets", 30, 360, 2, true);
}

/**
 * A battery build's power input, wired: the power switch on the charger's EN (off: EN to GND), the charger's 5V
 * through F1 to +5V_F, with +5V (the Pico's BAT_IN) taken off before the fuse. (x, y) is the charger.
 */
function drawPowerIn(s: Sheet, n: Netlist, x: number, y: number): void {
  const boost = n.parts.find((p) => p.symbol === "Brainboard:PowerBoost_1000C")!;
  const sw = n.parts.find((p) => p.symbol === "Switch:SW_SPDT")!;
  const fuse = n.parts.find((p) => p.symbol === "Device:Polyfuse")!;
  const u = s.place(boost, x, y, 0, true, ["EN", "5V"], "symbol").pins;
  const k = s.place(sw, x - 45.72, y + 10.16, 180, true, ["2"], "below").pins;
  const f = s.place(fuse, x + 30.48, y + 2.54, 90, true, ["1"], "above").pins;
  // EN down and across to the switch's common, named on the way.
  const en = u.get("EN")!;
  const common = k.get("2")!;
  const bend = en.x - 5.08;
  s.wire(en.x, en.y, bend, en.y);
  vbus(s, bend, [en.y, common.y, common.y + 2.54]);
  s.wire(bend, common.y, common.x, common.y);
  s.junction(bend, common.y);
  s.label(boost.pins.EN!, bend, common.y + 2.54, "down");
  // 5V to the fuse, +5V taken off on the way.
  const out = u.get("5V")!;
  const tap = out.x + 7.62;
  bus_(s, [out.x, tap, f.get("1")!.x], out.y);
  s.wire(tap, out.y, tap, out.y - 7.62);
  s.power(NET.rail, tap, out.y - 7.62, "up");
}

/** The part of `n` whose pins are on exactly these nets (a role in the circuit, whatever its reference). */
function byNets(n: Netlist, block: BoardPart["block"]["kind"], nets: string[], symbol?: string): BoardPart {
  const want = [...nets].sort().join();
  const part = n.parts.find(
    (x) => x.block.kind === block && Object.values(x.pins).sort().join() === want && (!symbol || x.symbol === symbol),
  );
  if (!part) throw new Error(`no part on ${nets.join(", ")} in the ${block} block`);
  return part;
}

/**
 * The LED switch drawn as a circuit, wires and all: +5V_F across the top, Q1 (source up, gate right) with C_GS and
 * R_GS from its gate to +5V_F and C_GD from its gate to its drain, the +5V_LED line with the bulk capacitor below,
 * and Q2 pulling the gate through R_G. (x, y) is Q1.
 */
function drawLedSwitch(s: Sheet, n: Netlist, x: number, y: number): void {
  const q1 = n.parts.find((p) => p.ref === "Q1")!;
  const q2 = n.parts.find((p) => p.ref === "Q2")!;
  const gate = q1.pins["1"]!;
  const pull = q2.pins["3"]!;
  const base = q2.pins["1"]!;
  const rGs = byNets(n, "ledSwitch", [NET.fused, gate], "Device:R");
  const cGs = byNets(n, "ledSwitch", [NET.fused, gate], "Device:C");
  const cGd = byNets(n, "ledSwitch", [gate, NET.ledRail]);
  const rG = byNets(n, "ledSwitch", [gate, pull]);
  const rB = n.parts.find(
    (p) => p.block.kind === "ledSwitch" && Object.values(p.pins).includes(base) && !Object.values(p.pins).includes(NET.gnd) && p !== q2,
  )!;
  const rPd = byNets(n, "ledSwitch", [base, NET.gnd]);
  const bulk = byNets(n, "ledSwitch", [NET.ledRail, NET.gnd]);
  const top = y - 12.7;
  const rail = y + 15.24;

  const q = s.place(q1, x, y, 180, false, [], "left").pins;
  const [src, drain, g] = [q.get("2")!, q.get("3")!, q.get("1")!];
  const cgs = s.place(cGs, x + 12.7, y - 3.81, 0, false).pins;
  const rgs = s.place(rGs, x + 25.4, y - 3.81, 0, false).pins;
  const cgd = s.place(cGd, x + 7.62, y + 7.62, 0, false).pins;
  const rg = s.place(rG, x + 33.02, y + 3.81, 0, false).pins;
  const qb = s.place(q2, x + 30.48, y + 22.86, 0, false).pins;
  const rb = s.place(rB, x + 17.78, y + 22.86, 90, false, [], "above").pins;
  const rpd = s.place(rPd, x + 25.4, y + 26.67, 0, false, [], "left").pins;
  const cb = s.place(bulk, x - 12.7, y + 19.05, 0, false).pins;

  // +5V_F across the top: Q1's source, C_GS and R_GS.
  for (const pin of [src, cgs.get("1")!, rgs.get("1")!]) s.wire(pin.x, pin.y, pin.x, top);
  s.label(NET.fused, x - 7.62, top, "left");
  bus_(s, [x - 7.62, src.x, cgs.get("1")!.x, rgs.get("1")!.x], top);
  // The gate line: Q1's gate, C_GD, C_GS, R_GS, R_G.
  s.wire(cgd.get("1")!.x, cgd.get("1")!.y, cgd.get("1")!.x, y);
  bus_(s, [g.x, cgd.get("1")!.x, cgs.get("2")!.x, rgs.get("2")!.x, rg.get("1")!.x], y);
  // +5V_LED: Q1's drain, C_GD, the bulk capacitor.
  s.wire(drain.x, drain.y, drain.x, rail);
  s.wire(cgd.get("2")!.x, cgd.get("2")!.y, cgd.get("2")!.x, rail);
  s.wire(cb.get("1")!.x, cb.get("1")!.y, cb.get("1")!.x, rail);
  s.label(NET.ledRail, x - 17.78, rail, "left");
  bus_(s, [x - 17.78, cb.get("1")!.x, drain.x, cgd.get("2")!.x], rail);
  s.terminate(cb.get("2")!, NET.gnd, `${bulk.ref}/2`);
  // The gate's label, so the net keeps its netlist name.
  s.wire(rg.get("1")!.x, y, rg.get("1")!.x + 5.08, y);
  s.label(gate, rg.get("1")!.x + 5.08, y, "right");
  // Q2 pulls the gate down through R_G; its base from the LED power pin, with the pull-down.
  const mid = y + 12.7;
  vbus(s, rg.get("2")!.x, [rg.get("2")!.y, mid, qb.get("3")!.y]);
  s.junction(rg.get("2")!.x, mid);
  s.wire(rg.get("2")!.x, mid, rg.get("2")!.x + 5.08, mid);
  s.label(pull, rg.get("2")!.x + 5.08, mid, "right");
  s.terminate(qb.get("2")!, NET.gnd, "Q2/2");
  const tap = rb.get("2")!.x + 1.27;
  s.wire(rb.get("2")!.x, rb.get("2")!.y, tap, rb.get("2")!.y);
  s.wire(tap, rb.get("2")!.y, qb.get("1")!.x, qb.get("1")!.y);
  s.junction(tap, rb.get("2")!.y);
  s.wire(tap, rb.get("2")!.y, tap, rb.get("2")!.y - 6.35);
  s.label(base, tap, rb.get("2")!.y - 6.35, "up");
  s.junction(qb.get("1")!.x, qb.get("1")!.y);
  s.terminate(rb.get("1")!, rB.pins["1"]!, `${rB.ref}/1`);
  s.terminate(rpd.get("2")!, NET.gnd, `${rPd.ref}/2`);
}

const LEDS_PER_ROW = 18;
const LED_CELL = 43.18;
const LED_ROW = 40.64;

function drawChain(s: Sheet, n: Netlist, p: Profile): void {
  s.note("The LED chain, in chain order: each DOUT drives the next DIN (labels DIN2, DIN3, ...); 100 nF at every LED", 20, 20, 2, true);
  const leds = n.parts.filter((x) => x.block.kind === "led" && x.ref.startsWith("LED"));
  const vddPin = pinNumber(leds[0].symbol, "VDD");
  const caps = new Map(
    n.parts.filter((x) => x.block.kind === "led" && x.ref.startsWith("C")).map((c) => [(c.block as { index: number }).index, c]),
  );
  const starts = new Map<number, string>();
  let at = 1;
  for (const seg of p.leds.segments) {
    starts.set(at, `${seg.name}: LED${at}-LED${at + seg.count - 1}`);
    at += seg.count;
  }
  for (let r = 0; r * LEDS_PER_ROW < leds.length; r++) {
    const y0 = 55.88 + r * LED_ROW;
    const bus = y0 - 20.32;
    const points: number[] = [];
    for (let c = 0; c < LEDS_PER_ROW && r * LEDS_PER_ROW + c < leds.length; c++) {
      const led = leds[r * LEDS_PER_ROW + c];
      const index = (led.block as { index: number }).index;
      const x0 = 30.48 + c * LED_CELL;
      const l = s.place(led, x0, y0, 0, true, [vddPin], "below");
      const vdd = l.pins.get(vddPin)!;
      s.wire(vdd.x, vdd.y, vdd.x, bus);
      const cap = caps.get(index)!;
      const cp = s.place(cap, x0 + 10.16, y0 - 12.7, 0, true, ["1"]);
      const c1 = cp.pins.get("1")!;
      s.wire(c1.x, c1.y, c1.x, bus);
      points.push(vdd.x, c1.x);
      const label = starts.get(index);
      if (label) s.note(label, x0 - 10.16, bus - 3.81, 1.5, true);
    }
    const left = points[0] - 5.08;
    s.label(leds[0].pins[vddPin]!, left, bus, "left");
    bus_(s, [left, ...points], bus);
  }
}

/** A horizontal bus through the given x points at height y: endpoint-to-endpoint segments, junctions inside. */
function bus_(s: Sheet, xs: number[], y: number): void {
  const sorted = [...new Set(xs)].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) s.wire(sorted[i - 1], y, sorted[i], y);
  for (let i = 1; i < sorted.length - 1; i++) s.junction(sorted[i], y);
}

function vbus(s: Sheet, x: number, ys: number[]): void {
  const sorted = [...new Set(ys)].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) s.wire(x, sorted[i - 1], x, sorted[i]);
  for (let i = 1; i < sorted.length - 1; i++) s.junction(x, sorted[i]);
}

const KEY_W = 45.72;
const KEY_H = 30.48;

function drawKeys(s: Sheet, n: Netlist, p: Profile): void {
  s.note("The key matrices: a switch from each column line to a diode, the diode's cathode on the row line", 20, 20, 2, true);
  let left = 40.64;
  for (const m of p.keys.matrices) {
    const top = 50.8;
    s.note(`Matrix "${m.name}"${m.about ? `: ${m.about}` : ""}`, left - 15.24, top - 12.7, 1.5, true);
    const keyParts = n.parts.filter((x) => x.block.kind === "key" && x.block.matrix === m.name);
    const cols = m.colPins.length;
    const rowsY = m.rows.map((_, r) => top + r * KEY_H + 12.7);
    const rowPoints: number[][] = m.rows.map(() => []);
    const colPoints: number[][] = m.colPins.map(() => []);
    for (const sw of keyParts.filter((x) => x.ref.startsWith("SW"))) {
      const b = sw.block as { row: number; col: number };
      const d = keyParts.find((x) => x.ref.startsWith("D") && x.block.kind === "key" && x.block.row === b.row && x.block.col === b.col)!;
      const cx = left + b.col * KEY_W;
      const cy = top + b.row * KEY_H;
      const sp = s.place(sw, cx + 7.62, cy, 0, false, [], "above");
      const dp = s.place(d, cx + 38.1, cy + 3.81, 90, false, [], "left");
      const p1 = sp.pins.get("1")!;
      const p2 = sp.pins.get("2")!;
      const a = dp.pins.get("2")!;
      const k = dp.pins.get("1")!;
      s.wire(cx, cy, p1.x, p1.y);
      s.wire(p2.x, p2.y, a.x, a.y);
      s.label(sw.pins["2"]!, p2.x, p2.y, "right");
      s.wire(k.x, k.y, k.x, rowsY[b.row]);
      rowPoints[b.row].push(k.x);
      colPoints[b.col].push(cy);
    }
    m.colPins.forEach((pin, c) => {
      const x = left + c * KEY_W;
      const net = keyParts.find((x) => x.ref.startsWith("SW") && (x.block as { col: number }).col === c)?.pins["1"];
      if (!net) return;
      s.label(net, x, top - 5.08, "up");
      s.note(pin, x + 1.27, top - 6.35);
      vbus(s, x, [top - 5.08, ...colPoints[c]]);
    });
    m.rows.forEach((line, r) => {
      const x = left - 7.62;
      s.label(NET.row(line), x, rowsY[r], "left");
      bus_(s, [x, ...rowPoints[r]], rowsY[r]);
      s.note(p.keys.rowPins[line], x - 12.7, rowsY[r] + 3.81);
    });
    left += cols * KEY_W + 30.48;
  }
}
