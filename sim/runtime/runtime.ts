/**
 * One boot of the Espruino interpreter on the virtual board: a fresh realm (context.ts) with the
 * Espruino API subset of ESPRUINO.md section 5 installed, with the device's semantics: GPIO and
 * watches (gpio.ts), timers (timers.ts), the neopixel and Storage modules (modules.ts), and here
 * `E`, `process` and `console`, uncaught errors printed and the program carrying on, and a watchdog.
 *
 * Every call into firmware code goes through one precompiled script run with a wall-clock timeout,
 * so a firmware loop that never returns is caught: with the watchdog on, that starves it and the
 * board resets at its deadline; without, it is recorded as an error (the device would hang).
 */
import vm from "node:vm";
import type { BoardInfo } from "../../hardware/boards.ts";
import type { Profile } from "../../hardware/profile.ts";
import type { Circuit } from "../board/circuit.ts";
import type { ClockEvent, VirtualClock } from "../board/clock.ts";
import { createEspruinoRealm, type EspruinoRealm } from "./realm.ts";
import { SizeEstimator } from "./memory.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import type { VirtualStorage } from "../board/storage.ts";
import { describeValue, neopixelModule, storageModule } from "./modules.ts";
import { Timers, type CallResult, type EventKit, type FirmwareFn } from "./timers.ts";
import { Gpio, Watches } from "./gpio.ts";
import { Events } from "./events.ts";
import { bytesOf, eNatives } from "./natives.ts";

export { TIMER_MIN_INTERVAL_MS } from "./timers.ts";
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

interface Watchdog {
  timeoutMs: number;
  auto: boolean;
  deadline: ClockEvent | null;
}

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
  private readonly gpio: Gpio;
  private readonly timers: Timers;
  private readonly watches: Watches;
  private readonly events: Events;
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
      pinFromValue: (v) => this.gpio.pin(this.gpio.pinName(v, "Pin"))!,
      digitalRead: (p) => this.gpio.digitalRead(p),
      digitalWrite: (p, v) => this.gpio.digitalWrite(p, v),
      pinMode: (p, m) => this.gpio.pinMode(p, m),
      getPinMode: (p) => this.gpio.getPinMode(p),
      unhandledRejection: (reason) => this.uncaught(new this.C.Error(`Unhandled promise rejection: ${describeThrown(reason)}`)),
    });
    this.C = this.realm.intrinsics;
    const kit = this.kit();
    this.gpio = new Gpio(kit, this.realm);
    this.timers = new Timers(kit, (t) => this.watches.fireDebounce(t));
    this.watches = new Watches(kit, this.gpio, this.timers);
    this.events = new Events(
      kit,
      () => this.realm.sandbox.E,
      (e) => this.uncaught(e),
    );
    this.install();
    this.unlisten = bus.circuit.onLevel((pin, level) => this.watches.onLevel(pin, level));
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
    for (const fn of this.events.list("init")) {
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
    return this.timers.count;
  }

  get watchCount(): number {
    return this.watches.count;
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
    n += this.timers.blocks(est) + this.watches.blocks(est);
    n += this.events.blocks(est);
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
    if (this.events.list("errorFlag").length) this.events.emitLater("errorFlag", [this.toArray([flag])]);
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

  private guard(): void {
    // Calls that were already running when the board reset reach nothing.
    if (this.dead) throw this.err("the interpreter was reset");
  }

  // ---------------------------------------------------------------- the API

  private install(): void {
    const sb = this.realm.sandbox;
    const dispatch = () => this.pending?.();
    Object.defineProperty(sb, DISPATCH_SLOT, { value: this.realm.wrapHost(dispatch), enumerable: false });

    for (const [name, pin] of this.gpio.entries()) sb[name] = pin;

    const api: Record<string, FirmwareFn> = {
      ...this.gpio.api(),
      ...this.watches.api(),
      ...this.timers.api(),
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
        this.events.emitKill();
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

    const natives = eNatives(this.kit());
    const E = this.obj({
      ...this.events.api(),
      enableWatchdog: (timeout: unknown, isAuto?: unknown) => this.enableWatchdog(timeout, isAuto),
      kickWatchdog: () => {
        this.guard();
        if (this.watchdog) this.kick(this.watchdog);
      },
      getAnalogVRef: natives.getAnalogVRef,
      hwRand: natives.hwRand,
      srand: (seed: unknown) => {
        this.random.seed(Number(seed) | 0);
      },
      getErrorFlags: () => {
        const flags = this.toArray(this.errorFlags);
        this.errorFlags = [];
        return flags;
      },
      getSizeOf: (v: unknown) => this.estimator().sizeOf(v),
      getTemperature: natives.getTemperature,
      mapInPlace: natives.mapInPlace,
      sum: natives.sum,
      CRC32: natives.CRC32,
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

  // ---------------------------------------------------------------- modules

  /** What the modules (modules.ts) need of the runtime. */
  private kit(): EventKit {
    return {
      bus: this.bus,
      C: this.C,
      guard: () => this.guard(),
      err: (m) => this.err(m),
      obj: (p) => this.obj(p),
      toArray: (items) => this.toArray(items),
      pinName: (v, fn) => this.gpio.pinName(v, fn),
      bytesOf: (d, what) => bytesOf(d, what, (m) => this.err(m)),
      at: (time, run) => this.at(time, run),
      cancel: (ev) => this.cancel(ev),
      call: (fn, thisArg, args, what) => this.call(fn, thisArg, args, what),
      stopped: () => this.dead || this.hung,
      seconds: (timeMs) => (timeMs - this.bootAt) / 1000 + this.timeOffset,
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

/** How the device prints a thrown value after "Uncaught ". */
export function describeThrown(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) {
    const err = e as { name?: unknown; message?: unknown };
    return `${String(err.name ?? "Error")}: ${String(err.message)}`;
  }
  if (typeof e === "string") return JSON.stringify(e);
  return String(e);
}
