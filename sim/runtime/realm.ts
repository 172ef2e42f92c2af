/**
 * A Node `vm` realm that has only what Espruino 2v29 has (docs/espruino.md 1.2 and 1.3): the modern
 * built-ins Espruino lacks are deleted, and the behaviours that differ and that firmware can trip
 * over are emulated (Math.round of negative halves, JSON.stringify of typed arrays, no Date.UTC,
 * virtual Date.now, seeded Math.random). The Espruino API itself is installed by runtime.ts.
 */
import vm from "node:vm";

/** Properties of built-ins that Espruino 2v29 does not have, deleted from the realm. */
export const MISSING_BUILTINS: Record<string, string[]> = {
  globalThis: [
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "WeakRef",
    "FinalizationRegistry",
    "Symbol",
    "Proxy",
    "Reflect",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Intl",
    "RangeError",
    "EvalError",
    "URIError",
    "AggregateError",
    "SharedArrayBuffer",
    "Atomics",
    "WebAssembly",
    "Iterator",
    "queueMicrotask",
    "structuredClone",
    "console",
  ],
  Array: ["from", "of", "fromAsync"],
  "Array.prototype": [
    "lastIndexOf",
    "reduceRight",
    "at",
    "flat",
    "flatMap",
    "entries",
    "keys",
    "values",
    "findLast",
    "findLastIndex",
    "copyWithin",
    "toReversed",
    "toSorted",
    "toSpliced",
    "with",
  ],
  TypedArray: ["from", "of"],
  "TypedArray.prototype": [
    "copyWithin",
    "at",
    "findLast",
    "findLastIndex",
    "entries",
    "keys",
    "values",
    "lastIndexOf",
    "reduceRight",
    "toReversed",
    "toSorted",
    "with",
  ],
  "ArrayBuffer.prototype": ["slice", "resize", "transfer", "transferToFixedLength"],
  Object: ["freeze", "seal", "is", "isFrozen", "isSealed", "hasOwn", "groupBy", "getOwnPropertySymbols"],
  Math: [
    "imul",
    "trunc",
    "clz32",
    "log2",
    "log10",
    "hypot",
    "cbrt",
    "fround",
    "log1p",
    "expm1",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
  ],
  String: ["fromCodePoint", "raw"],
  "String.prototype": [
    "trimStart",
    "trimEnd",
    "trimLeft",
    "trimRight",
    "matchAll",
    "at",
    "codePointAt",
    "normalize",
    "localeCompare",
    "isWellFormed",
    "toWellFormed",
    "toLocaleUpperCase",
    "toLocaleLowerCase",
    "anchor",
    "big",
    "blink",
    "bold",
    "fixed",
    "fontcolor",
    "fontsize",
    "italics",
    "link",
    "small",
    "strike",
    "sub",
    "sup",
  ],
  Date: ["UTC"],
  "Date.prototype": ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"],
  Promise: ["race", "allSettled", "any", "withResolvers"],
  "Promise.prototype": ["finally"],
  Error: ["captureStackTrace", "stackTraceLimit"],
};

/** The most elements (or characters) one array, typed array or string of the firmware may have: far beyond any board's RAM. */
export const MAX_ELEMENTS = 1 << 20;

/** What the host gives the realm. */
export interface RealmHooks {
  /** Milliseconds for Date.now() and new Date(). */
  now(): number;
  /** The next value of Math.random(), in [0, 1). */
  random(): number;
  /** `new Pin(value)`: the pin object for a value (a pin or its name). */
  pinFromValue(value: unknown): object;
  /** Pin methods, as the global functions do them. */
  digitalRead(pin: object): number;
  digitalWrite(pin: object, value: number | boolean): void;
  pinMode(pin: object, mode?: string): void;
  getPinMode(pin: object): string | undefined;
  /** A promise was rejected and the firmware never handled it. */
  unhandledRejection(reason: unknown): void;
}

/** The realm's own constructors, to build values the firmware sees as native. */
export interface RealmIntrinsics {
  Object: ObjectConstructor;
  Array: ArrayConstructor;
  Error: ErrorConstructor;
  TypeError: TypeErrorConstructor;
  ArrayBuffer: ArrayBufferConstructor;
  Uint8Array: Uint8ArrayConstructor;
  JSON: JSON;
}

