/**
 * The simulator's second engine: the unit on the real Espruino interpreter (the Linux build in
 * $BRAINBOARD_ESPRUINO_DIR), with the board model of sim/espruino/prelude.ts. It mirrors
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
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import type { KeyInfo, Profile, SegmentName } from "../../hardware/profile.ts";
import { unitProfile, type UnitProfile } from "../../hardware/unit-profile.ts";
import { solverTablesFor } from "../../firmware/tools/tables.ts";
import { colourName } from "../views/colours.ts";
import { chainPixels, LedChain, type Rgb } from "../board/led-chain.ts";
import { espruinoBinary, espruinoMissing, type EspruinoBuild } from "./binary.ts";
import { preludeSource, REPORT_MARK } from "./prelude.ts";
import { EngineError, PreludeLink, sleep } from "./link.ts";
import { flashUnit, type FlashedFile } from "./flash-unit.ts";

export { EngineError } from "./link.ts";

export type EngineMode = "ram" | "flash";

export interface EspruinoBoardOptions {
  profile?: string | Profile | UnitProfile;
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
  /** The LED frames written by the end of the longest task, and whether that task wrote one (1) or not (0). */
  stallAt: number;
  stallWrote: number;
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

export class EspruinoBoard {
  readonly engine = "espruino";
  /** The profile, compiled once (hardware/unit-profile.ts). */
  readonly unit: UnitProfile;
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
  /** The host's end of the command link to the prelude. */
  private readonly link: PreludeLink;
  private batteryState: { volts: number; usb: boolean };
  private ledSupply = false;
  private sleepAllowed = false;
  private locked = false;
  private currentTone = 0;
  private flashed = false;
  /** In "flash" mode, once flashed: each file npm run flash wrote (.bootcde first), as the interpreter read it back. */
  flashedFiles: FlashedFile[] = [];
  private listeners = new Map<EngineEvent, Set<() => void>>();
  private booted = false;
  private readonly held = new Set<string>();

  constructor(opts: EspruinoBoardOptions) {
    this.opts = opts;
    this.unit = unitProfile(opts.profile);
    this.profile = this.unit.profile;
    this.mode = opts.mode ?? "ram";
    this.build = opts.build ?? (this.mode === "flash" ? "espruino-pico" : "espruino");
    const missing = espruinoMissing(this.build);
    if (missing) throw new EngineError(missing);
    this.keys = this.unit.keys;
    for (const k of this.keys) this.keyById.set(k.id, k);
    this.leds = new LedChain(this.unit.ledCount);
    this.segments = this.unit.segments;
    this.batteryState = { volts: this.profile.battery?.fullV ?? 4.0, usb: false };
    this.dir = mkdtempSync(join(tmpdir(), "brainboard-espruino-"));
    this.link = new PreludeLink({
      accepting: () => this.child !== null,
      onError: (message) => this.errors.push(message),
      answerTimeoutMs: opts.answerTimeoutMs ?? 60_000,
    });
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
    await this.link.listen();
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
    this.link.drop();
    this.exited = new Promise((done) =>
      child.on("exit", (code, signal) => {
        if (this.child === child) {
          this.child = null;
          this.errors.push(`the interpreter stopped (${signal ?? "exit code " + code})`);
          this.link.failAll(`the interpreter stopped (${signal ?? "exit code " + code})`);
          this.setLedSupply(false);
          this.emit("power");
        }
        done();
      }),
    );
    child.stdout!.on("data", (d: Buffer) => this.onOutput(d.toString("latin1")));
    child.stderr!.on("data", (d: Buffer) => this.onOutput(d.toString("latin1")));
    child.stdin!.on("error", () => {});
    await this.link.waitFor((r) => r.startsWith("B "), "to run the board prelude");
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
    this.link.drop();
    this.link.failAll("the unit was switched off");
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
    await this.link.close();
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
    return preludeSource(this.unit, {
      bounceMs: o.bounceMs ?? 5,
      seed: o.seed ?? 1,
      tables: this.mode === "ram" && (o.tables ?? true) ? solverTablesFor(this.profile.pegs) : undefined,
      ram: this.mode === "ram",
      reportFrames: true,
      batteryVolts: this.batteryState.volts,
      usb: this.batteryState.usb,
      trackMemory: o.trackMemory,
      tapHoldMs: 60,
      link: { port: this.link.port, token: this.link.token },
      mirror: o.mirror,
    });
  }

  /** "flash": the bundle and tables through `npm run flash`, the prelude as .boot0 (flash-unit.ts). */
  private async flashFirmware(): Promise<void> {
    this.flashedFiles = await flashUnit(this.dir, this.opts.firmware, this.profile, this.prelude());
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
    this.link.write(line);
  }

  private ask(line: string, match: (r: string) => boolean, what: string): Promise<string> {
    // Refused before anything waits (the unit off): no waiter is left to fail later, unheard.
    if (!this.child) throw new EngineError("the unit is off (power it on first)");
    const p = this.link.waitFor(match, what);
    this.send(line);
    return p;
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
    this.link.report(r);
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
