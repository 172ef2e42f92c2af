/**
 * The hardware profile as compiled into the bundle: one type for the firmware (pins as Espruino Pins,
 * FirmwareProfile in firmware/types/profile.d.ts), the build that writes it and the tests that make
 * it in Node (hardware/profile.ts compileProfile, pins as their names). The ui reads only its Layout.
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
  /** The board has setDeepSleep (STM32: the Pico); ESP32 builds do not (ESPRUINO.md 5.5). */
  deepSleep: boolean;
  /** undefined: USB only. fullScale: the pin voltage analogRead reports as 1, or 0 to measure it with E.getAnalogVRef(). */
  battery: { pin: P; ratio: number; fullV: number; lowV: number; emptyV: number; fullScale: number } | undefined;
}

/** What the ui needs to know of the build: segments, sizes, and which key is which grid position or codemaker-pad function. */
export type Layout = Pick<
  CompiledProfile<unknown>,
  "pegs" | "rows" | "ledCount" | "seg" | "segLen" | "secretShielded" | "keyCount" | "maker"
>;

/** keyAt's offset: key indexes -1..47 become the characters "#" to "S" (no quote or backslash to escape). */
export const KEY_AT_BASE = 36;

/** Grid positions (0..35, reading order) of the play screen's controls. */
export const G_COLOUR = 0; // colours 1..8 at 0..7 (row 1 and the start of row 2)
export const G_BLANK = 8;
export const G_SLOT = 12; // one key per hole: row 3
export const G_EXACT = 18; // feedback entry on builds without a codemaker pad
export const G_NEAR = 19;
export const G_MENU = 30;
export const G_UNDO = 33;
export const G_CLEAR = 34;
export const G_OK = 35;
