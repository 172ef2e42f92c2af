/**
 * The virtual Brainboard: an Espruino board built from a hardware profile, running the flashed
 * bundle (`.bootcde` in Storage) on virtual time. This is the board model only (state, no drawing);
 * views observe it through `on(...)` and the read-only accessors, and press its keys.
 *
 *   const board = new VirtualBoard();          // flashes dist/firmware.js, power off
 *   board.powerOn();
 *   board.tap("p11");                           // press, hold 60 ms, release, wait 60 ms
 *   board.colours("pad");                       // ["red", "green", ...]
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BOARDS, PAD_FILE, type BoardInfo } from "../../hardware/boards.ts";
import type { KeyInfo, Profile, SegmentName } from "../../hardware/profile.ts";
import { unitProfile, type UnitProfile } from "../../hardware/unit-profile.ts";
import { Circuit } from "./circuit.ts";
import { KeyContacts } from "./key-contacts.ts";
import { VirtualClock, type ClockEvent } from "./clock.ts";
import { colourName } from "../views/colours.ts";
import { chainPixels, LedChain, type LedStats, type Rgb } from "./led-chain.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { EspruinoRuntime, type BoardBus } from "../runtime/runtime.ts";
import { protectedLayout, SOLVER_TABLE_NAMES, solverTablesFor } from "../../firmware/tools/tables.ts";
import { isKept, keepSlot, SAVE_SLOT_NAMES, type KeptSlot } from "../../firmware/tools/save-upgrade.ts";
import { saveCrc } from "./saves.ts";
import { detokenise, pretokenise, TokenError } from "../../firmware/tools/pretokenise.ts";
import { bytesFromString, stringFromBytes, VirtualStorage } from "./storage.ts";

export type { Rgb, LedStats } from "./led-chain.ts";
import type { BoardEvent, BoardOptions, PinReport, PowerCutRecord } from "./board-options.ts";
export type { BoardEvent, BoardOptions, PinReport, PowerCutRecord } from "./board-options.ts";

/**
 * The JavaScript the realm runs for a .bootcde: its tokens read as Espruino 2v29's lexer reads them (detokenise). Bytes
 * that are no tokens go through as they are: the realm then refuses them as a syntax error, as the unit does.
 */
function bootCode(bytes: Uint8Array): string {
  try {
    return detokenise(bytes);
  } catch (e) {
    if (e instanceof TokenError) return stringFromBytes(bytes);
    throw e;
  }
}
export type { VirtualStorage, StorageCut } from "./storage.ts";

/** The bundle `npm run build` writes, flashed when no firmware is given. */
export const DEFAULT_FIRMWARE = fileURLToPath(new URL("../../dist/firmware.js", import.meta.url));
/** Storage file the device boots from. */
export const BOOT_FILE = ".bootcde";

export class VirtualBoard {
  /** The profile, compiled once (hardware/unit-profile.ts): the circuit, the LED chain and the views read it. */
  readonly unit: UnitProfile;
  readonly profile: Profile;
  readonly boardInfo: BoardInfo;
  /** Every key of the unit, numbered as the firmware numbers them. */
  readonly keys: KeyInfo[];
  readonly storage: VirtualStorage;
  /** Everything printed on the console (print, console.log, uncaught errors, warnings). */
  readonly consoleLog: string[] = [];
  /** Uncaught errors ("Uncaught Error: ...") and hung calls, in order. */
  readonly errors: string[] = [];
  /** Things the device accepts silently that are probably mistakes (truncated Storage names, refused watches...). */
  readonly warnings: string[] = [];
  readonly resets: { at: number; reason: string }[] = [];
  /** Every change of the buzzer: freq 0 is silence. */
  readonly tones: { at: number; freq: number }[] = [];
  /** Power cuts made by schedulePowerCut and cutPowerDuringWrite, in order (powerOff() is not counted). */
  readonly powerCuts: PowerCutRecord[] = [];
  readonly bounceMs: number;

