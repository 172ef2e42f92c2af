/**
 * The simulator's web server: runs the virtual board in step with real time and serves the page
 * (sim/web/page/) that draws it. The page holds no state: it renders what this server sends and sends
 * back the same commands scripts use (sim/play/script.ts).
 *
 *   GET  /                  the page (sim/web/page/index.html, app.js, style.css)
 *   GET  /api/layout        the unit's geometry (hardware/geometry.ts), keyboard shortcuts, key aliases
 *   GET  /api/state         the board now: every LED (palette name, duty RGB, screen RGB), power,
 *                           battery, tone, keys held, firmware errors, console, view switches
 *   GET  /api/events        server-sent events: "state" (as /api/state) on every change, "tone"
 *                           ({at, freq} in virtual ms) on every change of the buzzer
 *   POST /api/command       script lines (text/plain), e.g. "press p11" or "power cycle"; answers
 *                           {ok, now, ran, shown} (shown: the text picture of each `show`) or {ok: false, error}
 *   POST /api/view          {"shield": true|false, "labels": true|false, "muted": true|false}
 *   POST /api/watch         {"action": "start", "preset"?: "brainiac"|"travel"|"race", "harder"?: bool,
 *                           "games"?: N, "secret"?: "keyed"|"head", "seed"?: N} starts watching the unit
 *                           play (sim/play/watch.ts) on this board, in real time; {"action": "stop"} stops it.
 *                           The state's `watch` says what it does ({running, line, log}).
 *   GET  /api/pictures      Brain Flip's 100 pictures ({id, name, svg}, sim/views/pictures.ts); the state's
 *                           `flip` says which lie on the pad's cards while the Brain Flip screen shows
 *
 * Security (issue 14): the server answers only requests whose Host names it (127.0.0.1, localhost, [::1], or an
 * IP literal / this machine's name when --host lets other machines in) at its own port, and whose Origin, if
 * any, is its own; every /api/ request needs the per-run token (header x-brainboard-token, or ?token= for
 * the event stream) that the served page carries in a <meta name="brainboard-token"> (a page of another origin
 * cannot read it). Bodies are bounded (413), script lines too; a command's waits, virtual time and CPU time
 * are capped (sim/play/script.ts); an event-stream client that falls behind is dropped; an error never answers
 * with a stack trace or a path. While the codemaker's shield is closed the shielded segments (the secret)
 * and the codemaker pad's keys are left out of /api/state and the stream, `show` hides them and `expect`
 * on them is refused.
 *
 * Brain Flip's pictures: the server deals grid x grid of the 100 pictures at random for every Brain
 * Flip game the firmware starts, seen in the firmware's saves (PictureDeal in sim/views/pictures.ts), and
 * keeps them for the whole game, also across power cycles and (with a storage file) restarts.
 *
 * Engines: the virtual board (default), or with `engine: "espruino"` the real Espruino interpreter
 * (sim/espruino/engine.ts, from RAM): the same API, security and page, with these differences. Time is real,
 * so nothing advances the board and it cannot be paused (`running` stays true); a command request runs in
 * real time, one request after another, and may take at most REAL_COMMAND_MS (its waits and taps are
 * refused beforehand when they add up to more); the saves the status and the Brain Flip cards read come from
 * a mirror of the save slots the board prelude reports; Storage lives in the interpreter's own flash file,
 * so it does not survive the server (no storage file); a watch plays as `watchRealTime` does.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { hostname as machineName } from "node:os";
import { isIP } from "node:net";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { G_OK } from "../../firmware/ui/layout.ts";
import { VirtualBoard } from "../board/board.ts";
import { EngineError, EspruinoBoard } from "../espruino/engine.ts";
import { SLOT_NAMES } from "../board/saves.ts";
import { unitGeometry, type UnitGeometry } from "../../hardware/geometry.ts";
import { keyAliases, keyboardShortcuts } from "../../hardware/key-names.ts";
import { padShowsCards, PictureDeal, pictureList, PICTURES, readSaved, type Deal } from "../views/pictures.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import {
  CapExceeded,
  CommandBudget,
  ExpectFailure,
  MAX_COMMAND_VIRTUAL_MS,
  parseScript,
  runCommand,
  ScriptError,
  formatCommand,
  TAP_GAP_MS,
  type Command,
} from "../play/script.ts";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { formatBoard } from "../views/text.ts";
import { Watcher, type WatchOptions, type WatchStatus } from "../play/watch.ts";
import { StatusReader, type UnitStatus } from "../views/status.ts";
import { PRESET_IDS } from "../../firmware/core/presets.ts";
import type { PresetId } from "../../firmware/core/types.ts";
import { COLOUR_INITIALS, INITIALS_LEGEND, screenViews, type ScreenPixel } from "../views/view.ts";

export const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));
export const DEFAULT_PORT = 8080;
/** How often the board is advanced to catch up with real time. */
export const TICK_MS = 10;
/** The most virtual time one tick may run (after the process was suspended, time does not race to catch up). */
const MAX_STEP_MS = 250;
/** Longer than the dark part of a blink (the firmware's blinks are 400 ms on, 200 ms off). */
const BLINK_GAP_MS = 700;
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
/** On the real interpreter: how long the server waits for it to answer before calling it stuck. */
const REAL_ANSWER_MS = 20_000;

