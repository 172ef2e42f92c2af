/**
 * The virtual board's console, speaking enough of the Espruino REPL (2v29, `src/jsinteractive.c`) that the
 * unmodified `espruino` CLI can upload to it (server.ts offers it on a TCP port).
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
 * Console-only built-ins: `reset()` and `echo()` are Espruino built-ins the firmware runtime does not provide;
 * this console adds them (not enumerable) to the firmware's global object before it evaluates a line.
 */
import * as acorn from "acorn";
import { BOOT_FILE, type VirtualBoard } from "../board/board.ts";
import { describeThrown, ESPRUINO_VERSION } from "../runtime/runtime.ts";
import { formatResult, type RealmView } from "./format.ts";

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
