/**
 * Key matrix scanning. All matrices share the row lines; their columns are read together.
 * Scheme (active low): rows are open-drain outputs, columns have pull-ups, and each key's diode runs
 * from its column to its row. At rest every row is driven low, so any press pulls its column low;
 * the columns are watched for that edge, which also wakes the MCU from deep sleep. On an edge the
 * watches are removed and the matrix is polled one row at a time until every key is up again.
 * A key changes state only after DEBOUNCE_SCANS scans in a row agree; on a build without diodes a
 * scan showing a rectangle of closed contacts (the ghost pattern) is ignored as ambiguous.
 * A key held longer than STUCK_MS is taken to be stuck: the app gets its release, and the key is
 * ignored until its contact opens. Meanwhile its row is left floating at rest, so it no longer
 * holds its column low and every other key still wakes the scanner at once; keys sharing the stuck
 * key's row are found by a slower poll (STUCK_SCAN_MS), so they need a press of ~150 ms.
 * Pin arrays: Espruino maps the LAST pin of an array to bit 0 (docs/espruino.md 5.2).
 *
 * Rate: a press needs DEBOUNCE_SCANS scans closed and as many open, so up to 1000 / (2 * 3 * 5) =
 * 33 presses a second on one key are each seen exactly once; faster taps merge. Keys held and settled are only
 * checked for a change, and after STEADY_AFTER_MS only every STEADY_SCAN_MS (see `steady`).
 */
import { Scheduler, SLOT_SCAN } from "./scheduler";
import { KEY_AT_BASE } from "../profile";

export const SCAN_MS = 5;
export const DEBOUNCE_SCANS = 3;
export const STUCK_MS = 8000;
/** Polling period while the only keys down are stuck ones. */
export const STUCK_SCAN_MS = 50;
/**
 * Polling period once the keys down have been settled for STEADY_AFTER_MS: a key held for a while is looked at less
 * often (a second key pressed meanwhile, or the release, is seen up to this much later). Taps, even 33 a second, never
 * get there; an OK held while the unit thinks soon does (on a Pico a scan takes tens of milliseconds of its thought).
 */
export const STEADY_SCAN_MS = 20;
export const STEADY_AFTER_MS = 30;

const WATCH: WatchOptions = { repeat: true, edge: "falling" };

/** A key's debounced press or release, with the time (ms) of the scan that saw it settle. */
export type KeyHandler = (key: number, down: boolean, now: number) => void;

/**
 * At 2^j mod 19 (distinct for j = 0..17; a profile has at most 16 column lines), the character 48 + j: a lone bit's
 * position in one lookup, so that a scan goes straight to the columns with a contact closed or a key needing a look (a
 * loop over the columns cost a Pico a few ms a scan). (The interpreter reads the literal at every use: short is cheaper.)
 */
const BIT_POSITION = "#01=2#>638#<?57;4:9";

/** True when two or more bits are set. */
function manyBits(x: number): boolean {
  return (x & (x - 1)) !== 0;
}

