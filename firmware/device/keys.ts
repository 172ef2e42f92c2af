/**
 * Key matrix scanning. All matrices share the row lines; their columns are read together.
 * Scheme (active low): rows are open-drain outputs, columns have pull-ups, and each key's diode runs
 * from its column to its row. At rest every row is driven low, so any press pulls its column low;
 * the columns are watched for that edge, which also wakes the MCU from deep sleep. On an edge the
 * watches are removed and the matrix is polled one row at a time until every key is up again.
 * A key changes state only after DEBOUNCE_SCANS scans in a row agree; on a build without diodes a
 * scan showing a rectangle of closed contacts (the ghost pattern) is ignored as ambiguous.
 * Pin arrays: Espruino maps the LAST pin of an array to bit 0 (ESPRUINO.md 5.2).
 */
import { nowMs, Scheduler, SLOT_SCAN } from "./scheduler";

export const SCAN_MS = 5;
export const DEBOUNCE_SCANS = 3;

export type KeyHandler = (key: number, down: boolean) => void;

/** True when two or more bits are set. */
function manyBits(x: number): boolean {
  return (x & (x - 1)) !== 0;
}

export class KeyScanner {
  private readonly rows: Pin[];
  private readonly cols: Pin[];
  /** Typed, because indexing a plain array on Espruino walks a linked list. */
  private readonly keyAt: Int8Array;
  private readonly diodes: boolean;
  private readonly colMask: number;
  private readonly raw: Uint16Array;
  /** Debounced state per key, and how many scans in a row disagreed with it. */
  readonly down: Uint8Array;
  private readonly disagree: Uint8Array;
  private watches: number[] = [];
  private polling = false;
  /** Scans ignored because they showed a ghost pattern (for tests and diagnostics). */
  ghostScans = 0;

  constructor(
    p: FirmwareProfile,
    private readonly sched: Scheduler,
    private readonly onKey: KeyHandler,
  ) {
    this.rows = p.rowPins;
    this.cols = p.colPins;
    this.keyAt = new Int8Array(p.keyAt);
    this.diodes = p.diodes;
    this.colMask = (1 << p.colPins.length) - 1;
    this.raw = new Uint16Array(p.rowPins.length);
    this.down = new Uint8Array(p.keyCount);
    this.disagree = new Uint8Array(p.keyCount);
  }

  start(): void {
    for (let i = 0; i < this.rows.length; i++) pinMode(this.rows[i], "opendrain");
    for (let i = 0; i < this.cols.length; i++) pinMode(this.cols[i], "input_pullup");
    digitalWrite(this.rows, 0);
    this.arm();
    // A key already held at power-on gives no edge: look once.
    this.wake();
  }

  /** Any key currently held (debounced)? */
  anyDown(): boolean {
    for (let i = 0; i < this.down.length; i++) if (this.down[i]) return true;
    return false;
  }

  private arm(): void {
    const wake = () => this.wake();
    for (let i = 0; i < this.cols.length; i++) {
      const id = setWatch(wake, this.cols[i], { repeat: true, edge: "falling" });
      if (id !== undefined) this.watches.push(id);
    }
  }

  private disarm(): void {
    for (let i = 0; i < this.watches.length; i++) clearWatch(this.watches[i]);
    this.watches = [];
  }

  private wake(): void {
    if (this.polling) return;
    this.polling = true;
    this.disarm();
    this.scan();
  }

  private scan(): void {
    const nRows = this.rows.length;
    const nCols = this.cols.length;
    const all = (1 << nRows) - 1;
    for (let r = 0; r < nRows; r++) {
      // Drive row r low, let the others float; a closed key then pulls its column low.
      digitalWrite(this.rows, all ^ (1 << (nRows - 1 - r)));
      this.raw[r] = ~digitalRead(this.cols) & this.colMask;
    }
    digitalWrite(this.rows, 0);
    let ghost = false;
    if (!this.diodes)
      for (let a = 0; a < nRows && !ghost; a++) for (let b = a + 1; b < nRows; b++) if (manyBits(this.raw[a] & this.raw[b])) ghost = true;
    let busy = false;
    if (ghost) {
      this.ghostScans++;
      busy = true;
    } else {
      for (let r = 0; r < nRows; r++) {
        const bits = this.raw[r];
        if (bits) busy = true;
        for (let c = 0; c < nCols; c++) {
          const key = this.keyAt[r * nCols + c];
          if (key < 0) continue;
          const closed = (bits >> (nCols - 1 - c)) & 1;
          if (closed === this.down[key]) {
            this.disagree[key] = 0;
            continue;
          }
          busy = true;
          if (++this.disagree[key] >= DEBOUNCE_SCANS) {
            this.disagree[key] = 0;
            this.down[key] = closed;
            this.onKey(key, closed === 1);
          }
        }
      }
    }
    if (busy || this.anyDown()) {
      this.sched.at(SLOT_SCAN, nowMs() + SCAN_MS, () => this.scan());
    } else {
      this.polling = false;
      this.arm();
    }
  }
}
