/**
 * A minimal client of an Espruino board's console (the REPL), for the flash tool's questions before and after an
 * upload: the version, the Storage, a checksum of what was written. The upload itself stays with the espruino CLI.
 *
 * A question is one line sent with echo off (a leading 0x10, as the CLI sends its own), whose answer is printed
 * between markers that the line itself does not contain (they are built by concatenation on the board), so that
 * whatever else the firmware prints around it does not matter. Ports: tcp://HOST:PORT (the simulator's console, or
 * `espruino --telnet`), or a serial device through the CLI's own serialport package.
 */
import { createRequire } from "node:module";
import { connect, type Socket } from "node:net";

/** What goes wrong talking to the console, with what to do; the flash tool turns it into its own error. */
export class ConsoleError extends Error {
  constructor(
    message: string,
    /** 2: nothing to talk to (fix the port or the cable); 1: the board answered wrongly or not at all. */
    readonly exitCode: 1 | 2,
  ) {
    super(message);
    this.name = "ConsoleError";
  }
}

/** What to do when the console is locked (a two-player game holds a secret): the recovery, for every message that needs it. */
export const LOCKED_CONSOLE_HELP = [
  "the board's console is locked (it asks for a password): the firmware locks it while a two-player game holds a secret.",
  "  Finish that game on the unit, or leave it for a new one (menu, OK, OK again to confirm; the lock stays while any",
  "  two-player game holds a secret, on whichever screen), or start the board without running its code: on a Pico, unplug it, plug it",
  "  in and press its button just after plugging in (not before: held while plugging in starts the bootloader); the",
  "  LEDs flash and .bootcde is skipped. Then flash again with --erase (without it the firmware resumes that game and locks",
  "  the console again). See hardware/README.md, A locked console.",
].join("\n");

interface Link {
  write(text: string): void;
  close(): Promise<void>;
}

const OPEN = '"<"+"<BB"';
const CLOSE = '"BB>"+">"';
const ANSWER = /<<BB ([^\r\n]*) BB>>/;

export class BoardConsole {
  private buffer = "";
  private closed = false;

  private constructor(
    readonly port: string,
    private readonly link: Link,
  ) {}

  /** Opens the console at `port`; refuses with what to do when nothing answers there. */
  static async open(port: string, opts: { baud?: number; cliRequire?: NodeJS.Require; timeoutMs?: number } = {}): Promise<BoardConsole> {
    // Whatever arrives before the console object exists (a banner, a prompt) is kept for it.
    const early: string[] = [];
    const at: { board?: BoardConsole } = {};
    const onData = (d: Buffer) => (at.board ? at.board.received(d.toString("latin1")) : early.push(d.toString("latin1")));
    const link = port.startsWith("tcp://") ? await openTcp(port, onData, opts.timeoutMs ?? 5000) : await openSerial(port, onData, opts);
    const board = new BoardConsole(port, link);
    at.board = board;
    board.received(early.join(""));
    return board;
  }

  private received(text: string): void {
    this.buffer += text;
    if (this.buffer.length > 1 << 20) this.buffer = this.buffer.slice(-65536); // a chatty firmware: keep the tail
  }

