/**
 * The firmware bundle for the simulator's views: built for a profile with the project's build
 * (buildFirmware: esbuild, the profile compiled in, the bundle gate), or read from a file.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";

/**
 * Builds the bundle for a profile; with `out` it is written there (dist/firmware.js for npm start, its pretokenised
 * image beside it), else to a temporary folder that is removed. `bytes` is the bundle's size, `imageBytes` its
 * image's, what the board stores.
 */
export async function bundleFor(
  profile: string | undefined,
  out?: string,
): Promise<{ code: string; out?: string; bytes: number; imageBytes: number }> {
  if (out) {
    const r = await buildFirmware({ profile, out });
    return { code: r.code, out: r.out, bytes: r.bytes, imageBytes: r.imageBytes };
  }
  const dir = mkdtempSync(join(tmpdir(), "brainboard-bundle-"));
  try {
    const r = await buildFirmware({ profile, out: join(dir, "firmware.js") });
    return { code: r.code, bytes: r.bytes, imageBytes: r.imageBytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A bundle file's code. */
export function readBundle(file: string): string {
  return readFileSync(file, "utf8");
}
