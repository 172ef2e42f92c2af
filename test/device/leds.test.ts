import { describe, expect, it } from "vitest";
import { SELFTEST_STEP_MS } from "../../firmware/ui/render.ts";
import { bootedBoard, estimatedCurrentMa, R1, selfTestBoard } from "./helpers.ts";

describe("LED output of the built bundle", () => {
  it("LED bytes decode, as GRB, to the colours the firmware rendered", () => {
    const board = bootedBoard();
    // Menu: start a Brainiac match with OK; once the codemaker's secret is in, the pad labels the colour keys.
    board.tap("p66");
    for (const k of ["m11", "m12", "m13", "m14", "m34"]) board.tap(k);
    const pad = board.colours("pad");
    expect(pad.slice(0, 6)).toEqual(["red", "green", "blue", "yellow", "white", "orange"]);
    // A pure red pixel must have arrived as G=0, R>0, B=0: a byte-order mistake would show green.
    const red = board.pixels("pad")[0];
    expect(red.r).toBeGreaterThan(0);
    expect(red.g).toBe(0);
    expect(red.b).toBe(0);
  });

  it("the self-test lights each segment in turn, then every LED white under the current budget", () => {
    const board = selfTestBoard();
    const names = R1.leds.segments.map((s) => s.name);
    const start = Math.ceil(board.uptime / SELFTEST_STEP_MS) * SELFTEST_STEP_MS;
    board.advance(start - board.uptime + 10);
    const stepNow = Math.floor(board.uptime / SELFTEST_STEP_MS);
    // Walk a full cycle and check each step lights exactly one segment (or all, for the lamp test).
    const seen: string[] = [];
    for (let i = 0; i <= names.length; i++) {
      const lit = names.filter((n) => board.colours(n).every((c) => c === "white"));
      const dark = names.filter((n) => board.colours(n).every((c) => c === "off"));
      expect(lit.length + dark.length).toBe(names.length);
      seen.push(lit.length === names.length ? "all" : lit.join("+"));
      if (lit.length === names.length) expect(estimatedCurrentMa(board)).toBeLessThanOrEqual(R1.leds.budgetMa);
      board.advance(SELFTEST_STEP_MS);
    }
    expect(stepNow).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([...names, "all"]));
  });

  it("an unchanged frame is not sent again", () => {
    const board = bootedBoard();
    board.advance(1000);
    // The menu blinks only its OK key: count writes over a still stretch with the blink's period.
    const writes = board.ledStats.writes;
    board.advance(600);
    expect(board.ledStats.writes - writes).toBeLessThanOrEqual(2);
  });
});
