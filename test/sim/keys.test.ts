import { describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { boot, r1With, SCANNER } from "./helpers.ts";

/** Scans every 0.25 ms and logs each change of what is pressed, with its time in ms. */
const LOGGING_SCANNER = `${SCANNER}
var last = "", changes = [];
setInterval(function () {
  var now = scan().join(" ");
  if (now !== last) { changes.push([Math.round(getTime() * 4e3) / 4, now]); last = now; }
}, 0.25);`;

describe("the key matrix", () => {
  it("names the valid keys when asked for an unknown one", () => {
    const board = new VirtualBoard({ firmware: "" });
    expect(() => board.press("p77")).toThrow(/unknown key "p77".*valid keys: p11, p12/);
  });

  it("bounces on a press, seen by a scan as several edges, then reads pressed for good", () => {
    const board = boot(LOGGING_SCANNER, { bounceMs: 5, seed: 11 });
    board.advance(10);
    board.press("p11");
    board.advance(20);
    const changes = JSON.parse(board.repl("JSON.stringify(changes)") as string) as [number, string][];
    expect(changes.length).toBeGreaterThan(2);
    expect(changes[0][1]).toBe("0,0");
    expect(changes[changes.length - 1][1]).toBe("0,0");
    expect(changes[changes.length - 1][0]).toBeLessThanOrEqual(15.25);
    // Stable afterwards.
    board.advance(50);
    expect(board.repl("changes.length")).toBe(changes.length);
  });

  it("closes the contact at once, so a key held while powering on reads pressed at boot", () => {
    const board = new VirtualBoard({ firmware: `${SCANNER} var atBoot = scan().join(" ");`, bounceMs: 5 });
    board.press("p66");
    board.powerOn();
    expect(board.repl("atBoot")).toBe("5,5");
  });

  it("gives clean edges with bounceMs 0", () => {
    const board = boot(LOGGING_SCANNER, { bounceMs: 0 });
    board.advance(10);
    board.tap("m34", 30, 30);
    expect(board.repl("JSON.stringify(changes)")).toBe('[[10.25,"2,9"],[40.25,""]]');
  });

  it("reads every key at its row and column (the maker pad shares the first three rows)", () => {
    const board = boot(SCANNER, { bounceMs: 0 });
    for (const k of board.keys) {
      board.press(k.id);
      board.advance(1);
      expect(board.repl("scan().join(' ')")).toBe(`${k.rowLine},${k.colLine}`);
      board.release(k.id);
      board.advance(1);
    }
  });

  it("ghosts without diodes: three corners of a rectangle make the fourth read as pressed", () => {
    const profile = r1With((p) => (p.keys.diodes = false));
    const board = boot(SCANNER, { profile, bounceMs: 0 });
    for (const k of ["p11", "p12", "p21"]) board.press(k);
    board.advance(1);
    expect(board.repl("scan().join(' ')")).toBe("0,0 0,1 1,0 1,1");
  });

  it("does not ghost with the R1's diodes", () => {
    const board = boot(SCANNER, { bounceMs: 0 });
    for (const k of ["p11", "p12", "p21"]) board.press(k);
    board.advance(1);
    expect(board.repl("scan().join(' ')")).toBe("0,0 0,1 1,0");
  });

  it("counts contention when push-pull rows are shorted through two pressed keys without diodes", () => {
    const drive = `digitalWrite(B13, 0); digitalWrite(B14, 1);`;
    const plain = boot(drive, { profile: r1With((p) => (p.keys.diodes = false)), bounceMs: 0 });
    plain.press("p11");
    plain.press("p21");
    plain.advance(1);
    expect(plain.contention).toBe(1);
    expect(plain.pinState("B14").level).toBe(0);
    const r1 = boot(drive, { bounceMs: 0 });
    r1.press("p11");
    r1.press("p21");
    r1.advance(1);
    expect(r1.contention).toBe(0);
  });

  it("wakes a column watch when any key of a low row is pressed (the sleep wiring)", () => {
    const board = boot(`${SCANNER} rows.forEach(function (r) { digitalWrite(r, 0); }); var woke = 0;
      setWatch(function () { woke++; }, A10, {repeat: true, edge: "falling", debounce: 10});`);
    board.advance(10);
    board.tap("p46");
    expect(board.repl("woke")).toBe(1);
  });
});
