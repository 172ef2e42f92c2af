/** Shared by the browser tests. */
import type { Page } from "playwright-core";
import type { Simulator } from "../../sim/server.ts";

/** Stops the board's clock and waits until the page has drawn the board as it now is. */
export async function freeze(page: Page, sim: Simulator): Promise<void> {
  sim.setRunning(false);
  await page.waitForFunction((now) => document.getElementById("unit")?.dataset.now === String(now), sim.board.now);
}
