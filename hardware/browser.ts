/**
 * A headless Chromium for the page's test and the README screenshot: Playwright (playwright-core,
 * which downloads no browser) driving the system's Chromium (Debian: apt-get install chromium).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "playwright-core";

/** Where a Chromium may be installed; BRAINBOARD_CHROMIUM overrides. */
export const CHROMIUM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];

export const CHROMIUM_HELP =
  "install Debian's Chromium (sudo apt-get update && sudo apt-get install -y chromium) or set BRAINBOARD_CHROMIUM";

/** The Chromium executable, or why there is none. */
export function findChromium(): { path: string } | { missing: string } {
  const env = process.env.BRAINBOARD_CHROMIUM;
  if (env) return existsSync(env) ? { path: env } : { missing: `BRAINBOARD_CHROMIUM=${env} does not exist` };
  const path = CHROMIUM_PATHS.find((p) => existsSync(p));
  return path ? { path } : { missing: `no Chromium at ${CHROMIUM_PATHS.join(", ")}` };
}

export interface Chromium {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches the system Chromium headless with a fresh profile directory (removed on close); `touch`: a phone's touch screen. */
export async function launchChromium(
  executablePath: string,
  viewport = { width: 1440, height: 900 },
  deviceScaleFactor = 1,
  touch = false,
): Promise<Chromium> {
  const { chromium } = await import("playwright-core");
  const userDataDir = mkdtempSync(join(tmpdir(), "brainboard-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    viewport,
    deviceScaleFactor,
    hasTouch: touch,
    isMobile: touch,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser: context.browser() as Browser,
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
