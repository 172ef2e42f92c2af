/**
 * The menu, played through its keys and read off its LEDs (ui/menu.ts: one table per game drives both).
 * Issue 14: the console lock cannot be switched off while a two-player game holds a secret. Issue 15: a
 * game in progress is never lost by one key.
 */
import { describe, expect, it } from "vitest";
import { gridKey, UnitDriver } from "./driver.ts";
import { CONFIRM_MS, G_LOCK, G_RESUME } from "../../firmware/ui/menu.ts";
import { G_MENU, G_OK } from "../../firmware/ui/layout.ts";

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

  it("leaving a game for a new one takes a confirming OK: the first asks (OK fast, status LED 2 yellow), any other key keeps the game", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    u.guess([0, 1, 2, 3]);
    u.tap(MENU);
    expect(u.padAt(G_RESUME)).toBe("cyan");
    u.tap(gridKey(G_OK));
    // Asked, not started: the warning colour, a warning tone (not the refusal's), the OK key blinking at the fast rate.
    expect(u.status()[1]).toBe("yellow");
    expect(u.board.tones.filter((t) => t.freq > 0).at(-1)!.freq).toBe(660);
    const blinks = new Set<string>();
    for (let i = 0; i < 8; i++) {
      u.board.advance(120);
      blinks.add(u.padAt(G_OK));
    }
    expect(blinks).toEqual(new Set(["green", "off"]));
    // Another key lets the game be: resume finds the row played.
    u.tap(gridKey(G_RESUME));
    expect(u.feedbackRow(0).pixels.some((p) => p !== "off")).toBe(true);
    // Asked, then too late: the second OK only asks again.
    u.tap(MENU, gridKey(G_OK));
    u.board.advance(CONFIRM_MS + 100);
    expect(u.status()[1]).not.toBe("yellow");
    u.tap(gridKey(G_OK));
    expect(u.padAt(G_RESUME)).toBe("cyan");
    // OK twice: a new match, the old one gone.
    u.tap(gridKey(G_OK));
    expect(u.feedbackRow(0).pixels.every((p) => p === "off")).toBe(true);
    u.tap(MENU);
    expect(u.padAt(G_RESUME)).toBe("cyan"); // the new match, resumable
  });

  it("starts at once when nothing would be lost: no game yet, or the last one over", () => {
    const u = new UnitDriver();
    u.tap(gridKey(G_OK));
    expect(u.padAt(G_MENU)).toBe("blue"); // the play screen's menu key: a match began on one press
    u.makerSecret([5, 4, 3, 2]);
    u.guess([5, 4, 3, 2]);
    u.tap(gridKey(G_OK)); // game 2 of 2
    u.makerSecret([1, 1, 1, 1]);
    u.guess([1, 1, 1, 1]);
    u.tap(gridKey(G_OK)); // the match is over: OK for the menu
    u.tap(gridKey(G_OK)); // and a new match at once
    expect(u.padAt(G_MENU)).toBe("blue");
    expect(u.status()[1]).not.toBe("yellow");
  });
});
