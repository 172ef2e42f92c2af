/**
 * The GPIO part of the Espruino API: the pin objects, pinMode/getPinMode, digitalRead/Write (pins
 * switching automatically to input or output unless their mode was set by hand), analogRead and
 * analogWrite (PWM); and the watches: setWatch/clearWatch with edges, repeat and debounce as the
 * device does them (a timer that fires when the level has been stable), callbacks run from the idle
 * loop (never inside the call that caused the edge), and the STM32 one-watch-per-pin-number rule.
 */
import type { GpioMode, Level } from "../board/circuit.ts";
import { GPIO_MODES } from "../board/circuit.ts";
import type { SizeEstimator } from "./memory.ts";
import type { EspruinoRealm } from "./realm.ts";
import { nextId, type EventKit, type FirmwareFn, type Timer, type Timers } from "./timers.ts";
import { describeValue, type ApiKit } from "./modules.ts";

export class Gpio {
  private readonly pins = new Map<string, object>();
  private readonly pwmPins = new Set<string>();

  constructor(
    private readonly k: ApiKit,
    private readonly realm: EspruinoRealm,
  ) {
    for (const name of k.bus.board.pins) this.pins.set(name, realm.makePin(name));
  }

  /** The board's pin objects by name, in the board's order. */
  entries(): IterableIterator<[string, object]> {
    return this.pins.entries();
  }

  pin(name: string): object | undefined {
    return this.pins.get(name);
  }

  /** The name of a pin given as a pin object or its name; anything else is an error naming the function. */
  pinName(v: unknown, fnName: string): string {
    const byObject = this.realm.pinName(v);
    if (byObject) return byObject;
    if (typeof v === "string" && this.pins.has(v)) return v;
    throw this.k.err(`Invalid pin! ${fnName}(${describeValue(v)}): not a pin of the ${this.k.bus.board.name}`);
  }

  api(): Record<string, FirmwareFn> {
    return {
      pinMode: (pin: unknown, mode?: unknown, automatic?: unknown) => this.pinMode(pin, mode, automatic),
      getPinMode: (pin: unknown) => this.getPinMode(pin),
      digitalWrite: (pin: unknown, value: unknown) => this.digitalWrite(pin, value),
      digitalRead: (pin: unknown) => this.digitalRead(pin),
      analogRead: (pin: unknown) => this.analogRead(pin),
      analogWrite: (pin: unknown, value: unknown, options?: unknown) => this.analogWrite(pin, value, options),
    };
  }

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
    this.k.bus.pwm(pin, 0, 0);
  }

  pinMode(pin: unknown, mode?: unknown, automatic?: unknown): void {
    this.k.guard();
    const circuit = this.k.bus.circuit;
    for (const name of this.pinList(pin, "pinMode")) {
      if (mode === undefined || mode === "auto") {
        const s = circuit.pinState(name);
        circuit.setMode(name, s.mode, false);
        continue;
      }
      if (!GPIO_MODES.includes(mode as GpioMode)) throw this.k.err("Unknown pin mode");
      if (mode !== "af_output") this.stopPwm(name);
      circuit.setMode(name, mode as GpioMode, !automatic);
    }
  }

  getPinMode(pin: unknown): string {
    this.k.guard();
    return this.k.bus.circuit.pinState(this.pinName(pin, "getPinMode")).mode;
  }

  private writePin(name: string, value: Level): void {
    const circuit = this.k.bus.circuit;
    this.stopPwm(name);
    // The device sets the output latch first, then switches an automatic pin to an output.
    circuit.setOutput(name, value);
    if (!circuit.pinState(name).manual) circuit.setMode(name, "output", false);
  }

  digitalWrite(pin: unknown, value: unknown): void {
    this.k.guard();
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

  digitalRead(pin: unknown): number {
    this.k.guard();
    const circuit = this.k.bus.circuit;
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
    this.k.guard();
    const bus = this.k.bus;
    const name = this.pinName(pin, "analogRead");
    if (!bus.board.adcPins.includes(name))
      throw this.k.err(`Pin ${name} is not an analog input (ADC pins: ${bus.board.adcPins.join(", ")})`);
    const circuit = bus.circuit;
    if (!circuit.pinState(name).manual) circuit.setMode(name, "analog", false);
    return bus.analogRead(name);
  }

  private analogWrite(pin: unknown, value: unknown, options?: unknown): void {
    this.k.guard();
    const bus = this.k.bus;
    const name = this.pinName(pin, "analogWrite");
    if (!bus.board.pwmPins.includes(name)) throw this.k.err(`Pin ${name} has no PWM output`);
    const duty = Math.min(1, Math.max(0, Number(value) || 0));
    const opts = (options && typeof options === "object" ? options : {}) as { freq?: unknown };
    const freq = opts.freq === undefined ? 0 : Number(opts.freq);
    const circuit = bus.circuit;
    if (!circuit.pinState(name).manual) circuit.setMode(name, "af_output", false);
    if (duty > 0) this.pwmPins.add(name);
    else this.pwmPins.delete(name);
    bus.pwm(name, duty, freq);
  }
}

export interface Watch {
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

export class Watches {
  private readonly table = new Map<number, Watch>();

  constructor(
    private readonly k: EventKit,
    private readonly gpio: Gpio,
    private readonly timers: Timers,
  ) {}

