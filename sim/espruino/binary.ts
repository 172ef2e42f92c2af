/**
 * Where the real Espruino interpreter is: the folder named by BRAINBOARD_ESPRUINO_DIR, or by default
 * ../shared/tools/espruino beside the project's root. It holds the Linux builds `espruino`,
 * `espruino-5100` and `espruino-pico` (docs/espruino.md 8; `npm run espruino:build` makes them from an
 * Espruino source checkout). Every lookup of the interpreter goes through this module.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The one setting that says where the interpreter's builds are. */
export const ESPRUINO_DIR_SETTING = "BRAINBOARD_ESPRUINO_DIR";
export const DEFAULT_ESPRUINO_DIR = resolve(PROJECT_ROOT, "../shared/tools/espruino");

/**
 * `espruino`: JsVars grow as needed (time, behaviour); `espruino-pico`: a Pico's 5,100 JsVars of 13 bytes (32-bit:
 * memory as a Pico counts it); `espruino-5100`: 5,100 JsVars of 17 bytes (64-bit, kept for comparison: it undercounts).
 */
export type EspruinoBuild = "espruino" | "espruino-pico" | "espruino-5100";

export function espruinoDir(): string {
  const dir = process.env[ESPRUINO_DIR_SETTING];
  return dir ? resolve(dir) : DEFAULT_ESPRUINO_DIR;
}

/** The binary's path, or undefined when it is not there. */
export function espruinoBinary(build: EspruinoBuild = "espruino"): string | undefined {
  const p = join(espruinoDir(), build);
  return existsSync(p) ? p : undefined;
}

/** Why the real interpreter cannot run here, or "" when it can: for skip messages and errors. */
export function espruinoMissing(build: EspruinoBuild = "espruino"): string {
  if (process.platform !== "linux" || process.arch !== "x64")
    return `the real Espruino interpreter is an x86-64 Linux build (this is ${process.platform}/${process.arch})`;
  if (espruinoBinary(build)) return "";
  const where = process.env[ESPRUINO_DIR_SETTING] ? `${ESPRUINO_DIR_SETTING}=${espruinoDir()}` : `the default ${espruinoDir()}`;
  return (
    `the real Espruino interpreter ${build} is not in ${where}: set ${ESPRUINO_DIR_SETTING} to the folder of its builds, ` +
    `or make them with npm run espruino:build -- --source ESPRUINO_CHECKOUT (docs/espruino.md 8)`
  );
}
