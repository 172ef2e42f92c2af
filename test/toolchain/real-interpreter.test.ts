/**
 * The bundle on the real Espruino 2v29 interpreter (a Linux build, found through BRAINBOARD_ESPRUINO_DIR:
 * sim/espruino/binary.ts; skipped, saying why, when it is not there): it boots, require("Storage") reaches the interpreter's own Storage, and
 * require("neopixel") a module given with Modules.addCached (the Linux build has none): the bundle
 * calls Espruino's require directly, with no bundler shim in between.
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOARDS } from "../../hardware/boards.ts";
import { espruinoBinary, espruinoMissing } from "../../sim/espruino/binary.ts";
import { firmwareBundle } from "../device/helpers.ts";

const MISSING = espruinoMissing("espruino");

/** The Pico's pins as numbers, and inputs that read high (no key down: the rows idle, the columns pulled up). */
function prelude(): string {
  const pins = BOARDS.pico.pins.map((p, i) => `var ${p}=${100 + i};`).join("");
  return `${pins}
var neoWrites=0;
require("Storage").write("bb.s1", "BB2|1|0|{}");
Modules.addCached("neopixel", function(){ exports.write=function(pin,data){ neoWrites++; }; });
global.pinMode=function(){}; global.digitalWrite=function(){}; global.digitalRead=function(){return -1;};
global.setWatch=function(){return 1;}; global.clearWatch=function(){}; global.analogRead=function(){return 0;};
`;
}

const driver = `setTimeout(function(){ print("RESULT "+JSON.stringify({neo:neoWrites})); quit(); }, 1500);`;

describe.skipIf(MISSING !== "")(
  MISSING ? `the bundle on the real interpreter (skipped: ${MISSING})` : "the bundle on the real interpreter",
  () => {
    it("boots, reads its saves through require('Storage') and drives the LEDs through require('neopixel')", () => {
      const dir = mkdtempSync(join(tmpdir(), "bb-espruino-"));
      const file = join(dir, "run.js");
      writeFileSync(file, prelude() + firmwareBundle() + "\n" + driver);
      const out = execFileSync(espruinoBinary("espruino")!, [file], { cwd: dir, encoding: "utf8", timeout: 60000 });
      const line = out.split("\n").find((l) => l.includes("RESULT "));
      expect(line, out.slice(-2000)).toBeDefined();
      const result = JSON.parse((line as string).slice((line as string).indexOf("RESULT ") + 7));
      expect(result.neo).toBeGreaterThan(0);
      // The prelude left a damaged save in the interpreter's Storage: the unit read it and says so.
      expect(out).toContain("brainboard: save not used: bb.s1: checksum mismatch");
    });
  },
);
