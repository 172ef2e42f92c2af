/** The web server's routes (listed in server.ts): each request checked (security.ts), then answered. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ExpectFailure, CapExceeded, ScriptError } from "../play/script.ts";
import type { Watcher, WatchOptions } from "../play/watch.ts";
import { EngineError } from "../espruino/engine.ts";
import { pictureList } from "../views/pictures.ts";
import type { EventStream } from "./event-stream.ts";
import { body, BodyTooLarge, serveStatic } from "./http.ts";
import { refusal } from "./security.ts";
import { MAX_BODY_BYTES, MAX_STREAM_CLIENTS, type SimLayout, type SimState, type ViewSwitches } from "./types.ts";
import { watchOptions, watchProblem } from "./watch-request.ts";

/** What the routes reach of the running simulator. */
export interface RouteContext {
  layout: SimLayout;
  state(): SimState;
  view: ViewSwitches;
  events: EventStream;
  flush(): void;
  /** Runs script lines on the unit: the board's time after, the lines as run, and what `show` printed. */
  run(text: string): Promise<{ now: number; ran: string[]; shown: string[] }>;
  watcher(): Watcher | null;
  startWatch(opts: WatchOptions): Watcher;
  /** The port listened on (known once listening). */
  port(): number;
  /** The address asked to listen on (--host), if any. */
  host: string | undefined;
  token: string;
}

export function routes(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { events, view } = ctx;
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    const refused = refusal(req, url, ctx.port(), ctx.host, ctx.token);
    if (refused) return refuse(...refused);
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
    if (req.method === "GET" && path === "/api/layout") return json(200, ctx.layout);
    if (req.method === "GET" && path === "/api/state") return json(200, ctx.state());
    if (req.method === "GET" && path === "/api/pictures") return json(200, pictureList());
    if (req.method === "GET" && path === "/api/events") {
      if (!events.open(req, res)) return refuse(503, `at most ${MAX_STREAM_CLIENTS} event streams at once`);
      return;
    }
    if (req.method === "POST" && path === "/api/command") {
      const text = await readBody();
      if (text === null) return;
      try {
        return json(200, { ok: true, ...(await ctx.run(text)) });
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
      events.dirty = true;
      ctx.flush();
      return json(200, { ok: true, view });
    }
    if (req.method === "POST" && path === "/api/watch") {
      const data = await jsonBody('{"action": "start", "preset": "race"}');
      if (!data) return;
      if (data.action === "stop") {
        ctx.watcher()?.stop();
        ctx.flush();
        return json(200, { ok: true, watch: ctx.watcher()?.status() ?? null });
      }
      if (data.action !== "start") return json(400, { ok: false, error: 'action must be "start" or "stop"' });
      const problem = watchProblem(data);
      if (problem) return json(400, { ok: false, error: problem });
      const w = ctx.startWatch(watchOptions(data));
      ctx.flush();
      return json(200, { ok: true, watch: w.status() });
    }
    if (path.startsWith("/api/")) return refuse(404, `${String(req.method).slice(0, 10)} ${path.slice(0, 100)} is not served`);
    if (req.method === "GET" || req.method === "HEAD") return serveStatic(path, res, ctx.token);
    refuse(405, `${String(req.method).slice(0, 10)} ${path.slice(0, 100)} is not served`);
  };
}
