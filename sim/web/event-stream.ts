/** GET /api/events: the server-sent event stream, "state" on every change and "tone" on every change of the buzzer. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_STREAM_BACKLOG, MAX_STREAM_CLIENTS, type SimState } from "./types.ts";

export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  /** Something changed since the last "state" sent. */
  dirty = true;
  private toneSent: number;

  constructor(
    private readonly tones: () => readonly unknown[],
    private readonly now: () => number,
    private readonly state: () => SimState,
  ) {
    this.toneSent = tones().length;
  }

  get size(): number {
    return this.clients.size;
  }

  /** Takes a client, or refuses it (false) when there are too many already. */
  open(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.clients.size >= MAX_STREAM_CLIENTS) return false;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    res.write("retry: 1000\n\n");
    this.clients.add(res);
    this.send(res, "state", this.state());
    req.on("close", () => this.clients.delete(res));
    return true;
  }

  /** One event to a client; a client that has not read what it was sent before is dropped (it fell behind). */
  private send(res: ServerResponse, event: string, data: unknown): void {
    if (res.writableLength > MAX_STREAM_BACKLOG) {
      this.clients.delete(res);
      res.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Sends the new tones, and the state when it changed. */
  flush(): void {
    const tones = this.tones();
    if (tones.length > this.toneSent) {
      const fresh = tones.slice(this.toneSent);
      this.toneSent = tones.length;
      for (const c of this.clients) this.send(c, "tone", { now: this.now(), tones: fresh });
    }
    if (this.dirty && this.clients.size) {
      this.dirty = false;
      const s = this.state();
      for (const c of this.clients) this.send(c, "state", s);
    }
  }

  close(): void {
    for (const c of this.clients) c.end();
    this.clients.clear();
  }
}
