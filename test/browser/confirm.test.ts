/**
 * The menu's "Press OK again" over a game in progress says how long it waits, and once it has expired the
 * menu's line still says that OK is needed twice, within that time.
 */
import { describe, expect, it } from "vitest";
import { G_OK } from "../../firmware/ui/layout.ts";
import { CONFIRM_MS } from "../../firmware/ui/menu.ts";
import { chromiumFor, click, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the confirmation test");

describe("the menu's confirmation over a game in progress", () => {
  it.skipIf(!executable)("says how long it waits, and what to do after it expired", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 19);
    try {
      sim.command("tap ok\nwait 500\ntap menu\nwait 500");
      const ok = sim.board.profile.keymap.grid[G_OK];
      await click(page, ok);
      const seconds = `${CONFIRM_MS / 1000} seconds`;
      await page.waitForFunction(() => /^Press OK again/.test(document.getElementById("status")?.textContent ?? ""));
      expect(await page.locator("#status").textContent()).toContain(`within ${seconds}`);
      sim.command(`wait ${CONFIRM_MS + 500}`);
      await page.waitForFunction(() => /^Menu: /.test(document.getElementById("status")?.textContent ?? ""));
      expect(await page.locator("#status").textContent()).toContain(`twice within ${seconds}`);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