  private readonly clock = new VirtualClock();
  private readonly circuit: Circuit;
  private readonly leds: LedChain;
  private readonly noise: Prng;
  private readonly segments: Record<SegmentName, { start: number; count: number }>;
  private readonly contacts: KeyContacts;
  private readonly listeners = new Map<BoardEvent, Set<() => void>>();
  private readonly callbackTimeoutMs: number;
  private runtime: EspruinoRuntime | null = null;
  private pendingBoot: ClockEvent | null = null;
  private powered = false;
  private bootAt = 0;
  private currentTone: { freq: number } | null = null;
  private batteryState: { volts: number; usb: boolean };
  private sleepAllowed = false;
  private readonly bus: BoardBus;
  private scheduledCuts: ClockEvent[] = [];

  /** Builds the board and flashes the firmware to .bootcde; the board stays off until powerOn(). */
  constructor(opts: BoardOptions = {}) {
    this.unit = unitProfile(opts.profile);
    this.profile = this.unit.profile;
    const info = BOARDS[this.profile.board];
    if (!info) throw new Error(`profile ${this.profile.id}: unknown board "${this.profile.board}"`);
    this.boardInfo = info;
    this.bounceMs = opts.bounceMs ?? 5;
    if (!(this.bounceMs >= 0)) throw new Error(`bounceMs must be >= 0, got ${opts.bounceMs}`);
    this.callbackTimeoutMs = opts.callbackTimeoutMs ?? 2000;
    const seed = opts.seed ?? 1;
    this.noise = new Prng(seed);
    this.storage = new VirtualStorage({
      capacity: info.storageBytes,
      pageBytes: info.storagePageBytes,
      file: opts.storageFile,
      warn: (m) => this.warnings.push(m),
      // (A problem found while the board is made has no listener yet: it is in storage.problem.)
      onProblem: () => this.emit("storage"),
    });
    this.circuit = new Circuit(info, this.unit);
    this.keys = this.circuit.keys;
    this.contacts = new KeyContacts(
      this.clock,
      this.circuit,
      this.keys,
      this.bounceMs,
      new Prng((seed ^ 0x9e3779b9) >>> 0),
      this.profile.id,
    );
    this.leds = new LedChain(this.unit.ledCount, this.unit.ledSettleMs);
    this.segments = this.unit.segments;
    // A USB-only build (battery kind "none") has no cell: it is always on USB.
    this.batteryState = this.profile.battery ? { volts: this.profile.battery.fullV, usb: false } : { volts: 0, usb: true };
    const powerPin = this.profile.leds.powerPin;
    this.circuit.onLevel((pin) => {
      if (pin === powerPin) this.updateLedSupply();
    });
    this.bus = this.makeBus();

    let firmware = opts.firmware;
    if (firmware === undefined) {
      if (!existsSync(DEFAULT_FIRMWARE))
        throw new Error(`no firmware to flash: ${DEFAULT_FIRMWARE} does not exist (run npm run build, or pass BoardOptions.firmware)`);
      firmware = readFileSync(DEFAULT_FIRMWARE, "utf8");
    }
    this.flash(firmware, opts.tables ?? true);
  }

  /**
   * Writes the solver's tables for this profile to Storage, like `npm run flash`: the firmware in Storage is flashed
   * again with them (flash), unless they are there already.
   */
  flashTables(): void {
    const boot = this.storage.read(BOOT_FILE);
    if (boot) return this.flashImage(boot, true);
    for (const t of solverTablesFor(this.profile.pegs))
      if (!this.storage.write(t.name, t.bytes))
        throw new Error(`the solver table ${t.name} (${t.bytes.length} bytes) does not fit the ${this.boardInfo.name}'s Storage`);
  }

  // ---------------------------------------------------------------- power

  /** Whether the board has power. */
  get isOn(): boolean {
    return this.powered;
  }

  /** Powers the board: a fresh interpreter runs .bootcde from Storage, then its E.on("init") handlers. */
  powerOn(): void {
    if (this.powered) return;
    this.powered = true;
    this.emit("power");
    this.boot();
  }

  /** Cuts power: RAM, timers and watches are gone, the LEDs go dark; Storage is kept. */
  powerOff(): void {
    if (!this.powered) return;
    this.powered = false;
    this.haltMcu();
    this.emit("power");
  }

  powerCycle(): void {
    this.powerOff();
    this.powerOn();
  }

