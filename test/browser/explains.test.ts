/**
 * The page explains the unit (issue 15): a status line that says what the unit shows and what to do
 * next, the numbers in a panel, key legends that follow the screen, named LEDs, controls that keep
 * their own keys, readable text, a phone-sized layout, and a clear word when the simulator is gone.
 * Debian's Chromium, headless; skipped, saying why, where none is installed.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { readSavedState } from "../saves/saved-state.ts";
import { chromiumFor, click, openSimulatorPage } from "./helpers.ts";
import type { Simulator } from "../../sim/web/server.ts";

const executable = chromiumFor("the page's explanations test");

/** Presses a key of the keyboard like a player, held long enough for the unit's debounce. */
async function type(page: Page, key: string): Promise<void> {
  await page.keyboard.down(key);
  await page.waitForTimeout(90);
  await page.keyboard.up(key);
  await page.waitForTimeout(150);
}

/** Waits until the page's status line says what the server's status says now, and returns it. */
async function statusLine(page: Page, sim: Simulator): Promise<string> {
  const line = sim.state().status.line;
  await page.waitForFunction((l) => document.getElementById("status")?.textContent === l, line, { timeout: 5000 });
  return line;
}

const legend = (page: Page, id: string) => page.locator(`.key[data-key="${id}"] .legend`).innerText();