export class KeyScanner {
  private readonly rows: Pin[];
  private readonly cols: Pin[];
  /**
   * Per matrix position, its key + KEY_AT_BASE: the profile's string, read by char code (indexing a plain array on Espruino
   * walks a linked list; a typed copy cost ~10 JsVars).
   */
  private readonly keyAt: string;
  private readonly diodes: boolean;
  private readonly colMask: number;
  /**
   * Per row r: at r the columns closed at its last read; at rows + r, as column bits, the keys that need looking at even
   * with their contacts open (down, counting, or stuck); at 2 * rows + r the row lines' levels that drive it alone low.
   * (One array: each typed array of its own costs a Pico ~8 JsVars.)
   */
  private readonly rowState: Uint16Array;
  /**
   * Per key k: at k its debounced state, at keys + k how many scans in a row disagreed with it, at 2 * keys + k whether it
   * is being ignored as stuck.
   */
  private readonly keyState: Uint8Array;
  private readonly keys: number;
  /** The rows and columns (a field: an array's length costs the interpreter more than a field in every scan). */
  private readonly nRows: number;
  private readonly nCols: number;
  /** When each key went down (ms). */
  private readonly downSince: Float64Array;
  private readonly scanNow = this.scan.bind(this);
  private readonly wakeNow = this.wake.bind(this);
  private watches: number[] = [];
  /** The row of the key last seen changing (scanned first). */
  private lead = 0;
  /**
   * The key last seen counting was being pressed: its contact (and so some contact) is likely closed, and every row is read
   * anyway, so the next scan skips its look at every row at once (a hint only: a scan reading every row with none closed
   * finds what that look would have).
   */
  private pressing?: boolean;
  /**
   * Set by a full scan that found keys down and every key settled (none counting, no ghost): until `fullBy` (the first
   * held key's stuck time), a scan only checks that the matrix reads as it did, with one read of the rows holding no key
   * (driven low together) and one per row holding one. A held key then costs two reads a scan, not a read of every row
   * and a look at every key (on a Pico the full scan takes most of SCAN_MS).
   */
  private steady = false;
  private steadyFrom = 0;
  private fullBy = 0;
  /**
   * A key one agreeing scan from being taken (in row `takeRow`, at column bit `takeBit`), as the last scan left it; -1: none.
   * The next scan reads that row alone, and when it reads as then, takes the key from it: the full scan would read no
   * other row either (a key's event ends it), but its setting up costs a Pico a few ms of the key's frame.
   */
  private takeKey = -1;
  private takeBit = 0;
  private takeRow = 0;
  /** As row bits, the rows holding a key that needs a look (down, counting or stuck), as the last scan left them. */
  private busyRows = 0;
  /** The row lines' levels that drive low the rows holding no key (the others float). */
  private quietRows = 0;

  constructor(
    p: FirmwareProfile,
    private readonly sched: Scheduler,
    private readonly onKey: KeyHandler,
  ) {
    this.rows = p.rowPins;
    this.cols = p.colPins;
    this.keyAt = p.keyAt;
    this.diodes = p.diodes;
    this.colMask = (1 << p.colPins.length) - 1;
    const rows = (this.nRows = p.rowPins.length);
    this.nCols = p.colPins.length;
    this.rowState = new Uint16Array(3 * rows);
    for (let r = 0; r < rows; r++) this.rowState[2 * rows + r] = ((1 << rows) - 1) ^ (1 << (rows - 1 - r));
    this.keys = p.keyCount;
    this.keyState = new Uint8Array(3 * p.keyCount);
    this.downSince = new Float64Array(p.keyCount);
  }

  /** How many keys are being ignored as stuck (read at every frame, so counted as they change, not summed). */
  stuckCount = 0;

  start(): void {
    for (let i = 0; i < this.rows.length; i++) pinMode(this.rows[i], "opendrain");
    for (let i = 0; i < this.cols.length; i++) pinMode(this.cols[i], "input_pullup");
    // A key already held at power-on gives no edge: look once.
    this.scan();
  }

  private arm(): void {
    for (let i = 0; i < this.cols.length; i++) {
      const id = setWatch(this.wakeNow, this.cols[i], WATCH);
      if (id !== undefined) this.watches.push(id);
    }
  }

  /** (Called only with watches set: a call costs the interpreter more than the test at its caller.) */
  private disarm(): void {
    for (let i = 0; i < this.watches.length; i++) clearWatch(this.watches[i]);
    this.watches = [];
  }

  /** A column fell: scan now (whatever poll was due). */
  private wake(): void {
    this.sched.cancel(SLOT_SCAN);
    this.scan();
  }

