/**
 * The firmware as the unit stores it: the minified bundle pretokenised by the tokeniser of the `espruino` package
 * (EspruinoTools plugins/pretokenise.js, the Web IDE's "Pretokenise code before upload"). Reserved words and
 * two-character operators become one byte each (0x8A-0xCF), strings a byte 0xD1/0xD2 with their length and raw bytes,
 * integers 0xD3-0xD5 with one or two bytes of value: about 12% fewer bytes in Storage. Espruino 2v29's lexer reads
 * these bytes wherever it reads code (jslex.c jslGetNextToken; docs/espruino.md 2.4 says how that was checked).
 *
 * detokenise() reads an image back as that lexer does, as JavaScript text: what the simulator runs from its Storage,
 * and what the build compares with the bundle (sameProgram) before it writes the image.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import vm from "node:vm";
import { crc32 } from "node:zlib";
import { parse as acornParse } from "acorn";

const require = createRequire(import.meta.url);
const PLUGIN = require.resolve("espruino/plugins/pretokenise.js");

/** The 2v29 lexer's token numbers from 0x8A on (jslex.h LEX_TYPES), as the plugin lists them. */
const TOKEN_START = 0x8a;
const RAW_STRING8 = 0xd1;
const RAW_STRING16 = 0xd2;
const RAW_INT0 = 0xd3;
const RAW_INT8 = 0xd4;
const RAW_INT16 = 0xd5;

interface Plugin {
  tokenise(code: string): string;
}

let plugin: Plugin | undefined;

/** The plugin, run in a sandbox with the little of EspruinoTools it asks for: always tokenise everything (PRETOKENISE=2). */
function loadPlugin(): Plugin {
  if (plugin) return plugin;
  const sandbox = {
    // The plugin's own dependency (the espruino package's acorn), as its CLI gives it.
    acorn: createRequire(PLUGIN)("acorn") as unknown,
    console,
    Espruino: {
      Config: { PRETOKENISE: 2 },
      Core: {
        Config: { add() {} },
        Env: { getBoardData: () => ({ VERSION: "2v29" }) },
        Utils: { atob: (s: string) => Buffer.from(s, "base64").toString("latin1") },
      },
      Plugins: {} as { Pretokenise?: Plugin },
      addProcessor() {},
    },
  };
  vm.runInNewContext(readFileSync(PLUGIN, "utf8"), sandbox, { filename: PLUGIN });
  const loaded = sandbox.Espruino.Plugins.Pretokenise;
  if (!loaded || typeof loaded.tokenise !== "function") throw new Error(`${PLUGIN} did not define Espruino.Plugins.Pretokenise.tokenise`);
  plugin = loaded;
  return plugin;
}

const cache = new Map<string, Uint8Array>();

/** The bytes the unit stores for `code` (JavaScript whose characters are all 8-bit). */
export function pretokenise(code: string): Uint8Array {
  const hit = cache.get(code);
  if (hit) return hit;
  const text = loadPlugin().tokenise(code);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 255) throw new Error(`pretokenise: character U+${c.toString(16).padStart(4, "0")} at ${i} is not a byte`);
    bytes[i] = c;
  }
  if (cache.size > 8) cache.clear();
  cache.set(code, bytes);
  return bytes;
}

/** The words and operators of tokens 0x8A.. (jslex.h; the same list as the plugin's). */
const TOKENS = [
  "==",
  "===",
  "!=",
  "!==",
  "<=",
  "<<",
  "<<=",
  ">=",
  ">>",
  ">>>",
  ">>=",
  ">>>=",
  "+=",
  "-=",
  "++",
  "--",
  "*=",
  "/=",
  "%=",
  "&=",
  "&&",
  "|=",
  "||",
  "^=",
  "=>",
  "if",
  "else",
  "do",
  "while",
  "for",
  "break",
  "continue",
  "function",
  "return",
  "var",
  "let",
  "const",
  "this",
  "throw",
  "try",
  "catch",
  "finally",
  "true",
  "false",
  "null",
  "undefined",
  "new",
  "in",
  "instanceof",
  "switch",
  "case",
  "default",
  "delete",
  "typeof",
  "void",
  "debugger",
  "class",
  "extends",
  "super",
  "static",
  "of",
];

