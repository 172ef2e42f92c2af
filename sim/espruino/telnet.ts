/**
 * The Linux interpreter serves its console on TCP port 2323 only (`espruino --telnet`), and sets
 * SO_REUSEPORT, so two at once would share connections at random. Whoever flashes through it takes
 * this lock first: a folder in the temporary directory holding the owner's pid, taken over when that
 * process is gone or the lock is older than STALE_MS.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TELNET_PORT = 2323;
const LOCK = join(tmpdir(), "brainboard-espruino-telnet.lock");
const STALE_MS = 5 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    return true;
  } catch {
    try {
      const pid = Number(readFileSync(join(LOCK, "pid"), "utf8"));
      const age = Date.now() - statSync(LOCK).mtimeMs;
      if ((pid && !alive(pid)) || age > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // Being written by its owner this very moment: try again later.
    }
    return false;
  }
}

/** Runs fn with the telnet port to itself; waits up to timeoutMs for another run to finish with it. */
export async function withTelnetPort<T>(fn: (port: number) => Promise<T>, timeoutMs = 240_000): Promise<T> {
  const start = Date.now();
  while (!tryLock()) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`the interpreter's telnet port ${TELNET_PORT} stayed in use for ${timeoutMs / 1000} s (lock ${LOCK})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await fn(TELNET_PORT);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
