/**
 * The save format (firmware/save-format.ts): saves written before the format was written out
 * (when the keys were whatever the mangler's tracked cache said) keep their keys; format 1 (Fletcher-16,
 * phases by name) is read on the Node side and brought up to format 2, which is what the unit reads; so is
 * format 2 with its settings as a list, as firmwares wrote it before the settings were named.
 */
import { describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { firmwareBundle } from "../device/helpers.ts";
import { decodeSlot, expandKeys, SAVE_KEYS } from "../../firmware/save-format.ts";
import { decodeAnySlot, saveCrc, upgradeSlot } from "../../sim/board/saves.ts";
import { PHASE_GUESS } from "../../firmware/core/types.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { firmwareFailures } from "./invariants.ts";
import { newestCopy } from "../../sim/board/saves.ts";
import { gridKey } from "./player.ts";
import { listedSettingsSave } from "../flash/saves.ts";
import { G_SOUND } from "../../firmware/ui/menu.ts";

/** Written by the firmware of commit 4a92e49: Brainiac, referee, secret 5 4 3 2 and one row (red green blue yellow: 0 exact, 2 near). */
const OLD_SAVE =
  'BB1|5|41226|{"v":1,"s":"play","p":{"n":"brainiac","d":false,"rn":"referee","f":4,"oe":1,"ie":true,"Pt":5,"lockConsole":true,"se":"flip","c":3,"re":6,"w":false},"hn":{"r":{"n":"brainiac","d":false,"rn":"referee","f":4},"l":[0,0],"Yt":0,"e":{"secret":[5,4,3,2],"Wt":[{"Jt":[0,1,2,3],"Qt":{"o":0,"a":2}}],"x":null,"Kt":"guess"},"Sn":[],"m":null,"jt":false,"O":-1},"qt":null}';

describe("the save format", () => {
  it("decodes a save of the first firmware (format 1) to the source's names, its phase as a number", () => {
    const slot = decodeAnySlot(OLD_SAVE);
    if (typeof slot === "string") throw new Error(slot);
    expect(slot.seq).toBe(5);
    const state = expandKeys(slot.data) as SavedState;
    expect(state.screen).toBe("play");
    expect(state.settings.preset).toBe("brainiac");
    expect(state.match?.game.rows).toEqual([{ guess: [0, 1, 2, 3], feedback: { exact: 0, near: 2 } }]);
    expect(state.match?.game.secret).toEqual([5, 4, 3, 2]);
    expect(state.match?.game.phase).toBe(PHASE_GUESS);
    expect(state.v).toBe(2);
  });

  it("refuses a slot whose checksum or version does not match, saying which", () => {
    expect(decodeAnySlot(OLD_SAVE.replace("|41226|", "|41227|"))).toBe("checksum mismatch");
    expect(decodeAnySlot(OLD_SAVE.replace("BB1|", "BB9|"))).toBe("unknown format BB9");
    const current = upgradeSlot(OLD_SAVE)!;
    expect(current.startsWith("BB2|5|")).toBe(true);
    expect(decodeSlot(current.replace("|5|", "|6|"), saveCrc)).not.toBe("checksum mismatch");
    expect(decodeSlot(current.slice(0, -2) + "0}", saveCrc)).toBe("checksum mismatch");
    // The unit reads only the current format.
    expect(decodeSlot(OLD_SAVE, saveCrc)).toBe("unknown format BB1");
  });

  it("gives every saved field its own key", () => {
    const keys = Object.values(SAVE_KEYS);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("the unit resumes a save of the first firmware brought up to format 2: the row, its key pegs, the locked console", () => {
    const board = new VirtualBoard({ firmware: firmwareBundle() });
    board.storage.write("bb.s1", upgradeSlot(OLD_SAVE)!);
    board.powerOn();
    board.advance(500);
    expect(firmwareFailures(board)).toEqual([]);
    expect(board.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
    expect(
      board
        .colours("keys")
        .slice(0, 4)
        .filter((c) => c === "white"),
    ).toHaveLength(2);
    expect(board.consoleLocked).toBe(true);
  });

  it("the unit itself does not take format 1: it says which format it found and starts afresh, warning", () => {
    const board = new VirtualBoard({ firmware: firmwareBundle() });
    board.storage.write("bb.s1", OLD_SAVE);
    board.powerOn();
    board.advance(500);
    expect(board.consoleLog.join("\n")).toContain("bb.s1: unknown format BB1");
    expect(board.colours("status")[1]).toBe("yellow");
    expect(board.colours("board").every((c) => c === "off")).toBe(true);
  });

  it("saves the settings by name: sound turned off on the menu is saved under its key and is still off after a power cut", () => {
    const board = new VirtualBoard({ firmware: firmwareBundle() });
    board.powerOn();
    board.advance(300);
    expect(board.colours("pad")[G_SOUND]).toBe("green");
    board.tap(gridKey(G_SOUND), 30, 30);
    board.advance(300);
    const saved = decodeSlot(newestCopy(board.storage)!.text, saveCrc) as { data: Record<string, unknown> };
    expect(saved.data[SAVE_KEYS.settings]).toMatchObject({ [SAVE_KEYS.sound]: false, [SAVE_KEYS.preset]: "brainiac" });
    board.powerCycle();
    board.advance(300);
    expect(board.colours("pad")[G_SOUND]).toBe("red");
    expect(firmwareFailures(board)).toEqual([]);
  });

  it("format 2 with its settings as a list: the unit says which setting it cannot read and starts afresh; brought up to date, it resumes the game", () => {
    const listed = listedSettingsSave();
    const refused = new VirtualBoard({ firmware: firmwareBundle() });
    refused.storage.write("bb.s1", listed);
    refused.powerOn();
    refused.advance(500);
    expect(refused.consoleLog.join("\n")).toContain("saved state refused: bad setting");
    expect(refused.colours("board").every((c) => c === "off")).toBe(true);
    const upgraded = upgradeSlot(listed)!;
    expect((expandKeys((decodeSlot(upgraded, saveCrc) as { data: unknown }).data) as SavedState).settings).toMatchObject({
      preset: "brainiac",
      lockConsole: true,
      flipGrid: 6,
    });
    const board = new VirtualBoard({ firmware: firmwareBundle() });
    board.storage.write("bb.s1", upgraded);
    board.powerOn();
    board.advance(500);
    expect(firmwareFailures(board)).toEqual([]);
    expect(board.colours("board").slice(0, 4)).toEqual(["red", "green", "blue", "yellow"]);
    expect(board.consoleLocked).toBe(true);
  });
});
