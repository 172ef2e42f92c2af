/** Shared by the browser tests: Chromium, the simulator page on a fresh board, and the player's clicks. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { CHROMIUM_HELP, findChromium, launchChromium } from "../../hardware/browser.ts";
import { startSimulator, type EspruinoSimulator, type Simulator } from "../../sim/web/server.ts";

export const RESULTS = fileURLToPath(new URL("../../test-results/browser/", import.meta.url));

/** Debian's Chromium, or undefined after saying on the console why `what` is skipped and how to install it. */
export function chromiumFor(what: string): string | undefined {
  const chromium = findChromium();
  if ("path" in chromium) return chromium.path;
  console.warn(`test/browser: skipping ${what}: ${chromium.missing}; ${CHROMIUM_HELP}`);
  return undefined;
}

export interface OpenPage {
  sim: Simulator;
  page: Page;
  /** Uncaught errors in the page's scripts. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Opens `sim`'s page in Chromium (a window of `viewport`) and waits until `ready` holds in the page; closes both on failure. */
async function openPage<S extends { url: string; close(): Promise<void> }>(
  sim: S,
  executable: string,
  viewport: { width: number; height: number },
  ready: () => boolean,
): Promise<Omit<OpenPage, "sim"> & { sim: S }> {
  // A phone's window (narrower than a laptop's) has a touch screen.
  const browser = await launchChromium(executable, viewport, 1, viewport.width < 760);
  const close = async () => {
    await browser.close();
    await sim.close();
  };
  try {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(sim.url);
    await page.waitForSelector('.key[data-key="p66"]');
    await page.waitForFunction(ready);
    return { sim, page, pageErrors, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The simulator on the built bundle (board seeded with `seed`), its page open in Chromium (a window of `viewport`) and drawn once the unit has booted. */
export async function openSimulatorPage(executable: string, seed: number, viewport = { width: 1440, height: 900 }): Promise<OpenPage> {
  const sim = await startSimulator({ firmware: readFileSync(DEFAULT_OUT, "utf8"), port: 0, seed });
  return openPage(sim, executable, viewport, () => Number(document.getElementById("unit")?.dataset.now) > 200);
}

/** The same page with the unit on the real Espruino interpreter (`npm start -- --engine espruino`), in real time. */
export async function openEspruinoPage(
  executable: string,
  viewport = { width: 1440, height: 900 },
): Promise<Omit<OpenPage, "sim"> & { sim: EspruinoSimulator }> {
  const sim = await startSimulator({ engine: "espruino", firmware: readFileSync(DEFAULT_OUT, "latin1"), port: 0, seed: 3 });
  return openPage(sim, executable, viewport, () => /^Menu: /.test(document.getElementById("status")?.textContent ?? ""));
}

/** Clicks a key of the unit like a player: mouse down, hold, mouse up, then lets the firmware react. */
export async function click(page: Page, id: string): Promise<void> {
  await page.click(`.key[data-key="${id}"]`, { delay: 90 });
  await page.waitForTimeout(120);
}

/** Stops the board's clock and waits until the page has drawn the board as it now is. */
export async function freeze(page: Page, sim: Simulator): Promise<void> {
  sim.setRunning(false);
  await page.waitForFunction((now) => document.getElementById("unit")?.dataset.now === String(now), sim.board.now);
}
