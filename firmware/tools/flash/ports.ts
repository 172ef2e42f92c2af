/**
 * The flash tool's ports: which serial port or tcp:// address the board is on, checked before the CLI gets it, and the console opened on it.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { BoardConsole, ConsoleError } from "../board-console.ts";
import { FlashError } from "./types.ts";

/** The espruino CLI's entry script, from the installed npm package. */
export function espruinoCli(): string {
  return join(dirname(createRequire(import.meta.url).resolve("espruino/package.json")), "bin/espruino-cli.js");
}

export function cliRequire(): NodeJS.Require | undefined {
  try {
    return createRequire(espruinoCli());
  } catch {
    return undefined;
  }
}

/** Opens the board's console, turning its errors into the flash tool's own. */
export async function openConsole(port: string, baud: number | undefined): Promise<BoardConsole> {
  try {
    return await BoardConsole.open(port, { baud, cliRequire: cliRequire() });
  } catch (e) {
    throw asFlashError(e);
  }
}

export function asFlashError(e: unknown): unknown {
  return e instanceof ConsoleError ? new FlashError(e.message, e.exitCode) : e;
}

/** Serial devices that look like a Pico (USB CDC) or a USB-UART (ESP32 DevKit), to suggest as --port. */
export function serialPortCandidates(devDir = "/dev"): string[] {
  try {
    return readdirSync(devDir)
      .filter((n) => /^(ttyACM\d+|ttyUSB\d+|cu\.usbmodem.*|cu\.usbserial.*|cu\.SLAB_USBtoUART.*)$/.test(n))
      .sort()
      .map((n) => join(devDir, n));
  } catch {
    return [];
  }
}

export function noPortMessage(devDir?: string): string {
  const seen = serialPortCandidates(devDir);
  return [
    "no --port given: name the board's serial port, e.g. npm run flash -- --port /dev/ttyACM0",
    seen.length
      ? `  serial ports present now: ${seen.join(", ")}`
      : `  no serial port is present in ${devDir ?? "/dev"} now: is the board plugged in (with a data cable)?`,
    "  a Pico shows up as /dev/ttyACM* (USB CDC), an ESP32 DevKit as /dev/ttyUSB* (its USB-UART);",
    "  macOS: /dev/cu.usbmodem* (Pico) or /dev/cu.usbserial* / /dev/cu.SLAB_USBtoUART* (ESP32); Windows: COM3 and the like (Device Manager, Ports)",
    "  `npx espruino --list --no-ble` lists ports too, but on Linux it needs udevadm (Debian/Ubuntu package udev)",
    "  to see what would be sent without a board: npm run flash -- --dry-run",
  ].join("\n");
}

/** Checks a serial port before the CLI gets it; returns the path the CLI must be given. tcp:// ports pass as they are. */
/** A Windows serial port: COM3, or the device path \\.\COM3 (needed by some tools for COM10 and up). */
const WINDOWS_PORT = /^(?:\\\\\.\\)?(COM[1-9]\d{0,2})$/i;

export function checkPort(
  port: string,
  env: {
    devDir?: string;
    hasModule?: (name: string) => boolean;
    hasCommand?: (name: string) => boolean;
    platform?: string;
    warn?: (text: string) => void;
  } = {},
): string {
  if (port.startsWith("tcp://")) return port;
  const platform = env.platform ?? process.platform;
  const win = WINDOWS_PORT.exec(port);
  const hasModule = env.hasModule ?? ((name: string) => canResolveFromCli(name));
  const hasCommand = env.hasCommand ?? commandExists;
  if (!hasModule("serialport"))
    throw new FlashError(
      [
        "the espruino CLI needs its optional dependency `serialport` for USB serial, and it is not installed",
        "  (was npm install run with --omit=optional?) run: npm install, or npm install --no-save serialport@^10",
      ].join("\n"),
      2,
    );
  if (platform === "win32") {
    // Windows has no device files to look at: a COM name is passed to the CLI as COMn (serialport opens \\.\COMn).
    if (win) return win[1].toUpperCase();
    throw new FlashError(
      [
        `port ${port} is not a Windows serial port: name it as COM3 (or \\.\COM3); Device Manager lists them under Ports (COM & LPT)`,
        "  or use tcp://HOST:PORT for the simulator's console",
      ].join("\n"),
      2,
    );
  }
  if (win)
    throw new FlashError(
      `port ${port} is a Windows port name, but this is ${platform}: name the device file, e.g. /dev/ttyACM0 (Linux) or /dev/cu.usbmodem1101 (macOS)`,
      2,
    );
  if (platform === "darwin" && /^\/dev\/tty\./.test(port))
    // tty.* waits for the carrier-detect line before it opens, which a Pico never raises: cu.* is the one to use.
    (env.warn ?? (() => {}))(
      `warning: ${port} is a macOS dial-in port; if it does not open, use ${port.replace("/dev/tty.", "/dev/cu.")}\n`,
    );
  if (!existsSync(port)) {
    const seen = serialPortCandidates(env.devDir);
    throw new FlashError(
      [
        `port ${port} not found: is the board plugged in, and is this its port?`,
        seen.length ? `  serial ports present now: ${seen.join(", ")}` : "  no /dev/ttyACM*, /dev/ttyUSB* or /dev/cu.usb* is present now",
        "  unplug and replug the board and see which device appears (ls /dev/tty*), or try `npx espruino --list --no-ble` (needs udevadm)",
      ].join("\n"),
      2,
    );
  }
  let real = port;
  if (lstatSync(port).isSymbolicLink()) real = realpathSync(port); // the CLI matches ports by their udev device name
  if (!statSync(real).isCharacterDevice()) throw new FlashError(`port ${port} is not a serial device`, 2);
  try {
    accessSync(real, constants.R_OK | constants.W_OK);
  } catch {
    throw new FlashError(
      [
        `port ${real} cannot be opened for reading and writing (permission denied)`,
        "  on Linux, add yourself to its group and log in again: sudo usermod -aG dialout $USER (Arch: uucp)",
      ].join("\n"),
      2,
    );
  }
  if (platform === "linux" && !hasCommand("udevadm"))
    throw new FlashError(
      [
        "udevadm is missing: the espruino CLI (serialport 10 on Linux) finds even an explicitly named port with `udevadm info -e`,",
        "  and without it reports the port as not found. Install it (Debian/Ubuntu: apt-get install udev) and try again",
      ].join("\n"),
      2,
    );
  return real;
}

function canResolveFromCli(name: string): boolean {
  try {
    createRequire(espruinoCli()).resolve(name);
    return true;
  } catch {
    return false;
  }
}

function commandExists(name: string): boolean {
  return !spawnSync(name, ["--version"], { stdio: "ignore" }).error;
}
