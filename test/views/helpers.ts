/** Shared helpers for the simulator views' tests. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const SCRIPTS = ROOT + "sim/scripts/";

let bundle: string | undefined;
/** The bundle built by vitest's global setup (test/setup/build-bundle.ts). */
export function firmware(): string {
  bundle ??= readFileSync(DEFAULT_OUT, "utf8");
  return bundle;
}

export function script(name: string): string {
  return readFileSync(SCRIPTS + name, "utf8");
}
