/**
 * npx tsx hardware/gen-docs.ts [--check]   (npm run docs:hardware, npm run docs:hardware:check)
 *
 * Writes, from the profiles in hardware/profiles/: wiring-<id>.md (pins, LED chain, key matrices, parts) for every
 * profile, and the generated blocks of hardware/README.md (the profiles, the handheld board's parts, its power
 * figures). The schematic, the PCB and the fab files are KiCad's: npm run pcb (hardware/kicad/main.ts). With --check it writes nothing and exits 1 when any of them differs from what the profiles
 * produce, so the docs cannot drift from the data.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as prettier from "prettier";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BOARDS, type BoardInfo } from "./boards.ts";
import {
  columnPins,
  keyList,
  ledCount,
  ledSettleMs,
  listProfiles,
  loadProfile,
  segmentOffsets,
  type KeyInfo,
  type Profile,
} from "./profile.ts";

import { bomLines, caseHardware, refRanges } from "./kicad/bom.ts";
import { BOARD_PROFILES } from "./kicad/main.ts";
import { netlist } from "./kicad/netlist.ts";
import { sleepDrain, softStart, SOFT_START, SLEEP, USB_ONLY, usbOnlyBudget } from "./kicad/power.ts";

export const HARDWARE_DIR = fileURLToPath(new URL("./", import.meta.url));
export const README = "README.md";
/** The board the README's parts and power figures are of: the one drawn as a PCB. */
export const README_BOARD = "handheld-pico";

// ----------------------------------------------------------------------------------------------- pins

export type PinGroup = "led" | "power" | "row" | "column" | "buzzer" | "battery" | "console" | "free";

