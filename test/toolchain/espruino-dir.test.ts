/**
 * The real interpreter is found through one setting, BRAINBOARD_ESPRUINO_DIR (sim/espruino/binary.ts), and a test
 * skipped for want of it says which setting to change and how to build the interpreter.
 */
import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_ESPRUINO_DIR, PROJECT_ROOT, espruinoBinary, espruinoDir, espruinoMissing } from "../../sim/espruino/binary.ts";

const saved = process.env.BRAINBOARD_ESPRUINO_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.BRAINBOARD_ESPRUINO_DIR;
  else process.env.BRAINBOARD_ESPRUINO_DIR = saved;
});

describe.skipIf(process.platform !== "linux" || process.arch !== "x64")("where the real interpreter is", () => {
  it("is ../shared/tools/espruino beside the project when BRAINBOARD_ESPRUINO_DIR is not set", () => {
    delete process.env.BRAINBOARD_ESPRUINO_DIR;
    expect(espruinoDir()).toBe(resolve(PROJECT_ROOT, "../shared/tools/espruino"));
    expect(espruinoDir()).toBe(DEFAULT_ESPRUINO_DIR);
  });

  it("is the folder BRAINBOARD_ESPRUINO_DIR names, for every build", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-dir-"));
    for (const build of ["espruino", "espruino-5100", "espruino-pico"] as const) {
      writeFileSync(join(dir, build), "#!/bin/sh\n");
      chmodSync(join(dir, build), 0o755);
    }
    process.env.BRAINBOARD_ESPRUINO_DIR = dir;
    for (const build of ["espruino", "espruino-5100", "espruino-pico"] as const) {
      expect(espruinoBinary(build)).toBe(join(dir, build));
      expect(espruinoMissing(build)).toBe("");
    }
  });

  it("says, when a build is missing, which setting names the folder and how to build the interpreter", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-dir-"));
    process.env.BRAINBOARD_ESPRUINO_DIR = dir;
    expect(espruinoBinary("espruino-pico")).toBeUndefined();
    const why = espruinoMissing("espruino-pico");
    expect(why).toContain(`espruino-pico is not in BRAINBOARD_ESPRUINO_DIR=${dir}`);
    expect(why).toContain("npm run espruino:build -- --source ESPRUINO_CHECKOUT");
  });
});