describe("the page explains the unit", () => {
  it.skipIf(!executable)(
    "says in its status line what the unit shows and what to do next, shows the numbers, and relabels the keys per screen",
    async () => {
      const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 11);
      try {
        expect(await page.locator("#status").getAttribute("role")).toBe("status");
        expect(await statusLine(page, sim)).toMatch(/^Menu: Brainiac, normal/);
        expect(await legend(page, "p11")).toBe("Brainiac");
        expect(await legend(page, "p66")).toBe("OK: start");
        // Brain Flip's menu names its own options on the same keys.
        await click(page, "p14");
        await page.waitForFunction(() => document.querySelector('.key[data-key="p33"] .legend')?.textContent === "4 players");
        await click(page, "p11");
        await click(page, "p66");
        expect(await statusLine(page, sim)).toBe(
          "Player 1 (red) makes the code: open the shield, key 4 colours on the codemaker pad, then OK. Player 2 (blue), look away.",
        );
        expect(await legend(page, "p11")).toBe("1 red");
        expect(await legend(page, "p33")).toBe("hole 3");
        // A refusal: OK on an empty secret; the alert says so.
        await page.click("#shield");
        await click(page, "m34");
        // (Read as it shows: the banner goes after about a second, sooner than a loaded machine may look twice.)
        await page.waitForFunction(() => {
          const alert = document.getElementById("alert");
          return !!alert && !alert.hidden && /^Refused/.test(alert.textContent ?? "");
        });
        for (const id of ["m11", "m12", "m13", "m14", "m34"]) await click(page, id);
        await page.click("#shield");
        // The numbers: scores, game and row.
        await page.waitForFunction(() => document.getElementById("facts")?.textContent?.includes("row1 of 12"));
        expect(await page.locator("#scores").innerText()).toMatch(/player 1 \(red\)\s+0 points\s+player 2 \(blue\)\s+0 points/);
        expect(await page.locator("#facts").innerText()).toContain("game\n1 of 4");
        expect(await statusLine(page, sim)).toMatch(/^Player 2 \(blue\): key 4 colours on the pad for row 1 of 12, then OK/);
        // The codebreaker solves it at once: the status says who scored, the panel adds it up.
        for (const id of ["p11", "p12", "p13", "p14", "p66"]) await click(page, id);
        expect(await statusLine(page, sim)).toBe(
          "Player 2 (blue) solved it in 1 row: player 1 (red), the codemaker, scores 1 (a point for each row used). Press OK for the next game (the roles switch).",
        );
        await page.waitForFunction(() => /\b1 point(?!s)/.test(document.getElementById("scores")?.textContent ?? ""));
        expect(await page.locator("#history").innerText()).toContain(
          "Game 1: player 1 (red) made the code; player 2 (blue) solved it in 1 row (",
        );
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it.skipIf(!executable)("names every LED and key for screen readers, by what it is, what it does now and how it is lit", async () => {
    const { sim, page, close } = await openSimulatorPage(executable!, 12);
    try {
      await click(page, "p66");
      await page.click("#shield");
      for (const id of ["m11", "m11", "m12", "m12", "m34"]) await click(page, id);
      await page.click("#shield");
      for (const id of ["p13", "p11", "p66"]) await click(page, id);
      await statusLine(page, sim);
      const unnamed = await page.$$eval("#unit .hole, #unit .key", (els) =>
        els.filter((e) => !/\S/.test(e.getAttribute("aria-label") ?? "")).map((e) => e.outerHTML.slice(0, 80)),
      );
      expect(unnamed).toEqual([]);
      expect(await page.$$eval("#unit .hole", (els) => els.every((e) => e.getAttribute("role") === "img"))).toBe(true);
      // The row just keyed stays in the board as blue, red, then the cursor on hole 3.
      await page.waitForFunction(() =>
        document.querySelector('#unit [data-segment="board"][data-index="0"]')?.getAttribute("aria-label")?.endsWith(": blue"),
      );
      expect(await page.locator('#unit [data-segment="board"][data-index="1"]').getAttribute("aria-label")).toBe(
        "board row 1, hole 2: red",
      );
      expect(await page.locator('#unit [data-segment="status"][data-index="0"]').getAttribute("aria-label")).toMatch(
        /^status 1: whose turn \/ role: (blue|red)$/,
      );
      expect(await page.locator('.key[data-key="p11"]').getAttribute("aria-label")).toBe("colour 1, red, lit red (key p11)");
      expect(await page.locator('.key[data-key="p61"]').getAttribute("aria-label")).toBe("menu (the game is kept), lit blue (key p61)");
      expect(await page.locator('.key[data-key="p46"]').getAttribute("aria-label")).toBe("does nothing on this screen (key p46)");
    } finally {
      await close();
    }
  });

  it.skipIf(!executable)("shows only the board of the game: travel unit 4 x 9, Brainiac 4 x 12, the race 5 x 12", async () => {
    const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 17);
    try {
      /** The holes in play (board, key pegs), the hidden row numbers, and the model line, once the page shows `about`. */
      const inPlay = async (about: string) => {
        await page.waitForFunction((a) => document.getElementById("model")?.textContent?.endsWith(a), about);
        return page.evaluate(() => ({
          board: document.querySelectorAll('#unit .hole[data-segment="board"]:not(.unused)').length,
          keys: document.querySelectorAll('#unit .hole[data-segment="keys"]:not(.unused)').length,
          hiddenOut: Array.from(document.querySelectorAll("#unit .hole.unused")).every((e) => e.getAttribute("aria-hidden") === "true"),
          rowsShown: Array.from(document.querySelectorAll("#unit .silk-row"))
            .filter((e) => getComputedStyle(e).visibility !== "hidden")
            .map((e) => Number(e.textContent))
            .sort((a, b) => a - b)
            .pop(),
        }));
      };
      expect(await inPlay("Brainiac: 4 holes × 12 rows (board of 5 × 12)")).toEqual({
        board: 48,
        keys: 48,
        hiddenOut: true,
        rowsShown: 12,
      });
      await click(page, "p12");
      expect(await inPlay("travel unit: 4 holes × 9 rows (board of 5 × 12)")).toEqual({
        board: 36,
        keys: 36,
        hiddenOut: true,
        rowsShown: 9,
      });
      expect(await page.locator("#model").innerText()).toBe(
        "Brainboard R1 (Espruino Pico) · travel unit: 4 holes × 9 rows (board of 5 × 12)",
      );
      expect(
        await page
          .locator('#unit [data-segment="board"][data-index="45"]')
          .evaluate((e) => getComputedStyle(e.querySelector(".light")!).visibility),
      ).toBe("hidden");
      // In play too: the travel unit's game keeps its 4 x 9.
      await click(page, "p66");
      await page.waitForFunction(() => document.getElementById("unit")?.dataset.screen === "codebreaker");
      expect(await inPlay("travel unit: 4 holes × 9 rows (board of 5 × 12)")).toMatchObject({ board: 36, keys: 36 });
      await click(page, "p61");
      await click(page, "p13");
      expect(await inPlay("five-peg race: 5 holes × 12 rows (board of 5 × 12)")).toEqual({
        board: 60,
        keys: 60,
        hiddenOut: true,
        rowsShown: 12,
      });
      expect(sim.state().status.board).toMatchObject({ pegs: 5, rows: 12 });
      expect(pageErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!executable)(
    "plays a whole game from the keyboard alone: Tab to the menu's keys, Space on them, shortcuts for the game; its controls keep Space and Enter",
    async () => {
      const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 13);
      try {
        // A control keeps its own keys: Space and Enter on the labels switch toggle it, and reach no key of the unit.
        await page.focus("#labels");
        await type(page, " ");
        await page.waitForFunction(() => document.getElementById("labels")?.getAttribute("aria-pressed") === "true");
        await type(page, "Enter");
        await page.waitForFunction(() => document.getElementById("labels")?.getAttribute("aria-pressed") === "false");
        expect(sim.view.shield).toBe(false);
        expect(sim.state().status.screen).toBe("menu");
        await page.evaluate(() => (document.activeElement as HTMLElement).blur());
        // Tab to the menu's "you break first" (row 3, column 3) and press it with Space; then to OK, with Enter.
        const tabTo = async (id: string) => {
          for (let i = 0; i < 80; i++) {
            if ((await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.key)) === id) return;
            await page.keyboard.press("Tab");
          }
          throw new Error(`Tab never reached key ${id}`);
        };
        await tabTo("p33");
        await type(page, " ");
        await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("roles 3: you against the unit"));
        await tabTo("p66");
        await type(page, "Enter");
        expect(await statusLine(page, sim)).toBe(
          "Break the unit's code: key 4 colours on the pad for row 1 of 12, then OK. The white key at the end of row 2 gives a hint.",
        );
        // A wrong row first (the unit's secret is read from its save only to know what to key), then the code.
        const secret = readSavedState(sim.board)!.match!.game.secret!;
        const wrong = secret.map((c) => (c + 1) % 6);
        for (const c of wrong) await type(page, String(c + 1));
        await type(page, "Enter");
        await page.waitForFunction(() => document.getElementById("facts")?.textContent?.includes("row2 of 12"));
        for (const c of secret) await type(page, String(c + 1));
        await type(page, "Enter");
        expect(await statusLine(page, sim)).toBe(
          "You solved it in 2 rows: the unit, the codemaker, scores 2 (a point for each row used). Press OK for the next game (the roles switch).",
        );
        expect(await page.locator("#scores").innerText()).toMatch(/you\s+0 points\s+the unit\s+2 points/);
        // OK again: the roles switch, the unit breaks; the status asks for your code.
        await type(page, "Enter");
        expect(await statusLine(page, sim)).toMatch(/^You make the code: open the shield/);
        expect(pageErrors).toEqual([]);
        expect(sim.board.errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it.skipIf(!executable)("keeps its text readable: at least 4.5:1 contrast, no faded text, nothing under 11 px", async () => {
    const { sim, page, close } = await openSimulatorPage(executable!, 14);
    try {
      await click(page, "p66");
      await statusLine(page, sim);
      const problems = await page.evaluate(() => {
        const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
        const lum = (rgb: number[]) => {
          const l = rgb.slice(0, 3).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4)));
          return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
        };
        /** The colour behind an element: its nearest solid background, the LED under a lit key, or the lightest shade of the gradient it sits on. */
        const behind = (el: Element): number[] => {
          for (let e: Element | null = el; e; e = e.parentElement) {
            const cs = getComputedStyle(e);
            if (e.classList.contains("key") && e.classList.contains("lit")) return parse(cs.getPropertyValue("--c"));
            if (e.classList.contains("key")) return [0x49, 0x50, 0x5a];
            if (e.classList.contains("shield")) return [0x3a, 0x41, 0x4b];
            const bg = parse(cs.backgroundColor);
            if (bg.length >= 3 && (bg.length === 3 || bg[3] > 0.9)) return bg;
            if (e.classList.contains("unit")) return [0x2f, 0x35, 0x3e];
          }
          return [0x26, 0x30, 0x3c];
        };
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (!el || !/\S/.test(n.textContent ?? "") || !el.getClientRects().length) continue;
          const cs = getComputedStyle(el);
          if (cs.visibility === "hidden" || el.closest("[hidden], .card-face, .initial, .silk-brand")) continue;
          let opacity = 1;
          for (let e: Element | null = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
          const fg = parse(cs.color);
          const bg = behind(el);
          const ratio = (Math.max(lum(fg), lum(bg)) + 0.05) / (Math.min(lum(fg), lum(bg)) + 0.05);
          const what = `${el.tagName.toLowerCase()}.${el.className} "${(n.textContent ?? "").trim().slice(0, 30)}"`;
          if (opacity < 1 || (fg.length > 3 && fg[3] < 1)) out.push(`${what}: faded (opacity ${opacity}, colour ${cs.color})`);
          if (parseFloat(cs.fontSize) < 11) out.push(`${what}: ${cs.fontSize}`);
          if (ratio < 4.5) out.push(`${what}: contrast ${ratio.toFixed(2)} (${cs.color} on ${bg.join(",")})`);
        }
        return out;
      });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it.skipIf(!executable)(
    "fits a phone (390 x 844): the unit fills the width with keys of 44 px or more, the page scrolls, and a held card previews without pressing",
    async () => {
      const { sim, page, pageErrors, close } = await openSimulatorPage(executable!, 15, { width: 390, height: 844 });
      try {
        const sizes = await page.evaluate(() => ({
          keys: Array.from(document.querySelectorAll(".key-pad")).map((k) => Math.round(k.getBoundingClientRect().width)),
          plates: Array.from(document.querySelectorAll(".plate")).map((p) => Math.round(p.getBoundingClientRect().width)),
          scrollWidth: document.documentElement.scrollWidth,
          scrollHeight: document.documentElement.scrollHeight,
          innerScroll: Array.from(document.querySelectorAll("main, aside, .panel")).some((e) => e.scrollHeight > e.clientHeight + 1),
        }));
        expect(Math.min(...sizes.keys)).toBeGreaterThanOrEqual(44);
        for (const w of sizes.plates) expect(w).toBeGreaterThanOrEqual(385);
        expect(sizes.scrollWidth).toBeLessThanOrEqual(390);
        expect(sizes.scrollHeight).toBeGreaterThan(844);
        expect(sizes.innerScroll).toBe(false);
        await page.evaluate(() => window.scrollTo(0, 600));
        expect(await page.evaluate(() => window.scrollY)).toBe(600);
        await page.evaluate(() => window.scrollTo(0, 0));

        // Brain Flip: touching and holding a card shows it larger and presses nothing; a tap picks it.
        await click(page, "p14");
        await click(page, "p66");
        await page.waitForSelector('.key[data-key="p22"].card');
        const touch = (type: string) =>
          page.$eval(
            '.key[data-key="p22"]',
            (el, t) => el.dispatchEvent(new PointerEvent(t, { pointerType: "touch", pointerId: 7, button: 0, bubbles: true })),
            type,
          );
        const pick = /pick a card/;
        expect(await statusLine(page, sim)).toMatch(pick);
        await touch("pointerdown");
        await page.waitForSelector('.key[data-key="p22"].preview', { timeout: 2000 });
        expect(await page.locator('.key[data-key="p22"] .card-name').isVisible()).toBe(true);
        await touch("pointerup");
        await page.waitForTimeout(300);
        expect(await page.locator('.key[data-key="p22"].preview').count()).toBe(0);
        expect(sim.state().status.line).toMatch(pick);
        await touch("pointerdown");
        await touch("pointerup");
        await page.waitForFunction(() => /ask a yes\/no question/.test(document.getElementById("status")?.textContent ?? ""));
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it.skipIf(!executable)("says the unit is not reachable when the simulator stops, greys it out and stops its clock", async () => {
    const { sim, page, close } = await openSimulatorPage(executable!, 16);
    try {
      await sim.close();
      await page.waitForSelector("#offline:not([hidden])", { timeout: 5000 });
      expect(await page.locator("#status").innerText()).toMatch(/^The unit is not reachable/);
      expect(await page.locator("#clock").innerText()).toContain("the clock has stopped");
      expect(await page.locator("#unit").evaluate((e) => getComputedStyle(e).filter)).toContain("grayscale(1)");
      const now = await page.locator("#unit").getAttribute("data-now");
      await page.waitForTimeout(800);
      expect(await page.locator("#unit").getAttribute("data-now")).toBe(now);
    } finally {
      await close();
    }
  });
});
