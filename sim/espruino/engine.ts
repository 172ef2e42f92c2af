/**
 * The simulator's second engine: the unit on the real Espruino interpreter (the Linux build in
 * ../shared/tools/espruino), with the board model of sim/espruino/prelude.ts. It mirrors
 * VirtualBoard's surface (keys in, LEDs and console out, power, battery) so scripts, the watcher and
 * the views run on either engine; what differs is time: here it is real, so `advance` and `tap`
 * return promises that settle when the interpreter has got there.
 *
 * Two ways in:
 * - "ram": the prelude (holding the solver tables in a RAM Storage) and the bundle as one file run by
 *   `espruino FILE` (for time: the Linux build reads its flash file byte by byte, a Pico maps it);
 * - "flash": the bundle and tables written by `npm run flash` through the real espruino CLI over
 *   telnet into the interpreter's Storage, the prelude as .boot0, and every power-on boots from
 *   Storage (for memory, on espruino-pico, and to test the flash tool end to end).
 *
 * Power off kills the process (RAM is gone); Storage (the file espruino.flash in the board's own
 * folder) stays for the next power-on, as a board's flash does.
 *
 * Commands go to the prelude over a TCP connection it makes at every boot to this board's own listener on
 * 127.0.0.1 (a free port, and a random token the prelude must send first), not through the console: the
 * Linux build's console input thread races the interpreter over its event queue (see prelude.ts).
 * What the unit prints, and the prelude's reports, still come on its standard output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkProfile,
  keyList,
  ledCount,
  loadProfile,
  segmentOffsets,
  type KeyInfo,
  type Profile,
  type SegmentName,
} from "../../hardware/profile.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { crc32Of, flash, type FlashResult } from "../../firmware/tools/flash.ts";
import { BoardConsole, ConsoleError } from "../../firmware/tools/board-console.ts";
import { colourName } from "../views/colours.ts";
import { chainPixels, LedChain, type Rgb } from "../board/led-chain.ts";
import { espruinoBinary, espruinoMissing, type EspruinoBuild } from "./binary.ts";
import { preludeSource, REPORT_MARK } from "./prelude.ts";
import { withTelnetPort } from "./telnet.ts";

export type EngineMode = "ram" | "flash";

export interface EspruinoBoardOptions {
  profile?: string | Profile;
  /** The bundle's source (dist/firmware.js built for the profile). */
  firmware: string;
  /** Default "ram". */
  mode?: EngineMode;
  /** Default: espruino for "ram", espruino-pico (a Pico's JsVars) for "flash". */
  build?: EspruinoBuild;
  /** Key contact bounce (ms), default 5. */
  bounceMs?: number;
  seed?: number;
  /** Write the solver tables (default true). */
  tables?: boolean;
  /** Read JsVars in use after every task (slow: the memory run). */
  trackMemory?: boolean;
  /** How long to wait for the interpreter to answer before calling it stuck (default 60 s). */
  answerTimeoutMs?: number;
  /** Storage files to mirror on the host (`storage`): the prelude reports them at boot and after every change. */
  mirror?: string[];
  /** Echo everything the interpreter prints, and (prefixed "> ") every command sent to it, to this function (debugging). */
  trace?: (line: string) => void;
  /**
   * A niceness for the interpreter's process, where the system allows it (benches: -10, so that the host's own work
   * on a shared machine does not preempt it in the middle of a task, which would time as the firmware's).
   */
  niceness?: number;
}

/** One LED write as the prelude reported it. */
export interface FrameReport {
  /** The write's number since power-on. */
  n: number;
  /** Host ms (since the board was made) when the report arrived. */
  at: number;
  /** Busy time of the event loop (ms, interpreter clock) before the task that wrote, and at the write. */
  busyBefore: number;
  busyAt: number;
  /** From the start of the task to the write (ms), -1 when not inside a task. */
  toWrite: number;
  /** The task scanned the key matrix (a key event), rather than only re-rendering. */
  scan: boolean;
}

export interface EngineStats {
  /** Time (ms) spent in the prelude's model of the board's native functions, kept out of every other figure. */
  hw: number;
  busy: number;
  tasks: number;
  stallMax: number;
  usage: number;
  total: number;
  memPeak: number;
  frames: number;
}

