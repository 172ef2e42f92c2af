/** Helpers for the simulator's own tests: small hand-written firmware programs on the virtual board. */
import { VirtualBoard, type BoardOptions } from "../../sim/board/board.ts";
import { loadProfile, type Profile } from "../../hardware/profile.ts";

/** A board running `firmware`, powered on (boot code and init handlers have run). */
export function boot(firmware: string, opts: BoardOptions = {}): VirtualBoard {
  const board = new VirtualBoard({ firmware, ...opts });
  board.powerOn();
  return board;
}

/** A copy of the R1 profile, changed by `edit`. */
export function r1With(edit: (p: Profile) => void): Profile {
  const p = structuredClone(loadProfile("r1-pico"));
  edit(p);
  return p;
}

/**
 * Firmware that scans the R1 key matrix the way the R1 is wired: rows are open-drain outputs
 * pulled low one at a time, columns are inputs with pull-ups, a pressed key reads 0 (active low).
 * `scan()` returns the pressed crossings as "row,col" strings.
 */
export const SCANNER = `
var rows = [B13, B14, B10, A3, A4, B5];
var cols = [A5, A6, A7, B3, B4, A10, A0, A1, A2, B8];
rows.forEach(function (r) { pinMode(r, "opendrain"); digitalWrite(r, 1); });
cols.forEach(function (c) { pinMode(c, "input_pullup"); });
function scan() {
  var down = [];
  for (var r = 0; r < rows.length; r++) {
    digitalWrite(rows[r], 0);
    var v = digitalRead(cols);
    digitalWrite(rows[r], 1);
    for (var c = 0; c < cols.length; c++) if (!((v >> (cols.length - 1 - c)) & 1)) down.push(r + "," + c);
  }
  return down;
}
`;
