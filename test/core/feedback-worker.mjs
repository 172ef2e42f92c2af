// Worker thread entry for feedback-exhaustive.test.ts: lets Node load the TypeScript sources through tsx.
import { register } from "tsx/esm/api";

register();
await import("./feedback-worker.ts");