export interface EspruinoRealm {
  context: vm.Context;
  /**
   * A function of this realm that calls `fn` (a host function): the only way host code is handed to
   * the firmware (see MEMBRANE). Cached: the same host function always gives the same wrapper.
   */
  wrapHost(fn: (...args: never[]) => unknown): (...args: unknown[]) => unknown;
  /** Is this a value the realm may hold: a primitive, or an object or function of this realm? */
  isRealmValue(value: unknown): boolean;
  /** A host value as a value of this realm: host functions wrapped, host arrays and plain objects copied. */
  toRealm(value: unknown): unknown;
  /** Was this function made by wrapHost (a built-in, as the console prints it)? */
  isWrapper(fn: unknown): boolean;
  /** The realm's global object (no host object behind it): the firmware's global variables live here. */
  sandbox: Record<string, unknown>;
  intrinsics: RealmIntrinsics;
  /** A new pin object named `name` (Pin.prototype, toString() gives the name). */
  makePin(name: string): object;
  /** The name of a pin object made by makePin, or undefined for anything else. */
  pinName(value: unknown): string | undefined;
}

/**
 * The boundary between the host (Node) and the firmware's realm. node:vm is not a security boundary
 * by itself: a host function handed to the realm gives away the host's Function through
 * `fn.constructor.constructor`, and so does a host object or a host error through its prototype
 * chain. So nothing of the host crosses: every host function the realm gets is this realm-made
 * wrapper (its constructor chain is the realm's own), the host function it calls is reachable only
 * through the wrapper's closure, what the host returns is checked (toRealm converts it first), and
 * whatever the host throws (a stack overflow inside a host frame, an unexpected host Error) is
 * replaced by an Error of the realm with the same message.
 */
const MEMBRANE = String.raw`(function (hostCall) {
  "use strict";
  var RFunction = Function, RError = Error, getProto = Object.getPrototypeOf, OP = Object.prototype;
  function own(v) {
    if ((typeof v !== "object" || v === null) && typeof v !== "function") return true;
    var p = getProto(v);
    if (p === null) return true;
    for (var i = 0; i < 64 && p !== null; i++) { if (p === OP) return true; p = getProto(p); }
    return false;
  }
  function clean(e) {
    if (own(e)) return e;
    var m = "internal error";
    try { m = "" + e.message; } catch (x) { m = "internal error"; }
    return new RError(m);
  }
  function checked(v) {
    if (own(v)) return v;
    throw new RError("internal error: the simulator returned a value of its own realm");
  }
  return {
    own: own,
    wrap: function (id, params) {
      // The closure's names cannot be a parameter's (hostParams leaves out names starting __bb_).
      var f = RFunction("__bb_call", "__bb_clean", "__bb_checked", "__bb_id",
        "return function (" + params + ") { try { return __bb_checked(__bb_call(__bb_id, this, arguments)); } catch (__bb_e) { throw __bb_clean(__bb_e); } };");
      return f(hostCall, clean, checked, id);
    }
  };
})`;

/** Names a generated parameter list must not use. */
const RESERVED_PARAMS = new Set([
  "arguments",
  "eval",
  "this",
  "let",
  "yield",
  "await",
  "static",
  "implements",
  "interface",
  "package",
  "private",
  "protected",
  "public",
]);

/** The parameter names of a host function (for the wrapper's length and its printed form). */
function hostParams(fn: (...args: never[]) => unknown): string {
  const src = Function.prototype.toString.call(fn);
  const m = /^[^(=]*\(([^)]*)\)/.exec(src) ?? /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(src);
  if (!m) return "";
  const names: string[] = [];
  for (const part of m[1].split(",")) {
    const name = part
      .trim()
      .replace(/[:=].*$/s, "")
      .replace(/\?$/, "")
      .trim();
    // A name the wrapper uses itself, or one that would change how its body runs, ends the list too.
    if (/^[A-Za-z_$][\w$]*$/.test(name) && !/^__bb_/.test(name) && !RESERVED_PARAMS.has(name)) names.push(name);
    else break; // a rest parameter or a pattern: the length stops here, as it does in JS
  }
  return names.join(", ");
}