  /** True when the matrix reads as at the last full scan (see `steady`). */
  private same(): boolean {
    const rows = this.rows;
    const cols = this.cols;
    const mask = this.colMask;
    const rs = this.rowState;
    const n = this.nRows;
    digitalWrite(rows, this.quietRows);
    if (~digitalRead(cols) & mask) return false;
    for (let r = 0; r < n; r++) {
      if (!rs[n + r]) continue;
      digitalWrite(rows, rs[2 * n + r]);
      if ((~digitalRead(cols) & mask) !== rs[r]) return false;
    }
    return true;
  }

  private scan(): void {
    // (getTime() inline, not nowMs(): a call less.)
    const now = getTime() * 1000;
    if (this.steady && now < this.fullBy && this.same()) {
      this.sched.at(SLOT_SCAN, now + (now - this.steadyFrom > STEADY_AFTER_MS ? STEADY_SCAN_MS : SCAN_MS), this.scanNow);
      return;
    }
    const take = this.takeKey;
    if (take >= 0) {
      this.takeKey = -1;
      const raw = this.rowState;
      const n = this.nRows;
      const r = this.takeRow;
      digitalWrite(this.rows, raw[2 * n + r]);
      if ((~digitalRead(this.cols) & this.colMask) === raw[r]) {
        // (What the full scan below does for it; the row as it was, no other key of it changes.)
        const closed = raw[r] & this.takeBit ? 1 : 0;
        this.keyState[this.keys + take] = 0;
        this.keyState[take] = closed;
        this.downSince[take] = now;
        this.onKey(take, closed === 1, now);
        if (!closed) raw[n + r] &= ~this.takeBit;
        this.busyRows = (1 << n) - 1;
        this.sched.at(SLOT_SCAN, now + SCAN_MS, this.scanNow);
        return;
      }
    }
    this.steady = false;
    // Our own row drive moves the columns: no watches while scanning.
    if (this.watches.length) this.disarm();
    const nRows = this.nRows;
    // Per row: its columns closed, at nRows + r the keys needing a look, at 2 * nRows + r its drive (rowState).
    const raw = this.rowState;
    const rows = this.rows;
    const cols = this.cols;
    const mask = this.colMask;
    // Per key: down at k, disagreeing scans at nKeys + k, stuck at 2 * nKeys + k (keyState).
    const ks = this.keyState;
    const nKeys = this.keys;
    const stuckAt = 2 * nKeys;
    // Without diodes every row is read before any is taken (a rectangle of closed contacts is a ghost);
    // with them each row is taken as it is read, so a key's event comes before the rows after it are read.
    const readFirst = !this.diodes;
    // Every row driven low at once first: no column low means no contact closed anywhere, and then only the rows
    // holding a key that needs a look (a release being debounced) are gone through, unread. (On a Pico a read is
    // cheap, but the interpreter's statements around each row are not.) Not while a press is being counted (see
    // `pressing`): its row is read first, and its event waits for no other read.
    let anyClosed = mask;
    if (readFirst || !this.pressing) {
      digitalWrite(rows, 0);
      anyClosed = ~digitalRead(cols) & mask;
    }
    let ghost = false;
    if (readFirst && anyClosed) {
      for (let r = 0; r < nRows; r++) {
        // Drive row r low, let the others float; a closed key then pulls its column low.
        digitalWrite(rows, raw[2 * nRows + r]);
        raw[r] = ~digitalRead(cols) & mask;
      }
      for (let a = 0; a < nRows && !ghost; a++) for (let b = a + 1; b < nRows; b++) if (manyBits(raw[a] & raw[b])) ghost = true;
    }
    let live = false;
    let counting = false;
    let taken = false;
    let fullBy = Infinity;
    let quiet = 0;
    // At rest every row is driven low but those of stuck keys (row-bit order: the last pin is bit 0): these.
    let stuckRows = 0;
    // A key being debounced is in row `lead`: its row goes first, so that its event (and its frame) waits for
    // no other row's read (the rest follow, wrapping round).
    const lead = this.lead;
    // (No contact closed and no key needing a look: the rows are not gone through at all.)
    if (!ghost && (anyClosed || this.busyRows))
      for (let i = 0; i < nRows; i++) {
        const r = (lead + i) % nRows;
        if (!anyClosed) {
          if (!raw[nRows + r]) continue;
          raw[r] = 0;
        } else if (!readFirst) {
          digitalWrite(rows, raw[2 * nRows + r]);
          raw[r] = ~digitalRead(cols) & mask;
        }
        // Only the columns with a contact closed or a key needing a look (down, counting, stuck): the interpreter
        // pays for every statement, and a press usually touches one column of one row.
        let todo = raw[r] | raw[nRows + r];
        let busy = 0;
        // Lowest bit first (the last column first: the last pin is bit 0).
        while (todo) {
          const bit = todo & -todo;
          todo ^= bit;
          const key = this.keyAt.charCodeAt((r + 1) * this.nCols + 47 - BIT_POSITION.charCodeAt(bit % 19)) - KEY_AT_BASE;
          if (key < 0) continue;
          const closed = raw[r] & bit ? 1 : 0;
          if (ks[stuckAt + key]) {
            // Ignored until its contact opens; then it is an ordinary key again.
            if (!closed) {
              ks[stuckAt + key] = 0;
              this.stuckCount--;
            }
          } else if (closed === ks[key]) {
            ks[nKeys + key] = 0;
            if (closed) {
              live = true;
              if (now - this.downSince[key] > STUCK_MS) {
                ks[stuckAt + key] = 1;
                this.stuckCount++;
                ks[key] = 0;
                this.onKey(key, false, now);
              }
            }
          } else {
            live = true;
            this.lead = r;
            // A key counting or taken needs nothing more of this scan (neither stuck nor settled: only whether it is down).
            if (++ks[nKeys + key] < DEBOUNCE_SCANS) {
              counting = true;
              this.pressing = closed === 1;
              // (Without diodes every row is read before a key is taken: see readFirst.)
              if (ks[nKeys + key] === DEBOUNCE_SCANS - 1 && !readFirst) {
                this.takeKey = key;
                this.takeBit = bit;
                this.takeRow = r;
              }
            } else {
              ks[nKeys + key] = 0;
              ks[key] = closed;
              this.downSince[key] = now;
              this.onKey(key, closed === 1, now);
              taken = true;
              if (!closed) continue;
            }
            busy |= bit;
            continue;
          }
          if (ks[stuckAt + key]) stuckRows |= 1 << (nRows - 1 - r);
          if (ks[key] | ks[nKeys + key] | ks[stuckAt + key]) busy |= bit;
          if (ks[nKeys + key]) counting = true;
          else if (ks[key] && this.downSince[key] + STUCK_MS < fullBy) fullBy = this.downSince[key] + STUCK_MS;
        }
        raw[nRows + r] = busy;
        if (taken) {
          // A key's event ends the scan once its row is done (its frame is out): the next scan is a full one, over
          // every row.
          this.busyRows = (1 << nRows) - 1;
          this.sched.at(SLOT_SCAN, now + SCAN_MS, this.scanNow);
          return;
        }
        if (busy) quiet |= 1 << (nRows - 1 - r);
      }
    // The rows holding a key that needs a look.
    if (!ghost) this.busyRows = quiet;
    if (live || ghost) {
      // (Keys down, none of them stuck or counting, and every row read.)
      this.steady = !ghost && !counting && fullBy < Infinity;
      this.steadyFrom = now;
      this.fullBy = fullBy;
      this.quietRows = quiet;
      this.sched.at(SLOT_SCAN, now + SCAN_MS, this.scanNow);
      return;
    }
    digitalWrite(this.rows, stuckRows);
    this.arm();
    if (stuckRows) this.sched.at(SLOT_SCAN, now + STUCK_SCAN_MS, this.scanNow);
  }
}
