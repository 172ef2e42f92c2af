/**
 * The virtual board's console on a local TCP port, speaking enough of the Espruino REPL (2v29,
 * `src/jsinteractive.c`) that the unmodified `espruino` CLI can upload to it:
 *
 *   npm run sim:console -- --port 4001 [--profile r1-pico] [--storage FILE] [--empty]
 *   npx espruino --no-ble -p tcp://127.0.0.1:4001 --board hardware/boards/pico.json dist/firmware.js --storage .bootcde:-
 *
 * What the CLI (EspruinoTools 0.1.67) sends and expects, and what this console does with it:
 * - on connect, unless `--board` is given, `\x10print("<","<<",JSON.stringify(process.env),">>",">")`: answered
 *   from the firmware context's process.env (VERSION "2v29", BOARD, CONSOLE);
 * - `\n`, waiting for output ending in `>` (else it sends Ctrl-C twice and carries on): an empty line answers
 *   `\r\n>`;
 * - `\x10reset();`: RAM cleared, the banner, a prompt; .bootcde does NOT run (VirtualBoard.resetRam);
 * - `\x10print()`, then the code one statement a line, each line prefixed with `\x10` (echo off for that line:
 *   no echo, no `=result`; ESC LF is a newline that does not execute). With `--storage .bootcde:-` the code is
 *   `require("Storage").write(".bootcde", <1 KB chunk>, offset[, size])` lines, then `load(".bootcde")`;
 * - completion: it waits until nothing has arrived for 500 ms, then exits 0. It never checks the prompt (its
 *   Terminal module is not loaded under Node), so errors show only as `Uncaught ...` in its output.
 *
 * The REPL: echo of typed characters (unless echo is off for the line, or echo(0)), the `>` prompt, `:` for
 * continuation lines while brackets are open (counted by a JavaScript tokenizer, as Espruino's lexer does),
 * results as `=value` in Espruino's console format (`=undefined`, `={ a: 1 }`, `="text"`), errors as
 * `Uncaught Error: ...`, print/console.log output (and the firmware's uncaught errors) sent to the client, the
 * boot banner after a power-on, reset(), load() or E.reboot(), Ctrl-C clears the line, backspace, Ctrl-U.
 * Not emulated: cursor movement and history (arrow keys are ignored), tab completion, the debugger, XON/XOFF flow
 * control (the simulated board never falls behind).
 *
 * The password lock is emulated as jsinteractive.c does it: after E.setPassword(pw) and E.lockConsole() the
 * prompt is `password>`, up to 20 typed characters are kept unseen, Enter answers `Invalid password` or
 * `Logged in.`, and nothing typed runs until then.
 *
 * Security: the firmware's realm holds no host function (see MEMBRANE in context.ts), so what a client types
 * reaches only what the firmware can reach. The port is 127.0.0.1 only; `npm run sim:console` demands a per-run
 * token as the first line (--no-token for the espruino CLI); a first line that looks like HTTP (a web page's
 * fetch to this port) closes the connection before a byte of it runs.
 *
 * Console-only built-ins: `reset()` and `echo()` are Espruino built-ins the firmware runtime does not provide;
 * this console adds them (not enumerable) to the firmware's global object before it evaluates a line.
 *
 * Virtual time: while a client is connected (option `clock: "connected"`, the default), a 10 ms real-time
 * tick advances the board by the real time that passed (at most 250 ms a tick), so the firmware's timers run
 * in step with the wall clock; between clients the board stands still. Each executed line is followed by an
 * idle-loop pass at the same virtual time (`advance(0)`), so a `load()` or `reset()` has rebooted the board
 * before the next line is read. `clock: "always"` (the npm script) keeps the board running between clients;
 * `clock: "manual"` leaves time to the caller.
 *
 * One client at a time, on 127.0.0.1 only. A client connecting to an unpowered board powers it (USB does).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as acorn from "acorn";
import { BOARDS } from "../../hardware/boards.ts";
import { DEFAULT_PROFILE, loadProfile } from "../../hardware/profile.ts";
import { BOOT_FILE, DEFAULT_FIRMWARE, VirtualBoard } from "../board/board.ts";
import { describeThrown, ESPRUINO_VERSION } from "../runtime/runtime.ts";
import { VirtualStorage } from "../board/storage.ts";

export const DEFAULT_CONSOLE_PORT = 4001;
export const CONSOLE_HOST = "127.0.0.1";
/** How often the board is advanced with real time while the clock runs. */
export const CONSOLE_TICK_MS = 10;
/** The most virtual time one tick may run (after the process was suspended, time does not race to catch up). */
const MAX_STEP_MS = 250;

