/**
 * The electrical model of the unit: the MCU's GPIO pins (mode, output latch) and the key matrix
 * contacts between row and column lines. After every change the level of every pin is resolved
 * again, and listeners hear about each pin whose level changed, exactly as an input stage would
 * see it (including changes the firmware causes itself while it drives rows during a scan).
 *
 * Without diodes, closed contacts join lines into one net: a net reads low if anything in it is
 * driven low, else high if anything drives it high, else the direction of its pulls, else low
 * (a floating input is read as 0). Driven high and low at once is contention: it reads low and is
 * counted. With diodes (anode on the column, cathode on the row), a column is pulled low through a
 * closed contact only when that row is driven low; rows are never driven by columns, so there is
 * no ghosting.
 */
import type { BoardInfo } from "../../hardware/boards.ts";
import type { KeyInfo } from "../../hardware/profile.ts";
import type { UnitProfile } from "../../hardware/unit-profile.ts";

/** GPIO modes, as `pinMode` names them ("auto" is a flag, not a mode: see `PinState.manual`). */
export type GpioMode =
  "analog" | "input" | "input_pullup" | "input_pulldown" | "output" | "opendrain" | "opendrain_pullup" | "af_output" | "af_opendrain";

export const GPIO_MODES: GpioMode[] = [
  "analog",
  "input",
  "input_pullup",
  "input_pulldown",
  "output",
  "opendrain",
  "opendrain_pullup",
  "af_output",
  "af_opendrain",
];

export interface PinState {
  mode: GpioMode;
  /** Set by pinMode with a mode: digitalRead/digitalWrite no longer switch the mode. */
  manual: boolean;
  /** The output latch (kept while the pin is an input, applied when it becomes an output). */
  out: 0 | 1;
}

export type Level = 0 | 1;
export type LevelListener = (pin: string, level: Level) => void;

const enum Drive {
  None = 0,
  Low = 1,
  High = 2,
}

function driveOf(s: PinState): Drive {
  switch (s.mode) {
    case "output":
    case "af_output":
      return s.out ? Drive.High : Drive.Low;
    case "opendrain":
    case "af_opendrain":
    case "opendrain_pullup":
      return s.out ? Drive.None : Drive.Low;
    default:
      return Drive.None;
  }
}

/** +1 pull-up, -1 pull-down, 0 none. */
function pullOf(s: PinState): number {
  if (s.mode === "input_pullup" || (s.mode === "opendrain_pullup" && s.out)) return 1;
  if (s.mode === "input_pulldown") return -1;
  return 0;
}

function ownLevel(s: PinState): Level {
  const d = driveOf(s);
  if (d !== Drive.None) return d === Drive.High ? 1 : 0;
  return pullOf(s) > 0 ? 1 : 0;
}

export class Circuit {
  readonly pins: string[];
  readonly keys: KeyInfo[];
  readonly rowPins: string[];
  readonly colPins: string[];
  readonly diodes: boolean;
  /** Times two drivers fought over a line (a net driven high and low at once). */
  contention = 0;
  private state = new Map<string, PinState>();
  private levels = new Map<string, Level>();
  private closed: boolean[];
  private contended = new Set<string>();
  private listeners: LevelListener[] = [];

  constructor(board: BoardInfo, unit: UnitProfile) {
    const profile = unit.profile;
    this.pins = [...board.pins];
    this.keys = unit.keys;
    this.rowPins = [...profile.keys.rowPins];
    this.colPins = unit.columnPins;
    this.diodes = profile.keys.diodes;
    this.closed = this.keys.map(() => false);
    for (const p of [...this.rowPins, ...this.colPins])
      if (!this.pins.includes(p)) throw new Error(`profile ${profile.id}: key matrix pin ${p} is not a pin of the ${board.name}`);
    for (const p of this.pins) {
      this.state.set(p, { mode: "input", manual: false, out: 0 });
      this.levels.set(p, 0);
    }
  }

