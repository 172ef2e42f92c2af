/**
 * Where the real Espruino interpreter is: ../shared/tools/espruino beside the project's root (the
 * Linux builds described in its README), or the folder named by BRAINBOARD_ESPRUINO_DIR. The project
 * never copies the binaries.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEFAULT_ESPRUINO_DIR = resolve(PROJECT_ROOT, "../shared/tools/espruino");

/**
 * `espruino`: JsVars grow as needed (time, behaviour); `espruino-pico`: a Pico's 5,100 JsVars of 13 bytes (32-bit:
 * memory as a Pico counts it); `espruino-5100`: 5,100 JsVars of 17 bytes (64-bit, kept for comparison: it undercounts).
 */
export type EspruinoBuild = "espruino" | "espruino-pico" | "espruino-5100";

export function espruinoDir(): string {
  return process.env.BRAINBOARD_ESPRUINO_DIR ? resolve(process.env.BRAINBOARD_ESPRUINO_DIR) : DEFAULT_ESPRUINO_DIR;
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
  return espruinoBinary(build)
    ? ""
    : `the real Espruino interpreter is not at ${join(espruinoDir(), build)} (see ../shared/tools/espruino/README.md)`;
}