/** Espruino's boot banner (jsiSemiInit; a Pico is not LINUX, so word wrap is switched off first). */
export const BANNER =
  "\x1b[?7l\n" +
  " ____                 _ \n" +
  "|  __|___ ___ ___ _ _|_|___ ___ \n" +
  "|  __|_ -| . |  _| | | |   | . |\n" +
  "|____|___|  _|_| |___|_|_|_|___|\n" +
  "         |_| espruino.com\n" +
  ` ${ESPRUINO_VERSION} (c) 2025 G.Williams\n` +
  "\n";

// ---------------------------------------------------------------- the line: brackets

/**
 * Open brackets in an input line, as Espruino's jsiCountBracketsInInput counts them: > 0 means the line
 * continues (`:` prompt), <= 0 means it executes. An unfinished string executes (so it can fail); an
 * unfinished comment or template literal continues.
 */
export function countBrackets(line: string): number {
  let brackets = 0;
  try {
    for (const t of acorn.tokenizer(line, { ecmaVersion: "latest", allowHashBang: true })) {
      const l = t.type.label;
      if (l === "(" || l === "{" || l === "[" || l === "${") brackets++;
      else if (l === ")" || l === "}" || l === "]") brackets--;
      if (brackets < 0) break;
    }
  } catch (e) {
    const m = String((e as Error).message);
    if (/Unterminated (comment|template)/.test(m)) return 1000;
    if (/Unterminated string/.test(m)) return 0;
    return brackets > 0 ? brackets : 0;
  }
  return brackets;
}

// ---------------------------------------------------------------- results: Espruino's console format

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

// ---------------------------------------------------------------- the REPL

type InputState = "none" | "hadR" | "esc" | "esc[" | "escO" | "esc[n";

/**
 * The interactive console of one board: bytes in (from the client), bytes out (to `write`). One instance
 * lives as long as the server; it follows the board through power cycles and resets.
 */
export class EspruinoConsole {
  private line = "";
  /** The prompt and input line are not on the client's screen (jsi inputLineRemoved). */
  private removed = true;
  private echoOffForLine = false;
  private echoOff = false;
  private state: InputState = "none";
  private out = "";
  private evaluating = false;
  private restartDue = false;
  private seenLog: number;
  private write: ((text: string) => void) | null = null;
  private readonly unlisten: (() => void)[] = [];

  constructor(readonly board: VirtualBoard) {
    this.seenLog = board.consoleLog.length;
    this.unlisten.push(
      board.on("console", () => this.forwardLog()),
      board.on("power", () => {
        this.restart();
        if (board.isOn) this.banner();
      }),
      board.on("reset", () => {
        // reset()/load() run at the prompt: the device restarts from the idle loop, after the line is done.
        if (this.evaluating) this.restartDue = true;
        else {
          this.restart();
          this.banner();
        }
      }),
    );
  }

  /** Starts sending output to a client. */
  attach(write: (text: string) => void): void {
    this.write = write;
    this.seenLog = this.board.consoleLog.length;
    this.out = "";
    // A device says nothing to a new connection: its prompt is taken as on screen (Enter gets a fresh one).
    this.removed = false;
  }

  /** The client went away: output is dropped until the next attach. */
  detach(): void {
    this.write = null;
    this.out = "";
  }

