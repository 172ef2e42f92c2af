/**
 * Values as Espruino's console prints them (2v29, jsfPrintJSON and %q): what follows `=` after a line
 * typed at the REPL.
 */

/** How the console prints a string (Espruino's %q: double quotes, escapes, \xHH for the rest). */
export function quoteString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const c = s.charCodeAt(i);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\v") out += "\\v";
    else if (c === 0) out += "\\0";
    else if (c < 32 || (c >= 127 && c < 256)) out += "\\x" + c.toString(16).toUpperCase().padStart(2, "0");
    else if (c >= 256) out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

const JSON_LIMIT_AMOUNT = 15;
const JSON_LIMITED_AMOUNT = 5;
const JSON_LIMIT_STRING_AMOUNT = 40;
const JSON_LIMITED_STRING_AMOUNT = 17;
const JSON_ITEMS_ON_LINE_OBJECT = 4;
const JSON_LIMIT_TEXT = " ... ";
const ID_STRING = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** What the formatter needs to know about the firmware's realm. */
export interface RealmView {
  /** The firmware's global object (to name constructors, as JSON_SHOW_OBJECT_NAMES does). */
  global?: Record<string, unknown>;
  /** The realm's Pin constructor: pins print as their name. */
  Pin?: unknown;
  /** The realm's Object.prototype: plain objects get no constructor name. */
  objectPrototype?: object;
  /** The realm's Function: functions of other realms (the simulator's own) print as native code. */
  Function?: unknown;
  /** Built-in functions of the realm (the simulator's API, wrapped into the realm): they print as native code. */
  isNative?: (fn: unknown) => boolean;
}

function formatNumber(n: number): string {
  if (Number.isInteger(n) || !Number.isFinite(n)) return String(n);
  return String(Number(n.toPrecision(12)));
}

function functionParams(fn: unknown): string {
  const src = Function.prototype.toString.call(fn);
  const m = /^[^(=]*\(([^)]*)\)/.exec(src) ?? /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(src);
  return m ? m[1].replace(/\s+/g, "") : "";
}

/**
 * A value as the console prints it after `=` (jsfPrintJSON with JSON_LIMIT, JSON_SOME_NEWLINES, JSON_PRETTY,
 * JSON_SHOW_DEVICES, JSON_SHOW_OBJECT_NAMES and JSON_DROP_QUOTES): `undefined`, `"text"`, `[ 1, 2 ]`,
 * `{ a: 1, b: "x" }`, long arrays and strings shortened with ` ... `, functions as `function (a,b) { ... }`.
 */
