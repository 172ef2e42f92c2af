/**
 * Espruino's compact JavaScript form of data, as `Storage.writeJSON` writes it (docs/espruino.md 5.6:
 * `{best:7,name:"x",arr:[1,2]}`, keys unquoted, not strict JSON) and the liberal parser that
 * `Storage.readJSON` reads it back with. Firmware that reads such a file with JSON.parse fails on
 * the device, and so it does here.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Writes a value the way writeJSON stores it. Functions and undefined are dropped; NaN becomes null. */
export function toJsonish(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return String(value);
    case "string":
      return JSON.stringify(value);
    case "function":
    case "symbol":
    case "bigint":
      return "null";
  }
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return "[" + Array.prototype.map.call(value, (x: number) => toJsonish(x)).join(",") + "]";
  }
  if (Array.isArray(value))
    return "[" + value.map((x) => (x === undefined || typeof x === "function" ? "null" : toJsonish(x))).join(",") + "]";
  const obj = value as Record<string, unknown>;
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") return toJsonish((obj as { toJSON(): unknown }).toJSON());
  const parts: string[] = [];
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === undefined || typeof v === "function") continue;
    parts.push((IDENTIFIER.test(key) ? key : JSON.stringify(key)) + ":" + toJsonish(v));
  }
  return "{" + parts.join(",") + "}";
}

/** Parses JSON and Espruino's liberal form (unquoted keys, single-quoted strings). Throws SyntaxError. */
export function parseJsonish(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at position ${i} of ${JSON.stringify(text.length > 60 ? text.slice(0, 60) + "..." : text)}`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = (): string => {
    const q = text[i++];
    let out = "";
    while (i < text.length && text[i] !== q) {
      if (text[i] === "\\") {
        const c = text[++i];
        const map: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", "0": "\0" };
        if (c === "u") {
          out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
          i += 5;
        } else if (c === "x") {
          out += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
          i += 3;
        } else {
          out += map[c] ?? c;
          i++;
        }
      } else out += text[i++];
    }
    if (text[i] !== q) fail("unterminated string");
    i++;
    return out;
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        let key: string;
        if (text[i] === '"' || text[i] === "'") key = str();
        else {
          const m = /^[A-Za-z0-9_$]+/.exec(text.slice(i));
          if (!m) fail("expected a key");
          key = m![0];
          i += key.length;
        }
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        obj[key] = value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i++] === "}") return obj;
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i++] === "]") return arr;
        fail("expected ',' or ']'");
      }
    }
    if (c === '"' || c === "'") return str();
    const m = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|true|false|null|undefined|NaN|-?Infinity)/.exec(text.slice(i));
    if (!m) fail("unexpected character");
    i += m![0].length;
    const w = m![0];
    if (w === "true") return true;
    if (w === "false") return false;
    if (w === "null") return null;
    if (w === "undefined") return undefined;
    return Number(w);
  };
  const v = value();
  ws();
  if (i < text.length) fail("unexpected text after the value");
  return v;
}
