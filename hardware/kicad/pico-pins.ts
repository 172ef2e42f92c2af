/**
 * The pins of the plug-in modules the boards carry, by the names their makers print on them. The schematic symbols
 * (Brainboard.kicad_sym) and the PCB footprints (Brainboard.pretty) both number their pins with these names, so the
 * schematic, the PCB and the firmware's profile all say "B15" for the same hole.
 *
 * Espruino Pico: boards/PICO_R1_3.py in the Espruino source (its `board` table). The two long edges are 0.1" (2.54 mm)
 * rows of 9; the end row is 0.05" (1.27 mm), 8 pins. VBAT is the Pico's own pin: USB 5 V less the Pico's Schottky
 * diode (an output while USB is plugged in); BAT_IN takes 3.5-16 V into the Pico's regulator; 3.3 is the
 * regulator's output.
 */

export type PinKind = "bidirectional" | "power_in" | "power_out" | "passive" | "input" | "output";

export interface ModulePin {
  /** The name printed on the module, also the symbol's pin number and the footprint's pad number. */
  name: string;
  kind: PinKind;
}

const io = (name: string): ModulePin => ({ name, kind: "bidirectional" });

/** The Pico's long edge with BAT_IN at its end (PICO_R1_3.py "top"), in order from the USB end. */
export const PICO_TOP_ROW: ModulePin[] = [
  { name: "BAT_IN", kind: "power_in" },
  ...["B15", "B14", "B13", "B10", "B1", "A7", "A6", "A5"].map(io),
];

/** The Pico's other long edge (PICO_R1_3.py "bottom"), in order from the USB end. */
export const PICO_BOTTOM_ROW: ModulePin[] = [
  { name: "GND", kind: "power_in" },
  { name: "VBAT", kind: "power_out" },
  { name: "3.3", kind: "power_out" },
  ...["B3", "B4", "B5", "B6", "B7", "A8"].map(io),
];

/** The 0.05" end row, opposite the USB plug (PICO_R1_3.py "right"). */
export const PICO_END_ROW: ModulePin[] = ["A4", "A3", "A2", "A1", "A0", "A10", "B9", "B8"].map(io);

/** Every pin of the Pico once (the three small pads duplicating VBAT, 3.3 and GND are not used). */
export const PICO_PINS: ModulePin[] = [...PICO_TOP_ROW, ...PICO_BOTTOM_ROW, ...PICO_END_ROW];

/**
 * Adafruit PowerBoost 1000C (product 2465): LiPo charger with load sharing and a 5.2 V 1 A boost. Its header row, by
 * the names on its silkscreen; the cell plugs into its own JST-PH socket, the charger into its own micro-USB.
 */
export const POWERBOOST_PINS: ModulePin[] = [
  { name: "BAT", kind: "passive" },
  { name: "EN", kind: "input" },
  { name: "GND", kind: "power_in" },
  { name: "LBO", kind: "output" },
  { name: "USB", kind: "passive" },
  { name: "5V", kind: "power_out" },
];
