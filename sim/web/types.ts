/** The web server's public shapes and limits: its options, the state it sends, the simulator handle it returns. */
import type { UnitProfile } from "../../hardware/unit-profile.ts";
import type { VirtualBoard } from "../board/board.ts";
import type { EspruinoBoard } from "../espruino/engine.ts";
import type { UnitGeometry } from "../../hardware/geometry.ts";
import type { keyAliases, keyboardShortcuts } from "../../hardware/key-names.ts";
import type { Deal } from "../views/pictures.ts";
import type { Watcher, WatchOptions, WatchStatus } from "../play/watch.ts";
import type { UnitStatus } from "../views/status.ts";
import type { ScreenPixel } from "../views/view.ts";

export const DEFAULT_PORT = 8080;
/** How often the board is advanced to catch up with real time. */
export const TICK_MS = 10;
/** The largest request body (a script, a switch): larger ones get 413. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Wall-clock time one command request may take running the board (then it stops with an error). */
export const COMMAND_CPU_MS = 2000;
/** Bytes an event-stream client may leave unread before it is dropped (it fell behind). */
export const MAX_STREAM_BACKLOG = 1024 * 1024;
/** Event-stream clients at once. */
export const MAX_STREAM_CLIENTS = 16;
/** The header that carries the per-run token. */
export const TOKEN_HEADER = "x-brainboard-token";
/** On the real interpreter: the longest a command request may run (its waits and taps, in real time). */
export const REAL_COMMAND_MS = 20_000;

export interface SimulatorOptions {
  /** The virtual board (default), or the real Espruino interpreter in $BRAINBOARD_ESPRUINO_DIR (from RAM, in real time). */
  engine?: "sim" | "espruino";
  /** Profile name or path (default r1-pico), or one compiled already (hardware/unit-profile.ts); must match the bundle. */
  profile?: string | UnitProfile;
  /** The bundle's code (default: dist/firmware.js). */
  firmware?: string;
  /** Port to listen on (default 8080; 0 for any free port). */
  port?: number;
  /** When the port is taken, listen on a free one instead of failing (default true). */
  fallbackPort?: boolean;
  host?: string;
  /** The unit's Storage file (the virtual board only: the real interpreter keeps its own flash file). */
  storageFile?: string;
  bounceMs?: number;
  seed?: number;
  /** Advance the board with real time (default true). Off, time moves only by commands (wait, tap). */
  realtime?: boolean;
  /** Power the board on at start (default true). */
  powerOn?: boolean;
  /** The per-run token (default: 16 random bytes, hex); tests may fix it. */
  token?: string;
  /** Where the server reports its own failures (default console.error); responses never carry them. */
  log?: (line: string) => void;
}

/** The page's switches; kept here so that the page itself holds no state. */
export interface ViewSwitches {
  /** The codemaker's shield is open: the secret and the codemaker pad show. */
  shield: boolean;
  /** Colour initials on the pegs. */
  labels: boolean;
  /** The buzzer is not played. */
  muted: boolean;
}

export interface SimState {
  /** Which engine runs the unit: "sim" (virtual time) or "espruino" (the real interpreter, real time). */
  engine: "sim" | "espruino";
  now: number;
  on: boolean;
  ledsPowered: boolean;
  running: boolean;
  battery: { volts: number; usb: boolean; level: number | null };
  tone: { freq: number } | null;
  segments: Record<string, ScreenPixel[]>;
  pressed: string[];
  errors: string[];
  console: string[];
  view: ViewSwitches;
  /** Brain Flip's cards while its screen shows (the unit on, its pad lighting the cards); else null. */
  flip: FlipCards | null;
  /** Watching the unit play (sim/play/watch.ts): running or not, the latest line and the recent ones; null before the first watch. */
  watch: WatchStatus | null;
  /** What the unit shows and what to do next, in words, with the scores as numbers and the keys' legends (sim/views/status.ts). */
  status: UnitStatus;
  /** Why the Storage file could not be written the last time (the last saves are not kept), or null. */
  storageProblem: string | null;
}

/** Brain Flip's cards on the pad: picture ids in card order (card = row * grid + column). */
export interface FlipCards extends Deal {
  /** The card blinking green (the Master's card, shown at the end of a round), also between its blinks; -1 when none. */
  picked: number;
}

export interface SimLayout {
  geometry: UnitGeometry;
  shortcuts: ReturnType<typeof keyboardShortcuts>;
  aliases: ReturnType<typeof keyAliases>;
  battery: { emptyV: number; lowV: number; fullV: number } | null;
  initials: Record<string, string>;
  initialsLegend: string;
}

export interface Simulator {
  url: string;
  port: number;
  /** The per-run token every /api/ request must carry (the served page has it). */
  token: string;
  /** The headers that carry the token, for fetch(). */
  headers: Record<string, string>;
  /** Event-stream clients connected now. */
  readonly streams: number;
  /** The port asked for, when it was taken and another one is used. */
  portTaken?: number;
  board: VirtualBoard;
  /** Runs script lines on the board now (the page's commands); returns what `show` printed; throws a ScriptError or ExpectFailure. */
  command(text: string): string[];
  /** Starts or stops virtual time following real time. */
  setRunning(on: boolean): void;
  /** Runs the board for `ms` of virtual time now, letting a watch act on time (as a `wait` command does). */
  advance(ms: number): void;
  readonly running: boolean;
  view: ViewSwitches;
  /** Brain Flip's cards: the pictures dealt for the current (or latest) game, null before the first. */
  readonly deal: Deal | null;
  /** Starts watching the unit play on this board, in step with the board's clock (stops a watch already running). */
  watch(opts?: WatchOptions): Watcher;
  /** Stops the watch, if one runs (held keys are released). */
  stopWatch(): void;
  /** The current (or latest) watch, null before the first. */
  readonly watcher: Watcher | null;
  state(): SimState;
  close(): Promise<void>;
}

/** The server with the unit on the real interpreter: the same, but what takes time returns a promise, and time cannot be paused. */
export interface EspruinoSimulator extends Omit<Simulator, "board" | "command" | "advance" | "setRunning"> {
  board: EspruinoBoard;
  /** Runs script lines on the unit, in real time, after any command already running; resolves with what `show` printed. */
  command(text: string): Promise<string[]>;
  /** Lets the unit run for `ms` of real time (and a watch act meanwhile). */
  advance(ms: number): Promise<void>;
}