  /**
   * Cuts the power at virtual time `atMs` (on the `now` clock), between two firmware calls: like powerOff()
   * then, recorded in `powerCuts`. Nothing happens if the board is already off by then. A cut in the middle of
   * a Storage write is cutPowerDuringWrite's.
   */
  schedulePowerCut(atMs: number): void {
    const ev = this.clock.schedule(atMs, () => {
      this.scheduledCuts = this.scheduledCuts.filter((e) => e !== ev);
      if (!this.powered) return;
      this.powerCuts.push({ at: this.clock.now, kind: "scheduled" });
      this.powerOff();
    });
    this.scheduledCuts.push(ev);
  }

  /**
   * Cuts the power during the n-th Storage operation from now (1 = the next; every write, erase and compact
   * counts), leaving it `fraction` done (0..1 of the bytes it programs, in the device's order: see the model in
   * sim/board/storage.ts). The firmware call that asked for the write stops there: the board is off, and powerOn()
   * boots again from what Storage holds. Replaces a write cut already armed.
   */
  cutPowerDuringWrite(n = 1, fraction = 0.5): void {
    this.storage.armCut(n, fraction, (cut) => {
      this.powerCuts.push({ at: this.clock.now, kind: "write", write: cut });
      // Power is gone mid-call: the interpreter dies now, so nothing more of this call reaches the board.
      if (this.powered) this.powerOff();
    });
  }

  /** Drops the power cuts scheduled or armed and not yet made. */
  cancelPowerCuts(): void {
    for (const ev of this.scheduledCuts) this.clock.cancel(ev);
    this.scheduledCuts = [];
    this.storage.disarmCut();
  }

  /**
   * Espruino's `reset()` at the console: RAM is cleared and the pins reset, and the interpreter restarts (from
   * the idle loop, like load()) WITHOUT running .bootcde; Storage is kept, and load() or a power cycle boots into
   * it again. (E.on('kill') handlers are not run.)
   */
  resetRam(): void {
    this.requestReset("reset()", undefined, false);
  }

  /**
   * Flashes `code` as `npm run flash` does (firmware/tools/flash.ts): JavaScript is stored pretokenised, as the tool
   * stores it (the board runs it as the unit's lexer reads it: bootCode), bytes as they are. With the solver's tables unless `withTables` is
   * false; nothing happens when .bootcde and the tables are already these. The saved game is carried across: each save
   * slot (bb.s0, bb.s1) the unit could use is kept in the current save format (firmware/tools/save-upgrade.ts: format 1
   * is brought up to date, same name and sequence), one it could not is dropped with a warning. When Storage holds
   * nothing but the tool's own files and the saves, it is erased and written in the tool's order (when that leaves room
   * for saved state): .bootcde first, the tables that fit in its last flash page, the page-aligning pad for the rest of
   * it (tables.ts bootLayout), the other tables, then the saves, so that no compaction rewrites .bootcde's pages. Other files are
   * kept (with a warning): .bootcde then goes after them without a pad, the tables and saves after it. Takes effect at
   * the next boot.
   */
  flash(code: string | Uint8Array, withTables = true): void {
    this.flashImage(typeof code === "string" ? this.imageOf(code) : code, withTables);
  }

  /** The bytes npm run flash stores for `code`: its pretokenised image (firmware/tools/pretokenise.ts). */
  private imageOf(code: string): Uint8Array {
    if (/[^\x00-\xff]/.test(code)) {
      // The device strings are 8-bit: characters beyond Latin-1 arrive as their UTF-8 bytes.
      this.warnings.push("flash: the firmware has characters beyond 8 bits; the device sees their UTF-8 bytes, not pretokenised");
      return new Uint8Array(Buffer.from(code, "utf8"));
    }
    try {
      return pretokenise(code);
    } catch {
      // Code the tokeniser cannot read (a test's deliberate syntax error) is stored as it is: it fails at boot, as on the unit.
      return bytesFromString(code);
    }
  }