  /** Hears every change of a pin's level. Returns a function that stops listening. */
  onLevel(fn: LevelListener): () => void {
    this.listeners.push(fn);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== fn);
    };
  }

  hasPin(pin: string): boolean {
    return this.state.has(pin);
  }

  pinState(pin: string): PinState {
    return { ...this.get(pin) };
  }

  level(pin: string): Level {
    this.get(pin);
    return this.levels.get(pin)!;
  }

  contact(keyIndex: number): boolean {
    return this.closed[keyIndex];
  }

  setMode(pin: string, mode: GpioMode, manual: boolean): void {
    const s = this.get(pin);
    if (s.mode === mode && s.manual === manual) return;
    s.mode = mode;
    s.manual = manual;
    this.resolve();
  }

  setOutput(pin: string, value: Level): void {
    const s = this.get(pin);
    if (s.out === value) return;
    s.out = value;
    this.resolve();
  }

  setContact(keyIndex: number, closed: boolean): void {
    if (this.closed[keyIndex] === closed) return;
    this.closed[keyIndex] = closed;
    this.resolve();
  }

  /** MCU reset: every pin back to an input in automatic mode (contacts are mechanical and stay). */
  resetMcu(): void {
    for (const s of this.state.values()) {
      s.mode = "input";
      s.manual = false;
      s.out = 0;
    }
    this.resolve();
  }

  private get(pin: string): PinState {
    const s = this.state.get(pin);
    if (!s) throw new Error(`no pin ${pin} on this board (pins: ${this.pins.join(", ")})`);
    return s;
  }

  private resolve(): void {
    const next = new Map<string, Level>();
    for (const [p, s] of this.state) next.set(p, ownLevel(s));
    const contended = new Set<string>();
    if (this.diodes) this.resolveWithDiodes(next, contended);
    else this.resolveNets(next, contended);
    for (const key of contended) if (!this.contended.has(key)) this.contention++;
    this.contended = contended;
    const changed: [string, Level][] = [];
    for (const [p, level] of next) if (this.levels.get(p) !== level) changed.push([p, level]);
    this.levels = next;
    for (const [p, level] of changed) for (const l of this.listeners) l(p, level);
  }

  private resolveWithDiodes(next: Map<string, Level>, contended: Set<string>): void {
    const rowLow = this.rowPins.map((p) => driveOf(this.state.get(p)!) === Drive.Low);
    const pulledLow = this.colPins.map(() => false);
    this.keys.forEach((k, i) => {
      if (this.closed[i] && rowLow[k.rowLine]) pulledLow[k.colLine] = true;
    });
    this.colPins.forEach((p, c) => {
      if (!pulledLow[c]) return;
      if (driveOf(this.state.get(p)!) === Drive.High) contended.add(p);
      next.set(p, 0);
    });
  }

  private resolveNets(next: Map<string, Level>, contended: Set<string>): void {
    const lines = [...this.rowPins, ...this.colPins];
    const parent = lines.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    this.keys.forEach((k, i) => {
      if (!this.closed[i]) return;
      const a = find(k.rowLine);
      const b = find(this.rowPins.length + k.colLine);
      if (a !== b) parent[a] = b;
    });
    const nets = new Map<number, string[]>();
    lines.forEach((p, i) => {
      const root = find(i);
      if (!nets.has(root)) nets.set(root, []);
      nets.get(root)!.push(p);
    });
    for (const members of nets.values()) {
      if (members.length === 1) continue;
      let low = false;
      let high = false;
      let pull = 0;
      for (const p of members) {
        const s = this.state.get(p)!;
        const d = driveOf(s);
        if (d === Drive.Low) low = true;
        else if (d === Drive.High) high = true;
        pull += pullOf(s);
      }
      if (low && high) contended.add(members.join("+"));
      const level: Level = low ? 0 : high ? 1 : pull > 0 ? 1 : 0;
      for (const p of members) next.set(p, level);
    }
  }
}
