/**
 * The firmware's realm holds no object of the host (Node): not behind a name the realm lacks, not as the
 * `this` of a getter on the global object, not in anything the Espruino API installs, returns, throws or
 * passes to a callback. The walk goes through every value reachable from the realm's global and from those
 * roots: own property names and symbols (non-enumerable too), prototypes, accessors' getters and setters
 * (and what the getters return, called on their object and on the global), each found name evaluated as a
 * bare identifier at the realm's global scope, and each function's constructor chain.
 */
import { describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { UnitDriver } from "../scenarios/driver.ts";

/** The names every object of the host answers (Object.prototype's and Function.prototype's own). */
const HOST_NAMES = [...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)];

/** Firmware that keeps everything its callbacks are given (host code makes those values). */
const RECORDER = `
var got = [];
process.on("uncaughtException", function (e) { got.push(["uncaught", e]); });
E.on("errorFlag", function (f) { got.push(["errorFlag", f]); });
E.on("custom", function (a, b) { got.push(["emit", a, b, this]); });
setWatch(function (d) { got.push(["watch", d, this]); }, B15, { repeat: true, edge: "both" });
setTimeout(function (a) { got.push(["timeout", a, arguments, this]); }, 1, "arg");
setTimeout('got.push(["string timer", this])', 2);
setTimeout(function () { require("no such module"); }, 3);
Promise.resolve(7).then(function (v) { got.push(["promise job", v, this]); });
new Promise(function (ok, no) { no(new Error("rejected")); }).then(null, function (e) { got.push(["rejection", e]); });
Promise.reject("nobody handles this");
E.emit("custom", { a: 1 }, [2]);
Object.defineProperty(globalThis, "getterThis", { get: function () { return this; }, set: function (v) { got.push(["setter this", this, v]); }, configurable: true });
getterThis = 1;
`;

/** Expressions whose values host code makes: API results and errors thrown from inside host functions. */
const ROOT_EXPRESSIONS = [
  "globalThis",
  "this",
  "getterThis",
  "constructor",
  "__proto__",
  "Object.getOwnPropertyDescriptor(globalThis, 'E')",
  "Object.getOwnPropertyDescriptor(globalThis, 'getterThis')",
  "__lookupGetter__('getterThis')",
  "Object.getOwnPropertyDescriptors(globalThis)",
  'require("Storage")',
  'require("neopixel")',
  "process.memory()",
  "E.getErrorFlags()",
  'require("Storage").getStats()',
  'require("Storage").list()',
  'require("Storage").readArrayBuffer(".bootcde")',
  'require("Storage").readJSON(".bootcde", true)',
  "new Pin('B15')",
  "new Date()",
  "new Uint24Array(2)",
  "got",
  ...[
    'require("no such module")',
    'digitalWrite("nowhere", 1)',
    'require("Storage").write("x", "1", 9)',
    'require("Storage").readJSON(".bootcde")',
    "setWatch(1, B15)",
    "E.enableWatchdog(-1)",
    "analogWrite(B15, 1)",
    "new Uint8Array(-1)",
    "null.x",
    "(function f() { f(); })()",
    "(function f() { getTime(); f(); })()",
  ].map((call) => `(function () { try { ${call}; } catch (e) { return e; } })()`),
];

/**
 * The walk, run inside the realm (so each property is read, and each getter called, as firmware code
 * would do it): every object reachable from the roots whose prototype chain does not end at the realm's
 * Object.prototype (or at null) is listed with its path. `ownKeys` is the host's Reflect.ownKeys, wrapped
 * (the realm has no way to list symbol keys); what it returns is keys, primitives.
 */
const WALKER = `(function (ownKeys, roots, rootPaths, seen, names) {
  var OP = Object.prototype, getProto = Object.getPrototypeOf, describe = Object.getOwnPropertyDescriptor, G = globalThis;
  var queue = roots.slice(), paths = rootPaths.slice(), foreign = [];
  for (var head = 0; head < queue.length; head++) {
    var v = queue[head], path = paths[head];
    if ((typeof v !== "object" || v === null) && typeof v !== "function") continue;
    if (seen.indexOf(v) >= 0) continue;
    seen.push(v);
    var p = v, end = null;
    for (var i = 0; i < 100 && p !== null; i++) { end = p; p = getProto(p); }
    if (end !== OP && end !== v) foreign.push(path);
    queue.push(getProto(v)); paths.push(path + ".__proto__");
    var keys = ownKeys(v);
    for (var k = 0; k < keys.length; k++) {
      var key = keys[k], name = typeof key === "string" ? key : "[" + String(key) + "]";
      if (typeof key === "string" && names.indexOf(key) < 0) names.push(key);
      var d = describe(v, key);
      if (!d) continue;
      if ("value" in d) { queue.push(d.value); paths.push(path + "." + name); }
      if (d.set) { queue.push(d.set); paths.push(path + "." + name + "<set>"); }
      if (d.get) {
        queue.push(d.get); paths.push(path + "." + name + "<get>");
        var selves = [v, G];
        for (var s = 0; s < 2; s++) {
          try { queue.push(d.get.call(selves[s])); paths.push(path + "." + name + "<get" + (s ? "@global" : "") + ">()"); }
          catch (e) { queue.push(e); paths.push(path + "." + name + "<get" + (s ? "@global" : "") + "> threw"); }
        }
      }
    }
  }
  return foreign;
})`;