export type EngineEvent = "leds" | "tone" | "console" | "power" | "reset";

/**
 * The host's copy of some of the unit's Storage files (EspruinoBoardOptions.mirror), kept up to date from the
 * prelude's reports: what the page's status and the Brain Flip cards read (VirtualStorage's readString and onChange).
 */
export class StorageMirror {
  private readonly files = new Map<string, string>();
  private readonly listeners = new Set<() => void>();

  /** A file as an 8-bit string, or undefined (not mirrored, or not in Storage). */
  readString(name: string): string | undefined {
    return this.files.get(name);
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A report: the file's content now (undefined: erased). */
  set(name: string, text: string | undefined): void {
    if (this.files.get(name) === text) return;
    if (text === undefined) this.files.delete(name);
    else this.files.set(name, text);
    for (const fn of [...this.listeners]) fn();
  }
}

export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineError";
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class EspruinoBoard {
  readonly engine = "espruino";
  readonly profile: Profile;
  readonly keys: KeyInfo[];
  readonly mode: EngineMode;
  readonly build: EspruinoBuild;
  readonly consoleLog: string[] = [];
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly resets: { at: number; reason: string }[] = [];
  readonly tones: { at: number; freq: number }[] = [];
  readonly frames: FrameReport[] = [];
  /** The mirrored Storage files (empty unless EspruinoBoardOptions.mirror names some). */
  readonly storage = new StorageMirror();
  /** JsVars in use when the prelude had run (before the firmware), per boot. */
  preludeUsage = 0;
  readonly dir: string;
  private readonly opts: EspruinoBoardOptions;
  private readonly leds: LedChain;
  private readonly segments: Record<SegmentName, { start: number; count: number }>;
  private readonly keyById = new Map<string, KeyInfo>();
  private readonly t0 = Date.now();
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private buffer = "";
  private syncN = 0;
  /** The host's end of the command link: the listener, its token, and the prelude's connection (null until it has sent the token). */
  private linkServer: Server | null = null;
  private linkPort = 0;
  private readonly linkToken = randomBytes(16).toString("hex");
  private linkSocket: Socket | null = null;
  /** Lines waiting for the prelude's connection. */
  private outQueue: string[] = [];
  private waiters: { match: (r: string) => boolean; resolve: (r: string) => void }[] = [];
  private batteryState: { volts: number; usb: boolean };
  private ledSupply = false;
  private sleepAllowed = false;
  private locked = false;
  private currentTone = 0;
  private flashed = false;
  private listeners = new Map<EngineEvent, Set<() => void>>();
  private booted = false;
  private readonly held = new Set<string>();

  constructor(opts: EspruinoBoardOptions) {
    this.opts = opts;
    this.profile = typeof opts.profile === "object" ? checkProfile(structuredClone(opts.profile)) : loadProfile(opts.profile);
    this.mode = opts.mode ?? "ram";
    this.build = opts.build ?? (this.mode === "flash" ? "espruino-pico" : "espruino");
    const missing = espruinoMissing(this.build);
    if (missing) throw new EngineError(missing);
    this.keys = keyList(this.profile);
    for (const k of this.keys) this.keyById.set(k.id, k);
    this.leds = new LedChain(ledCount(this.profile));
    this.segments = segmentOffsets(this.profile);
    this.batteryState = { volts: this.profile.battery?.fullV ?? 4.0, usb: false };
    this.dir = mkdtempSync(join(tmpdir(), "brainboard-espruino-"));
  }

  // ---------------------------------------------------------------- time

  /** Host ms since this board was made (real time). */
  get now(): number {
    return Date.now() - this.t0;
  }

  /**
   * Lets the unit run for `ms` of real time, then waits until the interpreter has caught up: it has read every
   * command sent so far, and every key press and release among them has been taken (see sync()).
   */
  async advance(ms: number): Promise<void> {
    if (ms > 0) await sleep(ms);
    if (this.child) await this.sync();
  }

  /**
   * Resolves when the interpreter has read everything sent so far and every key move sent before has been taken
   * by the unit's scanner (the prelude makes moves one at a time, in order, each once the last one was taken: a
   * slow event loop delays the keys, never reorders or loses them).
   */
  async sync(): Promise<void> {
    const n = ++this.syncN;
    await this.ask(`__bb.sync(${n})`, (r) => r === `Y ${n}`, "to answer");
  }

  // ---------------------------------------------------------------- power

  get isOn(): boolean {
    return this.child !== null;
  }

  get ledsPowered(): boolean {
    return this.leds.powered;
  }

  get deepSleep(): boolean {
    return this.sleepAllowed;
  }

  get consoleLocked(): boolean {
    return this.locked;
  }

  get battery(): { volts: number; usb: boolean } {
    return { ...this.batteryState };
  }

  /** Starts the interpreter: the prelude, then the firmware (from RAM or from Storage). Resolves once it has booted. */
  async powerOn(): Promise<void> {
    if (this.child) return;
    await this.listen();
    if (this.mode === "flash" && !this.flashed) await this.flashFirmware();
    const bin = espruinoBinary(this.build)!;
    const args: string[] = [];
    if (this.mode === "ram") {
      const file = join(this.dir, "unit.js");
      writeFileSync(file, this.prelude() + this.opts.firmware, "latin1");
      args.push(file);
    }
    this.booted = false;
    this.leds.setPowered(false, this.now);
    this.ledSupply = !this.profile.leds.powerPin;
    this.sleepAllowed = false;
    this.locked = false;
    const child = spawn(bin, args, { cwd: this.dir, stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    if (this.opts.niceness !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, this.opts.niceness);
      } catch {
        // Not allowed here (an unprivileged user may only lower its priority): the figures say how quiet the machine was.
      }
    }
    this.buffer = "";
    this.dropLink();
    this.exited = new Promise((done) =>
      child.on("exit", (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.errors.push(`the interpreter stopped (${signal ?? "exit code " + code})`);
          this.failWaiters(`the interpreter stopped (${signal ?? "exit code " + code})`);
          this.setLedSupply(false);
          this.emit("power");
        }
        done();
      }),
    );
    child.stdout!.on("data", (d: Buffer) => this.onOutput(d.toString("latin1")));
    child.stderr!.on("data", (d: Buffer) => this.onOutput(d.toString("latin1")));
    child.stdin!.on("error", () => {});
    await this.waitFor((r) => r.startsWith("B "), "to run the board prelude");
    this.booted = true;
    this.setLedSupply(this.ledSupply);
    this.emit("power");
    await this.sync();
  }

