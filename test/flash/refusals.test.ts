/**
 * Problems before flashing are refused with what to do and the documented exit code (2 for something to fix first:
 * no port, a port that is missing or not a serial device, a missing dependency; 1 for an oversized bundle).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../firmware/tools/build.ts";
import { checkPort, flash } from "../../firmware/tools/flash.ts";
import { writeBundleOfImage } from "./flash-tool.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "brainboard-flash-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("problems before flashing are refused with what to do (exit code 2)", () => {
  it("no --port", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "firmware/tools/flash.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no --port given: name the board's serial port, e.g. npm run flash -- --port /dev/ttyACM0");
    expect(r.stderr).toContain("npx espruino --list --no-ble");
    expect(r.stderr).toContain("needs udevadm");
  });

  it("no --port, naming the serial ports that are present", async () => {
    const dev = join(dir, "dev");
    mkdirSync(dev, { recursive: true });
    writeFileSync(join(dev, "ttyACM0"), "");
    writeFileSync(join(dev, "ttyS0"), "");
    await expect(flash({ devDir: dev })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(`serial ports present now: ${join(dev, "ttyACM0")}\n`),
    });
  });

  it("a port that does not exist", () => {
    expect(() => checkPort("/dev/ttyBRAINBOARD9", { hasModule: () => true })).toThrow(
      /port \/dev\/ttyBRAINBOARD9 not found: is the board plugged in/,
    );
  });

  it("the optional serialport dependency missing", () => {
    expect(() => checkPort("/dev/ttyACM0", { hasModule: () => false })).toThrow(
      /needs its optional dependency `serialport`[\s\S]*npm install/,
    );
  });

  it("a file that is not a serial device", () => {
    const file = join(dir, "not-a-tty");
    writeFileSync(file, "");
    expect(() => checkPort(file, { hasModule: () => true })).toThrow(/is not a serial device/);
  });

  it("udevadm missing on Linux, which the CLI needs even for a named port", () => {
    const attempt = () => checkPort("/dev/null", { hasModule: () => true, hasCommand: () => false, platform: "linux" });
    expect(attempt).toThrow(/udevadm is missing[\s\S]*apt-get install udev/);
    expect(checkPort("/dev/null", { hasModule: () => true, hasCommand: () => false, platform: "darwin" })).toBe("/dev/null");
  });

  it("a network port skips the serial checks", () => {
    expect(checkPort("tcp://192.168.1.50", { hasModule: () => false })).toBe("tcp://192.168.1.50");
  });

  it("an oversized bundle exits 1 from the command line", () => {
    const big = writeBundleOfImage(join(dir, "big-cli.js"), 40970, "x");
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "firmware/tools/flash.ts", "--dry-run", "--bundle", big, "--out-dir", join(dir, "cli")],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/over the Storage budget/);
  });

  it("a bundle that would not be stored as the same program once pretokenised is refused (exit 1), naming why", async () => {
    const wide = join(dir, "wide.js");
    writeFileSync(wide, 'print("d\\u00e9j\\u00e0");\n');
    await expect(flash({ dryRun: true, bundle: wide, outDir: join(dir, "wide"), out: () => {}, err: () => {} })).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(
        /wide\.js is not stored as the same program once pretokenised: the string .* has characters beyond 7 bits/,
      ),
    });
    const broken = join(dir, "broken.js");
    writeFileSync(broken, "print(1;\n");
    await expect(flash({ dryRun: true, bundle: broken, outDir: join(dir, "broken"), out: () => {}, err: () => {} })).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/broken\.js is not stored as the same program once pretokenised: the bundle does not parse/),
    });
  });
});
