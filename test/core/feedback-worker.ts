/** Worker thread for feedback-exhaustive.test.ts: runs one FeedbackTask per message. */
import { parentPort } from "node:worker_threads";
import { runFeedbackTask } from "./feedback-reference";
import type { FeedbackTask } from "./feedback-reference";

const port = parentPort;
if (port !== null) port.on("message", (task: FeedbackTask) => port.postMessage(runFeedbackTask(task)));
