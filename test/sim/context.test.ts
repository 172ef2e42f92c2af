import { describe, expect, it } from "vitest";
import { boot } from "./helpers.ts";

describe("the firmware's JavaScript context", () => {
  const board = boot("var booted = true;");

  it.each([
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "WeakRef",
    "Symbol",
    "Proxy",
    "Reflect",
    "BigInt",
    "Intl",
    "RangeError",
    "queueMicrotask",
    "structuredClone",
    "Array.from",
    "Array.of",
    "Math.imul",
    "Math.trunc",
    "Math.clz32",
    "Math.log2",
    "Math.hypot",
    "Math.fround",
    "Number.isInteger",
    "Number.isFinite",
    "Number.isNaN",
    "Number.parseInt",
    "Number.EPSILON",
    "Number.MAX_SAFE_INTEGER",
    "Object.freeze",
    "Object.seal",
    "Object.is",
    "String.fromCodePoint",
    "''.trimStart",
    "''.trimEnd",
    "''.matchAll",
    "''.at",
    "''.codePointAt",
    "''.normalize",
    "''.localeCompare",
    "[].lastIndexOf",
    "[].reduceRight",
    "[].at",
    "[].flat",
    "[].flatMap",
    "Date.UTC",
    "Promise.race",
    "Promise.resolve().finally",
  ])("has no %s, as Espruino 2v29", (expr) => {
    expect(board.repl(`typeof ${expr}`)).toBe("undefined");
  });

  it.each([
    "Buffer",
    "module",
    "exports",
    "__dirname",
    "setImmediate",
    "process.argv",
    "process.exit",
    "global.process.versions",
    "console.error",
  ])("has no Node global %s", (expr) => {
    expect(board.repl(`typeof ${expr}`)).toBe("undefined");
  });

  it("keeps what Espruino has: Number conversion and statics, typed arrays, Promise, Math.clip", () => {
    expect(board.repl(`Number("12") + (5).toFixed(1) + new Number(3).valueOf()`)).toBe("125.03");
    expect(board.repl("typeof Number.MAX_VALUE + typeof Uint8ClampedArray + typeof Promise.all + typeof DataView")).toBe(
      "numberfunctionfunctionfunction",
    );
    expect(board.repl("Math.clip(12, 0, 10) + Math.wrap(-1, 5)")).toBe(14);
    expect(board.repl("typeof globalThis + typeof global + typeof InternalError")).toBe("objectobjectfunction");
  });

  it("rounds halves away from zero, as Espruino's Math.round does", () => {
    expect(board.repl("[Math.round(-2.5), Math.round(-0.5), Math.round(2.5), Math.round(-2.4), Math.round(1.4)].join()")).toBe(
      "-3,-1,3,-2,1",
    );
  });

  it("stringifies typed arrays as plain arrays and ignores a replacer", () => {
    expect(board.repl("JSON.stringify({a: new Uint8Array([1, 2]), b: new Int16Array([-3])})")).toBe('{"a":[1,2],"b":[-3]}');
    expect(board.repl("JSON.stringify({a: 1}, function (k, v) { return k === 'a' ? 2 : v; })")).toBe('{"a":1}');
  });

  it("gives Date.now() and getTime() on virtual time since boot", () => {
    const b = boot("");
    b.advance(1500);
    expect(b.repl("Date.now()")).toBe(1500);
    expect(b.repl("getTime()")).toBeCloseTo(1.5, 9);
    expect(b.repl("new Date().getHours() + new Date(2024, 0, 2).getDate()")).toBe(2);
  });

  it("defines a global Pin object for every pin of the board, whose toString() is its name", () => {
    for (const pin of board.boardInfo.pins) expect(board.repl(`String(${pin})`)).toBe(pin);
    expect(board.repl("new Pin('B15') === B15 && B15 instanceof Pin")).toBe(true);
  });

  it("throws realm errors the firmware can catch, for unknown modules too", () => {
    expect(board.repl(`try { require("fs"); } catch (e) { e instanceof Error && e.message; }`)).toBe('Module "fs" not found');
    expect(board.repl(`require("Storage") === require("Storage")`)).toBe(true);
  });
});