  /**
   * Evaluates `expression` on the board and resolves with its value (through JSON). A thrown error, a locked console
   * or no answer within the time is a ConsoleError naming what happened.
   */
  async query<T>(expression: string, timeoutMs = 10_000): Promise<T> {
    if (this.closed) throw new ConsoleError(`the console at ${this.port} was closed`, 1);
    this.buffer = "";
    this.link.write(`\x10print(${OPEN},JSON.stringify(${expression}),${CLOSE})\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = ANSWER.exec(this.buffer);
      if (m) {
        if (m[1] === "undefined") return undefined as T;
        try {
          return JSON.parse(m[1]) as T;
        } catch {
          throw new ConsoleError(
            `the board's answer could not be read (${JSON.stringify(m[1].slice(0, 80))}): is this an Espruino console?`,
            1,
          );
        }
      }
      if (/password>/.test(this.buffer)) throw new ConsoleError(LOCKED_CONSOLE_HELP, 1);
      const uncaught = /Uncaught [^\r\n]*/.exec(this.buffer);
      if (uncaught) throw new ConsoleError(`the board answered a question of the flash tool with an error: ${uncaught[0]}`, 1);
      if (Date.now() > deadline)
        throw new ConsoleError(
          [
            `the board at ${this.port} did not answer within ${Math.round(timeoutMs / 1000)} s`,
            this.buffer.trim() ? `  it printed: ${JSON.stringify(this.buffer.trim().slice(-200))}` : "  it printed nothing",
            "  is Espruino running there, and is the console on this port? Unplug and replug the board, then try again",
          ].join("\n"),
          1,
        );
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Sends a line and waits for it to be done (a query after it), for commands that return nothing useful. */
  async run(statement: string, timeoutMs = 30_000): Promise<void> {
    await this.query(`(function(){${statement};return 1;})()`, timeoutMs);
  }

  /** Closes the link; resolves once the port is free for the next client (the CLI). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.link.close();
  }
}

/** HOST and PORT of tcp://HOST:PORT; an IPv6 address goes in brackets (tcp://[::1]:4001). */
export function parseTcp(port: string): { host: string; port: number } {
  const m = /^tcp:\/\/(?:\[([0-9A-Fa-f:.]+)\]|([^:/[\]]+)):(\d+)\/?$/.exec(port);
  if (!m)
    throw new ConsoleError(
      `${port} is not a tcp:// port: write it as tcp://HOST:PORT, e.g. tcp://127.0.0.1:2323 (an IPv6 address in brackets: tcp://[::1]:2323)`,
      2,
    );
  const n = Number(m[3]);
  if (!(n >= 1 && n <= 65535)) throw new ConsoleError(`${port}: the port must be a number from 1 to 65535, not ${m[3]}`, 2);
  return { host: m[1] ?? m[2], port: n };
}

function openTcp(port: string, onData: (d: Buffer) => void, timeoutMs: number): Promise<Link> {
  const where = parseTcp(port);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(where.port, where.host);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ConsoleError(`no connection to ${port} within ${Math.round(timeoutMs / 1000)} s: is the host reachable?`, 2));
    }, timeoutMs);
    socket.once("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new ConsoleError(
          e.code === "ECONNREFUSED"
            ? [
                `nothing is listening on ${port}: start the console first`,
                "  the simulator: npm run sim:console (it prints its port); Espruino for Linux: espruino --telnet (port 2323)",
              ].join("\n")
            : `cannot connect to ${port}: ${e.message}`,
          2,
        ),
      );
    });
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.on("data", onData);
      socket.on("error", () => {}); // a reset by the other end after the work is done is not a failure
      // The other end may have closed first (the link dropped): then there is nothing to wait for.
      let gone = false;
      socket.once("close", () => (gone = true));
      resolve({
        write: (t) => socket.write(Buffer.from(t, "latin1")),
        close: () =>
          new Promise<void>((done) => {
            if (gone || socket.destroyed) return done();
            socket.once("close", () => done());
            socket.end();
            setTimeout(() => socket.destroy(), 500).unref();
          }),
      });
    });
  });
}

interface SerialPortLike {
  on(event: "data", fn: (d: Buffer) => void): void;
  on(event: "error", fn: (e: Error) => void): void;
  write(data: Buffer): void;
  close(cb?: () => void): void;
}

async function openSerial(path: string, onData: (d: Buffer) => void, opts: { baud?: number; cliRequire?: NodeJS.Require }): Promise<Link> {
  let SerialPort: new (o: {
    path: string;
    baudRate: number;
    autoOpen: boolean;
  }) => SerialPortLike & { open(cb: (e: Error | null) => void): void };
  try {
    SerialPort = (opts.cliRequire ?? createRequire(import.meta.url))("serialport").SerialPort;
  } catch {
    throw new ConsoleError("the serialport package (the espruino CLI's optional dependency) is not installed: run npm install", 2);
  }
  const sp = new SerialPort({ path, baudRate: opts.baud ?? 9600, autoOpen: false });
  await new Promise<void>((resolve, reject) =>
    sp.open((e) => (e ? reject(new ConsoleError(`cannot open ${path}: ${e.message}`, 2)) : resolve())),
  );
  sp.on("data", onData);
  sp.on("error", () => {});
  // A port already closed (the cable pulled) answers close() with an error, or not at all: half a second at most.
  return {
    write: (t) => sp.write(Buffer.from(t, "latin1")),
    close: () =>
      new Promise<void>((done) => {
        setTimeout(done, 500);
        try {
          sp.close(() => done());
        } catch {
          done();
        }
      }),
  };
}
