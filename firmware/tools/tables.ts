/**
 * The solver's decision tables a build carries in Storage (GitHub issue 8): one per codebreaker
 * variant the profile can play (a four-hole build skips the race's). `npm run flash` writes them
 * beside .bootcde, and the virtual board does the same when it is flashed; the firmware reads them
 * with require("Storage").read(solverTableName(rules)).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PRESET_IDS, rulesFor } from "../core/presets.ts";
import { solverTableName } from "../core/solver.ts";

export const TABLES_DIR = fileURLToPath(new URL("../core/tables/", import.meta.url));

export interface SolverTable {
  /** The Storage file name (bb.t.brainiac, bb.t.race+...). */
  name: string;
  /** The committed file. */
  path: string;
  bytes: Uint8Array;
}

/** Storage bytes a file takes: a 32-byte header and its data rounded up to 4 (Espruino's Storage on the Pico). */
export function storageFootprint(bytes: number): number {
  return 32 + Math.ceil(bytes / 4) * 4;
}

/** The tables for a build with `pegs` holes a row, in a fixed order. */
export function solverTablesFor(pegs: number): SolverTable[] {
  const tables: SolverTable[] = [];
  for (const preset of PRESET_IDS)
    for (const harder of [false, true]) {
      const rules = rulesFor(preset, harder);
      if (rules.pegs > pegs) continue;
      const name = solverTableName(rules);
      const path = TABLES_DIR + name + ".bin";
      tables.push({ name, path, bytes: new Uint8Array(readFileSync(path)) });
    }
  return tables;
}