  get attached(): boolean {
    return this.write !== null;
  }

  /** Stops following the board. */
  dispose(): void {
    for (const f of this.unlisten) f();
    this.unlisten.length = 0;
    this.write = null;
  }

  /** Characters from the client (8-bit string). */
  input(data: string): void {
    if (!this.board.isOn) return; // no power, no UART
    for (const ch of data) this.handleChar(ch);
    this.idle();
  }

  /** One pass of the idle loop: forwards output, returns the prompt, sends what is pending. */
  idle(): void {
    this.forwardLog();
    this.restartIfDue();
    if (this.board.isOn) this.returnInputLine();
    this.flush();
  }

  // -------------------------------------------------------------- output

  private get echo(): boolean {
    return !this.echoOff && !this.echoOffForLine;
  }

  private get showInputLine(): boolean {
    return this.echo && !this.removed && !this.locked;
  }

  private send(text: string): void {
    if (this.write) this.out += text;
  }

  private flush(): void {
    if (this.write && this.out) {
      const text = this.out;
      this.out = "";
      this.write(text);
    }
  }

  /** jsiConsolePrintString: \n goes out as \r\n. */
  private print(text: string): void {
    this.removeInputLine();
    this.send(text.replace(/\n/g, "\r\n"));
  }

  private removeInputLine(): void {
    if (this.removed) return;
    this.removed = true;
    if (this.echo) this.send("\x1b[A".repeat((this.line.match(/\n/g) ?? []).length) + "\r\x1b[J");
  }

  private returnInputLine(): void {
    if (!this.removed) return;
    this.removed = false;
    // Locked: the prompt asks for the password, and what is typed is not shown (jsiConsoleReturnInputLine).
    if (this.echo) this.send(this.locked ? "password>" : ">" + this.line.replace(/\n/g, "\r\n:"));
  }

  /** The console demands the password (E.setPassword, then E.lockConsole): nothing typed runs. */
  private get locked(): boolean {
    return this.board.consolePasswordDemanded;
  }

  /**
   * A key while the console is locked, as jsiHandleChar does it: up to 20 characters are kept, unseen;
   * Enter compares them with the password. Nothing else (Ctrl-C, DLE, escapes) has any effect.
   */
  private handleLockedChar(ch: string): void {
    if (ch === "\r" || ch === "\n") {
      const attempt = this.line;
      this.line = "";
      if (this.board.enterConsolePassword(attempt)) {
        this.print("\n  Logged in.\n");
        this.removed = true;
        this.returnInputLine();
      } else this.send("\r\n  Invalid password\r\npassword>");
      return;
    }
    if (this.line.length < 20) this.line += ch;
  }

  private forwardLog(): void {
    const log = this.board.consoleLog;
    while (this.seenLog < log.length) this.print(log[this.seenLog++] + "\n");
  }

  /** The interpreter restarted: a fresh input line, echo back on (jsiSemiInit). */
  private restart(): void {
    this.forwardLog();
    this.line = "";
    this.state = "none";
    this.echoOff = false;
    this.echoOffForLine = false;
    this.removed = true;
  }

  private banner(): void {
    this.removed = true;
    if (this.echo) this.send(BANNER.replace(/\n/g, "\r\n"));
  }

  // -------------------------------------------------------------- input (jsiHandleChar)

