import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { STORAGE_HEADER_BYTES } from "../../sim/board/storage.ts";
import { boot } from "./helpers.ts";

const S = `var S = require("Storage");`;

describe("Storage", () => {
  const dir = mkdtempSync(join(tmpdir(), "brainboard-storage-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("round-trips 8-bit strings and bytes", () => {
    const board = boot(`${S} S.write("s", "a" + String.fromCharCode(200, 0, 255)); S.write("b", new Uint8Array([1, 2, 3, 250]));`);
    expect(board.repl(`var t = S.read("s"); t.length + ":" + t.charCodeAt(1) + "," + t.charCodeAt(3)`)).toBe("4:200,255");
    expect(board.repl(`JSON.stringify(new Uint8Array(S.readArrayBuffer("b")))`)).toBe("[1,2,3,250]");
    expect(board.repl(`S.read("s", 1, 2).charCodeAt(1)`)).toBe(0);
    expect(board.repl(`typeof S.read("missing")`)).toBe("undefined");
  });

  it("writes JSON in Espruino's compact form, which readJSON reads back and JSON.parse does not", () => {
    const board = boot(`${S} S.writeJSON("j", {best: 7, name: "x", arr: [1, 2], buf: new Uint8Array([9]), skip: undefined});`);
    expect(board.storage.readString("j")).toBe('{best:7,name:"x",arr:[1,2],buf:[9]}');
    expect(board.repl(`JSON.stringify(S.readJSON("j"))`)).toBe('{"best":7,"name":"x","arr":[1,2],"buf":[9]}');
    expect(() => board.repl(`JSON.parse(S.read("j"))`)).toThrow(/in JSON/);
    board.repl(`S.write("bad", "{oops")`);
    expect(board.repl(`typeof S.readJSON("bad", true) + typeof S.readJSON("none", true)`)).toBe("undefinedundefined");
    expect(() => board.repl(`S.readJSON("bad")`)).toThrow(/readJSON/);
  });

  it("creates a file of a given size and fills it in parts with offsets", () => {
    const board = boot(`${S} S.write("f", "ab", 0, 6); S.write("f", "cd", 2); S.write("f", "ef", 4);`);
    expect(board.storage.readString("f")).toBe("abcdef");
    expect(() => board.repl(`S.write("f", "toolong", 3)`)).toThrow(/do not fit/);
  });

  it("silently truncates names longer than 28 characters, as the device does, with a warning", () => {
    const board = boot(`${S} S.write("a_name_that_is_longer_than_28_chars", "x");`);
    expect(board.repl(`S.list(/^a_name/).join()`)).toBe("a_name_that_is_longer_than_2");
    expect(board.repl(`S.read("a_name_that_is_longer_than_28_chars_too")`)).toBe("x");
    expect(board.warnings.some((w) => w.includes("truncates"))).toBe(true);
  });

  it("refuses a write that does not fit with false, and reclaims trash by compacting", () => {
    const board = boot(S);
    const free = board.repl("S.getFree()") as number;
    const big = free - STORAGE_HEADER_BYTES - 100;
    expect(board.repl(`S.write("big", new Uint8Array(${big}))`)).toBe(true);
    expect(board.repl(`S.write("more", new Uint8Array(200))`)).toBe(false);
    expect(board.repl(`S.list().indexOf("more")`)).toBe(-1);
    board.repl(`S.erase("big")`);
    expect(board.repl("S.getStats().trashBytes")).toBeGreaterThan(big);
    // Writing needs the trash's space: the device compacts first.
    expect(board.repl(`S.write("more", new Uint8Array(200))`)).toBe(true);
    expect(board.repl("S.getStats().trashBytes")).toBe(0);
  });

  it("keeps its files across a power cycle while RAM is lost", () => {
    const board = boot(
      `${S} var ram = 42; if (!S.read("count")) S.write("count", "1"); else S.write("count", String(+S.read("count") + 1));`,
    );
    board.repl("ram = 7");
    board.powerCycle();
    expect(board.storage.readString("count")).toBe("2");
    expect(board.repl("ram")).toBe(42);
    board.powerOff();
    board.powerOn();
    expect(board.storage.readString("count")).toBe("3");
  });

  it("persists to a file, so a second board (a later run) sees the same Storage", () => {
    const file = join(dir, "flash.json");
    const first = boot(`require("Storage").writeJSON("game", {turn: 3});`, { storageFile: file });
    first.powerOff();
    const second = boot(`var g = require("Storage").readJSON("game", true);`, { storageFile: file });
    expect(second.repl("g.turn")).toBe(3);
    expect(second.storage.list()).toContain(".bootcde");
  });

  it("flashes the firmware as .bootcde and boots from it", () => {
    const board = new VirtualBoard({ firmware: `print("v1");` });
    board.powerOn();
    board.flash(`print("v2");`);
    board.powerCycle();
    expect(board.consoleLog).toEqual(["v1", "v2"]);
  });
});
