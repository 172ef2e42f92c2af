/**
 * Espruino for Linux (the `espruino` build where BRAINBOARD_ESPRUINO_DIR points: sim/espruino/binary.ts) serving its console over telnet, for tests of the
 * flash tool against the real interpreter. Its telnet port is fixed at 2323, so each instance runs in a network
 * namespace of its own (`unshare -rn`: no root needed) where 2323 is always free and nothing else can reach it; a
 * relay through a Unix socket in its directory brings the console out to a free loopback port here. Where user
 * namespaces are not allowed it runs on 2323 itself, one test run at a time (a lock directory in the temp dir).
 * Its Storage is the file espruino.flash in a fresh directory of its own.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { espruinoDir, espruinoMissing } from "../../sim/espruino/binary.ts";

export const ESPRUINO_DIR = espruinoDir();
export const ESPRUINO = join(ESPRUINO_DIR, "espruino");
/** Why the interpreter cannot run here ("" when it can), for skip messages. */
export const ESPRUINO_MISSING = espruinoMissing("espruino");
export const HAS_ESPRUINO = ESPRUINO_MISSING === "";

export interface RealEspruino {
  /** tcp://127.0.0.1:PORT of its console. */
  port: string;
  /** Its directory (espruino.flash is its Storage). */
  dir: string;
  /** Stops it (the process group this module started, by id) and removes its directory (unless it was given one). */
  stop(): Promise<void>;
}

/** Forwards every loopback connection on a free port to `target` (a Unix socket path, or a TCP port). */
function relay(target: string | number): Promise<{ server: Server; port: number }> {
  const server = createServer((client) => {
    const upstream = typeof target === "number" ? connect(target, "127.0.0.1") : connect(target);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ server, port: (server.address() as { port: number }).port })));
}

/** Whether this machine lets an unprivileged user make a network namespace. */
function canUnshare(): boolean {
  return spawnSync("unshare", ["-rn", "true"]).status === 0;
}

const INNER_RELAY =
  'const net=require("net");net.createServer(c=>{const u=net.connect(2323,"127.0.0.1");c.pipe(u).pipe(c);' +
  'const e=()=>{c.destroy();u.destroy()};c.on("error",e).on("close",e);u.on("error",e).on("close",e)}).listen(process.argv[1])';

/**
 * Starts Espruino for Linux with its console on a loopback port; resolves once that console answers. `dir`: run in this
 * directory (its espruino.flash is the Storage, kept when it stops), e.g. an EspruinoBoard's, which then boots from it.
 */
export async function startRealEspruino(opts: { dir?: string } = {}): Promise<RealEspruino> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), "brainboard-espruino-"));
  const sock = join(dir, "console.sock");
  let child: ChildProcess;
  let lock: string | undefined;
  let target: string | number;
  if (canUnshare()) {
    const script = `ip link set lo up && (tail -f /dev/null | ${JSON.stringify(ESPRUINO)} --telnet >espruino.log 2>&1 &) && exec ${JSON.stringify(process.execPath)} -e '${INNER_RELAY}' ${JSON.stringify(sock)}`;
    child = spawn("unshare", ["-rn", "sh", "-c", script], { cwd: dir, detached: true, stdio: "ignore" });
    target = sock;
  } else {
    lock = join(tmpdir(), "brainboard-espruino-2323.lock");
    for (let tries = 0; ; tries++) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (tries > 600) throw new Error(`${lock} held for 10 minutes: remove it if no test is running`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    child = spawn("sh", ["-c", `tail -f /dev/null | exec ${JSON.stringify(ESPRUINO)} --telnet >espruino.log 2>&1`], {
      cwd: dir,
      detached: true,
      stdio: "ignore",
    });
    target = 2323;
  }
  const outer = await relay(target);
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGKILL"); // the group started above: sh, tail, espruino, the relay
    } catch {
      // already gone
    }
    await new Promise((r) => outer.server.close(r));
    if (lock) rmSync(lock, { recursive: true, force: true });
    if (opts.dir) {
      // Kept for whoever gave it; the console's socket is not part of the Storage.
      rmSync(sock, { force: true });
      for (const f of ["espruino.log"]) rmSync(join(dir, f), { force: true });
    } else rmSync(dir, { recursive: true, force: true });
  };
  // Ready when a line sent gets a prompt back.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await new Promise<boolean>((ok) => {
      const s = connect(outer.port, "127.0.0.1");
      let got = "";
      const done = (v: boolean) => {
        s.destroy();
        ok(v);
      };
      s.on("data", (d) => {
        got += d.toString("latin1");
        if (got.includes(">")) done(true);
      });
      s.on("error", () => done(false)).on("close", () => done(false));
      s.on("connect", () => s.write("\n"));
      setTimeout(() => done(false), 1000);
    });
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error("Espruino for Linux did not answer on its telnet console within 20 s");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { port: `tcp://127.0.0.1:${outer.port}`, dir, stop };
}
