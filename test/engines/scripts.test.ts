/**
 * Every script of sim/scripts runs on both engines: its expect lines hold on the simulator and on the
 * real Espruino interpreter, and at every expect and show line the two show the same LEDs (up to a
 * blink's phase) and print the same console lines.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../firmware/tools/build.ts";
import { ESPRUINO_MISSING, pictureDifferences, runScriptOn } from "./engines.ts";

const DIR = join(ROOT, "sim/scripts");
const SCRIPTS = readdirSync(DIR).filter((f) => f.endsWith(".txt"));

describe.skipIf(!!ESPRUINO_MISSING)(
  ESPRUINO_MISSING ? `sim/scripts on the real interpreter (skipped: ${ESPRUINO_MISSING})` : "sim/scripts on both engines",
  () => {
    for (const file of SCRIPTS)
      it(`${file}: the expect lines hold on both engines, which show the same LEDs and console lines`, async () => {
        const sim = await runScriptOn("sim", join(DIR, file));
        const real = await runScriptOn("espruino", join(DIR, file));
        expect(sim.expectFailure).toBeNull();
        expect(real.expectFailure).toBeNull();
        expect(sim.errors).toEqual([]);
        expect(real.errors).toEqual([]);
        expect(real.checkpoints.length).toBeGreaterThan(0);
        expect(pictureDifferences(sim, real)).toEqual([]);
        expect(real.console).toEqual(sim.console);
      }, 180_000);
  },
);