export function formatResult(value: unknown, realm: RealmView = {}): string {
  const seen = new Set<object>();
  const newLine = (indent: number) => "\n" + "  ".repeat(indent);
  const needsNewLine = (v: unknown) => !(v === undefined || v === null || typeof v === "number" || typeof v === "boolean");

  const constructorName = (v: object): string | undefined => {
    const proto = Object.getPrototypeOf(v);
    if (!proto || proto === realm.objectPrototype || proto === Object.prototype) return undefined;
    const ctor = (proto as { constructor?: unknown }).constructor;
    if (!ctor || !realm.global) return undefined;
    for (const k of Object.getOwnPropertyNames(realm.global)) {
      try {
        if (realm.global[k] === ctor) return k;
      } catch {
        // a throwing getter is not a name
      }
    }
    return undefined;
  };

  const items = (obj: object, keys: string[], indent: number, first: boolean): { text: string; needNewLine: boolean } => {
    let text = "";
    let needNewLine = false;
    let sinceNewLine = 0;
    for (const key of keys) {
      const desc = Object.getOwnPropertyDescriptor(obj, key);
      if (!desc || desc.get || desc.set) continue;
      const item = desc.value;
      sinceNewLine++;
      if (!first) text += ", ";
      const newNeedsNewLine = needsNewLine(item);
      if (sinceNewLine > JSON_ITEMS_ON_LINE_OBJECT) needNewLine = true;
      if (needNewLine || newNeedsNewLine) {
        text += newLine(indent + 1);
        needNewLine = false;
        sinceNewLine = 0;
      }
      const bare = /^(0|[1-9]\d*)$/.test(key) || (key.length < 63 && ID_STRING.test(key));
      text += (bare ? key : quoteString(key)) + ": ";
      first = false;
      text += fmt(item, indent + 1);
      needNewLine = newNeedsNewLine;
    }
    return { text, needNewLine };
  };

  const fmt = (v: unknown, indent: number): string => {
    if (v === undefined) return "undefined";
    if (v === null) return "null";
    switch (typeof v) {
      case "number":
        return formatNumber(v);
      case "boolean":
        return String(v);
      case "bigint":
        return String(v);
      case "symbol":
        return String(v);
      case "string": {
        if (v.length > JSON_LIMIT_STRING_AMOUNT)
          return quoteString(v.slice(0, JSON_LIMITED_STRING_AMOUNT)) + JSON_LIMIT_TEXT + quoteString(v.slice(-JSON_LIMITED_STRING_AMOUNT));
        return quoteString(v);
      }
    }
    const obj = v as object;
    if (seen.has(obj)) return JSON_LIMIT_TEXT;
    if (typeof realm.Pin === "function" && obj instanceof (realm.Pin as new () => object)) return String(obj);
    seen.add(obj);
    try {
      if (typeof v === "function") {
        const native =
          !!realm.isNative?.(v) ||
          (typeof realm.Function === "function" && !(v instanceof (realm.Function as new () => object))) ||
          /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(v));
        return `function (${functionParams(v)}) ` + (native ? "{ [native code] }" : `{${JSON_LIMIT_TEXT}}`);
      }
      if (Array.isArray(v)) {
        const length = v.length;
        const limited = length > JSON_LIMIT_AMOUNT;
        let text = "[ ";
        let needNewLine = false;
        let first = true;
        for (let i = 0; i < length; i++) {
          if (limited && i >= JSON_LIMITED_AMOUNT && i < length - JSON_LIMITED_AMOUNT) continue;
          if (!first) text += ", ";
          first = false;
          if (limited && i === length - JSON_LIMITED_AMOUNT) text += JSON_LIMIT_TEXT;
          const item = v[i];
          const newNeedsNewLine = needsNewLine(item);
          if (needNewLine || newNeedsNewLine) {
            text += newLine(indent + 1);
            needNewLine = false;
          }
          text += fmt(item, indent + 1);
          needNewLine = newNeedsNewLine;
        }
        const extra = items(
          v,
          Object.keys(v).filter((k) => !/^(0|[1-9]\d*)$/.test(k)),
          indent,
          first,
        );
        text += extra.text;
        if (extra.text) needNewLine = extra.needNewLine;
        if (needNewLine) text += newLine(indent);
        return text + " ]";
      }
      const tag = Object.prototype.toString.call(v);
      if (ArrayBuffer.isView(v) && tag !== "[object DataView]") {
        const name = tag.slice(8, -1);
        const arr = Array.from(v as unknown as ArrayLike<number>);
        if (arr.every((x) => x === 0)) return `new ${name}(${arr.length})`;
        return `new ${name}([${arrayBufferItems(arr)}])`;
      }
      if (tag === "[object ArrayBuffer]") {
        const arr = Array.from(new Uint8Array(v as ArrayBuffer));
        if (arr.every((x) => x === 0)) return `new ArrayBuffer(${arr.length})`;
        return `new Uint8Array([${arrayBufferItems(arr)}]).buffer`;
      }
      // An object made by a constructor the global scope names: "Name: ", then its own toString() if it has one.
      const name = constructorName(obj);
      if (name) {
        const toString = (obj as { toString?: unknown }).toString;
        const plain = [Object.prototype.toString, (realm.objectPrototype as { toString?: unknown } | undefined)?.toString];
        if (typeof toString === "function" && !plain.includes(toString)) return `${name}: ${String(Reflect.apply(toString, obj, []))}`;
      }
      const body = items(obj, Object.keys(obj), indent, true);
      return (name ? name + ": " : "") + "{ " + body.text + (body.needNewLine ? newLine(indent) : "") + " }";
    } finally {
      seen.delete(obj);
    }
  };

  const arrayBufferItems = (arr: number[]): string => {
    const limited = arr.length > JSON_LIMIT_AMOUNT;
    let text = "";
    arr.forEach((x, i) => {
      if (limited && i >= JSON_LIMITED_AMOUNT && i < arr.length - JSON_LIMITED_AMOUNT) return;
      if (i > 0) text += ", ";
      if (limited && i === arr.length - JSON_LIMITED_AMOUNT) text += JSON_LIMIT_TEXT;
      text += formatNumber(x);
    });
    return text;
  };

  return fmt(value, 0);
}
