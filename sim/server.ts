/**
 * The simulator's web server: runs the virtual board in step with real time and serves the page
 * (sim/page/) that draws it. The page holds no state: it renders what this server sends and sends
 * back the same commands scripts use (sim/script.ts).
 *
 *   GET  /                  the page (sim/page/index.html, app.js, style.css)
 *   GET  /api/layout        the unit's geometry (sim/geometry.ts), keyboard shortcuts, key aliases
 *   GET  /api/state         the board now: every LED (palette name, duty RGB, screen RGB), power,
 *                           battery, tone, keys held, firmware errors, console, view switches
 *   GET  /api/events        server-sent events: "state" (as /api/state) on every change, "tone"
 *                           ({at, freq} in virtual ms) on every change of the buzzer
 *   POST /api/command       script lines (text/plain), e.g. "press p11" or "power cycle"; answers
 *                           {ok, now, ran, shown} (shown: the text picture of each `show`) or {ok: false, error}
 *   POST /api/view          {"shield": true|false, "labels": true|false, "muted": true|false}
 *   POST /api/watch         {"action": "start", "preset"?: "brainiac"|"travel"|"race", "harder"?: bool,
 *                           "games"?: N, "secret"?: "keyed"|"head", "seed"?: N} starts watching the unit
 *                           play (sim/watch.ts) on this board, in real time; {"action": "stop"} stops it.
 *                           The state's `watch` says what it does ({running, line, log}).
 *   GET  /api/pictures      Brain Flip's 100 pictures ({id, name, svg}, sim/pictures.ts); the state's
 *                           `flip` says which lie on the pad's cards while the Brain Flip screen shows
 *
 * Brain Flip's pictures: the server deals grid x grid of the 100 pictures at random for every Brain
 * Flip game the firmware starts, seen in the firmware's saves (PictureDeal in sim/pictures.ts), and
 * keeps them for the whole game, also across power cycles and (with a storage file) restarts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { G_OK } from "../firmware/ui/layout.ts";
import { VirtualBoard } from "./board.ts";
import { unitGeometry, type UnitGeometry } from "./geometry.ts";
import { keyAliases, keyboardShortcuts } from "./keys.ts";
import { padShowsCards, PictureDeal, pictureList, PICTURES, readSaved, type Deal } from "./pictures.ts";
import { Prng } from "./random.ts";
import { ExpectFailure, parseScript, runCommand, ScriptError, formatCommand } from "./script.ts";
import { formatBoard } from "./text.ts";
import { Watcher, type WatchOptions, type WatchStatus } from "./watch.ts";
import { StatusReader, type UnitStatus } from "./status.ts";
import { PRESET_IDS } from "../firmware/core/presets.ts";
import type { PresetId } from "../firmware/core/types.ts";
import { COLOUR_INITIALS, INITIALS_LEGEND, screenViews, type ScreenPixel } from "./view.ts";

export const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));
export const DEFAULT_PORT = 8080;
/** How often the board is advanced to catch up with real time. */
export const TICK_MS = 10;
/** The most virtual time one tick may run (after the process was suspended, time does not race to catch up). */
const MAX_STEP_MS = 250;
/** Longer than the dark part of a blink (the firmware's blinks are 400 ms on, 200 ms off). */
const BLINK_GAP_MS = 700;

