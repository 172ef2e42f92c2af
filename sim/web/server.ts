/**
 * The simulator's web server: runs the virtual board in step with real time and serves the page
 * (sim/web/page/) that draws it. The page holds no state: it renders what this server sends and sends
 * back the same commands scripts use (sim/play/script.ts).
 *
 *   GET  /                  the page (sim/web/page/index.html; style.css and app.js: style.css with its parts, app.ts with its modules, each bundled by esbuild)
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
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { VirtualBoard } from "../board/board.ts";
import { EngineError, EspruinoBoard } from "../espruino/engine.ts";
import { SLOT_NAMES } from "../board/saves.ts";
import { unitProfile } from "../../hardware/unit-profile.ts";
import { keyAliases, keyboardShortcuts } from "../../hardware/key-names.ts";
import {
  CommandBudget,
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
import { Watcher, type WatchOptions } from "../play/watch.ts";
import { StatusReader } from "../views/status.ts";
import { COLOUR_INITIALS, INITIALS_LEGEND, screenViews, type ScreenPixel } from "../views/view.ts";
import { EventStream } from "./event-stream.ts";
import { FlipDeal } from "./flip-deal.ts";
import { listen } from "./http.ts";
import { routes } from "./routes.ts";
import {
  COMMAND_CPU_MS,
  DEFAULT_PORT,
  REAL_COMMAND_MS,
  TICK_MS,
  TOKEN_HEADER,
  type EspruinoSimulator,
  type SimLayout,
  type Simulator,
  type SimulatorOptions,
  type SimState,
  type ViewSwitches,
} from "./types.ts";

export { PAGE_DIR } from "./http.ts";
export * from "./types.ts";

/** The most virtual time one tick may run (after the process was suspended, time does not race to catch up). */
const MAX_STEP_MS = 250;
/** On the real interpreter: how long the server waits for it to answer before calling it stuck. */
const REAL_ANSWER_MS = 20_000;

export function startSimulator(opts: SimulatorOptions & { engine: "espruino" }): Promise<EspruinoSimulator>;
export function startSimulator(opts?: SimulatorOptions & { engine?: "sim" }): Promise<Simulator>;
export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator | EspruinoSimulator> {
  const real = opts.engine === "espruino";
  if (real && opts.storageFile)
    throw new Error("a storage file is for the virtual board: the real interpreter keeps Storage in its own flash file");
  // The profile is compiled here, once, and every part is handed the one compiled profile.
  const unit = unitProfile(opts.profile);
  const board: VirtualBoard | EspruinoBoard = real
    ? new EspruinoBoard({
        profile: unit,
        firmware: opts.firmware ?? readFileSync(DEFAULT_OUT, "latin1"),
        bounceMs: opts.bounceMs,
        seed: opts.seed,
        mirror: SLOT_NAMES,
        answerTimeoutMs: REAL_ANSWER_MS,
      })
    : new VirtualBoard({
        profile: unit,
        firmware: opts.firmware,
        storageFile: opts.storageFile,
        bounceMs: opts.bounceMs,
        seed: opts.seed,
      });
  const profile = unit.profile;
  const layout: SimLayout = {
    geometry: unit.geometry,
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
  let lastReal = performance.now();
  let target = board.now;

  const flip = new FlipDeal(board, opts.seed, opts.storageFile, () => (events.dirty = true));

  const unitStatus = new StatusReader(board);
  const state = (): SimState => {
    const bat = board.battery;
    const b = profile.battery;
    const status = unitStatus.status(view.shield);
    // A person is to break the code: the shield closes itself, so that the page never shows the secret then.
    if (status.secretHidden && view.shield && shielded.length) view.shield = false;
    return {
      engine: real ? "espruino" : "sim",
      now: board.now,
      on: board.isOn,
      ledsPowered: board.ledsPowered,
      running,
      battery: { ...bat, level: b ? Math.max(0, Math.min(1, (bat.volts - b.emptyV) / (b.fullV - b.emptyV))) : null },
      tone: board.tone,
      segments: redacted(screenViews(board)),
      // (Brain Flip's Master answers in the open: the page leaves the codemaker pad uncovered then.)
      pressed: board.keys
        .filter((k) => board.isPressed(k.id) && (view.shield || !makerKeys.has(k.id) || status.screen === "brainflip"))
        .map((k) => k.id),
      errors: board.errors.slice(-20),
      console: board.consoleLog.slice(-40),
      view: { ...view },
      flip: flip.cards(),
      watch: watcher ? watcher.status() : null,
      status,
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
  const events = new EventStream(
    () => board.tones,
    () => board.now,
    () => state(),
  );
  const flush = () => events.flush();
  const markDirty = () => {
    events.dirty = true;
  };
  for (const ev of ["leds", "power", "reset", "console"] as const) board.on(ev, markDirty);
  if (board instanceof VirtualBoard) board.on("storage", markDirty);
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
      events.dirty = true;
    });
    events.dirty = true;
    if (board instanceof EspruinoBoard) void watchReal(board, w);
    return w;
  };
  /** On the real interpreter the watcher acts as watchRealTime lets it: each step once the unit has taken its keys. */
  const watchReal = async (b: EspruinoBoard, w: Watcher) => {
    try {
      while (!w.done) {
        await b.advance(Math.max(0, Math.min(w.wakeAt - b.now, 500)));
        w.poll();
        events.dirty = true;
      }
    } catch (e) {
      w.stop(e instanceof EngineError ? e.message : "the unit did not answer");
      events.dirty = true;
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
  const command = (text: string, cpuMs = COMMAND_CPU_MS): string[] => runParsed(parseScript(text, unit), cpuMs);
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
      events.dirty = true;
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
        events.dirty = true;
        flush();
      }
    };
    const p = realQueue.then(run);
    realQueue = p.catch(() => {});
    return p;
  };
  const commandReal = (text: string): Promise<string[]> => runParsedReal(parseScript(text, unit));

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

  const handle = routes({
    layout,
    state,
    view,
    events,
    flush,
    async run(text) {
      const cmds = parseScript(text, unit);
      const shown = real ? await runParsedReal(cmds) : runParsed(cmds, COMMAND_CPU_MS);
      return { now: board.now, ran: cmds.map(formatCommand), shown };
    },
    watcher: () => watcher,
    startWatch,
    port: () => port,
    host: opts.host,
    token,
  });
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
    flip.stop();
    events.close();
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
      return events.size;
    },
    portTaken,
    get running() {
      return running;
    },
    view,
    get deal() {
      return flip.current;
    },
    watch: startWatch,
    stopWatch() {
      watcher?.stop();
      events.dirty = true;
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
        events.dirty = true;
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
      events.dirty = true;
    },
    advance(ms: number) {
      advanceTo(vboard.now + ms);
      if (vboard.now > target) target = vboard.now;
      events.dirty = true;
      flush();
    },
  };
  return Object.defineProperties(own, Object.getOwnPropertyDescriptors(common)) as unknown as Simulator;
}
