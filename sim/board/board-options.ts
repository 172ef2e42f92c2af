/** What a virtual board is made with, and what it reports (sim/board/board.ts). */
import type { Profile } from "../../hardware/profile.ts";
import type { UnitProfile } from "../../hardware/unit-profile.ts";
import type { PinState } from "./circuit.ts";
import type { StorageCut } from "./storage.ts";

export interface BoardOptions {
  /** A profile name or path (hardware/profiles), a profile object, or one compiled already (used as it is). Default: r1-pico. */
  profile?: string | Profile | UnitProfile;
  /**
   * The firmware to flash as .bootcde: JavaScript, stored pretokenised as npm run flash stores it, or the bytes of an
   * image stored as they are (a Storage file's .bootcde). Default: the contents of dist/firmware.js.
   */
  firmware?: string | Uint8Array;
  /**
   * Also write the solver's tables to Storage, as `npm run flash` does (firmware/tools/tables.ts).
   * Default true; false leaves the unit to search on its own, like a unit flashed without them.
   */
  tables?: boolean;
  /** How long a key contact chatters after a press or release, in ms (default 5; 0 = clean edges). */
  bounceMs?: number;
  /** Seeds every source of randomness (key bounce, E.hwRand, the boot seed of Math.random). Default 1. */
  seed?: number;
  /** Keep Storage in this JSON file, so it survives between runs. */
  storageFile?: string;
  /**
   * Wall-clock limit for one call into firmware code before it counts as hung (default 2000 ms). 0 turns the
   * guard off: Node's vm timeout costs about 0.17 ms a call, most of a long run's time; but a firmware call
   * that never returns then hangs the caller, so use 0 only under a watchdog of your own (a worker you can terminate).
   */
  callbackTimeoutMs?: number;
}

export type BoardEvent = "leds" | "tone" | "console" | "reset" | "power" | "storage";

/** A power cut: at a scheduled instant (between two firmware calls), or during a Storage operation (a torn write). */
export interface PowerCutRecord {
  at: number;
  kind: "scheduled" | "write";
  /** For a cut during a write: what the operation left (sim/board/storage.ts). */
  write?: StorageCut;
}

/** What a pin is doing now (for tests and views). */
export interface PinReport extends PinState {
  level: 0 | 1;
}