export interface SimulatorOptions {
  /** Profile name or path (default r1-pico); must match the bundle. */
  profile?: string;
  /** The bundle's code (default: dist/firmware.js). */
  firmware?: string;
  /** Port to listen on (default 8080; 0 for any free port). */
  port?: number;
  /** When the port is taken, listen on a free one instead of failing (default true). */
  fallbackPort?: boolean;
  host?: string;
  storageFile?: string;
  bounceMs?: number;
  seed?: number;
  /** Advance the board with real time (default true). Off, time moves only by commands (wait, tap). */
  realtime?: boolean;
  /** Power the board on at start (default true). */
  powerOn?: boolean;
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
  /** Watching the unit play (sim/watch.ts): running or not, the latest line and the recent ones; null before the first watch. */
  watch: WatchStatus | null;
  /** What the unit shows and what to do next, in words, with the scores as numbers and the keys' legends (sim/status.ts). */
  status: UnitStatus;
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

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const board = new VirtualBoard({
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

  let running = opts.realtime ?? true;
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
      now: board.now,
      on: board.isOn,
      ledsPowered: board.ledsPowered,
      running,
      battery: { ...bat, level: b ? Math.max(0, Math.min(1, (bat.volts - b.emptyV) / (b.fullV - b.emptyV))) : null },
      tone: board.tone,
      segments: screenViews(board),
      pressed: board.keys.filter((k) => board.isPressed(k.id)).map((k) => k.id),
      errors: board.errors.slice(-20),
      console: board.consoleLog.slice(-40),
      view: { ...view },
      flip: flipCards(),
      watch: watcher ? watcher.status() : null,
      status: unitStatus.status(),
    };
  };
  const send = (res: ServerResponse, event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
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

  if (opts.powerOn ?? true) board.powerOn();

  // Watching the unit play: the watcher acts at the board times it asks for, between the clock's steps.
  let watcher: Watcher | null = null;
  let watches = 0;
  const advanceTo = (t: number) => {
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
    return w;
  };

  const tick = () => {
    const t = performance.now();
    const dt = Math.min(t - lastReal, MAX_STEP_MS);
    lastReal = t;
    if (running) {
      target += dt;
      advanceTo(target);
    }
    flush();
  };
  const timer = setInterval(tick, TICK_MS);

  /** Runs script lines; returns the text picture of every `show` (the secret only while the shield is open). */
  const command = (text: string): string[] => {
    const cmds = parseScript(text, profile);
    const shown: string[] = [];
    // A key pressed by hand takes over from a watch.
    if (watcher && !watcher.done && cmds.some((c) => c.op === "press" || c.op === "tap")) watcher.stop("a key was pressed by hand");
    try {
      for (const cmd of cmds) {
        // A wait lets a watch go on acting; everything else runs as in a script.
        if (cmd.op === "wait") advanceTo(board.now + cmd.ms);
        else runCommand(board, cmd, (c) => shown.push(formatBoard(board, { showSecret: view.shield, title: `show (line ${c.line})` })));
      }
      return shown;
    } finally {
      // Time a command ran (a tap's hold, a wait) is not run again by the real-time clock.
      if (board.now > target) target = board.now;
      dirty = true;
      flush();
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String((e as Error)?.stack ?? e));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(data));
    };
    if (req.method === "GET" && path === "/api/layout") return json(200, layout);
    if (req.method === "GET" && path === "/api/state") return json(200, state());
    if (req.method === "GET" && path === "/api/pictures") return json(200, pictureList());
    if (req.method === "GET" && path === "/api/events") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
      res.write("retry: 1000\n\n");
      clients.add(res);
      send(res, "state", state());
      req.on("close", () => clients.delete(res));
      return;
    }
    if (req.method === "POST" && path === "/api/command") {
      const text = await body(req);
      try {
        const shown = command(text);
        return json(200, { ok: true, now: board.now, ran: parseScript(text, profile).map(formatCommand), shown });
      } catch (e) {
        if (e instanceof ScriptError || e instanceof ExpectFailure) return json(400, { ok: false, error: e.message });
        throw e;
      }
    }
    if (req.method === "POST" && path === "/api/view") {
      let data: Partial<ViewSwitches>;
      try {
        data = JSON.parse(await body(req)) as Partial<ViewSwitches>;
      } catch {
        return json(400, { ok: false, error: 'the body must be JSON like {"shield": true}' });
      }
      for (const k of ["shield", "labels", "muted"] as const) if (typeof data[k] === "boolean") view[k] = data[k];
      dirty = true;
      flush();
      return json(200, { ok: true, view });
    }
    if (req.method === "POST" && path === "/api/watch") {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(await body(req)) as Record<string, unknown>;
      } catch {
        return json(400, { ok: false, error: 'the body must be JSON like {"action": "start", "preset": "race"}' });
      }
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
    if (req.method === "GET" || req.method === "HEAD") return serveStatic(path, res);
    json(405, { ok: false, error: `${req.method} ${path} is not served` });
  }

  const requested = opts.port ?? DEFAULT_PORT;
  let portTaken: number | undefined;
  try {
    await listen(server, requested, opts.host ?? "127.0.0.1");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE" || opts.fallbackPort === false) {
      clearInterval(timer);
      throw e;
    }
    portTaken = requested;
    await listen(server, 0, opts.host ?? "127.0.0.1");
  }
  const port = (server.address() as AddressInfo).port;
  const host = opts.host && opts.host !== "0.0.0.0" ? opts.host : "127.0.0.1";

  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    port,
    portTaken,
    board,
    command,
    setRunning(on: boolean) {
      running = on;
      lastReal = performance.now();
      target = board.now;
      dirty = true;
    },
    get running() {
      return running;
    },
    view,
    get deal() {
      return deal.deal;
    },
    advance(ms: number) {
      advanceTo(board.now + ms);
      if (board.now > target) target = board.now;
      dirty = true;
      flush();
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
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        watcher?.stop();
        stopWatchingSaves();
        for (const c of clients) c.end();
        clients.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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

function body(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error("request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function serveStatic(path: string, res: ServerResponse): void {
  const rel = normalize(decodeURIComponent(path === "/" ? "/index.html" : path)).replace(/^([/\\])+/, "");
  const file = join(PAGE_DIR, rel);
  if (!file.startsWith(PAGE_DIR.endsWith(sep) ? PAGE_DIR : PAGE_DIR + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end(`not found: ${path}`);
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-cache" });
  res.end(readFileSync(file));
}