interface Walk {
  /** Paths to objects whose prototype chain is not the realm's. */
  foreign: string[];
  /** Paths to objects whose prototype chain reaches the host's Object.prototype (checked from the host). */
  host: string[];
  walked: number;
}

/**
 * Walks everything reachable from `roots`, then from each name found (evaluated as a bare identifier at
 * the realm's global scope), and lists the objects that are not the realm's.
 */
function findHostObjects(board: VirtualBoard, roots: Record<string, unknown>): Walk {
  const R = (code: string) => board.repl(code);
  const g = R("globalThis") as Record<string, unknown>;
  const temp = (name: string, value: unknown) =>
    Object.defineProperty(g, name, { value, configurable: true, enumerable: false, writable: true });
  const seen = R("[]") as unknown[];
  const names = R("[]") as string[];
  for (const n of HOST_NAMES) names.push(n);
  temp(
    "__walkOwnKeys",
    board.realmFunction((o: unknown) => Reflect.ownKeys(o as object)),
  );
  temp("__walker", R(WALKER));
  temp("__walkSeen", seen);
  temp("__walkNames", names);
  const foreign: string[] = [];
  const walk = (entries: [string, unknown][]) => {
    const values = R("[]") as unknown[];
    const paths = R("[]") as string[];
    for (const [path, v] of entries) {
      values.push(v);
      paths.push(path);
    }
    temp("__walkRoots", values);
    temp("__walkPaths", paths);
    const found = R("__walker(__walkOwnKeys, __walkRoots, __walkPaths, __walkSeen, __walkNames)") as string[];
    for (let i = 0; i < found.length; i++) foreign.push(found[i]);
  };
  try {
    walk(Object.entries(roots));
    // Every name seen anywhere, as a bare identifier at global scope: a name the realm lacks must not
    // resolve on an object of the host.
    const tried = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const entries: [string, unknown][] = [];
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (tried.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name) || name.startsWith("__walk")) continue;
        tried.add(name);
        let v: unknown;
        try {
          v = R(`typeof ${name} === "undefined" ? undefined : ${name}`);
        } catch (e) {
          v = e;
        }
        entries.push([`(name ${name})`, v]);
      }
      if (!entries.length) break;
      walk(entries);
    }
  } finally {
    for (const k of ["__walkOwnKeys", "__walker", "__walkSeen", "__walkNames", "__walkRoots", "__walkPaths"]) delete g[k];
  }
  // The same objects, seen from the host: none may have the host's Object.prototype in its chain.
  const host: string[] = [];
  for (let i = 0; i < seen.length; i++) {
    for (let p: unknown = seen[i], n = 0; p !== null && n < 100; p = Object.getPrototypeOf(p), n++)
      if (p === Object.prototype || p === Function.prototype) {
        host.push(`walked object #${i}: ${Object.prototype.toString.call(seen[i])}`);
        break;
      }
  }
  return { foreign, host, walked: seen.length };
}

function rootsOf(board: VirtualBoard): Record<string, unknown> {
  const roots: Record<string, unknown> = {};
  for (const expr of ROOT_EXPRESSIONS) {
    try {
      roots[expr] = board.repl(expr);
    } catch (e) {
      roots[`${expr} threw`] = e;
    }
  }
  return roots;
}

describe("the realm holds no host object", () => {
  it("the issue's escapes (constructor, this.constructor, hasOwnProperty, a getter's this) reach no host process", () => {
    const board = new VirtualBoard({ firmware: RECORDER, callbackTimeoutMs: 60_000 });
    board.powerOn();
    const probe = '("return typeof process.getBuiltinModule")()';
    for (const escape of [
      "constructor.constructor",
      "this.constructor.constructor",
      "hasOwnProperty.constructor",
      "__proto__.constructor.constructor",
      "getterThis.constructor.constructor",
      "__lookupGetter__('getterThis').call(this).constructor.constructor",
      "Object.getOwnPropertyDescriptor(globalThis, 'getterThis').get.call().constructor.constructor",
    ]) {
      let r: unknown;
      try {
        r = board.repl(escape + probe);
      } catch (e) {
        r = `threw ${(e as Error).message}`;
      }
      expect(r, escape).not.toBe("function");
    }
  });

  it("a walk of every value reachable from a bare board's global, API results, thrown errors and callback arguments finds none", () => {
    const board = new VirtualBoard({ firmware: RECORDER, callbackTimeoutMs: 60_000 });
    board.powerOn();
    board.advance(20);
    board.repl("getterThis = 2");
    board.repl("digitalWrite(B15, 1); digitalWrite(B15, 0)");
    board.advance(20);
    // The callbacks ran, and gave the firmware what the walk must look at.
    const kinds = board.repl("got.map(function (g) { return g[0]; }).join()") as string;
    for (const k of ["uncaught", "emit", "watch", "timeout", "string timer", "promise job", "rejection", "setter this"])
      expect(kinds).toContain(k);
    const { foreign, host, walked } = findHostObjects(board, rootsOf(board));
    expect(walked).toBeGreaterThan(500); // the walk really went through the realm
    expect(foreign).toEqual([]);
    expect(host).toEqual([]);
  });

  it("the same walk over the shipped bundle, mid-game, finds none", () => {
    const u = new UnitDriver({ callbackTimeoutMs: 60_000 });
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.makerSecret([5, 4, 3, 2]);
    const { foreign, host, walked } = findHostObjects(u.board, rootsOf(u.board));
    expect(walked).toBeGreaterThan(500);
    expect(foreign).toEqual([]);
    expect(host).toEqual([]);
  });
});
