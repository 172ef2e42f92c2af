/** Runs the fuzz's segments in child processes, with a hang detector. */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { emptyStats, FuzzViolation, mergeStats, type FuzzStats } from "./stats.ts";
import { segmentsOf } from "./segment.ts";

/** What a child process needs to run segments: FuzzOptions with the firmware and profile as paths/names. */
export interface ChildOptions {
  seed: number;
  events: number;
  boardEvents: number;
  firmwarePath: string;
  profile: string;
  fast: boolean;
  traceFrom?: number;
}

export type ToChild = { type: "run"; opts: ChildOptions; segment: number; first: number; count: number } | { type: "exit" };
export type FromChild =
  | { type: "ready" }
  | { type: "progress"; segment: number; index: number }
  | { type: "done"; segment: number; stats: FuzzStats }
  | { type: "violation"; error: Omit<FuzzViolation, "name" | "stack" | "message"> & { message: string } }
  | { type: "error"; message: string }
  | { type: "log"; line: string };

/** A firmware call that never returned: the child made no progress for too long. */
export class FuzzHang extends Error {
  constructor(
    readonly seed: number,
    readonly segment: number,
    readonly lastIndex: number,
    readonly replay: string,
  ) {
    super(`fuzz hang: board ${segment} of seed ${seed} made no progress after event ${lastIndex}\nreplay: ${replay}`);
    this.name = "FuzzHang";
  }
}

export interface ParallelOptions {
  jobs: number;
  /** Wall-clock ms without progress from a child before it counts as hung (default 60,000). */
  hangMs?: number;
  /** Only these segments. */
  segments?: number[];
  log?: (line: string) => void;
  progress?: (done: number, total: number) => void;
}

/**
 * Runs the segments of a fuzz in `jobs` child processes (node --import tsx test/fuzz/fuzz-child.ts), so a
 * long run uses every core and a firmware call that never returns (boards run without the wall-clock
 * guard when opts.fast) is caught from outside: the child is killed and a FuzzHang reported.
 */
export async function runFuzzInChildren(opts: ChildOptions, par: ParallelOptions): Promise<FuzzStats> {
  const childScript = fileURLToPath(new URL("./fuzz-child.ts", import.meta.url));
  const queue = segmentsOf(opts.events, opts.boardEvents).filter(([s]) => !par.segments || par.segments.includes(s));
  const total = queue.reduce((n, [, , c]) => n + c, 0);
  const stats = emptyStats();
  const hangMs = par.hangMs ?? 60000;
  let done = 0;
  return new Promise<FuzzStats>((resolve, reject) => {
    const children = new Set<ReturnType<typeof fork>>();
    const partial = new Map<ReturnType<typeof fork>, number>();
    let failed = false;
    let running = 0;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const c of children) c.kill("SIGKILL");
      reject(e);
    };
    const jobs = Math.max(1, Math.min(par.jobs, queue.length));
    for (let j = 0; j < jobs; j++) {
      const child = fork(childScript, [], {
        // --import is resolved from the working directory: the repository, where tsx is installed.
        cwd: fileURLToPath(new URL("../../", import.meta.url)),
        execArgv: ["--import", "tsx"],
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      children.add(child);
      running++;
      let current: [number, number, number] | null = null;
      let lastIndex = -1;
      let lastProgress = Date.now();
      const watchdog = setInterval(() => {
        if (current && Date.now() - lastProgress > hangMs) {
          const [segment, first] = current;
          const at = Math.max(first, lastIndex);
          fail(
            new FuzzHang(
              opts.seed,
              segment,
              at,
              `npm run fuzz -- --seed ${opts.seed} --events ${opts.events} --board-events ${opts.boardEvents} --segment ${segment} --guarded --trace-from ${at}`,
            ),
          );
        }
      }, 1000);
      const next = () => {
        const item = queue.shift();
        if (!item) {
          current = null;
          child.send({ type: "exit" } satisfies ToChild);
          return;
        }
        current = item;
        lastIndex = item[1];
        lastProgress = Date.now();
        child.send({ type: "run", opts, segment: item[0], first: item[1], count: item[2] } satisfies ToChild);
      };
      child.on("message", (m: FromChild) => {
        lastProgress = Date.now();
        if (m.type === "ready") next();
        else if (m.type === "progress") {
          lastIndex = m.index;
          partial.set(child, current ? m.index - current[1] : 0);
          par.progress?.(done + [...partial.values()].reduce((a, b) => a + b, 0), total);
        } else if (m.type === "log") par.log?.(m.line);
        else if (m.type === "done") {
          mergeStats(stats, m.stats);
          done += m.stats.events;
          partial.set(child, 0);
          par.progress?.(done, total);
          next();
        } else if (m.type === "violation") {
          const v = m.error;
          fail(new FuzzViolation(v.seed, v.segment, v.eventIndex, v.invariant, v.details, v.recent, v.replay));
        } else if (m.type === "error") fail(new Error(m.message));
      });
      child.on("exit", (code) => {
        clearInterval(watchdog);
        children.delete(child);
        running--;
        if (failed) return;
        if (current || code !== 0) fail(new Error(`a fuzz child exited with code ${code} during board ${current?.[0]}`));
        else if (running === 0) resolve(stats);
      });
    }
  });
}
