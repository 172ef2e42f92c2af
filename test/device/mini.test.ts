/** docs/design.md 3: a smaller build (4 pegs, 10 rows, one pad) is only another profile. */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { gridKey } from "../scenarios/driver.ts";

let code = "";
beforeAll(async () => {
  code = (await buildFirmware({ profile: "mini-pico", out: join(mkdtempSync(join(tmpdir(), "bb-mini-")), "firmware.js") })).code;
});

function mini(): VirtualBoard {
  const b = new VirtualBoard({ profile: "mini-pico", firmware: code });
  b.powerOn();
  b.advance(200);
  return b;
}
const tapAll = (b: VirtualBoard, keys: string[]) => keys.forEach((k) => b.tap(k));
const row = (b: VirtualBoard, r: number) => b.colours("board").slice(r * 4, r * 4 + 4);

describe("the mini build (mini-pico profile)", () => {
  it("does not offer the five-peg race, which needs five holes", () => {
    const b = mini();
    expect(b.colours("pad").slice(0, 4)).toEqual(["white", "yellow", "off", "yellow"]);
    b.tap(gridKey(2));
    expect(b.colours("pad")[2]).toBe("off");
  });

  it("keys the secret on the one pad without lighting it, then plays Brainiac with the latest rows on its 10-row board", () => {
    const b = mini();
    b.tap("p66"); // Brainiac, unit referees
    tapAll(b, [gridKey(0), gridKey(1), gridKey(2), gridKey(3)]);
    expect(b.colours("board").every((c) => c === "off")).toBe(true);
    expect(b.colours("pad").slice(0, 6)).toEqual(["red", "green", "blue", "yellow", "white", "orange"]);
    b.tap("p66");
    // Eleven wrong rows: the board scrolls so the row being played stays on it.
    for (let r = 0; r < 11; r++) tapAll(b, [gridKey(5), gridKey(5), gridKey(4), gridKey(4), "p66"]);
    b.advance(20);
    expect(row(b, 0)).toEqual(["orange", "orange", "white", "white"]); // row 2 of the game, now at the bottom
    tapAll(b, [gridKey(0), gridKey(1), gridKey(2), gridKey(3), "p66"]);
    b.advance(20);
    expect(row(b, 9)).toEqual(["red", "green", "blue", "yellow"]); // row 12 at the top
    expect(b.colours("status")[1]).toBe("green");
    expect(b.errors).toEqual([]);
  });

  it("takes the codemaker's feedback on the grid when there is no codemaker pad", () => {
    const b = mini();
    b.tap(gridKey(13)); // role 2: the codemaker answers
    b.tap("p66");
    tapAll(b, [gridKey(0), gridKey(1), gridKey(2), gridKey(3), "p66"]);
    tapAll(b, [gridKey(0), gridKey(2), gridKey(4), gridKey(5), "p66"]);
    b.advance(20);
    expect(b.colours("pad")[18]).toBe("violet"); // exact
    expect(b.colours("pad")[19]).toBe("white"); // near
    tapAll(b, [gridKey(18), gridKey(19), "p66"]);
    b.advance(20);
    expect(b.colours("keys").slice(0, 4)).toEqual(["violet", "white", "off", "off"]);
  });

  it("plays Brain Flip up to 5x5, with the Master's keys in the pad's last column", () => {
    const b = mini();
    tapAll(b, [gridKey(3), gridKey(12), "p66"]); // Brain Flip, 2 players, grid (defaults to 6, capped at 5)
    b.advance(20);
    const pad = b.colours("pad");
    expect(pad.filter((c) => c === "cyan")).toHaveLength(25);
    expect([pad[5], pad[11]]).toEqual(["green", "red"]);
    b.tap(gridKey(0)); // pick
    b.tap(gridKey(5)); // yes
    b.advance(20);
    expect(b.colours("board").slice(0, 4)).toEqual(["green", "green", "green", "green"]);
  });
});
