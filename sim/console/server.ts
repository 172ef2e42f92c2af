/**
 * The board's console (repl.ts) on a local TCP port.
 *
 * Security: the firmware's realm holds no host function (see MEMBRANE in sim/runtime/realm.ts), so what a client types
 * reaches only what the firmware can reach. The port is 127.0.0.1 only; `npm run sim:console` demands a per-run
 * token as the first line (--no-token for the espruino CLI); a first line that looks like HTTP (a web page's
 * fetch to this port) closes the connection before a byte of it runs.
 *
 * Virtual time: while a client is connected (option `clock: "connected"`, the default), a 10 ms real-time
 * tick advances the board by the real time that passed (at most 250 ms a tick), so the firmware's timers run
 * in step with the wall clock; between clients the board stands still. Each executed line is followed by an
 * idle-loop pass at the same virtual time (`advance(0)`), so a `load()` or `reset()` has rebooted the board
 * before the next line is read. `clock: "always"` (the npm script) keeps the board running between clients;
 * `clock: "manual"` leaves time to the caller.
 *
 * One client at a time, on 127.0.0.1 only. A client connecting to an unpowered board powers it (USB does).
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import type { VirtualBoard } from "../board/board.ts";
import { EspruinoConsole } from "./repl.ts";

export const DEFAULT_CONSOLE_PORT = 4001;
export const CONSOLE_HOST = "127.0.0.1";
/** How often the board is advanced with real time while the clock runs. */
export const CONSOLE_TICK_MS = 10;
/** The most virtual time one tick may run (after the process was suspended, time does not race to catch up). */
const MAX_STEP_MS = 250;

// ---------------------------------------------------------------- the TCP server

export interface ConsoleServerOptions {
  /** TCP port (default 0: any free port). */
  port?: number;
  /** Loopback only. */
  host?: "127.0.0.1";
  /**
   * How the board's clock moves: "connected" (default) with real time while a client is connected,
   * "always" with real time until close(), "manual" only when the caller advances it.
   */
  clock?: "connected" | "always" | "manual";
  /** Notices (client connected, refused, gone). */
  log?: (line: string) => void;
  /**
   * A secret the client must send as its first line before the console takes anything (null: no token,
   * for the espruino CLI, which cannot send one). Either way, a client whose first line looks like HTTP
   * (a web page's fetch to this port) is cut off before a byte of it runs.
   */
  token?: string | null;
}

/** The first line of an HTTP request, or a header line: what a browser sends to any port a page names. */
const HTTP_LOOKING = /^[A-Z]{3,12} +(?:\/|\*|[a-z]+:\/\/)|^[A-Za-z][A-Za-z0-9-]*: |HTTP\/\d/;
/** The most a client may send before its first line ends (the token line). */
const FIRST_LINE_MAX = 256;

/** Is this the first line of an HTTP request (or a header)? Such input is never run. */
export function looksLikeHttp(line: string): boolean {
  return HTTP_LOOKING.test(line.replace(/^\x10/, ""));
}

/** Equal strings, compared in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "latin1");
  const y = Buffer.from(b, "latin1");
  return x.length === y.length && timingSafeEqual(x, y);
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::ffff:127.0.0.1" || address === "::1";
}

export interface ConsoleServer {
  port: number;
  /** The REPL behind the port. */
  console: EspruinoConsole;
  close(): Promise<void>;
}

/** Offers the board's console on 127.0.0.1:port, one client at a time. */
export function startConsoleServer(board: VirtualBoard, opts: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  const host = opts.host ?? CONSOLE_HOST;
  if (host !== CONSOLE_HOST) return Promise.reject(new Error(`the console listens on ${CONSOLE_HOST} only, not ${String(host)}`));
  const clockMode = opts.clock ?? "connected";
  const log = opts.log ?? (() => {});
  const repl = new EspruinoConsole(board);
  let client: Socket | null = null;
  let lastReal = performance.now();

  const tick = () => {
    const t = performance.now();
    const dt = Math.min(t - lastReal, MAX_STEP_MS);
    lastReal = t;
    const running = clockMode === "always" || (clockMode === "connected" && client !== null);
    try {
      if (running && dt > 0) board.advance(dt);
      repl.idle();
    } catch (e) {
      log(`console: ${(e as Error).message}`);
    }
  };
  const timer = clockMode === "manual" ? null : setInterval(tick, CONSOLE_TICK_MS);

  const token = opts.token ?? null;
  const server: Server = createServer((socket) => {
    const who = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.on("error", () => {});
    if (!isLoopback(socket.remoteAddress)) {
      log(`console: refused ${who}: not a loopback client`);
      socket.destroy();
      return;
    }
    if (client) {
      log(`console: refused ${who}: another client is connected`);
      socket.end("Console busy: another client is connected\r\n");
      return;
    }
    client = socket;
    socket.setNoDelay(true);
    // Nothing reaches the REPL until the first line has shown this is not a web page (and has the token).
    let first: string | null = "";
    const admit = () => {
      log(`console: ${who} connected`);
      lastReal = performance.now();
      repl.attach((text) => {
        if (!socket.destroyed) socket.write(Buffer.from(text, "latin1"));
      });
      if (!board.isOn) board.powerOn(); // the USB cable powers the board
      repl.idle();
    };
    const refuse = (why: string, tell: string) => {
      log(`console: refused ${who}: ${why}`);
      first = null;
      socket.end(tell);
      socket.destroy();
    };
    // Without a token the client is admitted at once (the espruino CLI waits for nothing), but its input
    // is held until its first line has shown it is not HTTP.
    let checked = false;
    let pending = "";
    if (token === null) {
      first = null;
      admit();
    }
    socket.on("data", (d: Buffer) => {
      let text = d.toString("latin1");
      if (first !== null) {
        first += text;
        const end = first.search(/[\r\n]/);
        if (end < 0) {
          if (first.length > FIRST_LINE_MAX) refuse("no token line", "Console: a token line first\r\n");
          else if (looksLikeHttp(first)) refuse("it speaks HTTP (a web page?)", "");
          return;
        }
        const line = first.slice(0, end).replace(/^\x10/, "");
        text = first.slice(end).replace(/^\r?\n?/, "");
        if (looksLikeHttp(line)) return refuse("it speaks HTTP (a web page?)", "");
        if (!sameSecret(line, token!)) return refuse("wrong token", "Console: wrong token\r\n");
        first = null;
        checked = true;
        admit();
        if (!text) return;
      } else if (!checked) {
        pending += text;
        const end = pending.search(/[\r\n]/);
        if (looksLikeHttp(end < 0 ? pending : pending.slice(0, end))) return refuse("it speaks HTTP (a web page?)", "");
        if (end < 0 && pending.length <= FIRST_LINE_MAX) return;
        checked = true;
        text = pending;
        pending = "";
      }
      try {
        repl.input(text);
      } catch (e) {
        log(`console: ${(e as Error).message}`);
      }
    });
    socket.on("close", () => {
      if (client === socket) {
        client = null;
        repl.detach();
        log(`console: ${who} disconnected`);
      }
    });
  });

  return new Promise((resolveStart, rejectStart) => {
    server.once("error", (e) => {
      if (timer) clearInterval(timer);
      repl.dispose();
      rejectStart(e);
    });
    server.listen(opts.port ?? 0, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolveStart({
        port,
        console: repl,
        close: () =>
          new Promise<void>((done) => {
            if (timer) clearInterval(timer);
            client?.destroy();
            repl.dispose();
            server.close(() => done());
          }),
      });
    });
  });
}
