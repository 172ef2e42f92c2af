/**
 * The way a maker installs the unit, on the real interpreter: `npm run flash` (the project's flash tool
 * driving the real espruino CLI) writes the bundle, pretokenised as the unit stores it, and the solver tables over
 * telnet into the Storage of `espruino-pico` (a Pico's 5,100 JsVars of 13 bytes, as a Pico counts them); at power-on
 * the unit boots from Storage and plays a whole scripted game with every expect line holding, and a power cycle keeps
 * the match.
 */
import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../firmware/tools/build.ts";
import { espruinoMissing } from "../../sim/espruino/binary.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { parseScript, runCommandsAsync, SCRIPT_BOOT_MS } from "../../sim/play/script.ts";
import { firmwareBundle } from "../device/helpers.ts";
import { pretokenise } from "../../firmware/tools/pretokenise.ts";

const MISSING = espruinoMissing("espruino-pico");

describe.skipIf(!!MISSING)(
  MISSING ? `the unit flashed into the real interpreter (skipped: ${MISSING})` : "the unit flashed into the real interpreter",
  () => {
    it("npm run flash writes it pretokenised over telnet; it boots from Storage on a Pico's 5,100 JsVars, plays a game, and resumes it after a power cycle", async () => {
      const board = new EspruinoBoard({ firmware: firmwareBundle(), mode: "flash", build: "espruino-pico" });
      try {
        await board.powerOn();
        // .bootcde holds the pretokenised image (read back by the interpreter: its length and E.CRC32), not the bundle's text.
        const image = pretokenise(firmwareBundle());
        expect(image.length).toBeLessThan(firmwareBundle().length);
        expect(board.flashedFiles[0]).toEqual({ name: ".bootcde", bytes: image.length, crc32: crc32(image) });
        await board.advance(SCRIPT_BOOT_MS);
        const script = parseScript(readFileSync(join(ROOT, "sim/scripts/brainiac-game.txt"), "utf8"));
        await runCommandsAsync(board, script);
        expect(board.errors).toEqual([]);
        const mem = await board.memory();
        expect(mem.total).toBe(5100);
        // Power cut and back: the finished game is restored from the save (the solved row and its key pegs).
        const before = board.colours("keys").slice(10, 15);
        await board.powerCycle();
        await board.advance(500);
        expect(board.colours("keys").slice(10, 15)).toEqual(before);
        expect(board.errors).toEqual([]);
      } finally {
        await board.close();
      }
    }, 300_000);
  },
);
