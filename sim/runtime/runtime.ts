/**
 * One boot of the Espruino interpreter on the virtual board: a fresh realm (context.ts) with the
 * Espruino API subset of ESPRUINO.md section 5 installed, with the device's semantics:
 * numeric timer and watch ids (the last id + 1, restarting at 1 when the table is empty), timers
 * and watches on virtual time, watch callbacks run from the idle loop (never inside the call that
 * caused the edge), debounce as the device does it (a timer that fires when the level has been
 * stable), the STM32 one-watch-per-pin-number rule, `clear*()` clearing everything, uncaught errors
 * printed and the program carrying on, and a watchdog.
 *
 * Every call into firmware code goes through one precompiled script run with a wall-clock timeout,
 * so a firmware loop that never returns is caught: with the watchdog on, that starves it and the
 * board resets at its deadline; without, it is recorded as an error (the device would hang).
 */
import vm from "node:vm";
import { crc32 } from "node:zlib";
import type { BoardInfo } from "../../hardware/boards.ts";
import type { Profile } from "../../hardware/profile.ts";
import type { Circuit, GpioMode, Level } from "../board/circuit.ts";
import { GPIO_MODES } from "../board/circuit.ts";
import type { ClockEvent, VirtualClock } from "../board/clock.ts";
import { createEspruinoRealm, type EspruinoRealm } from "./realm.ts";
import { SizeEstimator } from "./memory.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { bytesFromString, type VirtualStorage } from "../board/storage.ts";
import { neopixelModule, storageModule, type ApiKit } from "./modules.ts";

/** Espruino's TIMER_MIN_INTERVAL, in ms. */
export const TIMER_MIN_INTERVAL_MS = 0.1;
/** Blocks in use by a freshly booted interpreter (ESPRUINO.md 4.2 baseline). */
export const BASE_USAGE_BLOCKS = 40;
export const ESPRUINO_VERSION = "2v29";

/** What the runtime needs from the board it runs on. */
export interface BoardBus {
  readonly board: BoardInfo;
  readonly profile: Profile;
  readonly clock: VirtualClock;
  readonly circuit: Circuit;
  readonly storage: VirtualStorage;
  /** Hardware noise (E.hwRand, the boot seed of Math.random). */
  readonly noise: Prng;
  /** Wall-clock limit for one call into firmware code. */
  readonly callbackTimeoutMs: number;
  /** Whether USB is connected (the device never deep-sleeps on USB). */
  usbConnected(): boolean;
  log(line: string): void;
  error(message: string): void;
  warn(message: string): void;
  neopixelWrite(pin: string, bytes: Uint8Array): void;
  /** 0 <= value < 1, as analogRead returns it. */
  analogRead(pin: string): number;
  /** PWM output on a pin; duty 0 stops it. */
  pwm(pin: string, duty: number, freq: number): void;
  setDeepSleep(on: boolean): void;
  /** Asks the board to reset the MCU and boot again from Storage (from the idle loop, not inside a call). */
  requestReset(reason: string, atMs?: number): void;
}

interface Timer {
  id: number;
  /** Absolute virtual time (ms) it falls due. */
  due: number;
  interval?: number;
  fn: unknown;
  args: unknown[];
  ev: ClockEvent | null;
  /** Debounce timers belong to a watch and carry the level it will report. */
  watch?: Watch;
  state?: boolean;
}

interface Watch {
  id: number;
  pin: string;
  fn: unknown;
  repeat: boolean;
  /** 1 rising, -1 falling, 0 both. */
  edge: number;
  debounceMs: number;
  /** The level last reported (debounced watches). */
  state: boolean;
  lastTime: number | undefined;
  timer?: Timer;
}

interface Watchdog {
  timeoutMs: number;
  auto: boolean;
  deadline: ClockEvent | null;
}

type CallResult = "ok" | "threw" | "hung";
/** A function of the firmware's realm. */
type FirmwareFn = (...args: unknown[]) => unknown;

const DISPATCH_SLOT = "\u00a7dispatch";
const DISPATCH = new vm.Script(`globalThis[${JSON.stringify(DISPATCH_SLOT)}]()`, { filename: "espruino-idle-loop" });

export class EspruinoRuntime {
  readonly realm: EspruinoRealm;
  /** True once the runtime is reset or powered off: nothing it does reaches the board any more. */
  dead = false;
  /** A firmware call never returned and the watchdog is about to bite. */
  hung = false;
  deepSleep = false;
  readonly bootAt: number;
  private readonly bus: BoardBus;
  private readonly C: EspruinoRealm["intrinsics"];
  private pins = new Map<string, object>();
  private timers = new Map<number, Timer>();
  private watches = new Map<number, Watch>();
  private handlers = new Map<string, FirmwareFn[]>();
  private uncaughtHandlers: FirmwareFn[] = [];
  private watchdog: Watchdog | null = null;
  private errorFlags: string[] = [];
  private owned = new Set<ClockEvent>();
  private random: Prng;
  private timeOffset = 0;
  private pending: (() => unknown) | null = null;
  private builtins = new Set<object>();
  /** What Storage.read returned (a device maps the file: the string costs one JsVar, not its length), for the memory estimate. */
  private flashStrings = new Set<string>();
  private unlisten: () => void;
  private pwmPins = new Set<string>();
  private modules = new Map<string, object>();
  /** E.setPassword's password (kept as a string, as jsvAsString does), undefined when none is set. */
  password: string | undefined = undefined;
  /**
   * The console demands the password (JSIS_PASSWORD_PROTECTED): set by E.lockConsole() while a password
   * is set, cleared only by typing the password at the console. E.setPassword() with no argument
   * removes the password but, as on the device, does not clear this.
   */
  consoleLocked = false;

