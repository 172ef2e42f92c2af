import { describe, expect, it } from "vitest";
import ts from "typescript";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { buildFirmware, BuildError, imagePath, ROOT, sizeRefusal, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";
import { pretokenise } from "../../firmware/tools/pretokenise.ts";
import { keptPropertyNames, manglePattern, pinnedNames } from "../../firmware/tools/mangle.ts";
import { SAVE_KEYS } from "../../firmware/save-format.ts";

/** Type-checks files with the firmware's compiler options (tsconfig.json: noLib, Espruino's built-ins). */
function firmwareDiagnostics(files: string[]): string[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const types = parsed.fileNames.filter((f) => f.includes("firmware/types/"));
  const program = ts.createProgram([...files, ...types], parsed.options);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

const fixture = (name: string) => join(ROOT, "test/toolchain/fixtures", name);

describe("the firmware toolchain", () => {
  it("the firmware type-checks against Espruino's built-ins without errors", () => {
    expect(firmwareDiagnostics([join(ROOT, "firmware/main.ts")])).toEqual([]);
  });

  it("a firmware fixture using Map fails the type check", () => {
    const errors = firmwareDiagnostics([fixture("uses-map.ts")]);
    expect(errors.some((e) => e.includes("'Map'"))).toBe(true);
  });

  it("Object.freeze is a compile error in firmware", () => {
    const errors = firmwareDiagnostics([fixture("uses-object-freeze.ts")]);
    expect(errors.some((e) => e.includes("freeze"))).toBe(true);
  });

  it("a firmware fixture using Map fails the bundle gate with its position", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bb-gate-")), "fixture.js");
    const build = buildFirmware({ entry: fixture("uses-map.ts"), out, minify: false });
    await expect(build).rejects.toBeInstanceOf(BuildError);
    await expect(build).rejects.toThrow(/fixture\.js:\d+:\d+: .*Map/);
  });

  it("npm run build prints the bundle's size, and the stored image's against 31,232 bytes", () => {
    const out = join(mkdtempSync(join(tmpdir(), "bb-build-")), "firmware.js");
    const stdout = execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "firmware/tools/build.ts"), "--out", out], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(stdout).toMatch(/firmware\.js: \d+ bytes, the bundle \(the unit stores its image\)/);
    expect(stdout).toMatch(/firmware\.tok: \d+ bytes \(\d+\.\d% of the 31232-byte bound\), as stored in the unit's Storage/);
    // the image beside the bundle: the bundle pretokenised, within its bound
    const image = new Uint8Array(readFileSync(imagePath(out)));
    expect(image).toEqual(pretokenise(readFileSync(out, "latin1")));
    expect(image.length).toBeLessThanOrEqual(STORED_BOUND_BYTES);
  });

  it("refuses a stored image over 31,232 bytes, whatever the bundle's text takes", () => {
    expect(sizeRefusal({ imageBytes: 28_000 })).toBeNull();
    expect(sizeRefusal({ imageBytes: 31_232 })).toBeNull();
    expect(sizeRefusal({ imageBytes: 31_233 })).toBe(
      "the firmware as stored (the pretokenised image, 31233 bytes) is over the 31232-byte bound",
    );
  });

  it("the bundle calls Espruino's require directly: no dynamic-require shim, no Proxy, no outer function (unwrap.ts)", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bb-require-")), "firmware.js");
    const { code } = await buildFirmware({ out });
    expect(code).not.toMatch(/Dynamic require|Proxy/);
    expect(code).toContain('require("Storage")');
    expect(code).toContain('require("neopixel")');
    expect(code.startsWith("var ")).toBe(true);
    expect(code.startsWith("(()=>{")).toBe(false);
  });

  it("builds are deterministic and write nothing but the bundle and its image: no mangle cache to track", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-twice-"));
    const a = await buildFirmware({ out: join(dir, "a.js") });
    const b = await buildFirmware({ out: join(dir, "b.js") });
    expect(b.code).toBe(a.code);
    expect(b.image).toEqual(a.image);
    expect(readdirSync(dir).sort()).toEqual(["a.js", "a.tok", "b.js", "b.tok"]);
    expect(existsSync(join(ROOT, "firmware/tools/mangle-cache.json"))).toBe(false);
  });

  it("the saved state's fields keep their save-format keys in the bundle, and a clash is refused", async () => {
    const pattern = manglePattern(ROOT);
    const pinned = pinnedNames(pattern, keptPropertyNames(ROOT, pattern));
    expect(pinned.settings).toBe(SAVE_KEYS.settings);
    const { code } = await buildFirmware({ out: join(mkdtempSync(join(tmpdir(), "bb-keys-")), "firmware.js") });
    // A fresh game as the bundle writes it (core/match.ts freshGame): the format's keys, not fresh short names (null
    // is a local of the bundle's outer function: alias-globals.ts).
    const nul = /var (?:[^;]*?,)?([\w$]+)=null[,;]/.exec(code)![1].replace("$", "\\$");
    expect(code).toMatch(new RegExp(`\\{secret:${nul},${SAVE_KEYS.rows}:\\[\\],${SAVE_KEYS.pending}:${nul},${SAVE_KEYS.phase}:0\\}`));
    expect(() => pinnedNames(pattern, new Set([SAVE_KEYS.settings]))).toThrow(/also a property name the bundle keeps/);
  });

  it("an unknown profile is refused with the reason", () => {
    const run = () =>
      execFileSync(process.execPath, ["--import", "tsx", join(ROOT, "firmware/tools/build.ts"), "--profile", "no-such-board"], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run).toThrow(/no profile file at .*no-such-board\.json/);
  });
});