  private handleChar(ch: string): void {
    if (this.locked) {
      this.handleLockedChar(ch);
      return;
    }
    const c = ch.charCodeAt(0);
    if (c === 3) {
      // Ctrl-C: clears the line (an empty line stays as it is)
      this.state = "none";
      this.clearInputLine();
      return;
    }
    switch (this.state) {
      case "esc":
        this.state = ch === "[" ? "esc[" : ch === "O" ? "escO" : "none";
        if (c === 10) this.handleNewLine(false); // ESC LF (Alt-Enter): a newline that does not execute
        return;
      case "escO":
        this.state = "none";
        return;
      case "esc[":
        this.state = ch >= "0" && ch <= "9" ? "esc[n" : "none";
        return;
      case "esc[n":
        if (!(ch >= "0" && ch <= "9")) this.state = "none"; // e.g. ESC [ 12 d sets the line number: ignored
        return;
    }
    if (c === 0) return;
    if (c === 27) {
      this.state = "esc";
      return;
    }
    if (c === 21 || c === 23) {
      this.state = "none";
      this.clearInputLine();
      return;
    }
    if (c === 16 && this.line.length === 0) {
      // DLE at the start of a line: this line is executed without echo
      this.echoOffForLine = true;
      return;
    }
    const hadR = this.state === "hadR";
    this.state = "none";
    if (ch === "\n" && hadR) return; // \r\n: handled on \r
    if (c === 8 || c === 127) this.backspace();
    else if (ch === "\r" || ch === "\n") {
      if (ch === "\r") this.state = "hadR";
      this.handleNewLine(true);
    } else if (c >= 32 || ch === "\t") this.append(ch === "\t" ? "    " : ch);
  }

  private append(text: string): void {
    this.line += text;
    if (this.showInputLine) this.send(text);
  }

  private backspace(): void {
    if (!this.line) return;
    const last = this.line[this.line.length - 1];
    if (last === "\n") {
      // redraw the whole input line one line shorter
      this.removeInputLine();
      this.line = this.line.slice(0, -1);
      this.returnInputLine();
      return;
    }
    this.line = this.line.slice(0, -1);
    if (this.showInputLine) this.send("\b \b");
  }

  private clearInputLine(): void {
    if (!this.line) return;
    this.removeInputLine();
    this.line = "";
  }

  private handleNewLine(execute: boolean): void {
    if (!execute || countBrackets(this.line) > 0) {
      if (this.showInputLine) this.send("\r\n:");
      this.line += "\n";
      return;
    }
    if (this.showInputLine) this.send("\r\n");
    if (!this.echoOffForLine) this.removed = true;
    const code = this.line.replace(/\s+$/, "");
    this.line = "";
    if (code.length) this.execute(code);
    this.echoOffForLine = false;
    // the idle loop runs between lines: a load() or reset() reboots the board before the next line
    this.runIdleLoop();
    this.returnInputLine();
  }

  private execute(code: string): void {
    const board = this.board;
    this.evaluating = true;
    let value: unknown;
    let realm: RealmView = {};
    try {
      if (!board.isOn) return;
      realm = this.installConsoleBuiltins();
      value = board.repl(code);
    } catch (e) {
      this.forwardLog();
      this.print(`Uncaught ${describeThrown(e)}\n`);
      return;
    } finally {
      this.evaluating = false;
    }
    this.forwardLog();
    if (this.echo) {
      let text: string;
      try {
        text = formatResult(value, realm);
      } catch (e) {
        text = `(could not show the result: ${(e as Error).message})`;
      }
      this.print("=" + text + "\n");
    }
  }

  private runIdleLoop(): void {
    this.restartIfDue();
    if (this.board.isOn) this.board.advance(0);
    this.forwardLog();
  }

  private restartIfDue(): void {
    if (!this.restartDue) return;
    this.restartDue = false;
    this.restart();
    this.banner();
  }

  /** Adds reset() and echo() to this boot's global object (the firmware runtime has neither). */
  private installConsoleBuiltins(): RealmView {
    const board = this.board;
    const g = board.repl("globalThis") as Record<string, unknown>;
    const define = (name: string, fn: (...args: unknown[]) => void) => {
      if (!Object.prototype.hasOwnProperty.call(g, name))
        Object.defineProperty(g, name, { value: board.realmFunction(fn), writable: true, configurable: true, enumerable: false });
    };
    define("reset", (clearFlash?: unknown) => {
      if (clearFlash) for (const f of [BOOT_FILE, ".bootrst", ".varimg"]) board.storage.erase(f);
      board.resetRam();
    });
    define("echo", (on?: unknown) => {
      this.echoOff = !on;
    });
    const realmObject = g.Object as { prototype?: object } | undefined;
    return {
      global: g,
      Pin: g.Pin,
      objectPrototype: realmObject?.prototype,
      Function: g.Function,
      isNative: (fn) => board.isBuiltinFunction(fn),
    };
  }
}

