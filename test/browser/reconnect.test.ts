/**
 * The page reconnects by itself after the simulator restarts (a new server on the same port, with a new
 * token): it says the unit is not reachable meanwhile, then draws the new unit without a manual reload.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { startSimulator } from "../../sim/web/server.ts";
import { chromiumFor, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the reconnect test");

describe("the page after the simulator restarts", () => {
  it.skipIf(!executable)("says the unit is not reachable, then reconnects with the new token by itself", async () => {
    const { sim, page, close } = await openSimulatorPage(executable!, 5);
    const port = sim.port;
    let again: Awaited<ReturnType<typeof startSimulator>> | undefined;
    try {
      await sim.close();
      await page.waitForFunction(() => document.body.classList.contains("offline"));
      expect(await page.locator("#status").textContent()).toMatch(/not reachable/);
      again = await startSimulator({ firmware: readFileSync(DEFAULT_OUT, "utf8"), port, fallbackPort: false, seed: 6 });
      expect(again.token).not.toBe(sim.token);
      await page.waitForFunction(
        (token) =>
          !document.body.classList.contains("offline") &&
          document.querySelector('meta[name="brainboard-token"]')?.getAttribute("content") === token &&
          Number(document.getElementById("unit")?.dataset.now) > 0,
        again.token,
        { timeout: 20_000 },
      );
      expect(await page.locator("#status").textContent()).not.toMatch(/not reachable/);
    } finally {
      await close();
      await again?.close();
    }
  });
});
