/**
 * The flash tool never reports success after a failed upload: it runs the real espruino CLI against a loopback port
 * where nothing listens, and must exit non-zero with a clear message.
 */
import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flash, FlashError } from "../../firmware/tools/flash.ts";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { HAS_CLI } from "./flash-tool.ts";

/** A loopback port nobody listens on (taken, then freed). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe.skipIf(!HAS_CLI)("the flash tool and a port where nothing listens", () => {
  it("exits non-zero with a clear message, never 'done'", async () => {
    const dir = mkdtempSync(join(tmpdir(), "brainboard-flash-dead-"));
    let text = "";
    let exitCode: number;
    try {
      const r = await flash({
        port: `tcp://127.0.0.1:${await deadPort()}`,
        bundle: DEFAULT_OUT,
        outDir: dir,
        timeoutS: 20,
        out: (t) => (text += t),
        err: (t) => (text += t),
      });
      exitCode = r.exitCode;
    } catch (e) {
      if (!(e instanceof FlashError)) throw e;
      text += e.message;
      exitCode = e.exitCode;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(exitCode, text).not.toBe(0);
    expect(text).not.toMatch(/^done\b/m);
    expect(text).toMatch(/127\.0\.0\.1|refused|connect|nothing/i);
  });
});
