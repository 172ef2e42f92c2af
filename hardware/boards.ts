/**
 * What the firmware and simulator need to know about each supported Espruino board: its pins and
 * their capabilities, memory and Storage. Facts from ESPRUINO.md sections 4.1 and 5 and the board
 * files of the Espruino sources (boards/PICO_R1_3.py).
 */
export interface BoardInfo {
  id: string;
  name: string;
  /** Espruino's board name, as the CLI and process.env.BOARD report it. */
  espruinoBoard: string;
  pins: string[];
  /** Pins with an SPI MOSI function, the only ones require("neopixel").write accepts on STM32. */
  neopixelPins: string[];
  adcPins: string[];
  pwmPins: string[];
  /** STM32: only one watch per pin number (A1 and B1 share EXTI line 1). */
  oneWatchPerPinNumber: boolean;
  /** Pins that cannot be watched (in deep sleep, on the Pico). */
  unwatchablePins: string[];
  jsVars: number;
  bytesPerJsVar: number;
  storageBytes: number;
}

export const BOARDS: Record<string, BoardInfo> = {
  pico: {
    id: "pico",
    name: "Espruino Pico",
    espruinoBoard: "PICO_R1_3",
    // The 22 GPIO brought out on the Pico's edges (PICO_R1_3.py `board`).
    pins: ["B15", "B14", "B13", "B10", "B1", "A7", "A6", "A5", "B3", "B4", "B5", "B6", "B7", "A8", "A4", "A3", "A2", "A1", "A0", "A10", "B9", "B8"],
    neopixelPins: ["B15", "B5", "A7"],
    adcPins: ["A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1"],
    pwmPins: ["A0", "A1", "A2", "A3", "A5", "A6", "A7", "A8", "A10", "B1", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B13", "B14", "B15"],
    oneWatchPerPinNumber: true,
    unwatchablePins: ["B9"],
    jsVars: 5100,
    bytesPerJsVar: 13,
    storageBytes: 48 * 1024,
  },
};

/** The number part of an STM32 pin name ("B15" -> 15), which selects its EXTI line. */
export function pinNumber(pin: string): number {
  return parseInt(pin.slice(1), 10);
}