// ---------------------------------------------------------------- the TCP server

export interface ConsoleServerOptions {
  /** TCP port (default 0: any free port). */
  port?: number;
  /** Loopback only. */
  host?: "127.0.0.1";
  /**
   * How the board's clock moves: "connected" (default) with real time while a client is connected,
   * "always" with real time until close(), "manual" only when the caller advances it.
   */
  clock?: "connected" | "always" | "manual";
  /** Notices (client connected, refused, gone). */
  log?: (line: string) => void;
  /**
   * A secret the client must send as its first line before the console takes anything (null: no token,
   * for the espruino CLI, which cannot send one). Either way, a client whose first line looks like HTTP
   * (a web page's fetch to this port) is cut off before a byte of it runs.
   */
  token?: string | null;
}

/** The first line of an HTTP request, or a header line: what a browser sends to any port a page names. */
const HTTP_LOOKING = /^[A-Z]{3,12} +(?:\/|\*|[a-z]+:\/\/)|^[A-Za-z][A-Za-z0-9-]*: |HTTP\/\d/;
/** The most a client may send before its first line ends (the token line). */
const FIRST_LINE_MAX = 256;

/** Is this the first line of an HTTP request (or a header)? Such input is never run. */
export function looksLikeHttp(line: string): boolean {
  return HTTP_LOOKING.test(line.replace(/^\x10/, ""));
}

/** Equal strings, compared in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "latin1");
  const y = Buffer.from(b, "latin1");
  return x.length === y.length && timingSafeEqual(x, y);
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::ffff:127.0.0.1" || address === "::1";
}

export interface ConsoleServer {
  port: number;
  /** The REPL behind the port. */
  console: EspruinoConsole;
  close(): Promise<void>;
}

