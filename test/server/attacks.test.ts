/**
 * Issue 14, probes 3, 4, 5 and the server's part of 8: the simulator's web server (sim/web/server.ts) facing a
 * hostile web page, DNS rebinding, runaway commands, malformed requests and slow clients. Loopback only;
 * every server is closed after its test.
 */
import { afterEach, describe, expect, it } from "vitest";
import { connect } from "node:net";
import { request } from "node:http";
import { MAX_BODY_BYTES, startSimulator, TOKEN_HEADER, type SimState, type Simulator } from "../../sim/web/server.ts";
import { bootBoard, CapExceeded, CommandBudget, MAX_WAIT_MS, parseScript, runCommands, ScriptError } from "../../sim/play/script.ts";
import { firmware } from "../views/helpers.ts";

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function start(): Promise<Simulator> {
  const sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, seed: 3, log: () => {} });
  sims.push(sim);
  sim.command("wait 200");
  return sim;
}

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw HTTP request (any Host, any method, any path), as a hostile client sends it. */
function raw(sim: Simulator, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: sim.port,
        method: opts.method ?? "GET",
        path: opts.path,
        headers: opts.headers,
        setHost: !opts.headers?.host,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** No stack trace and no absolute path of this machine in what the server said. */
function expectNoInternals(a: Answer): void {
  expect(a.text).not.toMatch(/\n\s+at |\.ts:\d+|node:internal/);
  expect(a.text).not.toContain(process.cwd());
  expect(a.text).not.toMatch(/\/(home|work|tmp|Users)\//);
}

describe("probe 3: other web pages cannot drive the simulator", () => {
  it("a cross-origin text/plain POST (the page-switches-the-unit-off probe) is refused and changes nothing", async () => {
    const sim = await start();
    const a = await raw(sim, {
      method: "POST",
      path: "/api/command",
      headers: { origin: "https://evil.example", "content-type": "text/plain", [TOKEN_HEADER]: sim.token },
      body: "power off",
    });
    expect(a.status).toBe(403);
    expect(sim.board.isOn).toBe(true);
  });

  it("a request that names another host (DNS rebinding) gets no state", async () => {
    const sim = await start();
    for (const host of [`evil.example:${sim.port}`, `127.0.0.1.nip.io:${sim.port}`, `127.0.0.1:${sim.port + 1}`, "localhost"]) {
      const a = await raw(sim, { path: "/api/state", headers: { host, [TOKEN_HEADER]: sim.token } });
      expect(a.status, host).toBe(403);
      expect(a.text).not.toContain("segments");
    }
    const page = await raw(sim, { path: "/", headers: { host: `evil.example:${sim.port}` } });
    expect(page.status).toBe(403);
    expect(page.text).not.toContain(sim.token);
  });

  it("every API request needs the per-run token; the page's HTML carries it, without any CORS header", async () => {
    const sim = await start();
    for (const path of ["/api/state", "/api/layout", "/api/pictures", "/api/events"]) {
      const a = await raw(sim, { path });
      expect(a.status, path).toBe(403);
      expect(a.text).toContain("token");
    }
    const wrong = await raw(sim, { method: "POST", path: "/api/command", headers: { [TOKEN_HEADER]: "0".repeat(32) }, body: "power off" });
    expect(wrong.status).toBe(403);
    expect(sim.board.isOn).toBe(true);
    const page = await raw(sim, { path: "/" });
    expect(page.status).toBe(200);
    const token = /<meta name="brainboard-token" content="([0-9a-f]+)"/.exec(page.text)?.[1];
    expect(token).toBe(sim.token);
    expect(page.headers["access-control-allow-origin"]).toBeUndefined();
    const ok = await raw(sim, { method: "POST", path: "/api/command", headers: { [TOKEN_HEADER]: token! }, body: "show" });
    expect(ok.status).toBe(200);
  });

  it("a same-origin request from the page (Origin equal to the server's own) is served", async () => {
    const sim = await start();
    const a = await raw(sim, {
      method: "POST",
      path: "/api/view",
      headers: { origin: `http://127.0.0.1:${sim.port}`, [TOKEN_HEADER]: sim.token },
      body: '{"labels": true}',
    });
    expect(a.status).toBe(200);
    expect(sim.view.labels).toBe(true);
  });
});

describe("probe 4: one request cannot freeze the server", () => {
  it("wait 99999999999999999999 is refused at once, naming the cap, and the server goes on answering", async () => {
    const sim = await start();
    const before = sim.board.now;
    const a = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "wait 99999999999999999999" });
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text).error).toMatch(/line 1: wait 9+(\.\.\.)? is longer than the cap of 1 h a wait/);
    expect(sim.board.now).toBe(before);
    expect((await raw(sim, { path: "/api/state", headers: sim.headers })).status).toBe(200);
  });

  it("wait 360000s is refused too (100 h), and so are waits that add up to more than an hour a request", async () => {
    const sim = await start();
    const one = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "wait 360000s" });
    expect(one.status).toBe(400);
    expect(JSON.parse(one.text).error).toContain("cap of 1 h");
    const many = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "wait 3000s\nwait 3000s" });
    expect(many.status).toBe(400);
    expect(JSON.parse(many.text).error).toMatch(/run 1\.67 h of virtual time; the cap is 1 h at a time/);
  });

  it("a script file with that line never starts: the parse names the cap", () => {
    expect(() => parseScript("wait 200\nwait 99999999999999999999")).toThrow(ScriptError);
    expect(() => parseScript("wait 99999999999999999999")).toThrow(/line 1: wait .* cap of 1 h/);
    expect(() => parseScript(`tap ok hold ${MAX_WAIT_MS + 1}`)).toThrow(/hold .* cap of 1 h/);
    expect(() => parseScript(Array(30).fill("wait 3600s").join("\n"))).toThrow(
      /the script runs 30 h of virtual time; the cap is 24 h a script/,
    );
    expect(() => parseScript("show " + "x".repeat(2000))).toThrow(/line 1: longer than the cap of 1000 characters/);
  });

  it("a run that uses up its CPU time stops between commands, naming the cap", () => {
    const board = bootBoard({ firmware: firmware() });
    const t0 = board.now;
    expect(() => runCommands(board, parseScript("wait 100\nwait 100"), undefined, new CommandBudget(-1, 3_600_000))).toThrow(CapExceeded);
    expect(board.now).toBe(t0); // a budget already spent: not even the first command ran
    let err: unknown;
    const budget = new CommandBudget(0, 3_600_000);
    try {
      runCommands(board, parseScript("wait 100\n" + Array(2000).fill("tap ok").join("\n")), undefined, budget);
    } catch (e) {
      err = e;
    }
    // Whether the clock moved on by the first check or not, the run ends with the cap's error, not the script's end.
    expect(err).toBeInstanceOf(CapExceeded);
    expect((err as Error).message).toMatch(/CPU time cap of 0 ms/);
  });
});

