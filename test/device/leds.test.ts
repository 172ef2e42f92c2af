import { describe, expect, it } from "vitest";
import { SELFTEST_STEP_MS } from "../../firmware/ui/render.ts";
import { bootedBoard, estimatedCurrentMa, firmwareBundle, R1, selfTestBoard } from "./helpers.ts";
import { gridKey, UnitDriver } from "../scenarios/driver.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { ledSettleMs } from "../../hardware/profile.ts";

describe("the LED supply settles before the first frame", () => {
  const settle = ledSettleMs(R1);

  it("at power-on no frame is sent until the supply has settled, and the menu then shows", () => {
    const board = new VirtualBoard({ firmware: firmwareBundle() });
    const onAt: number[] = [];
    let powered = false;
    board.on("leds", () => {
      if (board.ledsPowered && !powered) onAt.push(board.now);
      powered = board.ledsPowered;
    });
    board.powerOn();
    board.advance(200);
    expect(settle).toBeGreaterThan(0);
    expect(onAt.length).toBe(1);
    expect(board.ledStats.writes).toBeGreaterThan(0);
    // Nothing was sent into the ramp (a write before the settle time is lost, and counted), yet the menu shows.
    expect(board.ledStats.lost).toBe(0);
    expect(board.colours("pad").some((c) => c !== "off")).toBe(true);
  });

  it("on waking, the frame of that moment is shown once the supply has settled, though the screen did not change", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac" });
    u.makerSecret([0, 1, 2, 3]);
    u.tap("p11", "p12");
    const row = u.boardRow(0);
    const pad = u.board.colours("pad");
    u.board.advance(5 * 60_000 + 1000); // asleep: the supply is off
    expect(u.board.ledsPowered).toBe(false);
    const lostBefore = u.board.ledStats.lost;
    u.board.press("p13"); // any key wakes the unit
    u.board.advance(100);
    u.board.release("p13");
    u.board.advance(100);
    // No write went into the ramp, and the frame sent after it is the screen as it is now.
    expect(u.board.ledStats.lost).toBe(lostBefore);
    expect(u.boardRow(0)).toEqual(row);
    expect(u.board.colours("pad")).toEqual(pad);
  });
});

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

  it("as the board fills the brightness steps down within the current budget, holds while a row is keyed, and comes back on the menu", () => {
    const board = bootedBoard();
    // The default brightness (64 of 256): a white pad key at full duty shows 255 * 64 / 256.
    const userLevel = 63;
    const written: { ma: number; budgeted: number; level: number }[] = [];
    // The level of every frame sent: the brightest channel of the pad (the white colour key while a row is keyed).
    // The budget counts the shielded secret's holes as white at that level, whatever they show (so the
    // board's dimming says nothing of the secret): `budgeted` is the current counted that way.
    const leds = board.profile.leds;
    board.on("leds", () => {
      const level = Math.max(...board.pixels("pad").map((p) => Math.max(p.r, p.g, p.b)));
      const ma = estimatedCurrentMa(board);
      const secretMa = board.pixels("secret").reduce((a, p) => a + (leds.maPerChannel * (p.r + p.g + p.b)) / 255, 0);
      const worstMa = (board.pixels("secret").length * leds.maPerChannel * 3 * level) / 255;
      written.push({ ma, budgeted: ma - secretMa + worstMa, level });
    });
    board.tap("p66");
    for (const k of ["m11", "m12", "m13", "m14", "m34"]) board.tap(k);
    const perRow: number[][] = [];
    for (let row = 0; row < 8; row++) {
      const from = written.length;
      for (let i = 0; i < 4; i++) board.tap(gridKey((row + i * 2) % 6));
      perRow.push(written.slice(from).map((w) => w.level));
      board.tap("p66");
      board.advance(300);
    }
    // Never over the budget; where it binds (a level below the user's), within about 1/8 of it, not needlessly dim.
    for (const w of written) {
      expect(w.ma).toBeLessThanOrEqual(R1.leds.budgetMa);
      expect(w.budgeted).toBeLessThanOrEqual(R1.leds.budgetMa);
      if (w.level < userLevel && w.level > 0) expect(w.budgeted).toBeGreaterThan(R1.leds.budgetMa * 0.85);
    }
    // The board did get too bright for the user's level (the test means something), and the level only fell as it filled.
    const levels = written.map((w) => w.level).filter((l) => l > 0);
    expect(Math.min(...levels)).toBeLessThan(userLevel / 2);
    for (let i = 1; i < levels.length; i++) expect(levels[i]).toBeLessThanOrEqual(levels[i - 1]);
    // Keying a row's four pegs (each a little more current) changes the level at most once.
    for (const r of perRow) expect(new Set(r).size).toBeLessThanOrEqual(2);
    // Back on the menu (far less lit) the user's level returns.
    board.tap(gridKey(30));
    board.advance(700);
    expect(Math.max(...written.slice(-3).map((w) => w.level))).toBe(userLevel);
  });

  it("at the brightest level the budget dims the menu, and a game's darker board comes up at once", () => {
    const board = bootedBoard();
    const level = () => Math.max(...board.pixels().map((p) => Math.max(p.r, p.g, p.b)));
    // The brightest level (256): the menu lights most of the pad at full colour, more than the budget allows.
    board.tap(gridKey(27));
    board.advance(100);
    const menuLevel = level();
    expect(menuLevel).toBeLessThan(255);
    expect(estimatedCurrentMa(board)).toBeLessThanOrEqual(R1.leds.budgetMa);
    // OK at once (no frame between): the secret's entry lights far fewer LEDs, and gets the brighter level it allows.
    board.tap("p66");
    board.advance(50);
    expect(level()).toBeGreaterThan(menuLevel);
    expect(estimatedCurrentMa(board)).toBeLessThanOrEqual(R1.leds.budgetMa);
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
