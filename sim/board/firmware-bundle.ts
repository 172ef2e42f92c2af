/**
 * The firmware bundle for the simulator's views: built for a profile with the project's build
 * (buildFirmware: esbuild, the profile compiled in, the bundle gate), or read from a file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";

/** Builds the bundle for a profile; with `out` it is written there (dist/firmware.js for npm start), else to a temporary file that is removed. */
export async function bundleFor(profile: string | undefined, out?: string): Promise<{ code: string; out?: string; bytes: number }> {
  if (out) {
    const r = await buildFirmware({ profile, out });
    return { code: r.code, out: r.out, bytes: r.bytes };
  }
  const dir = mkdtempSync(join(tmpdir(), "brainboard-bundle-"));
  try {
    const r = await buildFirmware({ profile, out: join(dir, "firmware.js") });
    return { code: r.code, bytes: r.bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bundle file's code. */
export function readBundle(file: string): string {
  return readFileSync(file, "utf8");
}