  get passwordSet(): boolean {
    return this.password !== undefined;
  }

  /** A password typed at the locked console: true (and unlocked) when it is the password. */
  enterPassword(attempt: string): boolean {
    if (this.password !== undefined && attempt === this.password) this.consoleLocked = false;
    return !this.consoleLocked;
  }

  constructor(bus: BoardBus) {
    this.bus = bus;
    this.bootAt = bus.clock.now;
    // STM32 seeds rand() at boot from ADC noise (ESPRUINO.md 5.5).
    this.random = new Prng(bus.noise.nextUint32());
    this.realm = createEspruinoRealm({
      now: () => this.getTime() * 1000,
      random: () => this.random.next(),
      pinFromValue: (v) => this.pins.get(this.pinName(v, "Pin"))!,
      digitalRead: (p) => this.digitalRead(p),
      digitalWrite: (p, v) => this.digitalWrite(p, v),
      pinMode: (p, m) => this.pinMode(p, m),
      getPinMode: (p) => this.getPinMode(p),
      unhandledRejection: (reason) => this.uncaught(new this.C.Error(`Unhandled promise rejection: ${describeThrown(reason)}`)),
    });
    this.C = this.realm.intrinsics;
    this.install();
    this.unlisten = bus.circuit.onLevel((pin, level) => this.onLevel(pin, level));
  }

  // ---------------------------------------------------------------- lifecycle

  /** Runs the boot code (like .bootcde at power-on), then the 'init' handlers and onInit(). */
  boot(code: string | undefined, filename = ".bootcde"): void {
    if (code !== undefined && code.length) {
      let script: vm.Script | null = null;
      try {
        script = new vm.Script(code, { filename });
      } catch (e) {
        this.uncaught(e);
      }
      if (script) {
        const s = script;
        this.call(() => s.runInContext(this.realm.context), undefined, [], "the boot code");
      }
    }
    if (this.dead || this.hung) return;
    for (const fn of [...(this.handlers.get("init") ?? [])]) {
      this.call(fn, this.realm.sandbox.E, [], "an E.on('init') handler");
      if (this.dead || this.hung) return;
    }
    const onInit = this.realm.sandbox.onInit;
    if (typeof onInit === "function") this.call(onInit, undefined, [], "onInit()");
  }

  /** Stops everything (reset or power loss): no more callbacks, timers or watches. */
  destroy(): void {
    if (this.dead) return;
    this.dead = true;
    this.unlisten();
    for (const ev of this.owned) this.bus.clock.cancel(ev);
    this.owned.clear();
    this.timers.clear();
    this.watches.clear();
    this.watchdog = null;
  }

  /** Runs code as if typed at the console; returns its value, throws what it throws. */
  repl(code: string): unknown {
    if (this.dead) throw new Error("the interpreter is not running");
    if (this.hung) throw new Error("the firmware is hung in a callback (the watchdog will reset the board)");
    let value: unknown;
    let error: unknown;
    let threw = false;
    const r = this.call(
      () => {
        try {
          value = vm.runInContext(code, this.realm.context, { filename: "console" });
        } catch (e) {
          threw = true;
          error = e;
        }
      },
      undefined,
      [],
      "console input",
    );
    if (r === "hung") throw new Error("console input did not return (timed out)");
    if (threw)
      throw error instanceof Error || (error && typeof error === "object" && "message" in error) ? error : new Error(String(error));
    return value;
  }

  get timerCount(): number {
    let n = 0;
    for (const t of this.timers.values()) if (!t.watch) n++;
    return n;
  }

  get watchCount(): number {
    return this.watches.size;
  }

  get watchdogEnabled(): boolean {
    return this.watchdog !== null;
  }

  /** Seconds since boot (plus setTime), as getTime() returns them. */
  getTime(): number {
    return (this.bus.clock.now - this.bootAt) / 1000 + this.timeOffset;
  }

  /** Call after USB or deep-sleep changes: they decide whether an automatic watchdog is kicked. */
  powerStateChanged(): void {
    this.idle();
  }

