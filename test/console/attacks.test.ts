/**
 * Issue 14, probes 1 and 2: the simulator's TCP console (sim/console/) under attack. What a client types
 * reaches only the firmware's realm, which holds no host function; a web page's request to the port runs
 * nothing; the per-run token and the firmware's password lock are enforced as on the device.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VirtualBoard } from "../../sim/board/board.ts";
import { looksLikeHttp, startConsoleServer, type ConsoleServer } from "../../sim/console/server.ts";
import { UnitDriver } from "../scenarios/driver.ts";

/** The exploit of the issue: a host function's constructor chain leads to the host's Function. */
const EXPLOIT = `print.constructor.constructor("return process.getBuiltinModule('child_process').execSync('id').toString()")()`;

let servers: ConsoleServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(board: VirtualBoard, token: string | null = null): Promise<ConsoleServer> {
  const s = await startConsoleServer(board, { clock: "manual", token });
  servers.push(s);
  return s;
}

interface Client {
  socket: Socket;
  /** Everything received so far. */
  readonly received: string;
  send(text: string, until?: RegExp): Promise<string>;
  closed: Promise<void>;
}

async function client(port: number): Promise<Client> {
  const socket = connect(port, "127.0.0.1");
  let all = "";
  let buf = "";
  socket.on("data", (d: Buffer) => {
    all += d.toString("latin1");
    buf += d.toString("latin1");
  });
  socket.on("error", () => {});
  const closed = new Promise<void>((r) => socket.on("close", () => r()));
  await new Promise<void>((ok, fail) => socket.once("connect", ok).once("error", fail));
  return {
    socket,
    closed,
    get received() {
      return all;
    },
    async send(text: string, until = />$/) {
      buf = "";
      socket.write(Buffer.from(text, "latin1"));
      const deadline = Date.now() + 3000;
      while (!until.test(buf)) {
        if (Date.now() > deadline) throw new Error(`no answer matching ${until} to ${JSON.stringify(text)}; got ${JSON.stringify(buf)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return buf;
    },
  };
}

/** Runs code at the board's console (as typed); the thrown message or the value. */
function typed(board: VirtualBoard, code: string): unknown {
  try {
    return board.repl(code);
  } catch (e) {
    return `threw: ${(e as Error).message}`;
  }
}

/** True when an object or function of the host (Node) is reachable from the value. */
function hostObjectsReachable(board: VirtualBoard, roots: unknown[]): string[] {
  const hostObjectProto = Object.prototype;
  const hostFunctionProto = Function.prototype;
  const seen = new Set<unknown>();
  const found: string[] = [];
  const queue: { v: unknown; path: string }[] = roots.map((v, i) => ({ v, path: `root${i}` }));
  while (queue.length && seen.size < 50_000) {
    const { v, path } = queue.shift()!;
    if ((typeof v !== "object" || v === null) && typeof v !== "function") continue;
    if (seen.has(v)) continue;
    seen.add(v);
    if (v === hostObjectProto || v === hostFunctionProto || v === Function || v === Object) {
      found.push(path);
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    queue.push({ v: proto, path: `${path}.__proto__` });
    for (const key of Object.getOwnPropertyNames(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key)!;
      for (const [k, x] of [
        ["value", d.value],
        ["get", d.get],
        ["set", d.set],
      ] as const)
        if (x !== undefined) queue.push({ v: x, path: `${path}.${key}${k === "value" ? "" : `<${k}>`}` });
    }
  }
  expect(seen.size).toBeGreaterThan(100); // the walk really went through the realm
  void board;
  return found;
}

describe("probe 1: the console cannot run code on the host", () => {
  it("the issue's exploit (print.constructor.constructor) finds no host process, typed over TCP", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const c = await client((await serve(board)).port);
    const out = await c.send(EXPLOIT + "\n");
    expect(out).toContain("Uncaught");
    expect(out).not.toMatch(/uid=\d+/);
    c.socket.destroy();
  });

  it("names the realm lacks, `this` and a getter's `this` lead to no host process, typed over TCP with no token", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const c = await client((await serve(board)).port);
    const marker = join(mkdtempSync(join(tmpdir(), "bb-escape-")), "written");
    const run = `("return process.getBuiltinModule('child_process').execSync('id').toString()")()`;
    for (const escape of [
      `constructor.constructor${run}`,
      `this.constructor.constructor${run}`,
      `hasOwnProperty.constructor${run}`,
      `Object.defineProperty(globalThis, "g", { get: function () { return this; } }); g.constructor.constructor${run}`,
      `constructor.constructor("process.getBuiltinModule('fs').writeFileSync('${marker}', 'x')")()`,
    ]) {
      const out = await c.send(escape + "\n");
      expect(out, escape).toContain("Uncaught");
      expect(out, escape).not.toMatch(/uid=\d+/);
    }
    expect(existsSync(marker)).toBe(false);
    c.socket.destroy();
  });

  it("every built-in's constructor chain ends in the realm's own Function, not the host's", () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    for (const fn of ["print", "require", "setTimeout", "setWatch", "E.on", "console.log", "process.memory", "load", "digitalWrite"])
      expect(typed(board, `${fn}.constructor === Function && ${fn}.constructor.constructor === Function`)).toBe(true);
    expect(typed(board, `typeof print.constructor.constructor("return typeof process.getBuiltinModule")()`)).toBe("string");
    expect(typed(board, `print.constructor.constructor("return typeof process.getBuiltinModule")()`)).toBe("undefined");
  });

  it("each wrapped built-in still calls its own host function, whatever its parameters are named", () => {
    const board = new VirtualBoard({ firmware: "var id = setInterval(function () {}, 100);" });
    board.powerOn();
    // changeInterval(id, ms): a parameter named like the wrapper's own closure once sent the call elsewhere.
    expect(typed(board, "changeInterval(id, 20)")).toBeUndefined();
    expect(typed(board, "changeInterval(999, 20)")).toBe("threw: Unknown Interval");
    expect(typed(board, "[changeInterval.length, setWatch.length, digitalWrite.length]")).toEqual([2, 3, 2]);
  });

  it("nothing reachable from the global object, the modules or the API's results belongs to the host", () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const roots = [
      board.repl("globalThis"),
      board.repl('require("Storage")'),
      board.repl('require("neopixel")'),
      board.repl("process.memory()"),
      board.repl("E.getErrorFlags()"),
      board.repl('require("Storage").getStats()'),
      board.repl('require("Storage").list()'),
      board.repl('(function () { try { require("no such module"); } catch (e) { return e; } })()'),
      board.repl('(function () { try { digitalWrite("nowhere", 1); } catch (e) { return e; } })()'),
      board.repl('(function () { try { require("Storage").write("x", "1", 9); } catch (e) { return e; } })()'),
    ];
    expect(hostObjectsReachable(board, roots)).toEqual([]);
  });

  it("an error thrown inside a host function (a stack overflow there) is the realm's own", () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    for (const call of ["digitalRead(B15)", "B15.read()", "getTime()", "new Date()", 'require("Storage").read("x")', "print()"]) {
      // Overflows at 40 different depths, so that some land inside the host's frames; the errors are
      // looked at after the stack has unwound.
      const r = typed(
        board,
        `(function () {
          var errs = [];
          function f() { try { ${call}; f(); } catch (e) { errs[errs.length] = e; } }
          for (var pad = 0; pad < 40; pad++) (function g(n) { if (n) g(n - 1); else f(); })(pad);
          var seen = {};
          for (var i = 0; i < errs.length; i++) seen[errs[i].constructor.constructor("return typeof process.getBuiltinModule")()] = 1;
          return errs.length + ":" + Object.keys(seen).join(",");
        })()`,
      );
      expect(r, call).toBe("40:undefined");
    }
  });

  it("a built-in the firmware replaced (Array.prototype.map) is never handed a host callback", () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const r = typed(
      board,
      `(function () {
        var got = "not called", map = Array.prototype.map, from = Uint8Array.from;
        Array.prototype.map = function (cb) { got = typeof cb.constructor.constructor("return typeof process.getBuiltinModule")(); return []; };
        try { digitalWrite([B15, B14], 1); pinMode([B15], "output"); require("Storage").write("t", [1, 2, 3]); } catch (e) {}
        Array.prototype.map = map;
        return got;
      })()`,
    );
    expect(r === "not called" || r === "undefined").toBe(true);
  });

  it("a cross-origin no-cors POST to the console's port runs nothing of its body, and is cut off", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const server = await serve(board);
    // What a web page's fetch(..., {mode: "no-cors", method: "POST"}) sends: the request line, headers, the body.
    await fetch(`http://127.0.0.1:${server.port}/`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example" },
      body: 'print("PWNED")\nE.reboot()\n',
      signal: AbortSignal.timeout(2000),
    }).catch(() => undefined);
    board.advance(10);
    expect(board.consoleLog.join("\n")).not.toContain("PWNED");
    expect(board.resets.length).toBe(0);
  });

  it("HTTP-looking first lines are recognised; ordinary console lines are not", () => {
    for (const l of ["POST / HTTP/1.1", "GET /x?y HTTP/1.0", "OPTIONS * HTTP/1.1", "Host: 127.0.0.1:4001", "PUT http://a/ HTTP/1.1"])
      expect(looksLikeHttp(l), l).toBe(true);
    for (const l of ["", "1+2", '\x10print("<","<<",JSON.stringify(process.env),">>",">")', "reset();", "var GET = 1"])
      expect(looksLikeHttp(l), l).toBe(false);
  });
});

