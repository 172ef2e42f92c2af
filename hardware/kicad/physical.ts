/**
 * The parts whose size decides whether the handheld board fits (190 x 130 mm, 193 LEDs, 48 keys): the PCB layout
 * (placement.ts) is drawn for these, so the netlist's catalogue (parts.ts) takes its footprints and pin numbers from
 * here. Why these:
 * - LEDs: WS2812B-2020 (2 x 2 mm). 193 of them in 190 x 130 mm with 48 keys leaves ~7 mm between code holes; a 5050
 *   LED with its capacitor does not fit at that pitch, and no LED can sit under a 6 mm tactile switch.
 * - Keys: 6 x 6 mm through-hole tactile switches, 5 mm tall, for both pads: 13 mm pitch on the 6x6 pad (a calculator's
 *   pitch, for fingers), each key's LED in the 5.5 mm gap above it, where it shows beside the cap; MX switches
 *   (19 mm pitch) would take 114 mm for six keys and a 5050 LED cannot sit under one.
 * - Key diodes: SOD-123, in the 3.5 mm gap beside each key.
 */

export interface PhysicalPart {
  value: string;
  symbol: string;
  footprint: string;
  /** Symbol pin number = footprint pad number -> what the pin is. */
  pins?: Record<string, string>;
}

/** KiCad's WS2812B-2020 symbol and footprint agree on these numbers (LED.kicad_sym, LED_SMD.pretty). */
export const LED_2020: PhysicalPart = {
  value: "WS2812B-2020",
  symbol: "LED:WS2812B-2020",
  footprint: "LED_SMD:LED_WS2812B-2020_PLCC4_2.0x2.0mm",
  pins: { "1": "DOUT", "2": "VSS", "3": "DIN", "4": "VDD" },
};

/** 6 x 6 mm tactile, through-hole, 5 mm tall (e.g. Omron B3F-1002 or any 6x6x5 THT tactile); pads "1" and "2" twice each. */
export const TACTILE_6MM: PhysicalPart = {
  value: "6x6x5mm tactile",
  symbol: "Switch:SW_Push",
  footprint: "Button_Switch_THT:SW_PUSH_6mm_H5mm",
};

export const KEY_DIODE_FOOTPRINT = "Diode_SMD:D_SOD-123";