export interface SimulatorOptions {
  /** The virtual board (default), or the real Espruino interpreter in ../shared/tools/espruino (from RAM, in real time). */
  engine?: "sim" | "espruino";
  /** Profile name or path (default r1-pico); must match the bundle. */
  profile?: string;
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

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export function startSimulator(opts: SimulatorOptions & { engine: "espruino" }): Promise<EspruinoSimulator>;
export function startSimulator(opts?: SimulatorOptions & { engine?: "sim" }): Promise<Simulator>;
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator | EspruinoSimulator> {
  const real = opts.engine === "espruino";
  if (real && opts.storageFile)
    throw new Error("a storage file is for the virtual board: the real interpreter keeps Storage in its own flash file");
  const board: VirtualBoard | EspruinoBoard = real
    ? new EspruinoBoard({
        profile: opts.profile,
        firmware: opts.firmware ?? readFileSync(DEFAULT_OUT, "latin1"),
        bounceMs: opts.bounceMs,
        seed: opts.seed,
        mirror: SLOT_NAMES,
        answerTimeoutMs: REAL_ANSWER_MS,
      })
    : new VirtualBoard({
        profile: opts.profile,
        firmware: opts.firmware,
        storageFile: opts.storageFile,
        bounceMs: opts.bounceMs,
        seed: opts.seed,
      });
  const profile = board.profile;
  const layout: SimLayout = {
    geometry: unitGeometry(profile),
    shortcuts: keyboardShortcuts(profile),
    aliases: keyAliases(profile),
    battery: profile.battery ? { emptyV: profile.battery.emptyV, lowV: profile.battery.lowV, fullV: profile.battery.fullV } : null,
    initials: COLOUR_INITIALS,
    initialsLegend: INITIALS_LEGEND,
  };
  const view: ViewSwitches = { shield: false, labels: false, muted: false };
  const token = opts.token ?? randomBytes(16).toString("hex");
  const log = opts.log ?? ((line: string) => console.error(line));
  // Under the codemaker's shield: the shielded segments, and the keys of every matrix but the main pad's.
  const shielded = profile.leds.segments.filter((sg) => sg.shielded).map((sg) => sg.name);
  const mainMatrix = board.keys.find((k) => k.id === profile.keymap.grid[0])?.matrix;
  const makerKeys = new Set(board.keys.filter((k) => k.matrix !== mainMatrix).map((k) => k.id));

  let running = real || (opts.realtime ?? true);
  const clients = new Set<ServerResponse>();
  let dirty = true;
  let toneSent = board.tones.length;
  let lastReal = performance.now();
  let target = board.now;

  // Brain Flip's cards: a new deal for every game the firmware starts (seen in its saves), kept in a
  // file beside the unit's Storage so that a game's cards survive restarting the simulator too.
  const dealFile = opts.storageFile ? opts.storageFile.replace(/\.json$/i, "") + ".pictures.json" : undefined;
  const deal = new PictureDeal((game) => {
    if (opts.seed === undefined) return Math.random;
    const prng = new Prng((Math.imul(opts.seed + 1, 0x9e3779b1) + game * 0x85ebca6b) >>> 0);
    return () => prng.next();
  });
  const atStart = readSaved(board.storage);
  deal.start(atStart?.saved ?? null, dealFile ? readDeal(dealFile) : null);
  let savedText = atStart?.text;
  const okKey = profile.keymap.grid[G_OK];
  const stopWatchingSaves = board.storage.onChange(() => {
    const latest = readSaved(board.storage);
    if (!latest || latest.text === savedText) return;
    savedText = latest.text;
    if (deal.saw(latest.saved, board.isPressed(okKey)) && dealFile) {
      try {
        writeFileSync(dealFile, JSON.stringify(deal.deal) + "\n");
      } catch {
        // not writable: the cards then last as long as this simulator runs
      }
    }
    dirty = true;
  });
  // When each pad LED last showed green: the Master's card blinks green, and between blinks it is not out.
  const greenAt = new Map<number, number>();
  board.on("leds", () => {
    board.colours("pad").forEach((c, i) => {
      if (c === "green") greenAt.set(i, board.now);
      else if (c !== "off") greenAt.delete(i);
    });
  });
  /** The cards, while the Brain Flip screen shows on the unit. */
  const flipCards = (): FlipCards | null => {
    const d = deal.deal;
    const pad = board.colours("pad");
    if (!d || deal.screen !== "flip" || !board.isOn || !padShowsCards(pad, d.grid)) return null;
    let picked = -1;
    for (let c = 0; c < d.grid * d.grid; c++) {
      const at = greenAt.get(Math.floor(c / d.grid) * 6 + (c % d.grid));
      if (at !== undefined && at >= board.now - BLINK_GAP_MS) picked = c;
    }
    return { game: d.game, grid: d.grid, pictures: d.pictures.slice(), picked };
  };

  const unitStatus = new StatusReader(board);
  const state = (): SimState => {
    const bat = board.battery;
    const b = profile.battery;
    return {
      engine: real ? "espruino" : "sim",
      now: board.now,
      on: board.isOn,
      ledsPowered: board.ledsPowered,
      running,
      battery: { ...bat, level: b ? Math.max(0, Math.min(1, (bat.volts - b.emptyV) / (b.fullV - b.emptyV))) : null },
      tone: board.tone,
      segments: redacted(screenViews(board)),
      pressed: board.keys.filter((k) => board.isPressed(k.id) && (view.shield || !makerKeys.has(k.id))).map((k) => k.id),
      errors: board.errors.slice(-20),
      console: board.consoleLog.slice(-40),
      view: { ...view },
      flip: flipCards(),
      watch: watcher ? watcher.status() : null,
      status: unitStatus.status(),
      storageProblem: board instanceof VirtualBoard ? board.storage.problem : null,
    };
  };
  /** The segments as the codebreaker may see them: what lies under a closed shield is reported off. */
  const redacted = (segments: Record<string, ScreenPixel[]>): Record<string, ScreenPixel[]> => {
    if (view.shield) return segments;
    for (const name of shielded)
      if (segments[name]) segments[name] = segments[name].map(() => ({ name: "off", rgb: [0, 0, 0], screen: [0, 0, 0] }));
    return segments;
  };
  /** One event to a client; a client that has not read what it was sent before is dropped (it fell behind). */
  const send = (res: ServerResponse, event: string, data: unknown) => {
    if (res.writableLength > MAX_STREAM_BACKLOG) {
      clients.delete(res);
      res.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const flush = () => {
    if (board.tones.length > toneSent) {
      const fresh = board.tones.slice(toneSent);
      toneSent = board.tones.length;
      for (const c of clients) send(c, "tone", { now: board.now, tones: fresh });
    }
    if (dirty && clients.size) {
      dirty = false;
      const s = state();
      for (const c of clients) send(c, "state", s);
    }
  };
  const markDirty = () => {
    dirty = true;
  };
  for (const ev of ["leds", "power", "reset", "console"] as const) board.on(ev, markDirty);
  if (board instanceof VirtualBoard) board.on("storage", markDirty);

  if (opts.powerOn ?? true) {
    try {
      await board.powerOn();
    } catch (e) {
      if (board instanceof EspruinoBoard) await board.close();
      throw e;
    }
  }

  // Watching the unit play: the watcher acts at the board times it asks for, between the clock's steps.
  let watcher: Watcher | null = null;
  let watches = 0;
  const advanceTo = (t: number) => {
    if (!(board instanceof VirtualBoard)) return;
    while (watcher && watcher.wakeAt <= t) {
      if (watcher.wakeAt > board.now) board.advance(watcher.wakeAt - board.now);
      watcher.poll();
    }
    if (t > board.now) board.advance(t - board.now);
  };
  const startWatch = (wo: WatchOptions = {}): Watcher => {
    watcher?.stop();
    watches++;
    const seed = wo.seed ?? (opts.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : opts.seed + watches);
    const w = new Watcher(board, { ...wo, seed });
    watcher = w;
    w.on(() => {
      dirty = true;
    });
    dirty = true;
    if (board instanceof EspruinoBoard) void watchReal(board, w);
    return w;
  };
  /** On the real interpreter the watcher acts as watchRealTime lets it: each step once the unit has taken its keys. */
  const watchReal = async (b: EspruinoBoard, w: Watcher) => {
    try {
      while (!w.done) {
        await b.advance(Math.max(0, Math.min(w.wakeAt - b.now, 500)));
        w.poll();
        dirty = true;
      }
    } catch (e) {
      w.stop(e instanceof EngineError ? e.message : "the unit did not answer");
      dirty = true;
    }
  };

  const tick = () => {
    const t = performance.now();
    const dt = Math.min(t - lastReal, MAX_STEP_MS);
    lastReal = t;
    if (running && !real) {
      target += dt;
      advanceTo(target);
    }
    flush();
  };
  const timer = setInterval(tick, TICK_MS);

  /** Refuses, before anything runs, what may not run: a peek under the closed shield, too much time; a key pressed by hand stops a watch. */
  const admit = (cmds: Command[], budget: CommandBudget) => {
    // Nothing runs when a line asks what lies under the closed shield: its answer would give the secret away.
    const peek = view.shield ? undefined : cmds.find((c) => c.op === "expect" && shielded.includes(c.segment));
    if (peek)
      throw new ScriptError([
        {
          line: peek.line,
          message: `expect ${peek.op === "expect" ? peek.where : ""}: that lies under the codemaker's shield; open the shield (the codemaker's view) to check it`,
        },
      ]);
    budget.check(cmds);
    // A key pressed by hand takes over from a watch.
    if (watcher && !watcher.done && cmds.some((c) => c.op === "press" || c.op === "tap")) watcher.stop("a key was pressed by hand");
  };
  const showBoard = (c: Command) => formatBoard(board, { showSecret: view.shield, title: `show (line ${c.line})` });

  /** Runs script lines; returns the text picture of every `show` (the secret only while the shield is open). */
  const command = (text: string, cpuMs = COMMAND_CPU_MS): string[] => runParsed(parseScript(text, profile), cpuMs);
  const runParsed = (cmds: Command[], cpuMs: number): string[] => {
    if (!(board instanceof VirtualBoard)) throw new Error("the real interpreter runs commands with runParsedReal");
    const budget = new CommandBudget(cpuMs, MAX_COMMAND_VIRTUAL_MS);
    admit(cmds, budget);
    const shown: string[] = [];
    try {
      for (const cmd of cmds) {
        budget.beforeCommand(cmd);
        // A wait lets a watch go on acting (in slices, so the CPU cap can stop it); everything else runs as in a script.
        if (cmd.op === "wait") budget.slices(cmd.ms, (ms) => advanceTo(board.now + ms), cmd.line);
        else runCommand(board, cmd, (c) => shown.push(showBoard(c)));
      }
      return shown;
    } finally {
      // Time a command ran (a tap's hold, a wait) is not run again by the real-time clock.
      if (board.now > target) target = board.now;
      dirty = true;
      flush();
    }
  };

  /**
   * The same on the real interpreter, in real time: requests run one after another (a release never overtakes its
   * press), each for at most REAL_COMMAND_MS (refused beforehand when its waits and taps add up to more).
   */
  let realQueue: Promise<unknown> = Promise.resolve();
  const runParsedReal = (cmds: Command[]): Promise<string[]> => {
    admit(cmds, new CommandBudget(REAL_COMMAND_MS, REAL_COMMAND_MS, "real time"));
    const b = board as EspruinoBoard;
    const run = async (): Promise<string[]> => {
      const budget = new CommandBudget(REAL_COMMAND_MS, REAL_COMMAND_MS, "real time", "time");
      const shown: string[] = [];
      try {
        for (const cmd of cmds) {
          budget.beforeCommand(cmd);
          if (cmd.op === "tap") for (const k of cmd.keys) await b.tap(k.id, cmd.holdMs, TAP_GAP_MS);
          else if (cmd.op === "wait") await b.advance(cmd.ms);
          else if (cmd.op === "power") await (cmd.action === "on" ? b.powerOn() : cmd.action === "off" ? b.powerOff() : b.powerCycle());
          else runCommand(b, cmd, (c) => shown.push(showBoard(c)));
        }
        return shown;
      } finally {
        dirty = true;
        flush();
      }
    };
    const p = realQueue.then(run);
    realQueue = p.catch(() => {});
    return p;
  };
  const commandReal = (text: string): Promise<string[]> => runParsedReal(parseScript(text, profile));

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      // The server's own failure: told to its terminal, never to the client (no stack, no path).
      log(`server: ${req.method} ${String(req.url).slice(0, 200)}: ${(e as Error)?.stack ?? String(e)}`);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify({ ok: false, error: "internal error (the simulator's terminal has the details)" }));
    });
  });
  server.on("clientError", (_e, socket) => {
    // Not a request Node can parse; when an answer is already under way on this socket, it just closes.
    const answering = (socket as unknown as { _httpMessage?: unknown })._httpMessage;
    if (socket.writable && !answering)
      socket.end("HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nbad request\n");
    else socket.destroy();
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  /** Host names a request may name this server by (a foreign one is DNS rebinding). */
  const hostAllowed = (hostHeader: string | undefined): boolean => {
    if (!hostHeader) return false;
    let u: URL;
    try {
      u = new URL(`http://${hostHeader}`);
    } catch {
      return false;
    }
    if (u.username || u.password || u.pathname !== "/" || Number(u.port || 80) !== port) return false;
    const name = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (name === "localhost" || name === "127.0.0.1" || name === "::1") return true;
    // Listening beyond loopback (--host): other machines name it by address, or by this machine's name.
    const wide = !!opts.host && opts.host !== "127.0.0.1" && opts.host !== "localhost" && opts.host !== "::1";
    return wide && (isIP(name) !== 0 || name === machineName().toLowerCase());
  };

  const tokenOk = (req: IncomingMessage, url: URL): boolean => {
    const given = String(req.headers[TOKEN_HEADER] ?? url.searchParams.get("token") ?? "");
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = (status: number, data: unknown) => {
      const text = JSON.stringify(data);
      res.writeHead(status, {
        "content-type": "application/json",
        "cache-control": "no-store",
        "content-length": Buffer.byteLength(text),
      });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    const refuse = (status: number, error: string) => {
      // The request's body is not wanted: what arrives of it is dropped. Too large a body closes the connection.
      req.resume();
      if (status === 413) {
        res.setHeader("connection", "close");
        res.on("finish", () => req.socket.destroySoon());
      }
      json(status, { ok: false, error });
    };
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
      if (!(req.url ?? "/").startsWith("/")) throw new Error("not a path");
    } catch {
      return refuse(400, "the request's URL is not a path on this server");
    }
    const path = url.pathname;
    if (!hostAllowed(req.headers.host))
      return refuse(403, `the Host header must name this server (127.0.0.1:${port} or localhost:${port})`);
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return refuse(403, "requests from other origins are not served");
    if (path.startsWith("/api/")) {
      if (req.headers["sec-fetch-site"] === "cross-site") return refuse(403, "requests from other sites are not served");
      if (!tokenOk(req, url))
        return refuse(403, `a missing or wrong token: the page sends it (header ${TOKEN_HEADER}), from the HTML this server served`);
    }
    const lengthHeader = Number(req.headers["content-length"] ?? 0);
    if (lengthHeader > MAX_BODY_BYTES) return refuse(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    const readBody = async (): Promise<string | null> => {
      try {
        return await body(req, MAX_BODY_BYTES);
      } catch (e) {
        if (e instanceof BodyTooLarge) refuse(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
        else refuse(400, "the body could not be read");
        return null;
      }
    };
    const jsonBody = async (example: string): Promise<Record<string, unknown> | null> => {
      const text = await readBody();
      if (text === null) return null;
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
      if (!data || typeof data !== "object" || Array.isArray(data)) {
        json(400, { ok: false, error: `the body must be a JSON object like ${example}` });
        return null;
      }
      return data as Record<string, unknown>;
    };
    if (req.method === "GET" && path === "/api/layout") return json(200, layout);
    if (req.method === "GET" && path === "/api/state") return json(200, state());
    if (req.method === "GET" && path === "/api/pictures") return json(200, pictureList());
    if (req.method === "GET" && path === "/api/events") {
      if (clients.size >= MAX_STREAM_CLIENTS) return refuse(503, `at most ${MAX_STREAM_CLIENTS} event streams at once`);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
      res.write("retry: 1000\n\n");
      clients.add(res);
      send(res, "state", state());
      req.on("close", () => clients.delete(res));
      return;
    }
    if (req.method === "POST" && path === "/api/command") {
      const text = await readBody();
      if (text === null) return;
      try {
        const cmds = parseScript(text, profile);
        const shown = real ? await runParsedReal(cmds) : runParsed(cmds, COMMAND_CPU_MS);
        return json(200, { ok: true, now: board.now, ran: cmds.map(formatCommand), shown });
      } catch (e) {
        if (e instanceof ScriptError || e instanceof ExpectFailure) return json(400, { ok: false, error: e.message });
        if (e instanceof CapExceeded) return json(503, { ok: false, error: e.message });
        // The real interpreter off, stopped or not answering: said as the engine says it (no stack, no path).
        if (e instanceof EngineError) return json(503, { ok: false, error: e.message });
        throw e;
      }
    }
    if (req.method === "POST" && path === "/api/view") {
      const data = (await jsonBody('{"shield": true}')) as Partial<ViewSwitches> | null;
      if (!data) return;
      for (const k of ["shield", "labels", "muted"] as const) if (typeof data[k] === "boolean") view[k] = data[k];
      dirty = true;
      flush();
      return json(200, { ok: true, view });
    }
    if (req.method === "POST" && path === "/api/watch") {
      const data = await jsonBody('{"action": "start", "preset": "race"}');
      if (!data) return;
      if (data.action === "stop") {
        watcher?.stop();
        flush();
        return json(200, { ok: true, watch: watcher?.status() ?? null });
      }
      if (data.action !== "start") return json(400, { ok: false, error: 'action must be "start" or "stop"' });
      const problem = watchProblem(data);
      if (problem) return json(400, { ok: false, error: problem });
      const w = startWatch({
        preset: (data.preset || undefined) as PresetId | undefined,
        harder: data.harder as boolean | undefined,
        games: (data.games || undefined) as number | undefined,
        secret: data.secret as "keyed" | "head" | undefined,
        seed: data.seed as number | undefined,
        pressMs: data.pressMs as number | undefined,
        rowPauseMs: data.rowPauseMs as number | undefined,
        gamePauseMs: data.gamePauseMs as number | undefined,
      });
      flush();
      return json(200, { ok: true, watch: w.status() });
    }
    if (path.startsWith("/api/")) return refuse(404, `${String(req.method).slice(0, 10)} ${path.slice(0, 100)} is not served`);
    if (req.method === "GET" || req.method === "HEAD") return serveStatic(path, res, token);
    refuse(405, `${String(req.method).slice(0, 10)} ${path.slice(0, 100)} is not served`);
  }

  let port = 0;
  const requested = opts.port ?? DEFAULT_PORT;
  let portTaken: number | undefined;
  try {
    await listen(server, requested, opts.host ?? "127.0.0.1");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE" || opts.fallbackPort === false) {
      clearInterval(timer);
      if (board instanceof EspruinoBoard) await board.close();
      throw e;
    }
    portTaken = requested;
    await listen(server, 0, opts.host ?? "127.0.0.1");
  }
  port = (server.address() as AddressInfo).port;
  const host = opts.host && opts.host !== "0.0.0.0" ? opts.host : "127.0.0.1";

  const close = async (): Promise<void> => {
    clearInterval(timer);
    watcher?.stop();
    stopWatchingSaves();
    for (const c of clients) c.end();
    clients.clear();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (board instanceof EspruinoBoard) await board.close();
  };
  const common = {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    port,
    token,
    headers: { [TOKEN_HEADER]: token },
    get streams() {
      return clients.size;
    },
    portTaken,
    get running() {
      return running;
    },
    view,
    get deal() {
      return deal.deal;
    },
    watch: startWatch,
    stopWatch() {
      watcher?.stop();
      dirty = true;
    },
    get watcher() {
      return watcher;
    },
    state,
    close,
  };
  if (board instanceof EspruinoBoard) {
    const own = {
      board,
      command: commandReal,
      async advance(ms: number) {
        await board.advance(ms);
        dirty = true;
        flush();
      },
    };
    // The common part's getters (streams, running, deal, watcher) stay getters.
    return Object.defineProperties(own, Object.getOwnPropertyDescriptors(common)) as unknown as EspruinoSimulator;
  }
  const vboard = board;
  const own = {
    board: vboard,
    command: (text: string) => command(text),
    setRunning(on: boolean) {
      running = on;
      lastReal = performance.now();
      target = vboard.now;
      dirty = true;
    },
    advance(ms: number) {
      advanceTo(vboard.now + ms);
      if (vboard.now > target) target = vboard.now;
      dirty = true;
      flush();
    },
  };
  return Object.defineProperties(own, Object.getOwnPropertyDescriptors(common)) as unknown as Simulator;
}

/** What is wrong with a POST /api/watch start request, or null. */
function watchProblem(d: Record<string, unknown>): string | null {
  const optional = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || v === null || v === "" || ok(v);
  const whole = (min: number, max: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  if (!optional(d.preset, (v) => PRESET_IDS.includes(v as PresetId))) return `preset must be one of ${PRESET_IDS.join(", ")}`;
  if (!optional(d.harder, (v) => typeof v === "boolean")) return "harder must be true or false";
  if (!optional(d.games, whole(1, 1000))) return "games must be a whole number from 1";
  if (!optional(d.secret, (v) => v === "keyed" || v === "head")) return 'secret must be "keyed" or "head"';
  if (!optional(d.seed, whole(0, 2 ** 32 - 1))) return "seed must be a whole number >= 0";
  for (const k of ["pressMs", "rowPauseMs", "gamePauseMs"])
    if (!optional(d[k], whole(0, 60_000))) return `${k} must be a whole number of ms from 0 to 60000`;
  return null;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off("listening", onListening);
      reject(e);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** The cards kept by an earlier run (see dealFile), or null when there are none or they are not valid. */
function readDeal(file: string): Deal | null {
  try {
    const d = JSON.parse(readFileSync(file, "utf8")) as Deal;
    const ids = d.pictures;
    const valid =
      Number.isInteger(d.game) &&
      Number.isInteger(d.grid) &&
      Array.isArray(ids) &&
      ids.length === d.grid * d.grid &&
      new Set(ids).size === ids.length &&
      ids.every((id) => Number.isInteger(id) && id >= 0 && id < PICTURES.length);
    return valid ? { game: d.game, grid: d.grid, pictures: ids } : null;
  } catch {
    return null;
  }
}

class BodyTooLarge extends Error {}

function body(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.pause();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function serveStatic(path: string, res: ServerResponse, token: string): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path === "/" ? "/index.html" : path);
  } catch {
    decoded = "\0";
  }
  const rel = normalize(decoded).replace(/^([/\\])+/, "");
  const file = join(PAGE_DIR, rel);
  if (
    decoded.includes("\0") ||
    !file.startsWith(PAGE_DIR.endsWith(sep) ? PAGE_DIR : PAGE_DIR + sep) ||
    !existsSync(file) ||
    !statSync(file).isFile()
  ) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found\n");
    return;
  }
  const type = TYPES[extname(file)] ?? "application/octet-stream";
  if (extname(file) === ".html") {
    // The page learns the per-run token from its own HTML: a page of another origin cannot read it.
    const html = readFileSync(file, "utf8").replace(/<head>/i, (h) => `${h}\n    <meta name="brainboard-token" content="${token}" />`);
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", "x-frame-options": "DENY" });
    res.end(html);
    return;
  }
  res.writeHead(200, { "content-type": type, "cache-control": "no-cache" });
  res.end(readFileSync(file));
}