/** Offers the board's console on 127.0.0.1:port, one client at a time. */
export function startConsoleServer(board: VirtualBoard, opts: ConsoleServerOptions = {}): Promise<ConsoleServer> {
  const host = opts.host ?? CONSOLE_HOST;
  if (host !== CONSOLE_HOST) return Promise.reject(new Error(`the console listens on ${CONSOLE_HOST} only, not ${String(host)}`));
  const clockMode = opts.clock ?? "connected";
  const log = opts.log ?? (() => {});
  const repl = new EspruinoConsole(board);
  let client: Socket | null = null;
  let lastReal = performance.now();

  const tick = () => {
    const t = performance.now();
    const dt = Math.min(t - lastReal, MAX_STEP_MS);
    lastReal = t;
    const running = clockMode === "always" || (clockMode === "connected" && client !== null);
    try {
      if (running && dt > 0) board.advance(dt);
      repl.idle();
    } catch (e) {
      log(`console: ${(e as Error).message}`);
    }
  };
  const timer = clockMode === "manual" ? null : setInterval(tick, CONSOLE_TICK_MS);

  const token = opts.token ?? null;
  const server: Server = createServer((socket) => {
    const who = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.on("error", () => {});
    if (!isLoopback(socket.remoteAddress)) {
      log(`console: refused ${who}: not a loopback client`);
      socket.destroy();
      return;
    }
    if (client) {
      log(`console: refused ${who}: another client is connected`);
      socket.end("Console busy: another client is connected\r\n");
      return;
    }
    client = socket;
    socket.setNoDelay(true);
    // Nothing reaches the REPL until the first line has shown this is not a web page (and has the token).
    let first: string | null = "";
    const admit = () => {
      log(`console: ${who} connected`);
      lastReal = performance.now();
      repl.attach((text) => {
        if (!socket.destroyed) socket.write(Buffer.from(text, "latin1"));
      });
      if (!board.isOn) board.powerOn(); // the USB cable powers the board
      repl.idle();
    };
    const refuse = (why: string, tell: string) => {
      log(`console: refused ${who}: ${why}`);
      first = null;
      socket.end(tell);
      socket.destroy();
    };
    // Without a token the client is admitted at once (the espruino CLI waits for nothing), but its input
    // is held until its first line has shown it is not HTTP.
    let checked = false;
    let pending = "";
    if (token === null) {
      first = null;
      admit();
    }
    socket.on("data", (d: Buffer) => {
      let text = d.toString("latin1");
      if (first !== null) {
        first += text;
        const end = first.search(/[\r\n]/);
        if (end < 0) {
          if (first.length > FIRST_LINE_MAX) refuse("no token line", "Console: a token line first\r\n");
          else if (looksLikeHttp(first)) refuse("it speaks HTTP (a web page?)", "");
          return;
        }
        const line = first.slice(0, end).replace(/^\x10/, "");
        text = first.slice(end).replace(/^\r?\n?/, "");
        if (looksLikeHttp(line)) return refuse("it speaks HTTP (a web page?)", "");
        if (!sameSecret(line, token!)) return refuse("wrong token", "Console: wrong token\r\n");
        first = null;
        checked = true;
        admit();
        if (!text) return;
      } else if (!checked) {
        pending += text;
        const end = pending.search(/[\r\n]/);
        if (looksLikeHttp(end < 0 ? pending : pending.slice(0, end))) return refuse("it speaks HTTP (a web page?)", "");
        if (end < 0 && pending.length <= FIRST_LINE_MAX) return;
        checked = true;
        text = pending;
        pending = "";
      }
      try {
        repl.input(text);
      } catch (e) {
        log(`console: ${(e as Error).message}`);
      }
    });
    socket.on("close", () => {
      if (client === socket) {
        client = null;
        repl.detach();
        log(`console: ${who} disconnected`);
      }
    });
  });

  return new Promise((resolveStart, rejectStart) => {
    server.once("error", (e) => {
      if (timer) clearInterval(timer);
      repl.dispose();
      rejectStart(e);
    });
    server.listen(opts.port ?? 0, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolveStart({
        port,
        console: repl,
        close: () =>
          new Promise<void>((done) => {
            if (timer) clearInterval(timer);
            client?.destroy();
            repl.dispose();
            server.close(() => done());
          }),
      });
    });
  });
}

// ---------------------------------------------------------------- npm run sim:console