  /** flash() of an image: `bytes` are stored as .bootcde as they are. */
  private flashImage(bytes: Uint8Array, withTables: boolean): void {
    const tables = withTables ? solverTablesFor(this.profile.pegs) : [];
    const holds = (name: string, want: Uint8Array) => {
      const old = this.storage.read(name);
      return !!old && old.length === want.length && old.every((b, i) => b === want[i]);
    };
    if (holds(BOOT_FILE, bytes) && tables.every((t) => holds(t.name, t.bytes))) return;

    const kept: KeptSlot[] = [];
    for (const name of SAVE_SLOT_NAMES) {
      const text = this.storage.readString(name);
      if (text === undefined) continue;
      const slot = keepSlot(name, text, saveCrc);
      if (isKept(slot)) kept.push(slot);
      else this.warnings.push(`flash: ${name}: ${slot.problem}, not kept`);
    }
    const own = (n: string) => n === BOOT_FILE || n === PAD_FILE || SOLVER_TABLE_NAMES.includes(n) || SAVE_SLOT_NAMES.includes(n);
    const others = this.storage.list().filter((n) => !own(n));
    if (!others.length) this.storage.eraseAll();
    else {
      for (const n of [PAD_FILE, ...SAVE_SLOT_NAMES]) this.storage.erase(n);
      this.warnings.push(
        `flash: Storage holds files npm run flash does not write (${others.join(", ")}), kept: .bootcde goes after them, without the pad (npm run flash -- --erase erases them, and the saved game)`,
      );
    }
    if (!this.storage.write(BOOT_FILE, bytes))
      throw new Error(
        `the firmware (${bytes.length} bytes) does not fit the ${this.boardInfo.name}'s Storage (${this.storage.getFree()} bytes free)`,
      );
    // Into empty Storage: the tables that fit in .bootcde's last page, the pad, then the rest (tables.ts bootLayout).
    const layout = this.storage.layout().length === 1 && bytes.length > 0 ? protectedLayout(this.boardInfo, bytes.length, tables) : null;
    if (layout) {
      for (const t of layout.inPage)
        if (!this.storage.write(t.name, t.bytes))
          throw new Error(`the solver table ${t.name} (${t.bytes.length} bytes) does not fit the ${this.boardInfo.name}'s Storage`);
      if (layout.pad !== null && !this.storage.write(PAD_FILE, new Uint8Array(layout.pad)))
        throw new Error(`the page-aligning pad after .bootcde (${layout.pad} bytes) does not fit the ${this.boardInfo.name}'s Storage`);
    }
    for (const t of layout ? layout.rest : tables)
      if (!this.storage.write(t.name, t.bytes))
        throw new Error(`the solver table ${t.name} (${t.bytes.length} bytes) does not fit the ${this.boardInfo.name}'s Storage`);
    for (const k of kept) if (!this.storage.write(k.name, k.text)) this.warnings.push(`flash: ${k.name} does not fit Storage, not kept`);
  }

  // ---------------------------------------------------------------- time

  /** Virtual ms since this board object was created (monotonic across power cycles). */
  get now(): number {
    return this.clock.now;
  }

  /** Virtual ms since the last power-on or reset (0 while off). */
  get uptime(): number {
    return this.powered ? this.clock.now - this.bootAt : 0;
  }

  /** Runs the board for `ms` of virtual time. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  // ---------------------------------------------------------------- keys

  /** Presses a key: the contact closes now, chatters for bounceMs as time advances, then stays closed. */
  press(keyId: string): void {
    this.contacts.move(keyId, true);
  }

  /** Releases a key: its contact chatters for bounceMs, then stays open. */
  release(keyId: string): void {
    this.contacts.move(keyId, false);
  }

  /** Press, hold for holdMs, release, wait gapMs. */
  tap(keyId: string, holdMs = 60, gapMs = 60): void {
    this.press(keyId);
    this.advance(holdMs);
    this.release(keyId);
    this.advance(gapMs);
  }

  /** Whether the key is held down (its final state, bounce aside). */
  isPressed(keyId: string): boolean {
    return this.contacts.held(keyId);
  }

  /** Whether the key's contact is closed right now (changes while it bounces). */
  contactClosed(keyId: string): boolean {
    return this.contacts.closed(keyId);
  }

  // ---------------------------------------------------------------- outputs

  /** What the LEDs show now: the whole chain, or one segment. */
  pixels(segment?: SegmentName): Rgb[] {
    return chainPixels(this.leds, this.segments, this.profile.id, segment);
  }

