/**
 * The hardware profile as compiled into the bundle: its one type, for the firmware (pins as Espruino
 * Pins, FirmwareProfile in firmware/types/profile.d.ts), the build that writes it and the tests that
 * make it in Node (hardware/profile.ts compileProfile, pins as their names). It imports nothing: the
 * ui reads its Layout (ui/layout.ts), the device layer the rest.
 */
export interface Segments {
  board: number;
  keys: number;
  secret: number;
  pad: number;
  track: number;
  status: number;
}
export interface MakerKeys {
  colours: number[];
  blank: number;
  exact: number;
  near: number;
  yes: number;
  no: number;
  undo: number;
  ok: number;
}
export interface CompiledProfile<P> {
  /** Holes per board row and rows on the board (the largest preset the build can show). */
  pegs: number;
  rows: number;
  led: P;
  ledCount: number;
  /** Switches the LED supply; undefined when the build has no switch. */
  ledPower: P | undefined;
  ledPowerOn: number;
  /** ms from switching the supply on until the LEDs take data: no frame is sent before. */
  ledSettleMs: number;
  budgetMa: number;
  maPerChannel: number;
  idleMa: number;
  /** First LED of each segment in the chain, -1 when the build lacks it. */
  seg: Segments;
  segLen: Segments;
  /** The secret segment sits under the codemaker's shield. */
  secretShielded: boolean;
  rowPins: P[];
  /** Every matrix's columns, matrix after matrix. */
  colPins: P[];
  diodes: boolean;
  /**
   * At row * colPins.length + col, the key index at that crossing plus KEY_AT_BASE, as a character
   * (-1: none). Keys 0..35 are the grid's, by position (reading order).
   */
  keyAt: string;
  keyCount: number;
  /** The codemaker pad, when the build has one. */
  maker: MakerKeys | undefined;
  buzzer: P | undefined;
  /** The board has setDeepSleep (STM32: the Pico); ESP32 builds do not (docs/espruino.md 5.5). */
  deepSleep: boolean;
  /** undefined: USB only. fullScale: the pin voltage analogRead reports as 1, or 0 to measure it with E.getAnalogVRef(). */
  battery: { pin: P; ratio: number; fullV: number; lowV: number; emptyV: number; fullScale: number } | undefined;
}

/** keyAt's offset: key indexes -1..47 become the characters "#" to "S" (no quote or backslash to escape). */
export const KEY_AT_BASE = 36;
