/** The handheld build (one 190 x 130 mm PCB) is only another profile: the firmware built for it runs it unchanged. */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { keyList, loadProfile } from "../../hardware/profile.ts";
import { gridKey } from "../scenarios/driver.ts";
import { echoEachKey } from "./helpers.ts";

const PROFILE = "handheld-pico";
let code = "";
beforeAll(async () => {
  code = (await buildFirmware({ profile: PROFILE, out: join(mkdtempSync(join(tmpdir(), "bb-handheld-")), "firmware.js") })).code;
});

function handheld(holdOk = false): VirtualBoard {
  const b = new VirtualBoard({ profile: PROFILE, firmware: code });
  if (holdOk) b.press("p66");
  b.powerOn();
  b.advance(holdOk ? 80 : 200);
  if (holdOk) {
    b.release("p66");
    b.advance(80);
  }
  return b;
}

describe("the handheld build (handheld-pico profile)", () => {
  it("boots into the menu on the 6x6 pad with no errors", () => {
    const b = handheld();
    expect(b.profile.id).toBe(PROFILE);
    expect(b.colours("pad").some((c) => c !== "off")).toBe(true);
    expect(b.errors).toEqual([]);
  });

  it("sees every key of both pads once down and once up (self-test echo)", () => {
    const b = handheld(true);
    const ids = keyList(loadProfile(PROFILE)).map((k) => k.id);
    expect(ids).toHaveLength(48);
    expect(echoEachKey(b, ids)).toEqual(ids.flatMap((id) => [`${id} down`, `${id} up`]));
  });

  it("keys a secret on the shielded codemaker pad, shows a guessed row on the board and its feedback on the key pegs", () => {
    const b = handheld();
    b.tap("p66"); // Brainiac, four holes, the unit referees
    for (const k of ["m11", "m12", "m13", "m14"]) b.tap(k);
    expect(b.colours("secret").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
    b.tap("m34");
    expect(b.colours("board").slice(0, 4)).toEqual(["hole", "hole", "hole", "hole"]);
    expect(b.colours("pad").slice(0, 6)).toEqual(["red", "green", "blue", "yellow", "white", "orange"]);
    for (const i of [1, 0, 2, 5]) b.tap(gridKey(i));
    b.tap("p66");
    b.advance(20);
    expect(b.colours("board").slice(0, 4)).toEqual(["green", "red", "blue", "orange"]);
    // One exact (blue), two near (green, red).
    expect(b.colours("keys").slice(0, 4)).toEqual(["violet", "white", "white", "off"]);
    expect(b.errors).toEqual([]);
  });
});