  /** Palette names per pixel of a segment ("off" for dark, "?" for a colour not in the palette). */
  colours(segment: SegmentName): string[] {
    return this.pixels(segment).map(colourName);
  }

  get ledStats(): LedStats {
    return { ...this.leds.stats };
  }

  /** Whether the LED chain has supply (profile leds.powerPin at powerOnLevel, or always while powered). */
  get ledsPowered(): boolean {
    return this.leds.powered;
  }

  /** Whether the LEDs show a frame: supplied, and written since the supply settled (dark until then). */
  get ledsShowing(): boolean {
    return this.leds.showing;
  }

  /** The buzzer's tone now, or null when silent. */
  get tone(): { freq: number } | null {
    return this.currentTone && { ...this.currentTone };
  }

  // ---------------------------------------------------------------- power supply

  /** Sets the battery voltage and whether USB is connected (the device never deep-sleeps on USB). */
  setBattery(volts: number, usb?: boolean): void {
    if (!this.profile.battery)
      throw new Error(`the ${this.profile.id} build has no battery (its profile says battery kind "none"): it runs from USB only`);
    this.batteryState = { volts, usb: usb ?? this.batteryState.usb };
    this.runtime?.powerStateChanged();
  }

  get battery(): { volts: number; usb: boolean } {
    return { ...this.batteryState };
  }

  /** What the firmware last passed to setDeepSleep. */
  get deepSleep(): boolean {
    return this.sleepAllowed;
  }

  // ---------------------------------------------------------------- inspection

  /** Times two drivers fought over a matrix line. */
  get contention(): number {
    return this.circuit.contention;
  }

  get watchCount(): number {
    return this.runtime?.watchCount ?? 0;
  }

  /** Firmware timers (setTimeout/setInterval) pending. */
  get timersPending(): number {
    return this.runtime?.timerCount ?? 0;
  }

  get watchdogEnabled(): boolean {
    return this.runtime?.watchdogEnabled ?? false;
  }

  /**
   * Does the firmware hold the USB console locked: E.lockConsole() while a password is set? (E.setPassword()
   * with no argument withdraws it. On the device the console then still demands the password that no
   * longer exists until the next power-on: see consolePasswordDemanded.)
   */
  get consoleLocked(): boolean {
    return !!this.runtime && this.runtime.consoleLocked && this.runtime.passwordSet;
  }

  /** Does the console ask for the password before it runs anything (jsiPasswordProtected)? */
  get consolePasswordDemanded(): boolean {
    return !!this.runtime && this.runtime.consoleLocked;
  }

  /** A password typed at the locked console; true when the console is (now) unlocked. */
  enterConsolePassword(attempt: string): boolean {
    return !this.runtime || this.runtime.enterPassword(attempt);
  }

  /** A pin's mode, output latch and level. */
  pinState(pin: string): PinReport {
    return { ...this.circuit.pinState(pin), level: this.circuit.level(pin) };
  }

  /** A host function as a function of the firmware's realm (its constructor chain is the realm's own). */
  realmFunction(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    if (!this.runtime) throw new Error("the board is not running (power it on first)");
    return this.runtime.realmFunction(fn);
  }

  /** Is this one of the realm's built-in functions (the simulator's API, wrapped into the realm)? */
  isBuiltinFunction(fn: unknown): boolean {
    return !!this.runtime && this.runtime.realm.isWrapper(fn);
  }

  /** Runs code in the firmware's context as if typed at the console; returns its value. */
  repl(code: string): unknown {
    if (!this.runtime) throw new Error("the board is not running (power it on first)");
    return this.runtime.repl(code);
  }

  /** Estimated JsVar blocks in use, as process.memory() reports them; undefined while the board is off. */
  memory(): { usage: number; total: number; free: number } | undefined {
    if (!this.runtime) return undefined;
    const usage = this.runtime.memoryUsage();
    const total = this.boardInfo.jsVars;
    return { usage, total, free: Math.max(0, total - usage) };
  }

