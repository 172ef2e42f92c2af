/** The hardware profile compiled into the bundle (hardware/profile.ts firmwareProfileSource). */
interface SegmentTable {
  board: number;
  keys: number;
  secret: number;
  pad: number;
  track: number;
  status: number;
}
interface FirmwareProfile {
  id: string;
  /** Holes per row and rows on the board (the largest preset the build can show). */
  pegs: number;
  rows: number;
  led: Pin;
  ledCount: number;
  /** Switches the LED supply; undefined when the build has no switch. */
  ledPower: Pin | undefined;
  ledPowerOn: number;
  budgetMa: number;
  maPerChannel: number;
  idleMa: number;
  /** First pixel of each segment in the chain, -1 when the build lacks it. */
  seg: SegmentTable;
  segLen: SegmentTable;
  secretShielded: boolean;
  rowPins: Pin[];
  /** Every matrix's columns, matrix after matrix. */
  colPins: Pin[];
  diodes: boolean;
  /** keyAt[row * colPins.length + col]: the key index at that crossing, -1 for none. */
  keyAt: number[];
  keyCount: number;
  /** The 36 keys of the 6x6 grid in reading order. */
  grid: number[];
  maker: { colours: number[]; blank: number; exact: number; near: number; yes: number; no: number; undo: number; ok: number } | undefined;
  buzzer: Pin | undefined;
  /** undefined: USB only. fullScale: the pin voltage analogRead reports as 1, or 0 to measure it with E.getAnalogVRef(). */
  battery: { pin: Pin; ratio: number; fullV: number; lowV: number; emptyV: number; fullScale: number } | undefined;
}
declare module "brainboard:profile" {
  const profile: FirmwareProfile;
  export default profile;
}
