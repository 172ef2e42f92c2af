/**
 * The profile is compiled once (hardware/unit-profile.ts) and the one compiled profile is handed to every
 * part of the simulator: a part given it uses its keys, segments and geometry as they are, never checking
 * or deriving the profile again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { unitProfile } from "../../hardware/unit-profile.ts";
import { keyList, segmentOffsets } from "../../hardware/profile.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { startSimulator, type Simulator } from "../../sim/web/server.ts";
import { parseScript } from "../../sim/play/script.ts";
import { firmwareBundle } from "../device/helpers.ts";

let sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

/** A compiled profile whose data no longer passes the profile check: a part that checked it again would throw. */
function uncheckable() {
  const unit = unitProfile("r1-pico");
  (unit.profile as unknown as Record<string, unknown>).notAField = 1;
  return unit;
}

describe("the profile, compiled once and handed on", () => {
  it("compiles what the parts need: the keys and segments as the firmware numbers them", () => {
    const unit = unitProfile("r1-pico");
    expect(unit.keys).toEqual(keyList(unit.profile));
    expect(unit.segments).toEqual(segmentOffsets(unit.profile));
    expect(unit.geometry).toBe(unit.geometry);
    // A profile object is checked when compiled: what the check refuses is refused here.
    expect(() => unitProfile({ ...unit.profile, notAField: 1 } as unknown as typeof unit.profile)).toThrow(/notAField/);
    // And one compiled already is handed back as it is.
    expect(unitProfile(unit)).toBe(unit);
  });

  it("a board given a compiled profile uses it as it is: the same keys and segments, not checked again, and it plays", () => {
    const unit = uncheckable();
    const board = new VirtualBoard({ profile: unit, firmware: firmwareBundle() });
    expect(board.unit).toBe(unit);
    expect(board.profile).toBe(unit.profile);
    expect(board.keys).toBe(unit.keys);
    board.powerOn();
    board.advance(300);
    board.tap("p12");
    expect(board.colours("pad")[1]).toBe("white");
  });

  it("the page's simulator compiles its profile once and hands that one object to the board, the page's geometry and the scripts", async () => {
    const unit = uncheckable();
    const sim = await startSimulator({ profile: unit, firmware: firmwareBundle(), port: 0, realtime: false });
    sims.push(sim);
    expect(sim.board.unit).toBe(unit);
    expect(() => parseScript("tap p12", unit)).not.toThrow();
    sim.command("wait 300\ntap p12");
    expect(sim.board.colours("pad")[1]).toBe("white");
    const named = await startSimulator({ profile: "r1-pico", firmware: firmwareBundle(), port: 0, realtime: false });
    sims.push(named);
    expect(named.board.unit.profile.id).toBe("r1-pico");
  });
});