/** What can end an expression: a `/` after it divides, else it starts a regular expression. */
const ENDS_VALUE = /[\w$)\]}'"`]/;
/** Bytes that start nothing (no quote, template, comment, regular expression or token): copied in runs. */
const PLAIN = Array.from({ length: 256 }, (_, c) => c < TOKEN_START && c !== 0x22 && c !== 0x27 && c !== 0x60 && c !== 0x2f);
const VALUE_WORDS = new Set(["this", "true", "false", "null", "undefined", "super"]);

export class TokenError extends Error {}

/**
 * JavaScript text for the code in `bytes` as Espruino 2v29's lexer reads it: outside strings, template literals,
 * comments and regular expressions a byte 0x8A.. is a token (a word or operator, with spaces either side; a raw string,
 * written as a string literal; a raw integer, negative ones in parentheses, as the lexer reads a literal); everything
 * else is the text as it is. Throws TokenError on a byte no token has, or a raw string or integer cut short.
 */
export function detokenise(bytes: Uint8Array): string {
  // The simulator reads its .bootcde at every boot: the last few images read are kept.
  const key = `${bytes.length}:${crc32(bytes)}`;
  const hit = readBack.get(key);
  if (hit && Buffer.compare(hit.bytes, bytes) === 0) return hit.text;
  const text = readTokens(bytes);
  if (readBack.size > 8) readBack.clear();
  readBack.set(key, { bytes: bytes.slice(), text });
  return text;
}

const readBack = new Map<string, { bytes: Uint8Array; text: string }>();

function readTokens(bytes: Uint8Array): string {
  let out = "";
  // The last thing written that matters to a `/`: whether it ended a value.
  let afterValue = false;
  let i = 0;
  const n = bytes.length;
  const text = (from: number, to: number) => {
    let t = "";
    for (let k = from; k < to; k += 4096) t += String.fromCharCode(...bytes.subarray(k, Math.min(to, k + 4096)));
    return t;
  };
  const need = (k: number, what: string) => {
    if (i + k > n) throw new TokenError(`${what} at byte ${i - 1} is cut short by the end of the code`);
  };
  /** Index just past the quoted run starting at `at` (its quote is bytes[at]), escapes honoured. */
  const quoted = (at: number): number => {
    const q = bytes[at];
    let j = at + 1;
    while (j < n && bytes[j] !== q) j += bytes[j] === 0x5c ? 2 : 1;
    return Math.min(n, j + 1);
  };
  /** Index just past the template literal starting at `at`: its `${ }` parts are scanned for nested braces and quotes. */
  const template = (at: number): number => {
    let j = at + 1;
    while (j < n && bytes[j] !== 0x60) {
      if (bytes[j] === 0x5c) j += 2;
      else if (bytes[j] === 0x24 && bytes[j + 1] === 0x7b) {
        let depth = 1;
        j += 2;
        while (j < n && depth) {
          const c = bytes[j];
          if (c === 0x22 || c === 0x27) j = quoted(j);
          else if (c === 0x60) j = template(j);
          else {
            if (c === 0x7b) depth++;
            else if (c === 0x7d) depth--;
            j++;
          }
        }
      } else j++;
    }
    return Math.min(n, j + 1);
  };
  /** Index just past the regular expression starting at `at`, its classes and flags included. */
  const regex = (at: number): number => {
    let j = at + 1;
    let inClass = false;
    while (j < n && bytes[j] !== 0x0a) {
      const c = bytes[j];
      if (c === 0x5c) j++;
      else if (c === 0x5b) inClass = true;
      else if (c === 0x5d) inClass = false;
      else if (c === 0x2f && !inClass) break;
      j++;
    }
    j++;
    while (j < n && /[a-z]/.test(String.fromCharCode(bytes[j]))) j++;
    return Math.min(n, j);
  };
  while (i < n) {
    const c = bytes[i];
    if (c >= TOKEN_START) {
      i++;
      if (c === RAW_STRING8 || c === RAW_STRING16) {
        need(c === RAW_STRING8 ? 1 : 2, "a raw string");
        const len = c === RAW_STRING8 ? bytes[i] : bytes[i] | (bytes[i + 1] << 8);
        i += c === RAW_STRING8 ? 1 : 2;
        need(len, "a raw string");
        out += JSON.stringify(text(i, i + len));
        i += len;
        afterValue = true;
      } else if (c === RAW_INT0 || c === RAW_INT8 || c === RAW_INT16) {
        let v = 0;
        if (c === RAW_INT8) {
          need(1, "a raw integer");
          v = (bytes[i] << 24) >> 24;
          i++;
        } else if (c === RAW_INT16) {
          need(2, "a raw integer");
          v = ((bytes[i] | (bytes[i + 1] << 8)) << 16) >> 16;
          i += 2;
        }
        out += v < 0 ? ` (${v}) ` : ` ${v} `;
        afterValue = true;
      } else {
        const word = TOKENS[c - TOKEN_START];
        if (word === undefined) throw new TokenError(`byte 0x${c.toString(16)} at ${i - 1} is no token of Espruino 2v29`);
        out += ` ${word} `;
        afterValue = VALUE_WORDS.has(word) || word === "++" || word === "--";
      }
      continue;
    }
    let end = i + 1;
    if (PLAIN[c]) while (end < n && PLAIN[bytes[end]]) end++;
    else if (c === 0x22 || c === 0x27) end = quoted(i);
    else if (c === 0x60) end = template(i);
    else if (c === 0x2f && bytes[i + 1] === 0x2f) while (end < n && bytes[end] !== 0x0a) end++;
    else if (c === 0x2f && bytes[i + 1] === 0x2a) {
      end = i + 2;
      while (end < n && !(bytes[end - 1] === 0x2a && bytes[end] === 0x2f && end > i + 2)) end++;
      end = Math.min(n, end + 1);
    } else if (c === 0x2f && !afterValue) end = regex(i);
    const part = text(i, end);
    out += part;
    const comment = c === 0x2f && (bytes[i + 1] === 0x2f || bytes[i + 1] === 0x2a);
    const last = part.trimEnd();
    if (!comment && last) afterValue = ENDS_VALUE.test(last[last.length - 1]) || (c === 0x2f && end > i + 1);
    i = end;
  }
  return out;
}

