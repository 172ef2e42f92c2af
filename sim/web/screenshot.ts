/**
 * npm run screenshot [-- --out FILE]
 * Regenerates the README's pictures of the simulator: a Brainiac match in progress
 * (sim/scripts/mid-game.txt) drawn by the page in headless Chromium, in a laptop's window
 * (sim/web/page/screenshot.png, or FILE) and on a phone, 390 x 844 (sim/web/page/screenshot-phone.png).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { bundleFor } from "../board/firmware-bundle.ts";
import { CHROMIUM_HELP, findChromium, launchChromium } from "../../hardware/browser.ts";
import { startSimulator } from "./server.ts";

export const SCREENSHOT = fileURLToPath(new URL("./page/screenshot.png", import.meta.url));
export const PHONE_SCREENSHOT = fileURLToPath(new URL("./page/screenshot-phone.png", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../scripts/mid-game.txt", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = values.out ?? SCREENSHOT;
  const chromium = findChromium();
  if ("missing" in chromium) {
    console.error(`cannot take the screenshot: ${chromium.missing}; ${CHROMIUM_HELP}`);
    process.exit(1);
  }
  const { code } = await bundleFor(undefined);
  // Time moves only by the script, so the picture is the same every run (the cursor caught lit).
  const sim = await startSimulator({ firmware: code, port: 0, realtime: false, seed: 1 });
  try {
    sim.command("wait 200"); // the boot, as scripts start
    sim.command(readFileSync(SCRIPT, "utf8"));
    for (const [file, viewport] of [
      [out, { width: 1440, height: 900 }],
      [PHONE_SCREENSHOT, { width: 390, height: 844 }],
    ] as const) {
      // The phone has a touch screen (the page then shows touch legends and says "tap").
      const browser = await launchChromium(chromium.path, viewport, 1, viewport.width < 760);
      try {
        const page = await browser.context.newPage();
        await page.goto(sim.url);
        await page.waitForFunction((now) => document.getElementById("unit")?.dataset.now === String(now), sim.board.now);
        await page.waitForTimeout(300);
        await page.screenshot({ path: file });
        console.log(`wrote ${relative(process.cwd(), file)}`);
      } finally {
        await browser.close();
      }
    }
  } finally {
    await sim.close();
  }
}

await main();