  /** Estimated blocks in use: everything reachable from the global object and the interpreter's tables. */
  memoryUsage(): number {
    const est = this.estimator();
    let n = BASE_USAGE_BLOCKS;
    const sb = this.realm.sandbox;
    for (const key of Object.keys(sb)) {
      const v = sb[key];
      if (v && (typeof v === "object" || typeof v === "function") && this.builtins.has(v)) continue;
      n += est.nameBlocks(key) + est.sizeOf(v);
    }
    for (const t of this.timers.values()) n += 5 + est.sizeOf(t.fn) + t.args.reduce((a: number, v) => a + 1 + est.sizeOf(v), 0);
    for (const w of this.watches.values()) n += 6 + est.sizeOf(w.fn);
    for (const list of this.handlers.values()) for (const fn of list) n += 1 + est.sizeOf(fn);
    for (const fn of this.uncaughtHandlers) n += 1 + est.sizeOf(fn);
    return n;
  }

  // ---------------------------------------------------------------- calling into firmware

  /**
   * Runs a firmware function (or a string of code) from the idle loop, with the wall-clock
   * timeout. Exceptions are reported as uncaught, as the device prints them.
   */
  private call(fn: unknown, thisArg: unknown, args: unknown[], what: string): CallResult {
    if (this.dead || this.hung) return "ok";
    // Arguments cross into the realm: host values (an error of the host, say) are converted first.
    const realmArgs = args.map((a) => this.realm.toRealm(a));
    this.pending =
      typeof fn === "function"
        ? () => Reflect.apply(fn as FirmwareFn, thisArg, realmArgs)
        : () => vm.runInContext(String(fn), this.realm.context, { filename: "callback" });
    let result: CallResult = "ok";
    try {
      DISPATCH.runInContext(this.realm.context, { timeout: this.bus.callbackTimeoutMs });
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
        result = "hung";
        this.onHang(what);
      } else {
        result = "threw";
        this.uncaught(e);
      }
    } finally {
      this.pending = null;
    }
    this.idle();
    return result;
  }

  private onHang(what: string): void {
    if (this.dead) return;
    const wd = this.watchdog;
    if (wd) {
      // The loop never returns to idle: nothing runs and nothing kicks the watchdog until it bites.
      this.hung = true;
      for (const ev of this.owned) if (ev !== wd.deadline) this.bus.clock.cancel(ev);
      if (wd.auto || !wd.deadline) this.armWatchdog(wd, this.bus.clock.now + wd.timeoutMs);
      this.bus.log(`(${what} did not return within ${this.bus.callbackTimeoutMs} ms: the watchdog will reset the board)`);
      return;
    }
    this.bus.error(
      `Execution Interrupted: ${what} did not return within ${this.bus.callbackTimeoutMs} ms (wall clock); without a watchdog the device would hang here`,
    );
    this.flagError("CALLBACK");
  }

  private uncaught(e: unknown): void {
    if (this.dead) return;
    if (this.uncaughtHandlers.length) {
      const list = [...this.uncaughtHandlers];
      // Handlers run from the idle loop, after the failed call.
      this.at(this.bus.clock.now, () => {
        for (const fn of list) this.call(fn, undefined, [e], "a process.on('uncaughtException') handler");
      });
      return;
    }
    this.bus.error(`Uncaught ${describeThrown(e)}`);
  }

  /** The idle loop ran: an automatic watchdog is kicked here. */
  private idle(): void {
    const wd = this.watchdog;
    if (!wd || !wd.auto || this.dead || this.hung) return;
    this.kick(wd);
  }

  private kick(wd: Watchdog): void {
    // An automatic watchdog only starves while the MCU is in deep sleep (not on USB) and no event wakes it.
    if (!wd.auto || (this.deepSleep && !this.bus.usbConnected())) this.armWatchdog(wd, this.bus.clock.now + wd.timeoutMs);
    else {
      this.cancel(wd.deadline);
      wd.deadline = null;
    }
  }

  private armWatchdog(wd: Watchdog, at: number): void {
    this.cancel(wd.deadline);
    wd.deadline = this.at(at, () => {
      wd.deadline = null;
      this.bus.requestReset("watchdog");
    });
  }

  /** Schedules an event owned by this boot (cancelled when it ends). */
  private at(time: number, run: () => void): ClockEvent {
    const ev: ClockEvent = this.bus.clock.schedule(time, () => {
      this.owned.delete(ev);
      if (!this.dead && !this.hung) run();
      else if (this.hung && this.watchdog?.deadline === ev) run();
    });
    this.owned.add(ev);
    return ev;
  }

  private cancel(ev: ClockEvent | null | undefined): void {
    if (!ev) return;
    this.bus.clock.cancel(ev);
    this.owned.delete(ev);
  }

  private flagError(flag: string): void {
    if (!this.errorFlags.includes(flag)) this.errorFlags.push(flag);
    const handlers = this.handlers.get("errorFlag");
    if (handlers?.length) this.emitLater("errorFlag", [this.toArray([flag])]);
  }

  private emitLater(event: string, args: unknown[]): void {
    this.at(this.bus.clock.now, () => {
      for (const fn of [...(this.handlers.get(event) ?? [])]) this.call(fn, this.realm.sandbox.E, args, `an E.on('${event}') handler`);
    });
  }

  // ---------------------------------------------------------------- values between realms

  /** A plain object of the realm; host functions among the values are wrapped (see MEMBRANE in context.ts). */
  private obj(props: Record<string, unknown>): Record<string, unknown> {
    const o = new this.C.Object() as Record<string, unknown>;
    for (const k of Object.keys(props)) {
      const v = props[k];
      o[k] = typeof v === "function" ? this.realm.wrapHost(v as FirmwareFn) : v;
    }
    return o;
  }

  /** A host function as a function of the firmware's realm (what the console adds to the global object). */
  realmFunction(fn: FirmwareFn): FirmwareFn {
    const w = this.realm.wrapHost(fn);
    this.builtins.add(w);
    return w;
  }

  private toArray(items: unknown[]): unknown[] {
    const a = new this.C.Array();
    for (const x of items) a.push(x);
    return a;
  }

  private err(message: string): Error {
    return new this.C.Error(message);
  }

  private typeErr(message: string): Error {
    return new this.C.TypeError(message);
  }

  private guard(): void {
    // Calls that were already running when the board reset reach nothing.
    if (this.dead) throw this.err("the interpreter was reset");
  }

  private pinName(v: unknown, fnName: string): string {
    const byObject = this.realm.pinName(v);
    if (byObject) return byObject;
    if (typeof v === "string" && this.pins.has(v)) return v;
    throw this.err(`Invalid pin! ${fnName}(${describeValue(v)}): not a pin of the ${this.bus.board.name}`);
  }

  private bytesOf(data: unknown, what: string): Uint8Array {
    if (typeof data === "string") return bytesFromString(data);
    if (ArrayBuffer.isView(data)) {
      if (data instanceof DataView || Object.prototype.toString.call(data) === "[object DataView]")
        return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
      return byteLoop(data as unknown as ArrayLike<unknown>);
    }
    if (Object.prototype.toString.call(data) === "[object ArrayBuffer]") return new Uint8Array(data as ArrayBuffer).slice();
    if (Array.isArray(data)) return byteLoop(data);
    throw this.err(`${what}: expected a string, an array or a typed array, got ${describeValue(data)}`);
  }

  // ---------------------------------------------------------------- the API

  private install(): void {
    const sb = this.realm.sandbox;
    const dispatch = () => this.pending?.();
    Object.defineProperty(sb, DISPATCH_SLOT, { value: this.realm.wrapHost(dispatch), enumerable: false });

    for (const name of this.bus.board.pins) {
      const pin = this.realm.makePin(name);
      this.pins.set(name, pin);
      sb[name] = pin;
    }

    const api: Record<string, FirmwareFn> = {
      pinMode: (pin: unknown, mode?: unknown, automatic?: unknown) => this.pinMode(pin, mode, automatic),
      getPinMode: (pin: unknown) => this.getPinMode(pin),
      digitalWrite: (pin: unknown, value: unknown) => this.digitalWrite(pin, value),
      digitalRead: (pin: unknown) => this.digitalRead(pin),
      analogRead: (pin: unknown) => this.analogRead(pin),
      analogWrite: (pin: unknown, value: unknown, options?: unknown) => this.analogWrite(pin, value, options),
      setWatch: (fn: unknown, pin: unknown, options?: unknown) => this.setWatch(fn, pin, options),
      clearWatch: (...args: unknown[]) => this.clearWatch(args),
      setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(fn, ms, args, false),
      setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) => this.setTimer(fn, ms, args, true),
      clearTimeout: (...args: unknown[]) => this.clearTimer(args, "Timeout"),
      clearInterval: (...args: unknown[]) => this.clearTimer(args, "Interval"),
      changeInterval: (id: unknown, ms: unknown) => this.changeInterval(id, ms),
      getTime: () => this.getTime(),
      setTime: (t: unknown) => {
        this.timeOffset = Number(t) - (this.bus.clock.now - this.bootAt) / 1000;
      },
      setDeepSleep: (on: unknown) => {
        this.guard();
        this.deepSleep = !!on;
        this.bus.setDeepSleep(this.deepSleep);
        this.idle();
      },
      print: (...args: unknown[]) => this.print(args),
      // Base64 to and from 8-bit strings, as on the device (the CLI sends binary Storage files as atob chunks).
      atob: (b64: unknown) => Buffer.from(String(b64), "base64").toString("latin1"),
      btoa: (text: unknown) => Buffer.from(String(text), "latin1").toString("base64"),
      require: (name: unknown) => this.require(name),
      load: () => {
        this.guard();
        this.emitKill();
        this.bus.requestReset("load()");
      },
    };
    for (const [k, fn] of Object.entries(api)) {
      const inRealm = this.realm.wrapHost(fn);
      sb[k] = inRealm;
      this.builtins.add(inRealm);
    }

    const console = this.obj({ log: (...args: unknown[]) => this.print(args) });
    sb.console = console;

    const E = this.obj({
      on: (event: unknown, fn: unknown) => this.on(String(event), fn),
      addListener: (event: unknown, fn: unknown) => this.on(String(event), fn),
      removeListener: (event: unknown, fn: unknown) => {
        const list = this.handlers.get(String(event));
        if (list)
          this.handlers.set(
            String(event),
            list.filter((f) => f !== fn),
          );
      },
      removeAllListeners: (event?: unknown) => {
        if (event === undefined) this.handlers.clear();
        else this.handlers.delete(String(event));
      },
      emit: (event: unknown, ...args: unknown[]) => {
        this.guard();
        this.emitLater(String(event), args);
      },
      enableWatchdog: (timeout: unknown, isAuto?: unknown) => this.enableWatchdog(timeout, isAuto),
      kickWatchdog: () => {
        this.guard();
        if (this.watchdog) this.kick(this.watchdog);
      },
      getAnalogVRef: () => {
        this.guard();
        if (this.bus.board.analogVRef) return 3.3;
        // As Espruino's ESP32 port does (targets/esp32/jshardware.c): an error on the console, and NaN.
        this.bus.log("ERROR: getAnalogVRef is not implemented on ESP32");
        return NaN;
      },
      hwRand: () => this.bus.noise.nextUint32() | 0,
      srand: (seed: unknown) => {
        this.random.seed(Number(seed) | 0);
      },
      getErrorFlags: () => {
        const flags = this.toArray(this.errorFlags);
        this.errorFlags = [];
        return flags;
      },
      getSizeOf: (v: unknown) => this.estimator().sizeOf(v),
      getTemperature: () => 27,
      // Natives over whole arrays (the firmware's per-LED work): a lookup through `map`, a sum.
      mapInPlace: (from: unknown, to: unknown, map: unknown) => {
        this.guard();
        const f = from as ArrayLike<number>;
        const t = to as Record<number, number> & { length: number };
        const m = map as ArrayLike<number>;
        const n = Math.min(f.length, t.length);
        for (let i = 0; i < n; i++) t[i] = m[f[i]] ?? 0;
      },
      sum: (data: unknown) => {
        this.guard();
        const d = data as ArrayLike<number>;
        let s = 0;
        for (let i = 0; i < d.length; i++) s += d[i];
        return s;
      },
      // E.CRC32(data): the standard CRC-32 of a string's 8-bit chars or an array's bytes (the flash tool verifies with it).
      CRC32: (data: unknown) => {
        this.guard();
        if (typeof data === "string") return crc32(bytesFromString(data));
        if (data && typeof (data as ArrayLike<number>).length === "number") return crc32(Uint8Array.from(data as ArrayLike<number>));
        throw this.err(`E.CRC32: expected a string or an array, got ${describeValue(data)}`);
      },
      lockConsole: () => {
        if (this.password !== undefined) this.consoleLocked = true;
      },
      setPassword: (pw: unknown) => {
        this.password = pw === undefined ? undefined : String(pw);
      },
      reboot: () => {
        this.guard();
        this.bus.requestReset("E.reboot()");
      },
    });
    sb.E = E;

    const process = this.obj({
      memory: () => this.memory(),
      env: this.obj({ VERSION: ESPRUINO_VERSION, BOARD: this.bus.board.espruinoBoard, CONSOLE: "USB" }),
      version: ESPRUINO_VERSION,
      on: (event: unknown, fn: unknown) => {
        if (event === "uncaughtException" && typeof fn === "function") this.uncaughtHandlers.push(fn as FirmwareFn);
      },
    });
    sb.process = process;

    for (const o of [console, E, process, process.env as object]) {
      this.builtins.add(o);
      for (const v of Object.values(o)) if (typeof v === "function") this.builtins.add(v);
    }
    this.builtins.add(vm.runInContext("globalThis", this.realm.context) as object);
    // Everything on the global object before the firmware runs is built into the interpreter.
    for (const k of Object.keys(sb)) {
      const v = sb[k] as { prototype?: object } | undefined;
      if (v && (typeof v === "object" || typeof v === "function")) {
        this.builtins.add(v);
        if (v.prototype) this.builtins.add(v.prototype);
      }
    }
  }

  private estimator(): SizeEstimator {
    const builtins = this.builtins;
    return new SizeEstimator({
      bytesPerJsVar: this.bus.board.bytesPerJsVar,
      // Node-side objects (the API's own functions) are built into the interpreter.
      isBuiltin: (o) => builtins.has(o) || o instanceof Object,
      isFlashString: (v) => this.flashStrings.has(v),
    });
  }

  private memory(): Record<string, unknown> {
    this.guard();
    const total = this.bus.board.jsVars;
    const usage = this.memoryUsage();
    if (usage > total) this.flagError("MEMORY");
    else if (usage > total * 0.9) this.flagError("LOW_MEMORY");
    return this.obj({
      free: Math.max(0, total - usage),
      usage,
      total,
      history: 0,
      gc: 0,
      gctime: 0,
      blocksize: this.bus.board.bytesPerJsVar,
    });
  }

  private print(args: unknown[]): void {
    this.guard();
    this.bus.log(args.map((a) => this.format(a)).join(" "));
  }

  private format(v: unknown): string {
    if (typeof v === "string") return v;
    if (v === undefined) return "undefined";
    if (typeof v === "function") return String(v);
    const pin = this.realm.pinName(v);
    if (pin) return pin;
    try {
      const s = (this.C.JSON.stringify as (x: unknown) => string | undefined)(v);
      return s === undefined ? String(v) : s;
    } catch {
      return String(v);
    }
  }

  private on(event: string, fn: unknown): void {
    this.guard();
    if (typeof fn !== "function") throw this.err(`E.on('${event}'): the handler must be a function`);
    if (!this.handlers.has(event)) this.handlers.set(event, []);
    this.handlers.get(event)!.push(fn as FirmwareFn);
  }

  private emitKill(): void {
    for (const fn of [...(this.handlers.get("kill") ?? [])]) {
      try {
        Reflect.apply(fn, this.realm.sandbox.E, []);
      } catch (e) {
        this.uncaught(e);
      }
    }
  }

  private enableWatchdog(timeout: unknown, isAuto: unknown): void {
    this.guard();
    const seconds = Number(timeout);
    if (!(seconds > 0)) throw this.err(`E.enableWatchdog: timeout must be a positive number of seconds, got ${describeValue(timeout)}`);
    const auto = isAuto === undefined ? true : !!isAuto;
    const wd: Watchdog = this.watchdog ?? { timeoutMs: 0, auto, deadline: null };
    wd.timeoutMs = seconds * 1000;
    wd.auto = auto;
    this.watchdog = wd;
    this.kick(wd);
  }

  // ---------------------------------------------------------------- GPIO

  private pinList(pin: unknown, fnName: string): string[] {
    // A host loop, not pin.map(): the realm's Array.prototype.map is the firmware's to replace, and a
    // host callback handed to it would give the host's Function away.
    if (Array.isArray(pin)) {
      const names: string[] = [];
      for (let i = 0; i < pin.length; i++) names.push(this.pinName(pin[i], fnName));
      return names;
    }
    return [this.pinName(pin, fnName)];
  }

  private stopPwm(pin: string): void {
    if (!this.pwmPins.has(pin)) return;
    this.pwmPins.delete(pin);
    this.bus.pwm(pin, 0, 0);
  }

  private pinMode(pin: unknown, mode?: unknown, automatic?: unknown): void {
    this.guard();
    const circuit = this.bus.circuit;
    for (const name of this.pinList(pin, "pinMode")) {
      if (mode === undefined || mode === "auto") {
        const s = circuit.pinState(name);
        circuit.setMode(name, s.mode, false);
        continue;
      }
      if (!GPIO_MODES.includes(mode as GpioMode)) throw this.err("Unknown pin mode");
      if (mode !== "af_output") this.stopPwm(name);
      circuit.setMode(name, mode as GpioMode, !automatic);
    }
  }

  private getPinMode(pin: unknown): string {
    this.guard();
    return this.bus.circuit.pinState(this.pinName(pin, "getPinMode")).mode;
  }

  private writePin(name: string, value: Level): void {
    const circuit = this.bus.circuit;
    this.stopPwm(name);
    // The device sets the output latch first, then switches an automatic pin to an output.
    circuit.setOutput(name, value);
    if (!circuit.pinState(name).manual) circuit.setMode(name, "output", false);
  }

  private digitalWrite(pin: unknown, value: unknown): void {
    this.guard();
    if (Array.isArray(pin)) {
      const names = this.pinList(pin, "digitalWrite");
      // A boolean sets every pin; a number is a bit field whose LSB is the LAST pin, written LSB first.
      const bits = typeof value === "boolean" ? (value ? -1 : 0) : Number(value) | 0;
      for (let i = names.length - 1, bit = 0; i >= 0; i--, bit++) this.writePin(names[i], bit < 32 && (bits >> bit) & 1 ? 1 : 0);
      return;
    }
    const name = this.pinName(pin, "digitalWrite");
    this.writePin(name, value ? 1 : 0);
  }

  private digitalRead(pin: unknown): number {
    this.guard();
    const circuit = this.bus.circuit;
    const names = this.pinList(pin, "digitalRead");
    let v = 0;
    for (const name of names) {
      // An automatic pin becomes an input when read.
      if (!circuit.pinState(name).manual && circuit.pinState(name).mode !== "input") {
        this.stopPwm(name);
        circuit.setMode(name, "input", false);
      }
      v = (v << 1) | circuit.level(name);
    }
    return v;
  }

  private analogRead(pin: unknown): number {
    this.guard();
    const name = this.pinName(pin, "analogRead");
    if (!this.bus.board.adcPins.includes(name))
      throw this.err(`Pin ${name} is not an analog input (ADC pins: ${this.bus.board.adcPins.join(", ")})`);
    const circuit = this.bus.circuit;
    if (!circuit.pinState(name).manual) circuit.setMode(name, "analog", false);
    return this.bus.analogRead(name);
  }

  private analogWrite(pin: unknown, value: unknown, options?: unknown): void {
    this.guard();
    const name = this.pinName(pin, "analogWrite");
    if (!this.bus.board.pwmPins.includes(name)) throw this.err(`Pin ${name} has no PWM output`);
    const duty = Math.min(1, Math.max(0, Number(value) || 0));
    const opts = (options && typeof options === "object" ? options : {}) as { freq?: unknown };
    const freq = opts.freq === undefined ? 0 : Number(opts.freq);
    const circuit = this.bus.circuit;
    if (!circuit.pinState(name).manual) circuit.setMode(name, "af_output", false);
    if (duty > 0) this.pwmPins.add(name);
    else this.pwmPins.delete(name);
    this.bus.pwm(name, duty, freq);
  }

  // ---------------------------------------------------------------- watches

  private setWatch(fn: unknown, pin: unknown, options?: unknown): number | undefined {
    this.guard();
    const name = this.pinName(pin, "setWatch");
    const board = this.bus.board;
    const watchingPin = [...this.watches.values()].some((w) => w.pin === name);
    if (!watchingPin && board.oneWatchPerPinNumber) {
      const num = pinNumber(name);
      const clash = [...this.watches.values()].find((w) => pinNumber(w.pin) === num);
      if (clash) {
        const msg = "Unable to set watch. You may already have a watch on a pin with the same number (eg. A0 and B0)";
        this.bus.log(`WARNING: ${msg}`);
        this.bus.warn(`setWatch(${name}) refused: ${clash.pin} is already watched and the ${board.name} has one watch per pin number`);
        return undefined;
      }
    }
    let repeat = false;
    let debounce = 0;
    let edge = 0;
    if (options && typeof options === "object") {
      const o = options as { repeat?: unknown; debounce?: unknown; edge?: unknown };
      repeat = !!o.repeat;
      debounce = Number(o.debounce);
      if (!(debounce > 0)) debounce = 0;
      if (o.edge === undefined || o.edge === "both") edge = 0;
      else if (o.edge === "rising") edge = 1;
      else if (o.edge === "falling") edge = -1;
      else throw this.typeErr("'edge' in setWatch should be a string - either 'rising', 'falling' or 'both'");
    } else repeat = !!options;
    if (typeof fn !== "function" && typeof fn !== "string") throw this.err("Function or String not supplied!");
    const id = nextId(this.watches);
    this.watches.set(id, {
      id,
      pin: name,
      fn,
      repeat,
      edge,
      debounceMs: debounce,
      state: this.bus.circuit.level(name) === 1,
      lastTime: undefined,
    });
    return id;
  }

  private clearWatch(args: unknown[]): void {
    this.guard();
    if (args.length === 0) {
      for (const w of this.watches.values()) this.dropDebounce(w);
      this.watches.clear();
      return;
    }
    const id = args[0];
    if (id === undefined) throw this.err("clearWatch(undefined): not a watch id (clearWatch() with no argument would clear every watch)");
    const w = typeof id === "number" ? this.watches.get(id) : undefined;
    if (!w) throw this.err("Unknown Watch");
    this.dropDebounce(w);
    this.watches.delete(w.id);
  }

  private dropDebounce(w: Watch): void {
    if (!w.timer) return;
    this.cancel(w.timer.ev);
    this.timers.delete(w.timer.id);
    w.timer = undefined;
  }

  /** A pin changed level: the EXTI interrupt queues an event for the idle loop, if the pin is watched. */
  private onLevel(pin: string, level: Level): void {
    if (this.dead || this.hung) return;
    let watched = false;
    for (const w of this.watches.values()) if (w.pin === pin) watched = true;
    if (!watched) return;
    const time = this.bus.clock.now;
    this.at(time, () => this.processEdge(pin, level === 1, time));
  }

  private processEdge(pin: string, high: boolean, timeMs: number): void {
    const seconds = (timeMs - this.bootAt) / 1000 + this.timeOffset;
    for (const w of [...this.watches.values()]) {
      if (w.pin !== pin || this.watches.get(w.id) !== w) continue;
      if (w.debounceMs <= 0) {
        if (shouldExecute(w.edge, high)) {
          const data = this.obj({ state: high, lastTime: w.lastTime, time: seconds, pin: this.pins.get(pin) });
          const r = this.call(w.fn, undefined, [data], `the watch on ${pin}`);
          if (this.dead || this.hung) return;
          const keep = w.repeat && r !== "hung";
          if (!keep) this.watches.delete(w.id);
        }
        w.lastTime = seconds;
      } else if (w.timer && this.timers.get(w.timer.id) === w.timer) {
        // Still bouncing: wait for the level to be stable for the debounce time again.
        w.timer.due = timeMs + w.debounceMs;
        w.timer.state = high;
        this.scheduleTimer(w.timer);
      } else if (high !== w.state) {
        const t: Timer = { id: nextId(this.timers), due: timeMs + w.debounceMs, fn: w.fn, args: [], ev: null, watch: w, state: high };
        w.timer = t;
        this.timers.set(t.id, t);
        this.scheduleTimer(t);
      }
    }
  }

  private fireDebounce(t: Timer): void {
    const w = t.watch!;
    this.timers.delete(t.id);
    w.timer = undefined;
    if (this.watches.get(w.id) !== w) return;
    const old = w.state;
    w.state = !!t.state;
    if (old === w.state) return;
    // Reported at the time of the last edge, before the debounce wait.
    const seconds = (t.due - w.debounceMs - this.bootAt) / 1000 + this.timeOffset;
    if (shouldExecute(w.edge, w.state)) {
      const data = this.obj({ state: w.state, lastTime: w.lastTime, time: seconds, pin: this.pins.get(w.pin) });
      const r = this.call(w.fn, undefined, [data], `the watch on ${w.pin}`);
      if (this.dead || this.hung) return;
      if (!w.repeat || r === "hung") this.watches.delete(w.id);
    }
    w.lastTime = seconds;
  }

  // ---------------------------------------------------------------- timers

  private setTimer(fn: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    this.guard();
    if (typeof fn !== "function" && typeof fn !== "string") throw this.err("Function or String not supplied!");
    let interval = Number(ms);
    if (!(interval >= TIMER_MIN_INTERVAL_MS)) interval = TIMER_MIN_INTERVAL_MS;
    const t: Timer = { id: nextId(this.timers), due: this.bus.clock.now + interval, fn, args, ev: null };
    if (repeat) t.interval = interval;
    this.timers.set(t.id, t);
    this.scheduleTimer(t);
    return t.id;
  }

  private scheduleTimer(t: Timer): void {
    this.cancel(t.ev);
    t.ev = this.at(t.due, () => {
      t.ev = null;
      if (this.timers.get(t.id) !== t) return;
      if (t.watch) this.fireDebounce(t);
      else this.fireTimer(t);
    });
  }

  private fireTimer(t: Timer): void {
    const due = t.due;
    const r = this.call(t.fn, undefined, t.args, t.interval !== undefined ? "a setInterval callback" : "a setTimeout callback");
    if (this.dead || this.hung) return;
    if (this.timers.get(t.id) !== t) return;
    // Like the device, the interval is read after the callback ran (changeInterval from inside it
    // changes the period, counted from this run's due time).
    if (t.interval !== undefined && r !== "hung") {
      t.due = due + t.interval;
      this.scheduleTimer(t);
    } else {
      this.cancel(t.ev);
      this.timers.delete(t.id);
    }
  }

  private clearTimer(args: unknown[], kind: "Timeout" | "Interval"): void {
    this.guard();
    if (args.length === 0) {
      // Everything except the timers debouncing watches.
      for (const t of [...this.timers.values()]) {
        if (t.watch) continue;
        this.cancel(t.ev);
        this.timers.delete(t.id);
      }
      return;
    }
    const id = args[0];
    if (id === undefined)
      throw this.err(`clear${kind}(undefined): not a timer id (clear${kind}() with no argument would clear every timer)`);
    const t = typeof id === "number" ? this.timers.get(id) : undefined;
    if (!t) throw this.err(`Unknown ${kind}`);
    this.cancel(t.ev);
    this.timers.delete(t.id);
    if (t.watch) t.watch.timer = undefined;
  }

  private changeInterval(id: unknown, ms: unknown): void {
    this.guard();
    const t = typeof id === "number" ? this.timers.get(id) : undefined;
    if (!t) throw this.err("Unknown Interval");
    let interval = Number(ms);
    if (!(interval >= TIMER_MIN_INTERVAL_MS)) interval = TIMER_MIN_INTERVAL_MS;
    t.interval = interval;
    t.due = this.bus.clock.now + interval;
    this.scheduleTimer(t);
  }

  // ---------------------------------------------------------------- modules

  /** What the modules (modules.ts) need of the runtime. */
  private kit(): ApiKit {
    return {
      bus: this.bus,
      C: this.C,
      guard: () => this.guard(),
      err: (m) => this.err(m),
      obj: (p) => this.obj(p),
      toArray: (items) => this.toArray(items),
      pinName: (v, fn) => this.pinName(v, fn),
      bytesOf: (d, what) => this.bytesOf(d, what),
    };
  }

  private require(name: unknown): object {
    this.guard();
    const key = String(name);
    const cached = this.modules.get(key);
    if (cached) return cached;
    let mod: object;
    if (key === "neopixel") mod = neopixelModule(this.kit());
    else if (key === "Storage") mod = storageModule(this.kit(), this.flashStrings);
    else throw this.err(`Module "${key}" not found`);
    this.modules.set(key, mod);
    this.builtins.add(mod);
    for (const v of Object.values(mod)) if (typeof v === "function") this.builtins.add(v);
    return mod;
  }
}

/** Bytes of an array-like of the realm, by index (never through the realm's own iterator or callbacks). */
function byteLoop(data: ArrayLike<unknown>): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < out.length; i++) out[i] = Number(data[i]) & 255;
  return out;
}

function nextId(table: Map<number, unknown>): number {
  let max = 0;
  for (const id of table.keys()) if (id > max) max = id;
  return max + 1;
}

function shouldExecute(edge: number, high: boolean): boolean {
  return edge === 0 || (edge > 0 ? high : !high);
}

function pinNumber(pin: string): number {
  return parseInt(pin.slice(1), 10);
}

/** How the device prints a thrown value after "Uncaught ". */
export function describeThrown(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const err = e as { name?: unknown; message?: unknown };
    return `${String(err.name ?? "Error")}: ${String(err.message)}`;
  }
  if (typeof e === "string") return JSON.stringify(e);
  return String(e);
}

function describeValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || typeof v !== "object") return String(v);
  return Object.prototype.toString.call(v);
}