  /** Cuts the power: the process is killed; Storage (its flash file) stays. */
  async powerOff(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    for (const k of this.held) this.held.delete(k);
    child.kill("SIGKILL");
    await this.exited;
    this.dropLink();
    this.failWaiters("the unit was switched off");
    this.setLedSupply(false);
    if (this.currentTone) this.setTone(0);
    this.emit("power");
  }

  async powerCycle(): Promise<void> {
    await this.powerOff();
    await this.powerOn();
  }

  /** Stops the interpreter, closes the link's listener and removes the board's folder. */
  async close(): Promise<void> {
    await this.powerOff();
    const server = this.linkServer;
    this.linkServer = null;
    if (server) await new Promise<void>((done) => server.close(() => done()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  setBattery(volts: number, usb?: boolean): void {
    this.batteryState = { volts, usb: usb ?? this.batteryState.usb };
    if (this.child) this.send(`__bb.bat(${volts},${this.batteryState.usb ? 1 : 0})`);
  }

  // ---------------------------------------------------------------- keys

  press(keyId: string): void {
    const k = this.key(keyId);
    this.held.add(keyId);
    this.send(`__bb.press(${k.index})`);
  }

  release(keyId: string): void {
    const k = this.key(keyId);
    this.held.delete(keyId);
    this.send(`__bb.release(${k.index})`);
  }

  /**
   * Press, hold, release: the prelude holds the key at least holdMs and until the scanner has seen it
   * closed, then releases it and reports once the scanner has seen it open; then gapMs of rest.
   */
  async tap(keyId: string, holdMs = 60, gapMs = 60): Promise<void> {
    const k = this.key(keyId);
    await this.ask(
      `__bb.tap(${k.index},${Math.max(0, holdMs)})`,
      (r) => r === `K ${k.index} up`,
      `to see key ${keyId} pressed and released`,
    );
    if (gapMs > 0) await sleep(gapMs);
  }

  isPressed(keyId: string): boolean {
    return this.held.has(keyId);
  }

  // ---------------------------------------------------------------- outputs

  pixels(segment?: SegmentName): Rgb[] {
    return chainPixels(this.leds, this.segments, this.profile.id, segment);
  }

  colours(segment: SegmentName): string[] {
    return this.pixels(segment).map(colourName);
  }

  get tone(): { freq: number } | null {
    return this.currentTone ? { freq: this.currentTone } : null;
  }

  /** The interpreter's own figures: busy time, longest task, JsVars (after a garbage collection). */
  async stats(reset = false): Promise<EngineStats> {
    const r = await this.ask(`__bb.stats(${reset ? 1 : 0})`, (x) => x.startsWith("M "), "to report its figures");
    return JSON.parse(r.slice(2)) as EngineStats;
  }

  /** JsVars in use and in all, as process.memory() reports them. */
  async memory(): Promise<{ usage: number; total: number; free: number }> {
    const s = await this.stats();
    return { usage: s.usage, total: s.total, free: s.total - s.usage };
  }

  /** Runs a line at the console (no echo); what it prints arrives as console lines. */
  repl(code: string): void {
    this.send(code);
  }

  on(event: EngineEvent, fn: () => void): () => void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(fn);
    return () => this.listeners.get(event)?.delete(fn);
  }

  // ---------------------------------------------------------------- internals

  private prelude(): string {
    const o = this.opts;
    return preludeSource(this.profile, {
      bounceMs: o.bounceMs ?? 5,
      seed: o.seed ?? 1,
      tables: this.mode === "ram" && (o.tables ?? true) ? solverTablesFor(this.profile.pegs) : undefined,
      ram: this.mode === "ram",
      reportFrames: true,
      batteryVolts: this.batteryState.volts,
      usb: this.batteryState.usb,
      trackMemory: o.trackMemory,
      tapHoldMs: 60,
      link: { port: this.linkPort, token: this.linkToken },
      mirror: o.mirror,
    });
  }

  /**
   * "flash": `npm run flash` writes the bundle and tables through the real CLI over telnet (the
   * interpreter's port 2323 is taken one run at a time), then the prelude goes to .boot0 through the console.
   */
  private async flashFirmware(): Promise<void> {
    const bundle = join(this.dir, "firmware.js");
    writeFileSync(bundle, this.opts.firmware, "latin1");
    const prelude = this.prelude();
    await withTelnetPort(async (port) => {
      const bin = espruinoBinary("espruino")!;
      const child = spawn(bin, ["--telnet"], { cwd: this.dir, stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString("latin1")));
      child.stderr!.on("data", (d: Buffer) => (out += d.toString("latin1")));
      child.stdin!.on("error", () => {});
      try {
        await listening(port);
        let output = "";
        const log = (t: string) => (output += t);
        let r: FlashResult;
        try {
          r = await flash({ port: `tcp://127.0.0.1:${port}`, bundle, profile: this.profile.id, out: log, err: log });
        } catch (e) {
          throw new EngineError(`npm run flash failed: ${(e as Error).message}\n${output}`);
        }
        // The upload ends by starting .bootcde without the boot files, so the firmware may fail there for want
        // of the prelude's pins: what counts is that every file was written and read back intact.
        // .bootcde, the page-aligning pad when there is one, the tables and any save carried across.
        const want = 1 + (r.padBytes ? 1 : 0) + solverTablesFor(this.profile.pegs).length + (r.saves?.kept.length ?? 0);
        if (
          r.exitCode !== 0 &&
          !(r.verified && r.verified.length === want && /Uncaught ReferenceError: "[A-Z][0-9]+" is not defined/.test(output))
        )
          throw new EngineError(`npm run flash failed (exit code ${r.exitCode}):\n${output}`);
        if (!r.verified || r.verified.length !== want)
          throw new EngineError(`npm run flash verified ${r.verified?.length ?? 0} of ${want} files:\n${output}`);
        // Then the prelude as .boot0 (after the upload, so that its echo(0) never meets the CLI), a chunk a line, through
        // the telnet console as the flash tool talks to a board (read by the interpreter's main thread; its standard
        // input is read by a second thread that races it: see prelude.ts), and read back by length and CRC-32.
        const con = await BoardConsole.open(`tcp://127.0.0.1:${port}`);
        try {
          const CHUNK = 600;
          for (let i = 0; i < prelude.length; i += CHUNK) {
            const part = JSON.stringify(prelude.slice(i, i + CHUNK));
            await con.run(
              i === 0
                ? `require("Storage").write(".boot0",${part},0,${prelude.length})`
                : `require("Storage").write(".boot0",${part},${i})`,
            );
          }
          const got = await con.query<[number, number] | null>(
            `(function(d){return d===undefined?null:[d.length,E.CRC32(d)];})(require("Storage").read(".boot0"))`,
          );
          const want = [prelude.length, crc32Of(Buffer.from(prelude, "latin1"))];
          if (!got || got[0] !== want[0] || got[1] >>> 0 !== want[1])
            throw new EngineError(
              `.boot0 holds ${got ? `${got[0]} bytes, CRC-32 ${(got[1] >>> 0).toString(16)}` : "nothing"}; the prelude has ${want[0]} bytes, CRC-32 ${want[1].toString(16)}`,
            );
        } catch (e) {
          if (e instanceof ConsoleError) throw new EngineError(`writing the prelude to .boot0 failed: ${e.message}\n${out}`);
          throw e;
        } finally {
          await con.close();
        }
      } finally {
        child.kill("SIGKILL");
        await new Promise((d) => (child.exitCode !== null ? d(null) : child.on("exit", d)));
      }
    });
    this.flashed = true;
  }

  private key(keyId: string): KeyInfo {
    const k = this.keyById.get(keyId);
    if (!k) throw new Error(`unknown key "${keyId}" on ${this.profile.id}; valid keys: ${this.keys.map((x) => x.id).join(", ")}`);
    return k;
  }

  /** Sends a command line to the prelude, or queues it until the prelude has connected. */
  private send(line: string): void {
    if (!this.child) throw new EngineError("the unit is off (power it on first)");
    if (/[\r\n]/.test(line)) throw new EngineError("a command is one line");
    this.opts.trace?.(`> ${line}`);
    if (this.linkSocket) this.linkSocket.write(line + "\n");
    else this.outQueue.push(line);
  }

  /** Listens (once per board) on a free loopback port for the prelude's connection. */
  private async listen(): Promise<void> {
    if (this.linkServer) return;
    const server = createServer((sock) => this.onLink(sock));
    server.on("error", (e) => this.errors.push(`the host link failed: ${e.message}`));
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", fail);
        done();
      });
    });
    this.linkServer = server;
    this.linkPort = (server.address() as AddressInfo).port;
  }

  /** A connection to the link: it becomes the prelude's once its first line is the token; anything else is closed. */
  private onLink(sock: Socket): void {
    sock.setNoDelay(true);
    let first = "";
    const timer = setTimeout(() => sock.destroy(), 60_000);
    const onData = (d: Buffer) => {
      first += d.toString("latin1");
      const i = first.indexOf("\n");
      if (i < 0) {
        if (first.length > 64) sock.destroy();
        return;
      }
      clearTimeout(timer);
      sock.off("data", onData);
      if (first.slice(0, i) !== this.linkToken || !this.child) {
        sock.destroy();
        return;
      }
      this.linkSocket?.destroy();
      this.linkSocket = sock;
      sock.on("data", () => {});
      sock.on("close", () => {
        if (this.linkSocket === sock) this.linkSocket = null;
      });
      const queued = this.outQueue;
      this.outQueue = [];
      if (queued.length) sock.write(queued.map((l) => l + "\n").join(""));
    };
    sock.on("data", onData);
    sock.on("error", () => {});
    sock.on("close", () => clearTimeout(timer));
  }

  /** Forgets the connection and what waited for it (the process it belongs to is gone or going). */
  private dropLink(): void {
    this.linkSocket?.destroy();
    this.linkSocket = null;
    this.outQueue = [];
  }

  private ask(line: string, match: (r: string) => boolean, what: string): Promise<string> {
    // Refused before anything waits (the unit off): no waiter is left to fail later, unheard.
    if (!this.child) throw new EngineError("the unit is off (power it on first)");
    const p = this.waitFor(match, what);
    this.send(line);
    return p;
  }

  private waitFor(match: (r: string) => boolean, what: string): Promise<string> {
    const timeout = this.opts.answerTimeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const w = {
        match,
        resolve: (r: string) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject,
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(
          new EngineError(`the interpreter did not get ${what} within ${timeout / 1000} s (its event loop is blocked, or it stopped)`),
        );
      }, timeout);
      (w as unknown as { fail: (m: string) => void }).fail = (m: string) => {
        clearTimeout(timer);
        reject(new EngineError(`${m} while waiting for the interpreter ${what}`));
      };
      this.waiters.push(w);
    });
  }

  private failWaiters(why: string): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) (w as unknown as { fail: (m: string) => void }).fail(why);
  }

  private onOutput(text: string): void {
    this.buffer += text;
    let i: number;
    while ((i = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, i).replace(/\r/g, "");
      this.buffer = this.buffer.slice(i + 1);
      this.onLine(line);
    }
  }

  private onLine(raw: string): void {
    this.opts.trace?.(raw);
    const at = raw.indexOf(REPORT_MARK);
    const text = (at >= 0 ? raw.slice(0, at) : raw).replace(/^>+/, "");
    if (text && this.booted) this.consoleLine(text);
    else if (text && /^Uncaught /.test(text)) this.consoleLine(text);
    if (at >= 0) this.onReport(raw.slice(at + REPORT_MARK.length));
  }

  private consoleLine(text: string): void {
    this.consoleLog.push(text);
    if (/^Uncaught /.test(text) || /^ERROR:/.test(text)) this.errors.push(text);
    this.emit("console");
  }

  private onReport(r: string): void {
    const sp = r.indexOf(" ");
    const kind = r.slice(0, sp < 0 ? r.length : sp);
    const arg = sp < 0 ? "" : r.slice(sp + 1);
    switch (kind) {
      case "F": {
        const f = arg.split(" ");
        const bytes = new Uint8Array(Buffer.from(f[5] ?? "", "base64"));
        this.frames.push({ n: +f[0], at: this.now, busyBefore: +f[1], busyAt: +f[2], toWrite: +f[3], scan: f[4] === "1" });
        if (this.leds.write(bytes, this.now)) this.emit("leds");
        break;
      }
      case "P":
        this.ledSupply = arg === "1";
        if (this.booted) this.setLedSupply(this.ledSupply);
        break;
      case "T":
        this.setTone(+arg);
        break;
      case "S":
        this.sleepAllowed = arg === "1";
        break;
      case "L":
        this.locked = arg === "1";
        break;
      case "R":
        // The firmware asked for a restart (load()) while run from RAM: boot the file again, Storage kept.
        this.resets.push({ at: this.now, reason: arg });
        this.emit("reset");
        void this.powerCycle().catch((e) => this.errors.push(`restart failed: ${(e as Error).message}`));
        break;
      case "B":
        this.preludeUsage = +arg;
        break;
      case "V": {
        const [name, data] = arg.split(" ");
        if (name) this.storage.set(name, data === "-" || data === undefined ? undefined : Buffer.from(data, "base64").toString("latin1"));
        break;
      }
    }
    for (const w of [...this.waiters])
      if (w.match(r)) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(r);
      }
  }

  private setLedSupply(on: boolean): void {
    if (this.leds.setPowered(on, this.now) || on !== this.ledsPoweredBefore) this.emit("leds");
    this.ledsPoweredBefore = on;
  }
  private ledsPoweredBefore = false;

  private setTone(freq: number): void {
    if (freq === this.currentTone) return;
    this.currentTone = freq;
    this.tones.push({ at: this.now, freq });
    this.emit("tone");
  }

  private emit(event: EngineEvent): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) fn();
  }
}

/** Resolves once something accepts connections on the loopback port (the interpreter's telnet server starts after its banner). */
async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((done) => {
      const sock = connect(port, "127.0.0.1");
      sock.once("connect", () => {
        sock.destroy();
        done(true);
      });
      sock.once("error", () => done(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs)
      throw new EngineError(`the interpreter's telnet port ${port} did not open within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}