const USAGE = "usage: npm run sim:console -- [--port N] [--profile NAME|PATH] [--storage FILE] [--empty] [--bundle FILE] [--no-token]";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", short: "p" },
        profile: { type: "string" },
        storage: { type: "string" },
        empty: { type: "boolean" },
        bundle: { type: "string" },
        "no-token": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    console.error(`sim:console: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(
      [
        USAGE,
        "  Runs a virtual board with its Espruino console on tcp://127.0.0.1:PORT (default 4001), for the espruino CLI.",
        "  --profile  the unit to simulate (default r1-pico)",
        "  --storage  keep the board's Storage in this JSON file (what the CLI flashes survives restarts)",
        "  --empty    start with no .bootcde (a fresh board: flash it with the CLI)",
        "  --bundle   start with this bundle as .bootcde (default dist/firmware.js, built if missing)",
        "  --no-token admit a loopback client without the per-run token (the espruino CLI and npm run flash cannot send one);",
        "             a client that speaks HTTP (a web page) is still cut off before anything it sent runs",
      ].join("\n"),
    );
    return 0;
  }
  const port = values.port === undefined ? DEFAULT_CONSOLE_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`sim:console: --port must be a TCP port number, not ${values.port}\n${USAGE}`);
    return 2;
  }
  const profile = loadProfile(values.profile ?? DEFAULT_PROFILE);
  const info = BOARDS[profile.board];
  const show = (p: string) => relative(process.cwd(), p) || p;

  // What .bootcde holds at start: the Storage file's own, none (--empty), or the bundle.
  let firmware: string | undefined;
  let from: string;
  const kept =
    values.storage && existsSync(values.storage)
      ? new VirtualStorage({
          capacity: info.storageBytes,
          file: resolve(values.storage),
          warn: (w) => console.warn(`warning: ${w}`),
        }).readString(BOOT_FILE)
      : undefined;
  if (values.empty) {
    firmware = "";
    from = "empty Storage";
  } else if (kept !== undefined) {
    firmware = kept;
    from = `${BOOT_FILE} from ${show(values.storage!)}`;
  } else if (values.bundle) {
    firmware = readFileSync(values.bundle, "latin1");
    from = show(resolve(values.bundle));
  } else {
    const marker = `id:"${profile.id}"`;
    if (existsSync(DEFAULT_FIRMWARE) && readFileSync(DEFAULT_FIRMWARE, "latin1").includes(marker)) {
      firmware = readFileSync(DEFAULT_FIRMWARE, "latin1");
      from = show(DEFAULT_FIRMWARE);
    } else {
      const { buildFirmware } = await import("../../firmware/tools/build.ts");
      if (profile.id === DEFAULT_PROFILE) {
        firmware = (await buildFirmware({ profile: profile.id })).code;
        from = `${show(DEFAULT_FIRMWARE)} (built now)`;
      } else {
        const dir = mkdtempSync(join(tmpdir(), "brainboard-console-"));
        try {
          firmware = (await buildFirmware({ profile: profile.id, out: join(dir, "firmware.js") })).code;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        from = `a bundle built now for ${profile.id}`;
      }
    }
  }

  // A per-run token: another program on this machine (or a page that found a way to send raw TCP) cannot guess it.
  const token = values["no-token"] ? null : randomBytes(16).toString("hex");
  const board = new VirtualBoard({ profile: profile.id, firmware, storageFile: values.storage && resolve(values.storage) });
  if (values.empty) board.storage.erase(BOOT_FILE);
  let server: ConsoleServer;
  try {
    server = await startConsoleServer(board, { port, clock: "always", log: (l) => console.log(l), token });
  } catch (e) {
    const code = (e as { code?: string }).code;
    console.error(
      code === "EADDRINUSE"
        ? `sim:console: port ${port} on ${CONSOLE_HOST} is in use (another sim:console?); pick another with --port N, or --port 0 for any free one`
        : `sim:console: cannot listen on ${CONSOLE_HOST}:${port}: ${(e as Error).message}`,
    );
    return 2;
  }
  board.on("reset", () => console.log(`board: reset (${board.resets[board.resets.length - 1]?.reason ?? "?"})`));
  board.powerOn();

  const url = `tcp://${CONSOLE_HOST}:${server.port}`;
  const boardFile = info.cliBoardFile ? `hardware/${info.cliBoardFile}` : undefined;
  console.log(`sim:console: ${profile.id} (${info.name}) running ${from}; console on ${url}`);
  if (token) {
    console.log(`token: ${token}`);
    console.log("  a client's first line must be this token (e.g. nc 127.0.0.1 PORT, then paste it); to flash with the");
    console.log("  espruino CLI, which cannot send it, restart with --no-token");
  }
  console.log("flash it with the espruino CLI:");
  if (profile.id !== DEFAULT_PROFILE) console.log(`  npm run build -- --profile ${profile.id}   # dist/firmware.js for this unit first`);
  console.log(`  npx espruino --no-ble -p ${url}${boardFile ? ` --board ${boardFile}` : ""} dist/firmware.js --storage ${BOOT_FILE}:-`);
  console.log(`  npm run flash -- --port ${url}${profile.id === DEFAULT_PROFILE ? "" : ` --profile ${profile.id}`}`);
  console.log(`a terminal: npx espruino --no-ble -p ${url}   (Ctrl-C twice to leave)`);
  console.log("Ctrl-C here stops the board.");

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