const PRELUDE = String.raw`(function (hooks, missing) {
  "use strict";
  var G = globalThis;
  var names = new WeakMap();
  var RealDate = Date;
  var dateUTC = Date.UTC;
  var isView = ArrayBuffer.isView;
  var slice = Array.prototype.slice;
  var stringify = JSON.stringify;
  var floor = Math.floor;
  var TypedArray = Object.getPrototypeOf(Uint8Array);
  var RealProxy = Proxy;

  function Pin(value) { return hooks.pinFromValue(value); }
  Pin.prototype.toString = function () { return names.get(this); };
  Pin.prototype.read = function () { return hooks.digitalRead(this) === 1; };
  Pin.prototype.set = function () { hooks.digitalWrite(this, 1); };
  Pin.prototype.reset = function () { hooks.digitalWrite(this, 0); };
  Pin.prototype.write = function (v) { hooks.digitalWrite(this, v); };
  Pin.prototype.toggle = function () { var v = !this.read(); hooks.digitalWrite(this, v); return v; };
  Pin.prototype.mode = function (m) { hooks.pinMode(this, m); };
  Pin.prototype.getMode = function () { return hooks.getPinMode(this); };
  Pin.prototype.getInfo = function () { var n = names.get(this); return { port: n.charAt(0), num: parseInt(n.slice(1), 10) }; };
  G.Pin = Pin;

  // Espruino keeps UTC as local time (E.setTimeZone defaults to 0) and its clock starts at boot.
  class EDate extends RealDate {
    constructor(a, b, c, d, e, f, g) {
      var n = arguments.length;
      if (n === 0) super(hooks.now());
      else if (n === 1) super(a);
      else super(dateUTC(a, b, n > 2 ? c : 1, n > 3 ? d : 0, n > 4 ? e : 0, n > 5 ? f : 0, n > 6 ? g : 0));
    }
    static now() { return hooks.now(); }
  }
  ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"].forEach(function (part) {
    EDate.prototype["get" + part] = RealDate.prototype["getUTC" + part];
    if (part !== "Day") EDate.prototype["set" + part] = RealDate.prototype["setUTC" + part];
  });
  EDate.prototype.getTimezoneOffset = function () { return 0; };
  EDate.prototype.toString = function () {
    var s = this.toUTCString().split(" ");
    return s[0].slice(0, 3) + " " + s[2] + " " + (+s[1]) + " " + s[3] + " " + s[4] + " GMT+0000";
  };
  G.Date = EDate;

  // A rejection nobody handles is reported by the interpreter (synchronously, at the end of the
  // callback), not by Node: every promise gets a hidden rejection handler that reports it unless
  // the firmware called then/catch on it by the time the rejection is processed.
  var RealPromise = Promise;
  var realThen = Promise.prototype.then;
  var handled = new WeakSet();
  var internal = false;
  class EPromise extends RealPromise {
    constructor(executor) {
      super(executor);
      if (internal) return;
      var self = this;
      internal = true;
      try {
        realThen.call(this, undefined, function (reason) {
          if (!handled.has(self)) { try { hooks.unhandledRejection(reason); } catch (e) {} }
        });
      } finally { internal = false; }
    }
    then(onFulfilled, onRejected) {
      handled.add(this);
      return super.then(onFulfilled, onRejected);
    }
  }
  G.Promise = EPromise;

  // Espruino rounds halves away from zero: Math.round(-2.5) === -3.
  Math.round = function round(x) { x = +x; return x < 0 ? -floor(-x + 0.5) : floor(x + 0.5); };
  Math.random = function random() { return hooks.random(); };
  Math.clip = function clip(x, min, max) { return x < min ? min : x > max ? max : x; };
  Math.wrap = function wrap(x, max) { return ((x % max) + max) % max; };

  // Typed arrays stringify as plain arrays, and the replacer is ignored, as on the device.
  JSON.stringify = function (value, replacer, space) {
    return stringify(value, function (k, v) { return isView(v) && !(v instanceof DataView) ? slice.call(v) : v; }, space);
  };

  // Espruino's Uint24Array: 3 bytes an element, little-endian (a view, like the other typed arrays).
  function Uint24Array(a, offset, length) {
    var bytes;
    if (typeof a === "number") bytes = new Uint8Array(a * 3);
    else if (a instanceof ArrayBuffer) {
      offset = offset || 0;
      bytes = new Uint8Array(a, offset, length === undefined ? floor((a.byteLength - offset) / 3) * 3 : length * 3);
    } else {
      bytes = new Uint8Array(a.length * 3);
      for (var i = 0; i < a.length; i++) { bytes[i * 3] = a[i] & 255; bytes[i * 3 + 1] = (a[i] >> 8) & 255; bytes[i * 3 + 2] = (a[i] >> 16) & 255; }
    }
    var view = Object.create(Uint24Array.prototype);
    view.length = bytes.length / 3;
    view.buffer = bytes.buffer;
    view.byteOffset = bytes.byteOffset;
    view.byteLength = bytes.length;
    return new RealProxy(view, {
      get: function (t, k) {
        if (typeof k === "string" && /^\d+$/.test(k)) { var i = +k * 3; return i < bytes.length ? bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) : undefined; }
        return t[k];
      },
      set: function (t, k, v) {
        if (typeof k === "string" && /^\d+$/.test(k)) { var i = +k * 3; if (i < bytes.length) { v = v >>> 0; bytes[i] = v & 255; bytes[i + 1] = (v >> 8) & 255; bytes[i + 2] = (v >> 16) & 255; } return true; }
        t[k] = v;
        return true;
      }
    });
  }
  Uint24Array.BYTES_PER_ELEMENT = 3;
  G.Uint24Array = Uint24Array;

  function InternalError(message) { var e = new Error(message); Object.setPrototypeOf(e, InternalError.prototype); return e; }
  InternalError.prototype = Object.create(Error.prototype);
  InternalError.prototype.name = "InternalError";
  InternalError.prototype.constructor = InternalError;
  G.InternalError = InternalError;
  G.global = G;

  // Number.EPSILON and friends cannot be deleted (non-configurable), so Number itself is replaced by
  // a function with only Espruino's statics; Number.isInteger, Number.parseInt... are then absent.
  var RealNumber = Number;
  function ENumber(v) { var n = arguments.length ? +v : 0; return this instanceof ENumber ? new RealNumber(n) : n; }
  ENumber.prototype = RealNumber.prototype;
  RealNumber.prototype.constructor = ENumber;
  ["MAX_VALUE", "MIN_VALUE", "NaN", "NEGATIVE_INFINITY", "POSITIVE_INFINITY"].forEach(function (k) { ENumber[k] = RealNumber[k]; });
  G.Number = ENumber;

  // Allocations the board's RAM could never hold (Espruino runs out of memory long before) are refused
  // before they are made: a built-in call on them is native code the callback timeout cannot interrupt,
  // so one such call would stall the simulator for seconds and take gigabytes (the console runs what
  // anyone types). What is left (an array grown by assigning its length, then walked) stays bounded by
  // the same checks in fill() and join().
  var MAX_ELEMENTS = ${MAX_ELEMENTS};
  var RealReflect = Reflect;
  function tooBig(n, what) {
    throw new InternalError("Out of Memory: " + what + " of " + n + " would not fit the board's RAM (the simulator refuses more than " + MAX_ELEMENTS + ")");
  }
  function sizeOf(a) { return typeof a === "number" ? a : a && typeof a === "object" && typeof a.length === "number" ? a.length : 0; }
  function guarded(C, name, count) {
    return new RealProxy(C, {
      construct: function (t, args, nt) { var n = count(args); if (n > MAX_ELEMENTS) tooBig(n, name); return RealReflect.construct(t, args, nt); },
      apply: function (t, self, args) { var n = count(args); if (n > MAX_ELEMENTS) tooBig(n, name); return RealReflect.apply(t, self, args); }
    });
  }
  G.Array = guarded(Array, "an array", function (args) { return args.length === 1 && typeof args[0] === "number" ? args[0] : 0; });
  G.ArrayBuffer = guarded(ArrayBuffer, "an ArrayBuffer", function (args) { return +args[0] || 0; });
  ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array"].forEach(function (name) {
    G[name] = guarded(G[name], "a " + name, function (args) { return sizeOf(args[0]); });
  });
  var realRepeat = String.prototype.repeat, realPadStart = String.prototype.padStart, realPadEnd = String.prototype.padEnd;
  String.prototype.repeat = function repeat(n) { var len = String(this).length * (+n || 0); if (len > MAX_ELEMENTS) tooBig(len, "a string"); return realRepeat.call(this, n); };
  String.prototype.padStart = function padStart(n, f) { if (+n > MAX_ELEMENTS) tooBig(+n, "a string"); return realPadStart.call(this, n, f); };
  String.prototype.padEnd = function padEnd(n, f) { if (+n > MAX_ELEMENTS) tooBig(+n, "a string"); return realPadEnd.call(this, n, f); };
  var realFill = Array.prototype.fill, realJoin = Array.prototype.join;
  Array.prototype.fill = function fill(v, a, b) { if (this.length > MAX_ELEMENTS) tooBig(this.length, "an array"); return realFill.call(this, v, a, b); };
  Array.prototype.join = function join(sep) { if (this.length > MAX_ELEMENTS) tooBig(this.length, "an array"); return realJoin.call(this, sep); };

  var roots = {
    globalThis: G, TypedArray: TypedArray, "TypedArray.prototype": TypedArray.prototype,
    Date: RealDate, "Date.prototype": RealDate.prototype, Promise: RealPromise, "Promise.prototype": RealPromise.prototype
  };
  Object.keys(missing).forEach(function (path) {
    var target = roots[path];
    if (!target) target = path.split(".").reduce(function (o, k) { return o[k]; }, G);
    missing[path].forEach(function (k) {
      if (!delete target[k]) throw new Error("cannot remove " + path + "." + k + " from the realm");
    });
  });

  return {
    makePin: function (name) { var p = Object.create(Pin.prototype); names.set(p, name); return p; },
    pinName: function (v) { return (typeof v === "object" && v !== null) ? names.get(v) : undefined; },
    intrinsics: { Object: Object, Array: Array, Error: Error, TypeError: TypeError, ArrayBuffer: ArrayBuffer, Uint8Array: Uint8Array, JSON: JSON }
  };
})`;

