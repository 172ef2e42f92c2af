/**
 * The catalogue of parts the boards are built from: for each kind, its KiCad symbol and footprint and its ordering
 * fields. MPNs are the makers' order codes; SupplierPN is left empty where no supplier number is known for certain
 * (hardware/README.md tells the maker to fill it in at the supplier's search). netlist.ts picks from here.
 */

export interface OrderFields {
  MPN: string;
  Manufacturer: string;
  Supplier: string;
  /** Empty where the number is not known for certain. */
  SupplierPN: string;
  Description: string;
}

export interface CatalogPart extends OrderFields {
  value: string;
  /** KiCad library id of the schematic symbol. */
  symbol: string;
  /** KiCad library id of the footprint; "Brainboard:..." ones are drawn in hardware/kicad/Brainboard.pretty. */
  footprint: string;
}

import { KEY_DIODE_FOOTPRINT, LED_2020, TACTILE_6MM } from "./physical.ts";

const R0805 = "Resistor_SMD:R_0805_2012Metric";
const C0805 = "Capacitor_SMD:C_0805_2012Metric";

/** A 1 % 0805 thick-film resistor, Yageo RC series (the order code carries the value: RC0805FR-07<value>L). */
export function resistor(value: string, description: string): CatalogPart {
  const code = value
    .replace(/^(\d+)\.(\d+)k$/, "$1K$2")
    .replace(/k$/, "K")
    .replace(/^(\d+)$/, "$1R");
  return {
    value,
    symbol: "Device:R",
    footprint: R0805,
    MPN: `RC0805FR-07${code}L`,
    Manufacturer: "Yageo",
    Supplier: "LCSC",
    SupplierPN: "",
    Description: `Resistor ${value}, 1 %, 0805: ${description}`,
  };
}

/** Ceramic capacitors by value. */
const CERAMIC: Record<string, { MPN: string; spec: string }> = {
  "100nF": { MPN: "CL21B104KBCNNNC", spec: "100 nF 50 V X7R 0805" },
  "2.2uF": { MPN: "CL21A225KAQNNNE", spec: "2.2 uF 25 V X5R 0805" },
};

export function ceramic(value: keyof typeof CERAMIC & string, description: string): CatalogPart {
  const c = CERAMIC[value];
  return {
    value,
    symbol: "Device:C",
    footprint: C0805,
    MPN: c.MPN,
    Manufacturer: "Samsung Electro-Mechanics",
    Supplier: "LCSC",
    SupplierPN: "",
    Description: `Capacitor ${c.spec}: ${description}`,
  };
}

export const BULK_CAP: CatalogPart = {
  value: "220uF",
  symbol: "Device:C_Polarized",
  footprint: "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm",
  MPN: "EEU-FR1A221",
  Manufacturer: "Panasonic",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "Electrolytic capacitor 220 uF 10 V, low ESR, 6.3 mm radial: bulk capacitor of the LED rail",
};

export const LED: CatalogPart = {
  ...LED_2020,
  MPN: "WS2812B-2020",
  Manufacturer: "Worldsemi",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "Addressable RGB LED, 2 x 2 mm, 5 V, GRB order: soldered straight onto the board",
};

export const KEY_DIODE: CatalogPart = {
  value: "1N4148W",
  symbol: "Device:D",
  footprint: KEY_DIODE_FOOTPRINT,
  MPN: "1N4148W-7-F",
  Manufacturer: "Diodes Incorporated",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "Small-signal diode, SOD-123: one per key, in series with its switch",
};

/** Both pads' keys: 6 x 6 mm through-hole tactiles, 5 mm tall, under the case's printed caps. */
export const KEY_SWITCH: CatalogPart = {
  ...TACTILE_6MM,
  value: "B3F-1020",
  MPN: "B3F-1020",
  Manufacturer: "Omron",
  Supplier: "Mouser",
  SupplierPN: "",
  Description: "Tactile switch 6 x 6 mm, 5 mm tall, through-hole, 0.98 N (any 6 x 6 x 5 mm THT tactile fits)",
};

export const PICO: CatalogPart = {
  value: "Espruino Pico",
  symbol: "Brainboard:Espruino_Pico",
  footprint: "Brainboard:Espruino_Pico",
  MPN: "Espruino Pico 1v4",
  Manufacturer: "Pur3 Ltd (Espruino)",
  Supplier: "espruino.com shop",
  SupplierPN: "",
  Description: "STM32F401 board running Espruino 2v29 or later; rev 1v4 has a 500 mA polyfuse on its USB",
};

export const POWERBOOST: CatalogPart = {
  value: "PowerBoost 1000C",
  symbol: "Brainboard:PowerBoost_1000C",
  footprint: "Brainboard:Adafruit_PowerBoost_1000C",
  MPN: "2465",
  Manufacturer: "Adafruit",
  Supplier: "Adafruit",
  SupplierPN: "2465",
  Description: "LiPo charger with load sharing and a 5.2 V 1 A boost; EN low switches the boost off",
};

export const POWER_SWITCH: CatalogPart = {
  value: "OS102011MS2QN1",
  symbol: "Switch:SW_SPDT",
  footprint: "Button_Switch_THT:SW_Slide_SPDT_Straight_CK_OS102011MS2Q",
  MPN: "OS102011MS2QN1",
  Manufacturer: "C&K",
  Supplier: "Mouser",
  SupplierPN: "",
  Description: "Slide switch SPDT, through-hole: the power switch (common to the boost's EN, one throw to GND = off)",
};

export const POLYFUSE: CatalogPart = {
  value: "500mA",
  symbol: "Device:Polyfuse",
  footprint: "Fuse:Fuse_1812_4532Metric",
  MPN: "MF-MSMF050-2",
  Manufacturer: "Bourns",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "Resettable fuse, 500 mA hold, 1 A trip, 1812: a short in the LED wiring trips it, not the supply",
};

export const PFET: CatalogPart = {
  value: "AO3401A",
  symbol: "Transistor_FET:AO3401A",
  footprint: "Package_TO_SOT_SMD:SOT-23",
  MPN: "AO3401A",
  Manufacturer: "Alpha & Omega Semiconductor",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "P-channel MOSFET -30 V 4 A, SOT-23: high-side switch of the LED rail, slew-rate limited",
};

export const NPN: CatalogPart = {
  value: "MMBT3904",
  symbol: "Transistor_BJT:MMBT3904",
  footprint: "Package_TO_SOT_SMD:SOT-23",
  MPN: "MMBT3904LT1G",
  Manufacturer: "onsemi",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "NPN transistor 40 V 200 mA, SOT-23",
};

export const BUFFER: CatalogPart = {
  value: "74AHCT1G125",
  symbol: "74xGxx:74AHCT1G125",
  footprint: "Package_TO_SOT_SMD:SOT-23-5",
  MPN: "SN74AHCT1G125DBVR",
  Manufacturer: "Texas Instruments",
  Supplier: "LCSC",
  SupplierPN: "",
  Description: "Single buffer with TTL-level input, SOT-23-5: lifts the Pico's 3.3 V LED data to 5 V",
};

export const BUZZER: CatalogPart = {
  value: "PS1240P02BT",
  symbol: "Device:Buzzer",
  footprint: "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",
  MPN: "PS1240P02BT",
  Manufacturer: "TDK",
  Supplier: "Mouser",
  SupplierPN: "",
  Description: "Piezo sounder, 12.2 mm, external drive (no oscillator): driven by PWM",
};
