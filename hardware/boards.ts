/**
 * What the firmware, the simulator, the profile checks and the docs need to know about each supported
 * Espruino board: its pins and their capabilities, memory and Storage. Each fact says where it is from:
 * docs/espruino.md (sections 4.1 board numbers, 5.1 NeoPixel, 5.2 digital I/O, 5.3 watches,
 * 6.2 the CLI), the Espruino board files (boards/PICO_R1_3.py, boards/ESP32.py) and, for the ESP32's
 * electrical limits, the ESP-IDF GPIO documentation.
 */
export interface BoardInfo {
  id: string;
  name: string;
  /** Espruino's board name, as the CLI and process.env.BOARD report it. */
  espruinoBoard: string;
  pins: string[];
  /** Pins require("neopixel").write accepts: SPI MOSI pins on STM32, any output pin on ESP32 (RMT). */
  neopixelPins: string[];
  adcPins: string[];
  pwmPins: string[];
  /** STM32: only one watch per pin number (A1 and B1 share EXTI line 1). */
  oneWatchPerPinNumber: boolean;
  /** Has setDeepSleep (STM32 builds); ESP32 builds do not (docs/espruino.md 5.5). */
  deepSleep: boolean;
  /** Pins that cannot be watched (in deep sleep, on the Pico). */
  unwatchablePins: string[];
  jsVars: number;
  bytesPerJsVar: number;
  storageBytes: number;
  /**
   * Bytes of one flash page of the Storage area: what Espruino erases at a time, so what a Storage compaction
   * erases and rewrites at a time (Espruino's boards/<BOARD>.py `saved_code.page_size`).
   */
  storagePageBytes: number;
  /** Pins that can only be inputs and have no internal pull resistors (ESP32 GPIO34-39). */
  inputOnlyPins?: string[];
  /** The serial console's pins: kept free so the REPL stays reachable. */
  consolePins?: string[];
  /** Baud rate of the console for the CLI's -b; USB CDC boards ignore it. */
  consoleBaud?: number;
  /**
   * Whether E.getAnalogVRef() works. false: it prints an error and returns NaN (ESP32, docs/espruino.md 5.2), so a battery
   * profile must give its ADC full scale in volts instead.
   */
  analogVRef: boolean;
  /** Board file for the espruino CLI, relative to hardware/ (offline: the CLI cannot fetch it). */
  cliBoardFile?: string;
  /** What the docs should say about a pin beyond its use in a profile (peripheral, boot role). */
  pinNotes?: Record<string, string>;
}

/** ESP32 DevKitC (WROOM-32) GPIO brought out on the headers, minus GPIO6-11 (the module's SPI flash). */
const ESP32_PINS = [0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25, 26, 27, 32, 33, 34, 35, 36, 39].map((n) => `D${n}`);
/** ESP-IDF GPIO docs: GPIO34-39 are input only and have no software pull-up or pull-down. */
const ESP32_INPUT_ONLY = ["D34", "D35", "D36", "D39"];
const ESP32_OUTPUTS = ESP32_PINS.filter((p) => !ESP32_INPUT_ONLY.includes(p));