  /** Listens to changes, for views. Returns a function that stops listening. */
  on(event: BoardEvent, fn: () => void): () => void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(fn);
    return () => this.listeners.get(event)?.delete(fn);
  }

  // ---------------------------------------------------------------- internals

  private emit(event: BoardEvent): void {
    for (const fn of [...(this.listeners.get(event) ?? [])]) fn();
  }

  private boot(runBootCode = true): void {
    this.bootAt = this.clock.now;
    this.sleepAllowed = false;
    this.updateLedSupply();
    const rt = new EspruinoRuntime(this.bus);
    this.runtime = rt;
    const bytes = runBootCode ? this.storage.read(BOOT_FILE) : undefined;
    rt.boot(bytes && bootCode(bytes));
  }

  /** Stops the interpreter and resets the MCU's pins (power loss or reset). */
  private haltMcu(): void {
    this.runtime?.destroy();
    this.runtime = null;
    this.clock.cancel(this.pendingBoot);
    this.pendingBoot = null;
    this.circuit.resetMcu();
    this.setTone(null);
    this.sleepAllowed = false;
    this.updateLedSupply();
  }

  private requestReset(reason: string, atMs?: number, runBootCode = true): void {
    if (!this.powered) return;
    const at = Math.max(this.clock.now, atMs ?? this.clock.now);
    this.haltMcu();
    this.resets.push({ at: this.clock.now, reason });
    this.emit("reset");
    // The new boot runs from the idle loop, not inside whatever call asked for the reset.
    this.pendingBoot = this.clock.schedule(at, () => {
      this.pendingBoot = null;
      if (this.powered) this.boot(runBootCode);
    });
  }

  private updateLedSupply(): void {
    const p = this.profile.leds;
    const on = this.powered && (p.powerPin === undefined || this.circuit.level(p.powerPin) === (p.powerOnLevel ?? 1));
    const was = this.leds.powered;
    if (this.leds.setPowered(on, this.clock.now) || was !== on) this.emit("leds");
  }

  private setTone(tone: { freq: number } | null): void {
    const cur = this.currentTone;
    if ((cur === null && tone === null) || (cur && tone && cur.freq === tone.freq)) return;
    this.currentTone = tone;
    this.tones.push({ at: this.clock.now, freq: tone ? tone.freq : 0 });
    this.emit("tone");
  }

  private log(line: string): void {
    this.consoleLog.push(line);
    this.emit("console");
  }

  private makeBus(): BoardBus {
    return {
      board: this.boardInfo,
      profile: this.profile,
      clock: this.clock,
      circuit: this.circuit,
      storage: this.storage,
      noise: this.noise,
      // 0 = no guard: vm's timeout option is then left out (undefined), see BoardOptions.callbackTimeoutMs.
      callbackTimeoutMs: this.callbackTimeoutMs > 0 ? this.callbackTimeoutMs : (undefined as unknown as number),
      usbConnected: () => this.batteryState.usb,
      log: (line) => this.log(line),
      error: (message) => {
        this.errors.push(message);
        this.log(message);
      },
      warn: (message) => this.warnings.push(message),
      neopixelWrite: (pin, bytes) => {
        if (pin !== this.profile.leds.pin) return;
        if (this.leds.write(bytes, this.clock.now)) this.emit("leds");
      },
      analogRead: (pin) => {
        const bat = this.profile.battery;
        const full = 4095 / 4096;
        if (bat && pin === bat.pin) {
          // The ADC's full scale: the profile's (ESP32 at 11 dB), else the 3.3 V supply the simulated getAnalogVRef reports.
          const v = this.batteryState.volts / bat.dividerRatio / (bat.adcFullScaleV ?? 3.3);
          return Math.floor(Math.min(full, Math.max(0, v)) * 4096) / 4096;
        }
        return this.circuit.level(pin) ? full : 0;
      },
      pwm: (pin, duty, freq) => {
        if (pin !== this.profile.buzzer?.pin) return;
        // analogWrite without a frequency: assume a 1 kHz PWM.
        this.setTone(duty > 0 ? { freq: freq > 0 ? freq : 1000 } : null);
      },
      setDeepSleep: (on) => {
        this.sleepAllowed = on;
      },
      requestReset: (reason, atMs) => this.requestReset(reason, atMs),
    };
  }
}