export interface PinUse {
  pin: string;
  group: PinGroup;
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
    function: driver,
    notes: note(
      p.leds.pin,
      `via the level shifter (74AHCT1G125, 3.3 V → 5 V) and a ${SERIES_OHMS} series resistor to DIN of the first LED (segment "${first.name}"); ${ledCount(p)} ${p.leds.type} in one chain`,
      driver,
    ),
  });
  if (p.leds.powerPin) {
    const on = (p.leds.powerOnLevel ?? 1) === 1 ? "high" : "low";
    out.push({
      pin: p.leds.powerPin,
      group: "power",
      function: "LED power switch",
      notes: note(
        p.leds.powerPin,
        `${on} = LEDs on: through a 4.7 kΩ base resistor (100 kΩ base pull-down) to the NPN that pulls the P-MOSFET's gate down through ${SOFT_START.rG.value}; a ${SOFT_START.rGs.value} gate pull-up keeps the LEDs off while the MCU boots or sleeps (a dark LED still draws ~${p.leds.idleMaPerPixel} mA); ${SOFT_START.cGd.value} from gate to drain makes the rail rise in ${softStart(p).riseMs.join("-")} ms`,
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
        function: `${m.name} column ${c + 1} (column line ${line} of ${total})`,
        notes: note(pin, `input with pull-up, watched to wake the unit; diode anodes of ${keyNames(m.keys.map((row) => row[c]))}`),
      });
    });
  if (p.buzzer)
    out.push({
      pin: p.buzzer.pin,
      group: "buzzer",
      function: "buzzer (PWM)",
      notes: note(p.buzzer.pin, "through a 1 kΩ base resistor to the NPN that switches the piezo (external drive)"),
    });
  if (p.battery) {
    const b = p.battery;
    out.push({
      pin: b.pin,
      group: "battery",
      function: "battery voltage (ADC)",
      notes: note(
        b.pin,
        `the cell's + (VCELL) through a ${dividerTopKOhm(b.dividerRatio)} kΩ / ${DIVIDER_BOTTOM_KOHM} kΩ divider (ratio ${b.dividerRatio}; the ${board.name} has none): full ${b.fullV} V, low ${b.lowV} V, empty ${b.emptyV} V`,
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
      function: console ? "serial console (kept free)" : "free",
      notes: board.pinNotes?.[pin] ?? "",
    });
  }
  return out;
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

/** The parts of a Pico board, as its KiCad BOM lists them (with the case's screws when `withCase`). */
export function partsTable(p: Profile, withCase = false): string {
  if (p.board !== "pico")
    return `The KiCad design is drawn for the Espruino Pico; on the ${boardOf(p).name} the parts besides the board are those of [the Pico builds' BOM](README.md#parts).`;
  const n = netlist(p);
  const lines = bomLines(n, withCase ? caseHardware(p, n) : []);
  return mdTable(
    ["Refs", "Qty", "Value", "MPN", "Manufacturer", "Supplier", "What it is"],
    lines.map((l) => [
      refRanges(l.refs),
      l.qty,
      l.value,
      l.mpn,
      l.manufacturer,
      l.supplierPn ? `${l.supplier} ${l.supplierPn}` : l.supplier,
      l.description,
    ]),
  );
}

export function profilesTable(ids: string[]): string {
  return mdTable(
    ["Profile", "Board", "Pegs x rows", "LEDs", "Keys (pads)", "LED budget", "Power", "Pins and keys"],
    ids.map((id) => {
      const p = loadProfile(id);
      return [
        `\`${id}\``,
        boardOf(p).name,
        `${p.pegs} x ${p.rows}`,
        ledCount(p),
        `${keyList(p).length} (${p.keys.matrices.map((m) => `${m.rows.length}x${m.colPins.length}`).join(" + ")})`,
        `${p.leds.budgetMa} mA`,
        p.battery ? "LiPo + USB" : "USB only",
        `[wiring-${id}.md](wiring-${id}.md)`,
      ];
    }),
  );
}

/** The power figures of a board (hardware/kicad/power.ts), for the README. */
export function powerFigures(p: Profile): string {
  const st = softStart(p);
  const usb = usbOnlyBudget(p);
  const sleep = sleepDrain(p);
  const s = SOFT_START;
  const out = [
    `- **Soft start of the LED rail** (Q1 AO3401A, R_G ${s.rG.value}, R_GS ${s.rGs.value}, C_GD ${s.cGd.value}, C_GS ${s.cGs.value}): while the rail rises Q1's gate sits at its Miller plateau, so the gate current through R_G flows through C_GD and sets the slope: dV/dt = I_gate / C_GD. With the plateau anywhere from ${s.plateauV[0]} to ${s.plateauV[1]} V (the AO3401A's threshold is ${s.vthMinV}-${s.vthMaxV} V) the rail rises from 0 to 5 V in **${st.riseMs[0]}-${st.riseMs[1]} ms**, and the inrush into its ${st.railUf} uF (220 uF bulk + 100 nF per LED) is **${st.inrushMa[1]}-${st.inrushMa[0]} mA**, plus the dark LEDs' ${st.idleMa} mA once they are up. The ramp starts at most ${st.delayMs} ms after ${p.leds.powerPin ?? "the LED power pin"} goes high (the gate first charges C_GS + C_GD to the threshold), so the rail is up at most **${st.settleMs} ms** after it: the firmware sends no frame before \`leds.powerSettleMs\` (${ledSettleMs(p)} ms for this profile${ledSettleMs(p) < st.settleMs ? `, **shorter than this worst case: set it to ${st.settleMs}**` : ""}). While +5V itself comes up, C_GS (${Math.round(s.cGs.farads / s.cGd.farads)} x C_GD) holds the gate within ${st.powerUpVgs} V of the source, under the smallest threshold, so Q1 stays off.`,
    `- **USB only** (\`"battery": { "kind": "none" }\`): everything draws through the Pico's USB polyfuse (${USB_ONLY.fuseHoldMa} mA hold) and its Schottky diode. The LEDs get at most ${usb.ledMa} mA (the profile check refuses more), the Pico about ${USB_ONLY.picoMa} mA, the level shifter ${USB_ONLY.shifterMa} mA and the buzzer ${USB_ONLY.buzzerMa} mA: **${usb.totalMa} mA**, ${Math.round(usb.fuseShare * 100)} % of the fuse's hold current, which leaves room for the fuse's derating as it warms (about 80 % at 50 °C).`,
  ];
  if (sleep)
    out.push(
      `- **Asleep, switched on** (battery builds): the boost converter keeps running (about ${SLEEP.boostMa} mA with no load), the Pico in deep sleep about ${SLEEP.picoMa} mA, the divider ${sleep.dividerMa} mA, the LED rail is off: **${sleep.totalMa} mA**, so a ${SLEEP.cellMah} mAh cell is flat after about **${sleep.days} days**. The power switch turns the boost off (EN to GND), and the unit with it: switch it off when you put it away.`,
    );
  return out.join("\n");
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
  out.push(
    BOARD_PROFILES.includes(p.id)
      ? `The schematic: [kicad/${p.id}/fab/${p.id}-schematic.pdf](kicad/${p.id}/fab/${p.id}-schematic.pdf); the board: [kicad/ORDERING.md](kicad/ORDERING.md). Every pin below carries the same Espruino name there.`
      : p.board === "pico"
        ? `The circuit is the handheld board's ([schematic](kicad/handheld-pico/fab/handheld-pico-schematic.pdf)) on this profile's pins; \`npm run pcb -- --profile ${p.id}\` draws it as a KiCad project of its own.`
        : "The KiCad design is drawn for the Espruino Pico; this table is the wiring for this board.",
  );
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
  }
  const reference = loadProfile(README_BOARD);
  const readmePath = HARDWARE_DIR + README;
  if (existsSync(readmePath))
    files.push({
      path: README,
      content: await formatMarkdown(
        README,
        fillBlocks(
          readFileSync(readmePath, "utf8"),
          { profiles: profilesTable(ids), parts: partsTable(reference, true), power: powerFigures(reference) },
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
