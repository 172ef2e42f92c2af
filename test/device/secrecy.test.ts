/** Issue 7: the secret is not reachable from the USB console, which is locked during two-player games. */
import { describe, expect, it } from "vitest";
import { gridKey, UnitDriver } from "../scenarios/driver.ts";

describe("the secret stays secret", () => {
  it("the console is locked while a two-player game holds a secret, and unlocked when the code is revealed", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    expect(u.board.consoleLocked).toBe(false); // no secret yet
    u.makerSecret([5, 4, 3, 2]);
    expect(u.board.consoleLocked).toBe(true);
    u.guess([5, 4, 3, 2]);
    expect(u.board.consoleLocked).toBe(false);
  });

  it("a Brain Flip round locks the console once the card is picked", () => {
    const u = new UnitDriver();
    u.tap("p14", "p66"); // Brain Flip, start
    expect(u.board.consoleLocked).toBe(false);
    u.tap("p11"); // the Master's pick
    expect(u.board.consoleLocked).toBe(true);
  });

  it("against the unit, nothing needs locking: the console stays open", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "unit-makes" });
    u.guess([0, 0, 1, 1]);
    expect(u.board.consoleLocked).toBe(false);
  });

  it("the lock can be switched off in the menu", () => {
    const u = new UnitDriver();
    u.tap("p62"); // lock console: off
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    expect(u.board.consoleLocked).toBe(false);
  });

  it("the secret is not a global: the console finds no variable holding it", () => {
    const u = new UnitDriver();
    u.tap("p62"); // unlocked console, to look around
    u.startMatch({ preset: "travel", mode: "referee" });
    u.makerSecret([7, 6, 5, 4]);
    const found = u.board.repl(`(function () {
      var hits = [];
      function holds(v, depth) {
        if (!v || typeof v !== "object" || depth > 3) return false;
        if (v.length === 4 && v[0] === 7 && v[1] === 6 && v[2] === 5 && v[3] === 4) return true;
        for (var k in v) if (holds(v[k], depth + 1)) return true;
        return false;
      }
      for (var name in global) if (holds(global[name], 0)) hits.push(name);
      return hits.join(",") + "|" + typeof secret + "|" + typeof app + "|" + typeof match;
    })()`);
    expect(found).toBe("|undefined|undefined|undefined");
  });
});

describe("the secret does not show through the board's brightness", () => {
  /** Every LED but the secret's holes, as bytes sent, after the same moves under different secrets. */
  function visibleAfter(secret: number[]): { visible: string; level: number; secretLit: boolean } {
    const u = new UnitDriver();
    u.tap(gridKey(27)); // brightness 4 (256 of 256): the current budget binds
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret(secret);
    // Colours none of the secrets has: every secret gets the same feedback, so only the secret differs.
    for (const row of [
      [1, 5, 6, 7],
      [5, 6, 7, 1],
      [6, 7, 1, 5],
    ]) {
      u.guess(row);
      u.answer({ exact: 0, near: 0 });
    }
    u.settle();
    const board = u.board;
    const visible = board.profile.leds.segments
      .filter((s) => s.name !== "secret")
      .map((s) =>
        board
          .pixels(s.name as never)
          .map((p) => `${p.r},${p.g},${p.b}`)
          .join(" "),
      )
      .join("|");
    const level = Math.max(...board.pixels("board").map((p) => Math.max(p.r, p.g, p.b)));
    return { visible, level, secretLit: board.colours("secret").some((c) => c !== "off") };
  }

  it("under the shield at the brightest level (where the current budget binds), every visible LED's duty is the same whatever the secret", () => {
    const secrets = [
      [4, 4, 4, 4], // white: the most current
      [0, 0, 0, 0], // red
      [2, 2, 2, 2], // blue
      [3, 3, 4, 4],
    ];
    const seen = secrets.map((s) => visibleAfter(s));
    // The secret is lit under the shield (for the codemaker), and the board is lit (the test compares something).
    for (const r of seen) {
      expect(r.secretLit).toBe(true);
      expect(r.level).toBeGreaterThan(0);
    }
    for (const r of seen.slice(1)) expect(r.visible).toBe(seen[0].visible);
  });
});