describe("probe 5: the secret stays under the shield", () => {
  async function withSecret(): Promise<Simulator> {
    const sim = await start();
    sim.command("tap ok\nwait 200\ntap maker.red maker.green maker.blue\npress maker.yellow");
    expect(sim.board.colours("secret").slice(0, 3)).toEqual(["red", "green", "blue"]);
    return sim;
  }

  it("/api/state leaves the secret and the codemaker's keys out while the shield is closed, and shows them when open", async () => {
    const sim = await withSecret();
    const closed = JSON.parse((await raw(sim, { path: "/api/state", headers: sim.headers })).text) as SimState;
    expect(closed.segments.secret.every((p) => p.name === "off")).toBe(true);
    expect(closed.pressed.some((k) => k.startsWith("m"))).toBe(false);
    expect(JSON.stringify(closed.segments.secret)).not.toMatch(/red|green|blue/);
    sim.view.shield = true;
    const open = JSON.parse((await raw(sim, { path: "/api/state", headers: sim.headers })).text) as SimState;
    expect(open.segments.secret.slice(0, 3).map((p) => p.name)).toEqual(["red", "green", "blue"]);
    expect(open.pressed.some((k) => k.startsWith("m"))).toBe(true);
  });

  it("the event stream carries no secret while the shield is closed", async () => {
    const sim = await withSecret();
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(new URL("api/events", sim.url), { headers: sim.headers }, (res) => {
        let buf = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          buf += c;
          if (buf.includes("\n\n") && buf.includes("event: state")) {
            req.destroy();
            resolve(buf);
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
    const state = JSON.parse(/^data: (.*)$/m.exec(got.slice(got.indexOf("event: state")))![1]) as SimState;
    expect(state.segments.secret.every((p) => p.name === "off")).toBe(true);
  });

  it("expect secret is refused while the shield is closed (its answer would give the secret away), and show hides it", async () => {
    const sim = await withSecret();
    const a = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "expect secret red" });
    expect(a.status).toBe(400);
    expect(a.text).toContain("under the codemaker's shield");
    expect(a.text).not.toMatch(/green|blue/);
    const shown = JSON.parse((await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "show" })).text);
    expect(shown.shown[0]).toContain("hidden under the codemaker's shield");
    sim.view.shield = true;
    const b = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: "expect secret red green blue" });
    expect(b.status).toBe(200);
  });
});