/**
 * Where the program in `image` (read back with detokenise) differs from `code`'s, or null when both parse to the same
 * syntax tree (positions and the spelling of literals aside): the image is the bundle the simulator ran.
 */
export function programDifference(code: string, image: Uint8Array): string | null {
  let read: string;
  try {
    read = detokenise(image);
  } catch (e) {
    return (e as Error).message;
  }
  const tree = (src: string) => acornParse(src, { ecmaVersion: 2020, sourceType: "script" });
  let a: AcornNode, b: AcornNode;
  try {
    a = tree(code);
  } catch (e) {
    return `the bundle does not parse: ${(e as Error).message}`;
  }
  try {
    b = tree(read);
  } catch (e) {
    return `the image does not read back as JavaScript: ${(e as Error).message}`;
  }
  const wide = wideString(a);
  if (wide !== null)
    return `the string ${JSON.stringify(wide)} has characters beyond 7 bits: Espruino builds with Unicode support read it as UTF-8 from text but as bytes from a raw string`;
  return nodeDifference(a, b, "Program");
}

/** A string literal of the tree with a character beyond 0x7F, or null. */
function wideString(node: unknown): string | null {
  if (typeof node !== "object" || node === null) return null;
  const n = node as { type?: string; value?: unknown };
  const text = n.type === "Literal" ? n.value : n.type === "TemplateElement" ? (n.value as { cooked?: unknown }).cooked : undefined;
  if (typeof text === "string" && /[^\x00-\x7f]/.test(text)) return text;
  for (const v of Object.values(node)) {
    const found = wideString(v);
    if (found !== null) return found;
  }
  return null;
}

type AcornNode = ReturnType<typeof acornParse>;

/** The first place two syntax trees differ, ignoring positions and how a literal is spelt; null when they do not. */
function nodeDifference(a: unknown, b: unknown, path: string): string | null {
  if (a === b) return null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (typeof a === "number" && typeof b === "number" && Object.is(a, b)) return null;
    return `${path}: ${JSON.stringify(a)} in the bundle, ${JSON.stringify(b)} in the image`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: differs`;
  // A template literal without substitutions is stored as a raw string.
  const t = a as { type?: string; expressions?: unknown[]; quasis?: { value: { cooked: string } }[] };
  const l = b as { type?: string; value?: unknown };
  if (t.type === "TemplateLiteral" && !t.expressions?.length && l.type === "Literal")
    return t.quasis?.[0]?.value.cooked === l.value ? null : `${path}: the template's text is not the image's string`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === "start" || k === "end" || k === "raw" || k === "loc" || k === "range") continue;
    const at = (a as Record<string, unknown>)[k];
    const bt = (b as Record<string, unknown>)[k];
    const label = Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`;
    const d = nodeDifference(at, bt, (at as { type?: string } | null)?.type ? `${label}(${(at as { type: string }).type})` : label);
    if (d) return d;
  }
  return null;
}
