/**
 * Issue 14: a fuzz of the simulator's HTTP API and of its script language with random and hostile inputs,
 * bounded in count (and so in time), seeded (a failure names its seed and input), on loopback only. Every
 * answer must be a clear JSON answer below 500 (or 200), never a stack trace or a path of this machine, and
 * the server must go on answering; a script must parse to commands or throw a ScriptError, nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { startSimulator, TOKEN_HEADER, type Simulator } from "../../sim/web/server.ts";
import { parseScript, ScriptError, MAX_LINE_CHARS } from "../../sim/play/script.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { firmware } from "../views/helpers.ts";

const HTTP_CASES = 400;
const SCRIPT_CASES = 3000;

const WORDS = [
  "press",
  "release",
  "tap",
  "wait",
  "power",
  "battery",
  "show",
  "expect",
  "hold",
  "on",
  "off",
  "cycle",
  "usb",
  "row",
  "ok",
  "red",
  "maker.red",
  "p11",
  "p66",
  "m34",
  "secret",
  "board",
  "pad[35]",
  "keys",
  "board[999]",
  "1e309",
  "NaN",
  "-1",
  "0",
  "200",
  "1.5s",
  "99999999999999999999",
  "360000s",
  "3600s",
  "0x10",
  "*",
  "a/b",
  "#",
  "\u0000",
  "\u202e",
  "𝓍",
  "__proto__",
  "constructor",
  "prototype",
  "${x}",
  "<script>",
  "%00",
  "../../etc/passwd",
];

function randomText(rng: Prng, maxLen: number): string {
  const n = rng.int(0, maxLen);
  let s = "";
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    s +=
      r < 0.6
        ? String.fromCharCode(rng.int(32, 126))
        : r < 0.8
          ? String.fromCharCode(rng.int(0, 0x2ff))
          : r < 0.9
            ? "\n"
            : WORDS[rng.int(0, WORDS.length - 1)];
  }
  return s;
}

function randomScript(rng: Prng): string {
  const lines: string[] = [];
  const n = rng.int(0, 12);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.7) {
      const words: string[] = [];
      for (let w = rng.int(1, 6); w > 0; w--) words.push(WORDS[rng.int(0, WORDS.length - 1)]);
      lines.push(words.join(rng.next() < 0.9 ? " " : "\t"));
    } else if (r < 0.9) lines.push(randomText(rng, 80));
    else lines.push("x".repeat(rng.int(MAX_LINE_CHARS - 5, MAX_LINE_CHARS * 3)));
  }
  return lines.join(rng.next() < 0.8 ? "\n" : "\r\n");
}

interface Answer {
  status: number;
  text: string;
}

function send(sim: Simulator, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port: sim.port, method, path, headers, timeout: 10_000, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c.length + text.length < 200_000 ? c : ""));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", () => resolve({ status: -1, text: "" }));
    });
    req.on("error", () => resolve({ status: -1, text: "" }));
    req.on("timeout", () => req.destroy());
    req.end(body);
  });
}

describe("fuzz: the script language", () => {
  it(`${SCRIPT_CASES} random and hostile scripts parse to commands or fail with a ScriptError naming lines`, () => {
    const rng = new Prng(20261124);
    for (let i = 0; i < SCRIPT_CASES; i++) {
      const text = randomScript(rng);
      try {
        const cmds = parseScript(text);
        for (const c of cmds) if (c.op === "wait") expect(c.ms).toBeLessThanOrEqual(3_600_000);
      } catch (e) {
        if (!(e instanceof ScriptError)) throw new Error(`case ${i}: ${JSON.stringify(text).slice(0, 300)} threw ${String(e)}`);
        expect(e.message, `case ${i}`).toMatch(/^line \d+: /);
        expect(e.problems.length).toBeLessThanOrEqual(20);
      }
    }
  });
});

describe("fuzz: the HTTP API", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, seed: 5, log: () => {} });
    sim.command("wait 200");
  });
  afterAll(() => sim.close());

  it(`${HTTP_CASES} random and hostile requests: each gets a clear answer below 500, none with internals, and the server goes on`, async () => {
    const rng = new Prng(1124);
    const paths = [
      "/",
      "/api/command",
      "/api/view",
      "/api/watch",
      "/api/state",
      "/api/layout",
      "/api/pictures",
      "/app.js",
      "/api/",
      "/api/../api/state",
      "/%",
      "/%2e%2e/%2e%2e/package.json",
      "/index.html?x=%ZZ",
      "/%C3%A9",
    ];
    const methods = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"];
    const statuses = new Map<number, number>();
    for (let i = 0; i < HTTP_CASES; i++) {
      const method = methods[rng.int(0, methods.length - 1)];
      let path = paths[rng.int(0, paths.length - 1)];
      if (rng.next() < 0.2) path += "?" + encodeURIComponent(randomText(rng, 20));
      const headers: Record<string, string> = {};
      const t = rng.next();
      if (t < 0.7) headers[TOKEN_HEADER] = sim.token;
      else if (t < 0.85) headers[TOKEN_HEADER] = randomText(rng, 40).replace(/[^\x21-\x7e]/g, "x") || "x";
      if (rng.next() < 0.15) headers.origin = rng.next() < 0.5 ? "https://evil.example" : `http://127.0.0.1:${sim.port}`;
      if (rng.next() < 0.1) headers["content-type"] = "application/json";
      let body: string | undefined;
      const b = rng.next();
      if (method !== "GET" && method !== "HEAD") {
        if (b < 0.4) body = randomScript(rng);
        else if (b < 0.6)
          body = JSON.stringify({
            shield: rng.next() < 0.5,
            labels: "yes",
            action: rng.next() < 0.5 ? "start" : "stop",
            games: rng.int(-5, 5000),
            preset: WORDS[rng.int(0, WORDS.length - 1)],
          });
        else if (b < 0.7) body = ["null", "[]", "{}", '"x"', "1e400", '{"__proto__":{"shield":true}}', "{"][rng.int(0, 6)];
        else if (b < 0.95) body = randomText(rng, 400);
        else body = "x".repeat(rng.int(60_000, 70_000));
      }
      const a = await send(sim, method, path, headers, body);
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const where = `case ${i}: ${method} ${path} ${JSON.stringify(body ?? "").slice(0, 120)}`;
      expect(a.status, where).toBeGreaterThanOrEqual(200);
      expect(a.status, where).toBeLessThan(500);
      expect(a.text, where).not.toMatch(/\n\s+at |\.ts:\d+|node:internal/);
      expect(a.text, where).not.toContain(process.cwd());
      if (path.startsWith("/api/") && a.status >= 400 && method !== "HEAD") expect(() => JSON.parse(a.text), where).not.toThrow();
      // A watch the fuzz started would keep the board busy: stop it.
      if (sim.watcher && !sim.watcher.done) sim.stopWatch();
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
    expect(statuses.get(403) ?? 0).toBeGreaterThan(10);
    const still = await send(sim, "GET", "/api/state", { [TOKEN_HEADER]: sim.token });
    expect(still.status).toBe(200);
  });
});
