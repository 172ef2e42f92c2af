/**
 * The menu, played through its keys and read off its LEDs (ui/menu.ts: one table per game drives both).
 * Issue 14: the console lock cannot be switched off while a two-player game holds a secret.
 */
import { describe, expect, it } from "vitest";
import { gridKey, UnitDriver } from "./driver.ts";
import { G_LOCK, G_RESUME } from "../../firmware/ui/menu.ts";
import { G_MENU } from "../../firmware/ui/layout.ts";

const MENU = gridKey(G_MENU);

describe("the menu", () => {
  it("refuses to unlock the console while a two-player game holds a secret, and shows the refusal", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    expect(u.board.consoleLocked).toBe(true);
    u.tap(MENU);
    expect(u.padAt(G_LOCK)).toBe("green");
    u.tap(gridKey(G_LOCK));
    expect(u.refusedJustNow()).toBe(true);
    expect(u.padAt(G_LOCK)).toBe("green"); // still on
    expect(u.board.consoleLocked).toBe(true);
    // Resumed, the game goes on with the console still locked.
    u.tap(gridKey(G_RESUME));
    u.guess([5, 4, 3, 2]);
    expect(u.board.consoleLocked).toBe(false); // revealed: nothing left to hide
  });

  it("unlocks the console from the menu once the secret is revealed, and before any is set", () => {
    const u = new UnitDriver();
    u.tap(gridKey(G_LOCK));
    expect(u.refusedJustNow()).toBe(false);
    expect(u.padAt(G_LOCK)).toBe("red");
    u.tap(gridKey(G_LOCK));
    expect(u.padAt(G_LOCK)).toBe("green");
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    u.guess([5, 4, 3, 2]);
    u.tap(MENU, gridKey(G_LOCK));
    expect(u.refusedJustNow()).toBe(false);
    expect(u.padAt(G_LOCK)).toBe("red");
  });

  it("keeps a Brain Flip grid and a match length apart", () => {
    const u = new UnitDriver();
    u.tap(gridKey(18 + 4)); // codebreaker: 10 games
    u.tap(gridKey(3), gridKey(18 + 2)); // Brain Flip, grid 4x4
    expect(u.padAt(18 + 2)).toBe("white");
    u.tap(gridKey(0)); // back to Brainiac: the match length is still 10 games
    expect(u.padAt(18 + 4)).toBe("white");
    expect(u.padAt(18 + 2)).toBe("blue");
  });
});