describe("probe 8 (server): malformed requests get a clear answer, never a stack trace", () => {
  it("a malformed URL, a null or non-object JSON body, an unknown path: 4xx with a message and no internals", async () => {
    const sim = await start();
    const answers = [
      await raw(sim, { path: "/%E0%A4%A" }),
      await raw(sim, { path: "/%00" }),
      await raw(sim, { method: "POST", path: "/api/view", headers: sim.headers, body: "null" }),
      await raw(sim, { method: "POST", path: "/api/view", headers: sim.headers, body: "[true]" }),
      await raw(sim, { method: "POST", path: "/api/watch", headers: sim.headers, body: "null" }),
      await raw(sim, { method: "POST", path: "/api/watch", headers: sim.headers, body: '"start"' }),
      await raw(sim, { method: "DELETE", path: "/api/state", headers: sim.headers }),
      await raw(sim, { path: "/api/nothing", headers: sim.headers }),
      await raw(sim, { path: "/../../package.json" }),
    ];
    for (const a of answers) {
      expect(a.status).toBeGreaterThanOrEqual(400);
      expect(a.status).toBeLessThan(500);
      expectNoInternals(a);
    }
  });

  it("an oversized body gets 413, by its Content-Length or by what arrives", async () => {
    const sim = await start();
    const big = "wait 1\n".repeat(Math.ceil((MAX_BODY_BYTES + 10) / 7));
    const a = await raw(sim, { method: "POST", path: "/api/command", headers: sim.headers, body: big });
    expect(a.status).toBe(413);
    // Chunked (no Content-Length): the server counts what arrives.
    const b = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: sim.port,
          method: "POST",
          path: "/api/command",
          headers: { ...sim.headers, "transfer-encoding": "chunked" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", () => resolve(-1));
      for (let i = 0; i < 20; i++) req.write("x".repeat(8192));
      req.end();
      void reject;
    });
    expect(b === 413 || b === -1).toBe(true);
    expect((await raw(sim, { path: "/api/state", headers: sim.headers })).status).toBe(200);
  });

  it("an event-stream client that stops reading is dropped once it falls behind", async () => {
    const sim = await start();
    const socket = connect(sim.port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${sim.port}\r\n${TOKEN_HEADER}: ${sim.token}\r\n\r\n`);
    socket.pause(); // never reads
    for (let i = 0; i < 100 && sim.streams === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(sim.streams).toBe(1);
    // Every command sends the whole state to every stream; this one's backlog grows until it is dropped.
    for (let i = 0; i < 5000 && sim.streams > 0; i++) {
      sim.command("show");
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(sim.streams).toBe(0);
    socket.destroy();
  });
  it("answers a request pipelined after a POST on the same connection, in order", async () => {
    const sim = await start();
    const socket = connect(sim.port, "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", () => r()));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (text += c));
    const host = `127.0.0.1:${sim.port}`;
    const body = "show";
    socket.write(
      `POST /api/command HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n${TOKEN_HEADER}: ${sim.token}\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        `GET /api/state HTTP/1.1\r\nHost: ${host}\r\n${TOKEN_HEADER}: ${sim.token}\r\n\r\n`,
    );
    for (let i = 0; i < 200 && (text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    socket.destroy();
    // (A response's body is not followed by a line break: the next status line follows it directly.)
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 200]);
  });
});
