/**
 * The simulator's console over TCP (sim/console/) speaks the Espruino REPL as the espruino CLI and a terminal see it:
 * prompts, echo, results and errors in the device's format, the CLI's \x10 lines, reset() and load(), its clock, one
 * client at a time, loopback only.
 */
import { describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { BOOT_FILE, VirtualBoard } from "../../sim/board/board.ts";
import { formatResult } from "../../sim/console/format.ts";
import { countBrackets } from "../../sim/console/repl.ts";
import { consoleServers } from "./serve.ts";
import { startConsoleServer } from "../../sim/console/server.ts";

const serve = consoleServers();

/** A raw client of the console. */
async function client(port: number): Promise<{ socket: Socket; send(text: string, until?: RegExp): Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  let buf = "";
  socket.on("data", (d: Buffer) => (buf += d.toString("latin1")));
  await new Promise<void>((ok, fail) => socket.once("connect", ok).once("error", fail));
  return {
    socket,
    /** Sends text; resolves with what came back once it matches `until` (default: ends with the prompt). */
    async send(text: string, until = />$/) {
      buf = "";
      socket.write(Buffer.from(text, "latin1"));
      const deadline = Date.now() + 2000;
      while (!until.test(buf)) {
        if (Date.now() > deadline) throw new Error(`no answer matching ${until} to ${JSON.stringify(text)}; got ${JSON.stringify(buf)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return buf;
    },
  };
}

describe("the simulator's console speaks the Espruino REPL", () => {
  const BOOT = 'var boots = (typeof boots === "number" ? boots : 0) + 1; print("boot code ran");';

  it("answers Enter with a prompt, echoes typed lines and prints results and errors like the device", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    expect(await c.send("\n")).toBe("\r\n>");
    expect(await c.send("1+2\n")).toBe("1+2\r\n=3\r\n>");
    expect(await c.send("var x\n")).toBe("var x\r\n=undefined\r\n>");
    expect(await c.send('throw new Error("bad")\n')).toBe('throw new Error("bad")\r\nUncaught Error: bad\r\n>');
    expect(await c.send("print('hi', 1)\n")).toBe("print('hi', 1)\r\nhi 1\r\n=undefined\r\n>");
    // open brackets continue the line with ':'; ESC LF is a newline that does not execute
    expect(await c.send("function f(a, b) {\n", /:$/)).toBe("function f(a, b) {\r\n:");
    expect(await c.send("return a + b; }\n")).toBe("return a + b; }\r\n=undefined\r\n>");
    expect(await c.send("if (f(1, 2) === 3)\x1b\n'three'\n")).toBe("if (f(1, 2) === 3)\r\n:'three'\r\n=\"three\"\r\n>");
    // Ctrl-C clears the line; backspace deletes
    expect(await c.send("oops(\x03", /\x1b\[J>$/)).toBe("oops(\r\x1b[J>");
    expect(await c.send("2*x3\x08\x7f21\n")).toBe("2*x3\b \b\b \b21\r\n=42\r\n>");
    c.socket.destroy();
  });

  it("runs \\x10 lines without echo or result, as the CLI sends them, and answers its process.env query", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    const env = await c.send('\x10print("<","<<",JSON.stringify(process.env),">>",">")\n', />> >\r\n>$/);
    const json = JSON.parse(env.slice(env.indexOf("< <<") + 4, env.indexOf(">> >")));
    expect(json).toMatchObject({ VERSION: "2v29", BOARD: "PICO_R1_3" });
    // chunked Storage writes: no echo and no output at all
    c.socket.write('\x10require("Storage").write("t","abc",0,6);\n\x10require("Storage").write("t","def",3);\n');
    expect(await c.send("\x10print()\n")).toBe("\r\n>");
    expect(board.storage.readString("t")).toBe("abcdef");
  });

  it("reset() clears RAM without running .bootcde; load() and E.reboot() boot from it", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const c = await client((await serve(board, "manual")).port);
    expect(await c.send("boots\n")).toBe("boots\r\n=1\r\n>");
    const reset = await c.send("reset()\n");
    expect(reset).toMatch(/^reset\(\)\r\n=undefined\r\n\x1b\[\?7l\r\n ____ [\s\S]* 2v29 \(c\) \d{4} G\.Williams\r\n\r\n>$/);
    expect(reset).not.toContain("boot code ran");
    expect(await c.send("typeof boots\n")).toBe('typeof boots\r\n="undefined"\r\n>');
    expect(board.storage.has(BOOT_FILE)).toBe(true);
    expect(await c.send('load(".bootcde")\n')).toMatch(/espruino\.com[\s\S]*\r\nboot code ran\r\n>$/);
    expect(await c.send("boots\n")).toBe("boots\r\n=1\r\n>");
    expect(await c.send("E.reboot()\n")).toMatch(/boot code ran\r\n>$/);
    expect(board.resets.map((x) => x.reason)).toEqual(["reset()", "load()", "E.reboot()"]);
  });

  it("advances the board's clock with real time while a client is connected, and takes one client at a time", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    board.powerOn();
    const server = await serve(board);
    const idle = board.now;
    await new Promise((r) => setTimeout(r, 60));
    expect(board.now).toBe(idle); // nobody connected: the board stands still
    const c = await client(server.port);
    await c.send('setTimeout(function () { print("tick"); }, 50)\n');
    const t = await c.send("", /tick\r\n>$/);
    expect(t).toContain("tick");
    expect(board.now - idle).toBeGreaterThanOrEqual(50);

    const second = connect(server.port, "127.0.0.1");
    let refused = "";
    second.on("data", (d: Buffer) => (refused += d.toString("latin1")));
    await new Promise((r) => second.on("close", r));
    expect(refused).toContain("another client is connected");
    c.socket.destroy();
  });

  it("powers an unpowered board when a client connects, and listens on loopback only", async () => {
    const board = new VirtualBoard({ firmware: BOOT });
    const server = await serve(board, "manual");
    expect(board.isOn).toBe(false);
    const c = await client(server.port);
    await c.send("", /boot code ran\r\n>$/);
    expect(board.isOn).toBe(true);
    await expect(startConsoleServer(board, { host: "0.0.0.0" as "127.0.0.1" })).rejects.toThrow(/127\.0\.0\.1 only/);
    c.socket.destroy();
  });
});

describe("the console's pieces", () => {
  it("counts brackets as Espruino's lexer does", () => {
    expect(countBrackets("function f() {")).toBe(1);
    expect(countBrackets('a = "{"')).toBe(0);
    expect(countBrackets("x = /[{(]/")).toBe(0);
    expect(countBrackets("/* still")).toBeGreaterThan(0);
    expect(countBrackets('"unfinished')).toBe(0);
    expect(countBrackets("}")).toBeLessThan(0);
  });

  it("prints results in Espruino's console format", () => {
    expect(formatResult(undefined)).toBe("undefined");
    expect(formatResult("a\nb")).toBe('"a\\nb"');
    expect(formatResult([1, 2, 3])).toBe("[ 1, 2, 3 ]");
    expect(formatResult({ a: 1, "b-c": "x" })).toBe('{ a: 1, \n  "b-c": "x"\n }');
    expect(formatResult({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe("{ a: 1, b: 2, c: 3, d: 4, \n  e: 5 }");
    expect(formatResult("x".repeat(50))).toBe(`"${"x".repeat(17)}" ... "${"x".repeat(17)}"`);
    expect(formatResult(Array.from({ length: 20 }, (_, i) => i))).toBe("[ 0, 1, 2, 3, 4,  ... 15, 16, 17, 18, 19 ]");
    expect(formatResult(new Uint8Array(3))).toBe("new Uint8Array(3)");
  });
});