/** Creates a fresh realm with Espruino's built-ins only. */
export function createEspruinoRealm(hooks: RealmHooks): EspruinoRealm {
  // DONT_CONTEXTIFY: the context's global is the realm's own global object, not a host object behind
  // an interceptor (a contextified host `{}` answers every name the realm lacks from the host's
  // Object.prototype, and is the `this` of a getter defined on globalThis: `constructor.constructor`
  // would be the host's Function). So no object of the host stands behind any name of the realm.
  // afterEvaluate: promise jobs run at the end of each firmware callback, before timers, as on the device.
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
    name: "espruino",
    codeGeneration: { strings: true, wasm: false },
    microtaskMode: "afterEvaluate",
  });
  const sandbox = context as Record<string, unknown>;

  // The membrane first: the prelude's hooks are host functions too.
  type HostFn = (...args: never[]) => unknown;
  const table: HostFn[] = [];
  const wrappers = new WeakMap<HostFn, (...args: unknown[]) => unknown>();
  const made = new WeakSet<object>();
  const hostCall = (id: number, thisArg: unknown, args: ArrayLike<unknown>): unknown => {
    const list: unknown[] = [];
    for (let i = 0; i < args.length; i++) list.push(args[i]);
    return toRealm(Reflect.apply(table[id], thisArg, list as never[]));
  };
  const membrane = (
    vm.runInContext(MEMBRANE, context, { filename: "espruino-membrane.js" }) as (h: typeof hostCall) => {
      own(v: unknown): boolean;
      wrap(id: number, params: string): (...args: unknown[]) => unknown;
    }
  )(hostCall);
  const wrapHost = (fn: HostFn): ((...args: unknown[]) => unknown) => {
    if (membrane.own(fn)) return fn as (...args: unknown[]) => unknown;
    let w = wrappers.get(fn);
    if (!w) {
      table.push(fn);
      w = membrane.wrap(table.length - 1, hostParams(fn));
      wrappers.set(fn, w);
      made.add(w);
    }
    return w;
  };
  let intrinsics: RealmIntrinsics | null = null;
  const toRealm = (v: unknown): unknown => {
    if (membrane.own(v)) return v;
    if (typeof v === "function") return wrapHost(v as HostFn);
    const C = intrinsics!;
    if (Array.isArray(v)) {
      const a = new C.Array();
      for (const x of v) a.push(toRealm(x));
      return a;
    }
    if (v instanceof Error) return new C.Error(v.message);
    if (v instanceof Uint8Array) {
      const u = new C.Uint8Array(v.length);
      u.set(v);
      return u;
    }
    const o = new C.Object() as Record<string, unknown>;
    for (const k of Object.keys(v as object)) o[k] = toRealm((v as Record<string, unknown>)[k]);
    return o;
  };

  const init = vm.runInContext(PRELUDE, context, { filename: "espruino-prelude.js" }) as (
    h: RealmHooks,
    missing: unknown,
  ) => Pick<EspruinoRealm, "makePin" | "pinName" | "intrinsics">;
  // The table must be a realm object, or the prelude would walk Node's Object.prototype.
  const missing = vm.runInContext(`(${JSON.stringify(MISSING_BUILTINS)})`, context);
  const realmHooks = vm.runInContext("({})", context) as Record<string, unknown>;
  for (const k of Object.keys(hooks) as (keyof RealmHooks)[]) realmHooks[k] = wrapHost(hooks[k] as HostFn);
  const inRealm = init(realmHooks as unknown as RealmHooks, missing);
  intrinsics = inRealm.intrinsics;
  return {
    context,
    sandbox,
    ...inRealm,
    wrapHost,
    isRealmValue: (v) => membrane.own(v),
    toRealm,
    isWrapper: (fn) => typeof fn === "function" && made.has(fn),
  };
}