  get count(): number {
    return this.table.size;
  }

  /** Blocks the watches take, for the memory estimate. */
  blocks(est: SizeEstimator): number {
    let n = 0;
    for (const w of this.table.values()) n += 6 + est.sizeOf(w.fn);
    return n;
  }

  /** Forgets every watch (the runtime cancels the clock events it owns). */
  clear(): void {
    this.table.clear();
  }

  api(): Record<string, FirmwareFn> {
    return {
      setWatch: (fn: unknown, pin: unknown, options?: unknown) => this.setWatch(fn, pin, options),
      clearWatch: (...args: unknown[]) => this.clearWatch(args),
    };
  }

  private setWatch(fn: unknown, pin: unknown, options?: unknown): number | undefined {
    this.k.guard();
    const name = this.gpio.pinName(pin, "setWatch");
    const bus = this.k.bus;
    const board = bus.board;
    const watchingPin = [...this.table.values()].some((w) => w.pin === name);
    if (!watchingPin && board.oneWatchPerPinNumber) {
      const num = pinNumber(name);
      const clash = [...this.table.values()].find((w) => pinNumber(w.pin) === num);
      if (clash) {
        const msg = "Unable to set watch. You may already have a watch on a pin with the same number (eg. A0 and B0)";
        bus.log(`WARNING: ${msg}`);
        bus.warn(`setWatch(${name}) refused: ${clash.pin} is already watched and the ${board.name} has one watch per pin number`);
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
      else throw new this.k.C.TypeError("'edge' in setWatch should be a string - either 'rising', 'falling' or 'both'");
    } else repeat = !!options;
    if (typeof fn !== "function" && typeof fn !== "string") throw this.k.err("Function or String not supplied!");
    const id = nextId(this.table);
    this.table.set(id, {
      id,
      pin: name,
      fn,
      repeat,
      edge,
      debounceMs: debounce,
      state: bus.circuit.level(name) === 1,
      lastTime: undefined,
    });
    return id;
  }

  private clearWatch(args: unknown[]): void {
    this.k.guard();
    if (args.length === 0) {
      for (const w of this.table.values()) this.dropDebounce(w);
      this.table.clear();
      return;
    }
    const id = args[0];
    if (id === undefined) throw this.k.err("clearWatch(undefined): not a watch id (clearWatch() with no argument would clear every watch)");
    const w = typeof id === "number" ? this.table.get(id) : undefined;
    if (!w) throw this.k.err("Unknown Watch");
    this.dropDebounce(w);
    this.table.delete(w.id);
  }

  private dropDebounce(w: Watch): void {
    if (!w.timer) return;
    this.timers.drop(w.timer);
    w.timer = undefined;
  }

  /** A pin changed level: the EXTI interrupt queues an event for the idle loop, if the pin is watched. */
  onLevel(pin: string, level: Level): void {
    if (this.k.stopped()) return;
    let watched = false;
    for (const w of this.table.values()) if (w.pin === pin) watched = true;
    if (!watched) return;
    const time = this.k.bus.clock.now;
    this.k.at(time, () => this.processEdge(pin, level === 1, time));
  }

  private processEdge(pin: string, high: boolean, timeMs: number): void {
    const seconds = this.k.seconds(timeMs);
    const timers = this.timers;
    for (const w of [...this.table.values()]) {
      if (w.pin !== pin || this.table.get(w.id) !== w) continue;
      if (w.debounceMs <= 0) {
        if (shouldExecute(w.edge, high)) {
          const r = this.report(w, high, seconds);
          if (this.k.stopped()) return;
          const keep = w.repeat && r !== "hung";
          if (!keep) this.table.delete(w.id);
        }
        w.lastTime = seconds;
      } else if (w.timer && timers.live(w.timer)) {
        // Still bouncing: wait for the level to be stable for the debounce time again.
        w.timer.due = timeMs + w.debounceMs;
        w.timer.state = high;
        timers.schedule(w.timer);
      } else if (high !== w.state) {
        w.timer = timers.startDebounce(w, timeMs + w.debounceMs, high);
      }
    }
  }

  /** A watch's debounce timer fell due: the level was stable for the debounce time. */
  fireDebounce(t: Timer): void {
    const w = t.watch!;
    this.timers.drop(t);
    w.timer = undefined;
    if (this.table.get(w.id) !== w) return;
    const old = w.state;
    w.state = !!t.state;
    if (old === w.state) return;
    // Reported at the time of the last edge, before the debounce wait.
    const seconds = this.k.seconds(t.due - w.debounceMs);
    if (shouldExecute(w.edge, w.state)) {
      const r = this.report(w, w.state, seconds);
      if (this.k.stopped()) return;
      if (!w.repeat || r === "hung") this.table.delete(w.id);
    }
    w.lastTime = seconds;
  }

  private report(w: Watch, state: boolean, seconds: number): ReturnType<EventKit["call"]> {
    const data = this.k.obj({ state, lastTime: w.lastTime, time: seconds, pin: this.gpio.pin(w.pin) });
    return this.k.call(w.fn, undefined, [data], `the watch on ${w.pin}`);
  }
}

function shouldExecute(edge: number, high: boolean): boolean {
  return edge === 0 || (edge > 0 ? high : !high);
}

function pinNumber(pin: string): number {
  return parseInt(pin.slice(1), 10);
}
