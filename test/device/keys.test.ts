import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VirtualBoard } from "../../sim/board/board.ts";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { keyList } from "../../hardware/profile.ts";
import { echoEachKey, echoedKeys, R1, selfTestBoard } from "./helpers.ts";

describe("key matrix scanning on the built bundle", () => {
  it("every key of every R1 matrix gives exactly one down and one up event despite bounce", () => {
    const board = selfTestBoard({ bounceMs: 8 });
    const ids = keyList(R1).map((k) => k.id);
    const events = echoEachKey(board, ids);
    expect(events).toEqual(ids.flatMap((id) => [`${id} down`, `${id} up`]));
    expect(board.errors).toEqual([]);
  });

  it("holding OK at power-on starts the self-test, which echoes the key", () => {
    const board = selfTestBoard();
    expect(echoedKeys(board)).toEqual(["p66 down", "p66 up"]);
  });

  it("two keys held together give both, on both pads", () => {
    const board = selfTestBoard();
    const before = echoedKeys(board).length;
    board.press("p11");
    board.advance(40);
    board.press("m24");
    board.advance(40);
    expect(echoedKeys(board).slice(before)).toEqual(["p11 down", "m24 down"]);
    expect(board.colours("pad")[0]).toBe("green");
    board.release("p11");
    board.release("m24");
    board.advance(60);
    expect(echoedKeys(board).slice(before).sort()).toEqual(["m24 down", "m24 up", "p11 down", "p11 up"]);
  });

  it("while a key is held, keys in its row, in its column and elsewhere are still seen, and so is its release", () => {
    // A held key that has settled is only checked for a change (two reads a scan): every kind of change must still show.
    const board = selfTestBoard({ bounceMs: 4 });
    const before = echoedKeys(board).length;
    board.press("p11");
    board.advance(300);
    board.press("p21"); // the same column
    board.advance(200);
    board.press("p12"); // the same row
    board.advance(200);
    board.press("p44"); // neither
    board.advance(200);
    board.release("p11");
    board.advance(200);
    board.release("p44");
    board.advance(200);
    board.release("p12");
    board.release("p21");
    board.advance(100);
    expect(echoedKeys(board).slice(before)).toEqual([
      "p11 down",
      "p21 down",
      "p12 down",
      "p44 down",
      "p11 up",
      "p44 up",
      "p12 up",
      "p21 up",
    ]);
    expect(board.errors).toEqual([]);
  });

  it("a key tapped faster than the debounce window is still seen once", () => {
    const board = selfTestBoard({ bounceMs: 3 });
    const before = echoedKeys(board).length;
    for (let i = 0; i < 5; i++) {
      board.press("p34");
      board.advance(25);
      board.release("p34");
      board.advance(25);
    }
    expect(echoedKeys(board).slice(before)).toEqual(Array.from({ length: 5 }, () => ["p34 down", "p34 up"]).flat());
  });

  // A key is taken at its third agreeing scan, which reads its row alone when that row reads as at the second: these
  // change the row in between.
  it("a press that opens again before its third scan is no press, and its row's keys are seen as they are", () => {
    const board = selfTestBoard({ bounceMs: 0 });
    const before = echoedKeys(board).length;
    // Two scans closed (the edge's and 5 ms later), open at the third: not taken.
    board.press("p11");
    board.advance(7);
    board.release("p11");
    board.advance(40);
    expect(echoedKeys(board).slice(before)).toEqual([]);
    // A second key of the same row closing before the first one's third scan: both taken, the first first.
    board.press("p11");
    board.advance(7);
    board.press("p12");
    board.advance(40);
    expect(echoedKeys(board).slice(before)).toEqual(["p11 down", "p12 down"]);
    // The same for a release.
    board.release("p11");
    board.advance(7);
    board.release("p12");
    board.advance(40);
    expect(echoedKeys(board).slice(before)).toEqual(["p11 down", "p12 down", "p11 up", "p12 up"]);
    expect(board.errors).toEqual([]);
  });

  it("keys pressed at once in two rows are both taken", () => {
    const board = selfTestBoard({ bounceMs: 0 });
    const before = echoedKeys(board).length;
    board.press("p11");
    board.press("p44");
    board.advance(40);
    expect(echoedKeys(board).slice(before).sort()).toEqual(["p11 down", "p44 down"]);
    board.release("p11");
    board.release("p44");
    board.advance(40);
    expect(echoedKeys(board).slice(before).sort()).toEqual(["p11 down", "p11 up", "p44 down", "p44 up"]);
  });

  it("a ghost pattern on a build without diodes is rejected until it resolves", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-nodiode-"));
    const profilePath = join(dir, "r1-nodiode.json");
    writeFileSync(profilePath, JSON.stringify({ ...R1, id: "r1-nodiode", keys: { ...R1.keys, diodes: false } }));
    const built = await buildFirmware({ profile: profilePath, out: join(dir, "firmware.js") });
    const board = new VirtualBoard({ profile: profilePath, firmware: built.code });
    board.press("p66");
    board.powerOn();
    board.advance(80);
    board.release("p66");
    board.advance(80);
    const before = echoedKeys(board).length;
    // Three corners of a rectangle: without diodes the fourth (p22) reads as closed too.
    board.press("p11");
    board.advance(40);
    board.press("p12");
    board.advance(40);
    board.press("p21");
    board.advance(80);
    expect(echoedKeys(board).slice(before)).toEqual(["p11 down", "p12 down"]);
    // Lifting one corner resolves the ambiguity: p21 is real, p22 never was.
    board.release("p12");
    board.advance(80);
    expect(echoedKeys(board).slice(before)).toEqual(["p11 down", "p12 down", "p12 up", "p21 down"]);
    expect(echoedKeys(board).some((e) => e.startsWith("p22"))).toBe(false);
  });
});
