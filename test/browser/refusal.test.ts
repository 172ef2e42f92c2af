/**
 * Keys a game does not use are dimmed on the codemaker pad as on the pad, and a press on one is refused
 * with the reason; the refusal banner moves nothing on the page.
 */
import { describe, expect, it } from "vitest";
import { rulesFor } from "../../firmware/core/presets.ts";
import { chromiumFor, click, openSimulatorPage } from "./helpers.ts";

const executable = chromiumFor("the refusal test");

describe("a key the game does not use", () => {
  it.skipIf(!executable)("is dimmed on the codemaker pad, refused with its reason, and the banner moves nothing", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 23);
    try {
      const colours = rulesFor("brainiac", false).colours; // the menu's default game, two players
      const maker = sim.board.profile.keymap.maker!;
      const unused = maker.colours[colours];
      expect(unused).toBeDefined();
      sim.command("tap ok\nwait 500");
      await page.click("#shield");
      await page.waitForFunction(() => /makes the code: key /.test(document.getElementById("status")?.textContent ?? ""));
      const key = page.locator(`.key[data-key="${unused}"]`);
      expect(await key.getAttribute("class")).toMatch(/\bidle\b/);
      expect(Number(await key.evaluate((e) => getComputedStyle(e).opacity))).toBeLessThan(1);
      expect(await key.evaluate((e) => (e as HTMLElement).tabIndex)).toBe(-1);
      const usedKey = page.locator(`.key[data-key="${maker.colours[0]}"]`);
      expect(await usedKey.getAttribute("class")).not.toMatch(/\bidle\b/);

      const unitTop = async () => (await page.locator("#unit").boundingBox())!.y;
      const before = await unitTop();
      await click(page, unused);
      await page.waitForFunction(() => !document.getElementById("alert")!.hidden);
      expect(await page.locator("#alert").textContent()).toMatch(new RegExp(`not in this game \\(it uses ${colours} colours\\)`));
      expect(await unitTop()).toBe(before);
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });
});