export const BOARDS: Record<string, BoardInfo> = {
  pico: {
    id: "pico",
    name: "Espruino Pico",
    espruinoBoard: "PICO_R1_3",
    // The 22 GPIO brought out on the Pico's edges (PICO_R1_3.py `board`).
    pins: [
      "B15",
      "B14",
      "B13",
      "B10",
      "B1",
      "A7",
      "A6",
      "A5",
      "B3",
      "B4",
      "B5",
      "B6",
      "B7",
      "A8",
      "A4",
      "A3",
      "A2",
      "A1",
      "A0",
      "A10",
      "B9",
      "B8",
    ],
    // docs/espruino.md 5.1: neopixel.write needs a hardware SPI MOSI pin on STM32.
    neopixelPins: ["B15", "B5", "A7"],
    // docs/espruino.md 5.2: Pico ADC pins.
    adcPins: ["A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1"],
    pwmPins: [
      "A0",
      "A1",
      "A2",
      "A3",
      "A5",
      "A6",
      "A7",
      "A8",
      "A10",
      "B1",
      "B3",
      "B4",
      "B5",
      "B6",
      "B7",
      "B8",
      "B9",
      "B10",
      "B13",
      "B14",
      "B15",
    ],
    // docs/espruino.md 5.3: STM32 watches one pin per number; 5.5: B9 cannot be watched in deep sleep.
    oneWatchPerPinNumber: true,
    deepSleep: true,
    unwatchablePins: ["B9"],
    // docs/espruino.md 4.1: 5100 JsVars of 13 bytes, Storage 3 x 16 KB (PICO_R1_3.py saved_code: 3 pages of 16384 at 0x08004000).
    jsVars: 5100,
    bytesPerJsVar: 13,
    storageBytes: 48 * 1024,
    storagePageBytes: 16 * 1024,
    analogVRef: true,
    // Serial1 (B6 TX, B7 RX) takes the console when USB is unplugged (EspruinoDocs Pico page).
    consolePins: ["B6", "B7"],
    cliBoardFile: "boards/pico.json",
    pinNotes: {
      B15: "SPI2 MOSI",
      B5: "SPI1/SPI3 MOSI",
      A7: "SPI1 MOSI",
      B6: "Serial1 TX: the console when USB is unplugged",
      B7: "Serial1 RX: the console when USB is unplugged",
      B9: "cannot be watched in deep sleep",
    },
  },
  esp32: {
    id: "esp32",
    name: "ESP32 DevKitC",
    espruinoBoard: "ESP32",
    pins: ESP32_PINS,
    // docs/espruino.md 5.1: neopixel uses the RMT peripheral on any output-capable GPIO (not GPIO6-11).
    neopixelPins: ESP32_OUTPUTS,
    // ADC1 only (boards/ESP32.py ADC1_IN0-7 on GPIO32-39); ADC2 is taken by the radio.
    adcPins: ["D32", "D33", "D34", "D35", "D36", "D39"],
    // LEDC PWM on any output pin.
    pwmPins: ESP32_OUTPUTS,
    // docs/espruino.md 5.3: ESP32 2v29 watches any pin except GPIO6-12, with no per-number limit.
    oneWatchPerPinNumber: false,
    deepSleep: false,
    unwatchablePins: ["D6", "D7", "D8", "D9", "D10", "D11", "D12"],
    // docs/espruino.md 4.1: 16383 JsVars of 14 bytes, Storage 224 x 4 KB at 0x320000 (ESP32.py saved_code).
    jsVars: 16383,
    bytesPerJsVar: 14,
    storageBytes: 896 * 1024,
    storagePageBytes: 4 * 1024,
    analogVRef: false,
    inputOnlyPins: ESP32_INPUT_ONLY,
    // UART0 (GPIO1 TX, GPIO3 RX) is the console through the DevKit's USB-UART, 115200 baud (docs/espruino.md 4.1, 6.2).
    consolePins: ["D1", "D3"],
    consoleBaud: 115200,
    cliBoardFile: "boards/esp32.json",
    pinNotes: {
      D0: "strapping pin (low at reset = download mode; BOOT button)",
      D1: "UART0 TX: the console",
      D3: "UART0 RX: the console",
      D2: "strapping pin (must be low or floating at reset to download); on-board LED on many DevKits",
      D5: "strapping pin (high at reset)",
      D12: "strapping pin MTDI (must be low at reset, or the flash is run at 1.8 V); cannot be watched",
      D15: "strapping pin MTDO (high at reset)",
      D16: "PSRAM on WROVER modules: free on WROOM-32",
      D17: "PSRAM on WROVER modules: free on WROOM-32",
      D34: "input only, no pull resistors",
      D35: "input only, no pull resistors",
      D36: "input only, no pull resistors",
      D39: "input only, no pull resistors",
    },
  },
};

/** The number part of a pin name ("B15" -> 15, "D13" -> 13); on STM32 it selects the EXTI line. */
export function pinNumber(pin: string): number {
  return parseInt(pin.slice(1), 10);
}

/**
 * Espruino's Storage (src/jsflash.c, 2v29): files one after another from the start of the area, each a 32-byte header
 * (a size word whose top byte holds flags, then the 0-padded 28-byte name) and its data, padded to a 4-byte word
 * (JSF_ALIGNMENT). A new file goes right after the last one (jsfCreateFile no longer pushes files to a page
 * boundary); a rewritten or erased file stays in place as trash (its name's first word zeroed) until a compaction.
 */
export const STORAGE_HEADER_BYTES = 32;

/** Flash space a Storage file of `size` data bytes takes (data padded to 4 bytes). */
export function storageFootprint(size: number): number {
  return STORAGE_HEADER_BYTES + ((size + 3) & ~3);
}

/**
 * A file that only fills space, written right after .bootcde so that the file after it starts a flash page (see
 * pageAlignPad). Its content does not matter; npm run flash and the simulator write zero bytes.
 */
export const PAD_FILE = ".bbpad";

/**
 * The data size of a pad file that makes the next file start exactly on a page boundary, when Storage holds
 * `usedBytes` from its start; null when the next file starts a page already.
 *
 * Why: a compaction (jsfCompactInternal) starts at the last page that begins with a file header at or before the
 * first trashed file (jsfGetStorageStats, firstPageWithErasedFiles), and erases each page from there before
 * rewriting it from RAM. With .bootcde first in Storage and the file after it starting a page, no compaction ever
 * erases a page of .bootcde, so no power cut during one can lose it (nor leave Storage corrupt in those pages,
 * which Espruino answers by erasing all of Storage). The files after the pad are not protected this way.
 *
 * A pad holds at least one word of data (Espruino refuses a file of 0 bytes), so it takes at least 36 bytes: when
 * less than that is left in the page, the pad fills the rest of it and the whole next page.
 */
export function pageAlignPad(usedBytes: number, pageBytes: number): number | null {
  const room = (pageBytes - (usedBytes % pageBytes)) % pageBytes;
  if (room === 0) return null;
  const least = STORAGE_HEADER_BYTES + 4;
  return room >= least ? room - STORAGE_HEADER_BYTES : room + pageBytes - STORAGE_HEADER_BYTES;
}

/**
 * Where each file lies (the offset of its header from the start of Storage), for files written one after another
 * into empty Storage, as Espruino places them.
 */
export function storageOffsets(sizes: number[]): number[] {
  let at = 0;
  return sizes.map((size) => {
    const here = at;
    at += storageFootprint(size);
    return here;
  });
}
