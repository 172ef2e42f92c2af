/**
 * The host's end of the command link to the prelude (prelude.ts): a listener on a free loopback port, a
 * random token the prelude must send first, lines queued until it has connected, and the answers the
 * host waits for (each with a timeout, and failed at once when the interpreter stops).
 */
import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";

export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineError";
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Waiter {
  match: (r: string) => boolean;
  resolve: (r: string) => void;
  fail: (why: string) => void;
}

export interface LinkOptions {
  /** Whether a connection may become the prelude's (the interpreter is running). */
  accepting(): boolean;
  /** The listener failed. */
  onError(message: string): void;
  /** How long to wait for an answer before calling the interpreter stuck. */
  answerTimeoutMs: number;
}

export class PreludeLink {
  /** The listener's port (0 until it listens). */
  port = 0;
  readonly token = randomBytes(16).toString("hex");
  private server: Server | null = null;
  /** The prelude's connection (null until it has sent the token). */
  private socket: Socket | null = null;
  /** Lines waiting for the prelude's connection. */
  private outQueue: string[] = [];
  private waiters: Waiter[] = [];

  constructor(private readonly opts: LinkOptions) {}

  /** Listens (once) on a free loopback port for the prelude's connection. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((sock) => this.onConnection(sock));
    server.on("error", (e) => this.opts.onError(`the host link failed: ${e.message}`));
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(0, "127.0.0.1", () => {
        server.off("error", fail);
        done();
      });
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Closes the listener. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }

  /** Sends a line to the prelude, or queues it until the prelude has connected. */
  write(line: string): void {
    if (this.socket) this.socket.write(line + "\n");
    else this.outQueue.push(line);
  }

  /** Forgets the connection and what waited for it (the process it belongs to is gone or going). */
  drop(): void {
    this.socket?.destroy();
    this.socket = null;
    this.outQueue = [];
  }

  /** Resolves with the first report that matches; rejects after the answer timeout or when failAll is called. */
  waitFor(match: (r: string) => boolean, what: string): Promise<string> {
    const timeout = this.opts.answerTimeoutMs;
    return new Promise((resolve, reject) => {
      const w: Waiter = {
        match,
        resolve: (r: string) => {
          clearTimeout(timer);
          resolve(r);
        },
        fail: (m: string) => {
          clearTimeout(timer);
          reject(new EngineError(`${m} while waiting for the interpreter ${what}`));
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(
          new EngineError(`the interpreter did not get ${what} within ${timeout / 1000} s (its event loop is blocked, or it stopped)`),
        );
      }, timeout);
      this.waiters.push(w);
    });
  }

  /** Fails everything waiting, with why. */
  failAll(why: string): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w.fail(why);
  }

  /** A report from the prelude: it answers whatever waited for it. */
  report(r: string): void {
    for (const w of [...this.waiters])
      if (w.match(r)) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(r);
      }
  }

  /** A connection: it becomes the prelude's once its first line is the token; anything else is closed. */
  private onConnection(sock: Socket): void {
    sock.setNoDelay(true);
    let first = "";
    const timer = setTimeout(() => sock.destroy(), 60_000);
    const onData = (d: Buffer) => {
      first += d.toString("latin1");
      const i = first.indexOf("\n");
      if (i < 0) {
        if (first.length > 64) sock.destroy();
        return;
      }
      clearTimeout(timer);
      sock.off("data", onData);
      if (first.slice(0, i) !== this.token || !this.opts.accepting()) {
        sock.destroy();
        return;
      }
      this.socket?.destroy();
      this.socket = sock;
      sock.on("data", () => {});
      sock.on("close", () => {
        if (this.socket === sock) this.socket = null;
      });
      const queued = this.outQueue;
      this.outQueue = [];
      if (queued.length) sock.write(queued.map((l) => l + "\n").join(""));
    };
    sock.on("data", onData);
    sock.on("error", () => {});
    sock.on("close", () => clearTimeout(timer));
  }
}
