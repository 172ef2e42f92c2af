/**
 * The subset of the Espruino 2v29 API that the firmware uses, typed as the device implements it
 * (docs/espruino.md section 5). Only firmware/device and firmware/main.ts may call these.
 */

/** A pin object (B15, A5...). The firmware never names pins: they come from the compiled profile. */
interface Pin {
  toString(): string;
}
type PinMode =
  | "analog"
  | "input"
  | "input_pullup"
  | "input_pulldown"
  | "output"
  | "opendrain"
  | "opendrain_pullup"
  | "af_output"
  | "af_opendrain"
  | "auto";

declare function pinMode(pin: Pin, mode?: PinMode, automatic?: boolean): void;
/** With an array, `value` is a bit field whose least significant bit is the LAST pin of the array. */
declare function digitalWrite(pin: Pin | Pin[], value: number | boolean): void;
/** With an array, the LAST pin of the array is the least significant bit of the result. */
declare function digitalRead(pin: Pin | Pin[]): number;
/** 0 <= value < 1 (12-bit reading / 4096). */
declare function analogRead(pin: Pin): number;
declare function analogWrite(pin: Pin, value: number, options?: { freq?: number; soft?: boolean; forceSoft?: boolean }): void;

interface WatchEvent {
  state: boolean;
  time: number;
  lastTime: number;
}
interface WatchOptions {
  repeat?: boolean;
  edge?: "rising" | "falling" | "both";
  debounce?: number;
  irq?: boolean;
}
/** Returns undefined (after a warning) when the pin cannot be watched (STM32: one watch per pin number). */
declare function setWatch(fn: (e: WatchEvent) => void, pin: Pin, options?: boolean | WatchOptions): number | undefined;
/** Never call with no argument: that clears every watch. */
declare function clearWatch(id: number): void;

declare function setTimeout(fn: () => void, ms: number): number;
declare function setInterval(fn: () => void, ms: number): number;
/** Never call with no argument (clears all) or undefined (throws). */
declare function clearTimeout(id: number): void;
declare function clearInterval(id: number): void;
declare function changeInterval(id: number, ms: number): void;
/** Seconds since boot, as a float. */
declare function getTime(): number;

/** STM32 builds only (absent on ESP32 and Linux): check `typeof setDeepSleep` before calling. */
declare function setDeepSleep(sleep: boolean): void;
declare function print(text: string): void;
/** Reboots into the saved code (.bootcde); with a file name, into that file. */
declare function load(file?: string): void;
declare const console: { log(text: string): void };

interface MemoryInfo {
  free: number;
  usage: number;
  total: number;
  history: number;
  gc: number;
  gctime: number;
  blocksize: number;
}
declare const process: {
  memory(gc?: boolean): MemoryInfo;
  env: { VERSION: string; BOARD: string };
};

type ErrorFlag = "FIFO_FULL" | "BUFFER_FULL" | "CALLBACK" | "LOW_MEMORY" | "MEMORY" | "UART_OVERFLOW" | string;
declare const E: {
  on(event: "init", fn: () => void): void;
  on(event: "kill", fn: () => void): void;
  on(event: "errorFlag", fn: (flags: ErrorFlag[]) => void): void;
  /** Timeout in seconds. With isAuto (default true) the idle loop kicks it. */
  enableWatchdog(timeout: number, isAuto?: boolean): void;
  kickWatchdog(): void;
  getAnalogVRef(): number;
  hwRand(): number;
  srand(seed: number): void;
  getErrorFlags(): ErrorFlag[];
  getSizeOf(v: unknown, depth?: number): number;
  /** Locks the console (REPL) now, when a password is set: input is refused until the password is typed. */
  lockConsole(): void;
  /** Sets the console password (kept in RAM only, up to 20 characters); with no argument, removes it. */
  setPassword(password?: string): void;
  /** to[i] = map[from[i]] for every element, natively (no per-element JavaScript). */
  mapInPlace(from: ArrayLike<number>, to: ArrayLike<number> | Uint24Array, map: ArrayLike<number>): void;
  /** The sum of the elements, natively. */
  sum(data: ArrayLike<number>): number;
  /** CRC32 of the bytes, natively. */
  CRC32(data: ArrayLike<number> | string): number;
};
/** Espruino's own typed array of 24-bit unsigned elements, little-endian (not in standard JavaScript). */
interface Uint24Array {
  readonly length: number;
  [index: number]: number;
}
declare const Uint24Array: { new (buffer: ArrayBuffer, byteOffset?: number, length?: number): Uint24Array };

interface NeoPixelModule {
  /** Sends the bytes as they are (no reordering): fill G,R,B per WS2812 LED. Length: a non-zero multiple of 3. */
  write(pin: Pin, data: Uint8Array | Uint8ClampedArray | number[]): void;
}
interface StorageModule {
  read(name: string, offset?: number, length?: number): string | undefined;
  readArrayBuffer(name: string): ArrayBuffer | undefined;
  write(name: string, data: string | Uint8Array, offset?: number, size?: number): boolean;
  readJSON(name: string, noExceptions: boolean): unknown;
  writeJSON(name: string, data: unknown): boolean;
  erase(name: string): void;
  list(pattern?: RegExp): string[];
  getFree(): number;
  compact(): void;
  getStats(): { totalBytes: number; freeBytes: number; fileBytes: number; trashBytes: number; fileCount: number; trashCount: number };
}
declare function require(name: "neopixel"): NeoPixelModule;
declare function require(name: "Storage"): StorageModule;
