/** A child process of runFuzzInChildren (test/fuzz/fuzzer.ts): runs the segments it is sent, reports back over IPC. */
import { readFileSync } from "node:fs";
import { loadProfile } from "../../hardware/profile.ts";
import { FuzzViolation, runSegment, type FromChild, type ToChild } from "./fuzzer.ts";

const send = (m: FromChild) => process.send!(m);
const firmware = new Map<string, string>();

process.on("message", (m: ToChild) => {
  if (m.type === "exit") process.exit(0);
  const o = m.opts;
  if (!firmware.has(o.firmwarePath)) firmware.set(o.firmwarePath, readFileSync(o.firmwarePath, "utf8"));
  try {
    const stats = runSegment(
      {
        seed: o.seed,
        events: o.events,
        boardEvents: o.boardEvents,
        firmware: firmware.get(o.firmwarePath)!,
        profile: loadProfile(o.profile),
        fast: o.fast,
        traceFrom: o.traceFrom,
        log: (line) => send({ type: "log", line }),
        progress: (index) => send({ type: "progress", segment: m.segment, index }),
      },
      m.segment,
      m.first,
      m.count,
    );
    send({ type: "done", segment: m.segment, stats });
  } catch (e) {
    if (e instanceof FuzzViolation)
      send({
        type: "violation",
        error: {
          message: e.message,
          seed: e.seed,
          segment: e.segment,
          eventIndex: e.eventIndex,
          invariant: e.invariant,
          details: e.details,
          recent: e.recent,
          replay: e.replay,
        },
      });
    else send({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
send({ type: "ready" });