describe("the console's token", () => {
  it("a client without the token's line runs nothing and is cut off; with it, the console answers", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const server = await serve(board, "s3cret-token");
    const bad = await client(server.port);
    bad.socket.write('print("RAN")\n');
    await bad.closed;
    expect(bad.received).toContain("wrong token");
    expect(board.consoleLog.join("\n")).not.toContain("RAN");

    const good = await client(server.port);
    expect(await good.send("s3cret-token\n1+2\n", /=3\r\n>$/)).toContain("=3");
    good.socket.destroy();
  });

  it("HTTP sent instead of the token closes the connection", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const server = await serve(board, "tok");
    const c = await client(server.port);
    c.socket.write("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nprint(1)\n");
    await c.closed;
    expect(board.consoleLog).toEqual([]);
  });
});

describe("probe 2: the console lock is enforced", () => {
  const LOCKED = 'E.setPassword("opensesame"); E.lockConsole(); print("locked");';

  it("a locked console asks for the password, runs nothing typed, and logs in only with the password", async () => {
    const board = new VirtualBoard({ firmware: LOCKED });
    board.powerOn();
    const c = await client((await serve(board)).port);
    const first = await c.send('require("Storage").list()\n', /password>$/);
    expect(first).not.toContain("=[");
    expect(first).not.toContain("require"); // typed characters are not echoed
    expect(await c.send("wrong\n", /Invalid password\r\npassword>$/)).toContain("Invalid password");
    expect(await c.send("opensesame\n", /Logged in\.\r\n>$/)).toContain("Logged in.");
    expect(await c.send("1+1\n")).toContain("=2");
    c.socket.destroy();
  });

  it("Ctrl-C, DLE and escapes do not get past the lock", async () => {
    const board = new VirtualBoard({ firmware: LOCKED });
    board.powerOn();
    const c = await client((await serve(board)).port);
    await c.send('\x03\x03\x10print("X1")\n', /password>$/);
    await c.send('\x1b[A\x1b\nprint("X2")\r\n', /password>$/);
    board.advance(10);
    expect(board.consoleLog.join("|")).not.toMatch(/X1|X2/);
    c.socket.destroy();
  });

  it("during a locked two-player game, reading the saved game over the console shows no secret", async () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    expect(u.board.consolePasswordDemanded).toBe(true);
    const c = await client((await serve(u.board)).port);
    const out = await c.send('\x10print(require("Storage").read("bb.s0"), require("Storage").read("bb.s1"))\n', /password>$/);
    u.board.advance(10);
    expect(out + u.board.consoleLog.join("\n")).not.toMatch(/BB\d\|/);
    c.socket.destroy();
  });

  it("E.setPassword() with no argument does not unlock a locked console (as on the device, until power-on)", () => {
    const board = new VirtualBoard({ firmware: LOCKED + " E.setPassword();" });
    board.powerOn();
    expect(board.consoleLocked).toBe(false); // the firmware withdrew its lock...
    expect(board.consolePasswordDemanded).toBe(true); // ...but the console still demands the password
    expect(board.enterConsolePassword("")).toBe(false);
    board.powerCycle();
    board.advance(10);
    // After power-on the same code locks and unlocks again; a fresh interpreter state each time.
    expect(board.consolePasswordDemanded).toBe(true);
  });
});

describe("the console's work is bounded", () => {
  it("allocations no board could hold are refused as out of memory before they are made, and the console goes on", async () => {
    const board = new VirtualBoard({ firmware: "" });
    board.powerOn();
    const c = await client((await serve(board)).port);
    for (const line of [
      "new Uint8Array(1e9)",
      "new Array(5e7).fill(0)",
      "Array(5e7)",
      "new ArrayBuffer(1e9)",
      "new Float64Array(2e8)",
      '"x".repeat(1e9)',
      '"".padStart(1e9)',
      "var a = []; a.length = 5e7; a.fill(0)",
      "var b = []; b.length = 5e7; b.join()",
    ]) {
      const out = await c.send(line + "\n");
      expect(out, line).toMatch(/Uncaught InternalError: Out of Memory/);
    }
    // The firmware can catch it, as on the device, and ordinary sizes work.
    expect(typed(board, 'try { new Uint8Array(1e9); "no"; } catch (e) { e instanceof Error ? "caught" : "?"; }')).toBe("caught");
    expect(typed(board, "new Uint8Array(4096).length + new Array(1000).length + 'ab'.repeat(3).length")).toBe(5102);
    expect(await c.send("1+1\n")).toContain("=2");
    c.socket.destroy();
  });
});
