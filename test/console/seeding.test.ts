/**
 * The console's board draws its hardware noise (E.hwRand, from which the firmware makes the locked
 * console's password) from a seed the host's cryptographic source gives each run: two runs of
 * `npm run sim:console` answer different numbers, so a password seen once says nothing of the next.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  children = [];
});

/** Starts `npm run sim:console -- --port 0 --no-token --empty` and returns its port. */
async function startConsole(extra: string[] = []): Promise<number> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "sim/console/tcp-console.ts", "--port", "0", "--no-token", "--empty", ...extra],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let out = "";
  return new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`sim:console did not start: ${out}`)), 30_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /console on tcp:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", () => fail(new Error(`sim:console exited: ${out}`)));
  });
}

/** Types a line at the console and returns what it printed as the result. */
async function ask(port: number, line: string): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  let got = "";
  socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
  await new Promise<void>((ok, fail) => socket.once("connect", ok).once("error", fail));
  socket.write(line + "\n");
  const deadline = Date.now() + 5000;
  while (!/=.*\r\n>$/.test(got) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  socket.destroy();
  return /=(.*)\r\n>$/.exec(got)?.[1] ?? got;
}

describe("the console's randomness", () => {
  it("two runs of sim:console give different hardware noise (and so different lock passwords)", async () => {
    const line = "[E.hwRand(), E.hwRand(), E.hwRand()].join()";
    const first = await ask(await startConsole(), line);
    const second = await ask(await startConsole(), line);
    expect(first).toMatch(/^"-?\d+,-?\d+,-?\d+"$/);
    expect(second).toMatch(/^"-?\d+,-?\d+,-?\d+"$/);
    expect(first).not.toBe(second);
  }, 90_000);

  it("--seed N gives the same noise on every run, for a session that must be repeated", async () => {
    const line = "E.hwRand()";
    const first = await ask(await startConsole(["--seed", "42"]), line);
    const second = await ask(await startConsole(["--seed", "42"]), line);
    expect(first).toMatch(/^-?\d+$/);
    expect(first).toBe(second);
  }, 90_000);
});
