/**
 * The simulator's command language: what the page sends, what `npm run sim -- --script FILE` runs
 * and what tests replay. One command a line; blank lines and `# comments` are ignored.
 *
 *   press KEY...              close a key's contact (and hold it)
 *   release KEY...            open it again
 *   tap KEY... [hold MS]      press, hold (default 60 ms), release, wait 60 ms; key after key
 *   wait DURATION             run the board for 200 (ms), 200ms, 1.5s or 2s of virtual time
 *   power on|off|cycle        switch the unit (on does not wait for the boot: add a wait)
 *   battery VOLTS [usb]       battery voltage; `usb` for USB power connected, else on battery
 *   show                      print the board now
 *   expect SEGMENT COLOUR...            pixels from the first one on
 *   expect SEGMENT[INDEX] COLOUR...     pixels from INDEX (0-based, as in --json) on
 *   expect SEGMENT row N COLOUR...      row N of a segment with rows (1-based; board row 1 is
 *                                       nearest the codebreaker, pad row 1 is p11..p16)
 *
 * Caps, so that no script (and no request to the server) can run for ever: one `wait` or tap hold at most
 * MAX_WAIT_MS, a script's virtual time at most MAX_SCRIPT_VIRTUAL_MS (a server request: MAX_COMMAND_VIRTUAL_MS),
 * a line at most MAX_LINE_CHARS; a run stops with a CapExceeded error once it has used its CPU time
 * (SCRIPT_CPU_MS; the server's requests less). Each error names the cap.
 *
 * KEY is a key id (p11..p66, m11..m34 on R1) or an alias from hardware/key-names.ts (ok, red, slot1,
 * maker.ok...). COLOUR is a palette name (off, red, green, blue, yellow, white, orange, pink,
 * violet or black, hole, cyan), `*` for any, or alternatives like `hole/off` (for a blinking hole).
 */
import type { Profile, SegmentName } from "../../hardware/profile.ts";
import { unitProfile, UnitProfile } from "../../hardware/unit-profile.ts";
import { COLOUR_NAMES } from "../../firmware/ui/palette.ts";
import { VirtualBoard, type BoardOptions } from "../board/board.ts";
import { aliasSummary, keyRanges, resolveKey } from "../../hardware/key-names.ts";

export interface KeyRef {
  /** The key id on the profile. */
  id: string;
  /** As written in the script. */
  name: string;
}

export type Command = { line: number } & (
  | { op: "press"; keys: KeyRef[] }
  | { op: "release"; keys: KeyRef[] }
  | { op: "tap"; keys: KeyRef[]; holdMs: number }
  | { op: "wait"; ms: number }
  | { op: "power"; action: "on" | "off" | "cycle" }
  | { op: "battery"; volts: number; usb: boolean }
  | { op: "show" }
  | {
      op: "expect";
      segment: SegmentName;
      /** First pixel checked (0-based index into the segment). */
      start: number;
      /** Per pixel, the palette names accepted ("*" = any). */
      colours: string[][];
      /** How the script named the place, for messages: "board row 1", "pad[35]", "secret". */
      where: string;
    }
);

export const COMMANDS = ["press", "release", "tap", "wait", "power", "battery", "show", "expect"];
/** The longest `wait` or tap hold: one hour of virtual time. */
export const MAX_WAIT_MS = 3_600_000;
/** The most virtual time a script runs in all (its waits and taps): a day. */
export const MAX_SCRIPT_VIRTUAL_MS = 24 * 3_600_000;
/** The most virtual time one request to the server runs: an hour. */
export const MAX_COMMAND_VIRTUAL_MS = 3_600_000;
/** The longest script line. */
export const MAX_LINE_CHARS = 1000;
/** Wall-clock time a script file may take running (npm run sim -- --script). */
export const SCRIPT_CPU_MS = 120_000;
/** Virtual time run at once inside a long wait, between checks of the CPU cap. */
const SLICE_MS = 10_000;
/** How long `tap` holds a key, and waits after releasing it, unless told (ms). */
export const TAP_HOLD_MS = 60;
export const TAP_GAP_MS = 60;
/** Colour words besides the palette's names. */
const COLOUR_ALIASES: Record<string, string> = { black: "violet", any: "*", "*": "*" };

export interface ScriptProblem {
  line: number;
  message: string;
}

/** A script that cannot run: every bad line, each as "line N: problem". Nothing has run. */
export class ScriptError extends Error {
  readonly line: number;
  constructor(readonly problems: ScriptProblem[]) {
    super(problems.map((p) => `line ${p.line}: ${p.message}`).join("\n"));
    this.name = "ScriptError";
    this.line = problems[0]?.line ?? 0;
  }
}

/** An `expect` that did not hold: the line, what was expected and what the LEDs showed. */
export class ExpectFailure extends Error {
  constructor(
    readonly line: number,
    readonly expected: string[],
    readonly seen: string[],
    message: string,
  ) {
    super(message);
    this.name = "ExpectFailure";
  }
}

/** A run that used up its CPU time: the commands before `line` ran, the rest did not. */
export class CapExceeded extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "CapExceeded";
  }
}

function formatMs(ms: number): string {
  if (ms >= 3_600_000) return `${+(ms / 3_600_000).toFixed(2)} h`;
  if (ms >= 1000) return `${+(ms / 1000).toFixed(2)} s`;
  return `${ms} ms`;
}

/** The virtual time commands take: their waits, and each tap's hold and gap. */
export function virtualTime(commands: Command[]): number {
  let t = 0;
  for (const c of commands) {
    if (c.op === "wait") t += c.ms;
    else if (c.op === "tap") t += c.keys.length * (c.holdMs + TAP_GAP_MS);
  }
  return t;
}

/** What a run of commands may use: virtual time (checked before anything runs) and CPU time (checked as it runs). */
export class CommandBudget {
  private readonly started = performance.now();
  constructor(
    readonly cpuMs: number,
    readonly virtualMs: number,
    /** How the time the commands take is named in messages ("real time" on the real interpreter). */
    readonly clock = "virtual time",
    /** How the time cap checked as they run is named ("time" on the real interpreter, where it is wall-clock time). */
    readonly spent = "CPU time",
  ) {}

  /** Refuses, before anything runs, commands that would run longer than the virtual-time cap. */
  check(commands: Command[]): void {
    const total = virtualTime(commands);
    if (total > this.virtualMs)
      throw new ScriptError([
        {
          line: commands[commands.length - 1]?.line ?? 1,
          message: `these commands run ${formatMs(total)} of ${this.clock}; the cap is ${formatMs(this.virtualMs)} at a time`,
        },
      ]);
  }

  private over(line: number): void {
    if (performance.now() - this.started > this.cpuMs)
      throw new CapExceeded(
        line,
        `line ${line}: stopped: the commands used up their ${this.spent} cap of ${formatMs(this.cpuMs)} (what came before ran)`,
      );
  }

  beforeCommand(cmd: Command): void {
    this.over(cmd.line);
  }

  /** Runs `ms` of virtual time in slices, checking the CPU cap between them. */
  slices(ms: number, run: (ms: number) => void, line = 0): void {
    let left = ms;
    while (left > 0) {
      const step = Math.min(left, SLICE_MS);
      run(step);
      left -= step;
      if (left > 0) this.over(line);
    }
  }
}

/** "200", "200ms", "1.5s" -> ms; undefined if it is not a duration. */
export function parseDuration(text: string | undefined): number | undefined {
  const m = text === undefined ? null : /^(\d+(?:\.\d*)?|\.\d+)(ms|s)?$/i.exec(text);
  if (!m) return undefined;
  const v = Number(m[1]) * (m[2]?.toLowerCase() === "s" ? 1000 : 1);
  return Number.isFinite(v) ? v : undefined;
}

let defaultProfile: UnitProfile | undefined;

/** Parses a script for a profile (default r1-pico; a compiled one is used as it is); throws a ScriptError naming every bad line. */
export function parseScript(text: string, profile?: Profile | string | UnitProfile): Command[] {
  const p = profile instanceof UnitProfile ? profile : profile ? unitProfile(profile) : (defaultProfile ??= unitProfile());
  const commands: Command[] = [];
  const problems: ScriptProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.length > MAX_LINE_CHARS) {
      problems.push({ line, message: `longer than the cap of ${MAX_LINE_CHARS} characters a line` });
      return;
    }
    const hash = raw.indexOf("#");
    const words = (hash >= 0 ? raw.slice(0, hash) : raw).trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    try {
      commands.push(parseLine(p, words, line));
    } catch (e) {
      if (!(e instanceof LineProblem)) throw e;
      problems.push({ line, message: e.message });
    }
  });
  const total = virtualTime(commands);
  if (!problems.length && total > MAX_SCRIPT_VIRTUAL_MS)
    problems.push({
      line: commands[commands.length - 1].line,
      message: `the script runs ${formatMs(total)} of virtual time; the cap is ${formatMs(MAX_SCRIPT_VIRTUAL_MS)} a script`,
    });
  // A script full of mistakes is not answered with all of them.
  if (problems.length) throw new ScriptError(problems.slice(0, 20));
  return commands;
}

class LineProblem extends Error {}

function parseLine(unit: UnitProfile, words: string[], line: number): Command {
  const p = unit.profile;
  const [word, ...args] = words;
  const op = word.toLowerCase();
  const fail = (message: string): never => {
    throw new LineProblem(message);
  };
  const keys = (names: string[], usage: string): KeyRef[] => {
    if (names.length === 0) fail(`${op} needs a key, like ${usage}`);
    return names.map((name) => {
      const id = resolveKey(p, name, unit.keys);
      if (!id) fail(`unknown key "${name}" (keys: ${keyRanges(p, unit.keys)}; aliases: ${aliasSummary(p)})`);
      return { id: id as string, name };
    });
  };
  switch (op) {
    case "press":
    case "release":
      return { line, op, keys: keys(args, `${op} ok`) };
    case "tap": {
      let holdMs = TAP_HOLD_MS;
      let names = args;
      const h = args.findIndex((a) => a.toLowerCase() === "hold");
      if (h >= 0) {
        const ms = parseDuration(args[h + 1]);
        if (ms === undefined || h + 2 !== args.length) fail("tap ... hold needs one duration at the end, like tap ok hold 500 or hold 2s");
        if ((ms as number) > MAX_WAIT_MS) fail(`tap ... hold ${args[h + 1]} is longer than the cap of ${formatMs(MAX_WAIT_MS)}`);
        holdMs = ms as number;
        names = args.slice(0, h);
      }
      return { line, op, keys: keys(names, "tap red green ok"), holdMs };
    }
    case "wait": {
      const ms = parseDuration(args[0]);
      if (ms === undefined || args.length !== 1) fail("wait needs a duration like 200 or 1.5s");
      if ((ms as number) > MAX_WAIT_MS)
        fail(
          `wait ${args[0].length > 24 ? args[0].slice(0, 24) + "..." : args[0]} is longer than the cap of ${formatMs(MAX_WAIT_MS)} a wait`,
        );
      return { line, op, ms: ms as number };
    }
    case "power": {
      const action = args[0]?.toLowerCase();
      if (args.length !== 1 || (action !== "on" && action !== "off" && action !== "cycle")) fail("power needs on, off or cycle");
      return { line, op, action: action as "on" | "off" | "cycle" };
    }
    case "battery": {
      const volts = Number(args[0]);
      const usb = args[1]?.toLowerCase() === "usb";
      if (args.length < 1 || args.length > 2 || !/^\d+(\.\d+)?$/.test(args[0]) || !(volts <= 10) || (args.length === 2 && !usb))
        fail("battery needs a voltage like 3.7, and optionally usb (battery 4.1 usb)");
      if (!p.battery) fail(`battery: the ${p.id} build has no battery (its profile says battery kind "none"): it runs from USB only`);
      return { line, op, volts, usb };
    }
    case "show":
      if (args.length) fail("show takes nothing after it");
      return { line, op };
    case "expect":
      return { line, op, ...parseExpect(p, args, fail) };
    default:
      return fail(`unknown command "${word}" (commands: ${COMMANDS.join(", ")})`);
  }
}

function parseExpect(
  p: Profile,
  args: string[],
  fail: (m: string) => never,
): { segment: SegmentName; start: number; colours: string[][]; where: string } {
  const usage = "expect needs a place and colours, like expect board row 1 red green blue yellow, or expect pad[35] green";
  if (args.length === 0) fail(usage);
  const m = /^([a-z]+)(?:\[(\d+)\])?$/i.exec(args[0]);
  if (!m) fail(usage);
  const segName = m![1].toLowerCase();
  const seg = p.leds.segments.find((s) => s.name === segName);
  if (!seg) fail(`unknown segment "${m![1]}" (segments of ${p.id}: ${p.leds.segments.map((s) => s.name).join(", ")})`);
  const s = seg!;
  let start = 0;
  let room = s.count;
  let rest = args.slice(1);
  let where: string = s.name;
  if (m![2] !== undefined) {
    start = Number(m![2]);
    if (start >= s.count) fail(`${s.name}[${start}] is past the end: the ${s.name} segment has ${s.count} pixels (0..${s.count - 1})`);
    room = s.count - start;
    where = `${s.name}[${start}]`;
  } else if (rest[0]?.toLowerCase() === "row") {
    if (!s.rows || !s.cols) fail(`the ${s.name} segment has no rows; use ${s.name}[INDEX]`);
    const n = Number(rest[1]);
    if (!/^\d+$/.test(rest[1] ?? "") || n < 1 || n > s.rows!) fail(`row needs a number from 1 to ${s.rows} (the ${s.name} segment's rows)`);
    start = (n - 1) * s.cols!;
    room = s.cols!;
    where = `${s.name} row ${n}`;
    rest = rest.slice(2);
  }
  if (rest.length === 0) fail(`expect ${where} needs colours (${colourWords()})`);
  if (rest.length > room) fail(`${rest.length} colours do not fit ${where}: it has ${room} pixels from there`);
  const colours = rest.map((word) =>
    word.split("/").map((alt) => {
      const c = alt.toLowerCase();
      const name = COLOUR_ALIASES[c] ?? (COLOUR_NAMES.includes(c) ? c : undefined);
      if (!name) fail(`unknown colour "${alt}" (${colourWords()})`);
      return name as string;
    }),
  );
  return { segment: s.name, start, colours, where };
}

function colourWords(): string {
  return `colours: ${COLOUR_NAMES.join(", ")}, black (= violet), * for any, a/b for either`;
}

/**
 * Runs commands on a board, in order. `show` calls onShow (the command line prints the board); a
 * failed `expect` throws an ExpectFailure and nothing after it runs.
 */
export function runCommands(
  board: VirtualBoard,
  commands: Command[],
  onShow?: (cmd: Command) => void,
  budget: CommandBudget = new CommandBudget(SCRIPT_CPU_MS, MAX_SCRIPT_VIRTUAL_MS),
): void {
  budget.check(commands);
  for (const cmd of commands) {
    budget.beforeCommand(cmd);
    runCommand(board, cmd, onShow, budget);
  }
}

export function runCommand(board: ScriptBoard, cmd: Command, onShow?: (cmd: Command) => void, budget?: CommandBudget): void {
  switch (cmd.op) {
    case "press":
      for (const k of cmd.keys) board.press(k.id);
      break;
    case "release":
      for (const k of cmd.keys) board.release(k.id);
      break;
    case "tap":
      for (const k of cmd.keys) board.tap(k.id, cmd.holdMs, TAP_GAP_MS);
      break;
    case "wait":
      if (budget) budget.slices(cmd.ms, (ms) => board.advance(ms), cmd.line);
      else board.advance(cmd.ms);
      break;
    case "power":
      if (cmd.action === "on") board.powerOn();
      else if (cmd.action === "off") board.powerOff();
      else board.powerCycle();
      break;
    case "battery":
      board.setBattery(cmd.volts, cmd.usb);
      break;
    case "show":
      onShow?.(cmd);
      break;
    case "expect":
      checkExpect(board, cmd);
      break;
  }
}

/** What a script needs of a board: either engine's (sim/board/board.ts in virtual time, sim/espruino/engine.ts in real time). */
export interface ScriptBoard {
  readonly now: number;
  colours(segment: SegmentName): string[];
  press(key: string): void;
  release(key: string): void;
  tap(key: string, holdMs?: number, gapMs?: number): void | Promise<void>;
  advance(ms: number): void | Promise<void>;
  powerOn(): void | Promise<void>;
  powerOff(): void | Promise<void>;
  powerCycle(): void | Promise<void>;
  setBattery(volts: number, usb?: boolean): void;
}

/** Throws an ExpectFailure when the LEDs do not show what `cmd` expects. */
export function checkExpect(board: Pick<ScriptBoard, "colours" | "now">, cmd: Extract<Command, { op: "expect" }>): void {
  const seen = board.colours(cmd.segment).slice(cmd.start, cmd.start + cmd.colours.length);
  const bad = cmd.colours.map((alts, i) => !alts.includes("*") && !alts.includes(seen[i])).map((b, i) => (b ? i : -1));
  const wrong = bad.filter((i) => i >= 0);
  if (wrong.length) {
    const expected = cmd.colours.map((alts) => alts.join("/"));
    const at = wrong.map((i) => `${cmd.segment}[${cmd.start + i}] is ${seen[i]}, not ${expected[i]}`).join("; ");
    throw new ExpectFailure(
      cmd.line,
      expected,
      seen,
      `line ${cmd.line}: expected ${cmd.where} to be ${expected.join(" ")}, saw ${seen.join(" ")} (${at}; at ${(board.now / 1000).toFixed(3)} s)`,
    );
  }
}

/**
 * Runs commands on either engine, awaiting each step (on the real interpreter, time is real). `onStep`
 * sees every command after it ran (the engine comparison records the LEDs at each expect and show).
 */
export async function runCommandsAsync(
  board: ScriptBoard,
  commands: Command[],
  onShow?: (cmd: Command) => void,
  onStep?: (cmd: Command) => void,
): Promise<void> {
  // The same caps as in the simulator (a wait too long for a script is refused before anything runs).
  new CommandBudget(SCRIPT_CPU_MS, MAX_SCRIPT_VIRTUAL_MS).check(commands);
  for (const cmd of commands) {
    if (cmd.op === "tap") for (const k of cmd.keys) await board.tap(k.id, cmd.holdMs, TAP_GAP_MS);
    else if (cmd.op === "wait") await board.advance(cmd.ms);
    else if (cmd.op === "power")
      await (cmd.action === "on" ? board.powerOn() : cmd.action === "off" ? board.powerOff() : board.powerCycle());
    else runCommand(board, cmd, onShow);
    onStep?.(cmd);
  }
}

/** A command as script text (the page logs what it sends in this form). */
export function formatCommand(cmd: Command): string {
  switch (cmd.op) {
    case "press":
    case "release":
      return `${cmd.op} ${cmd.keys.map((k) => k.name).join(" ")}`;
    case "tap":
      return `tap ${cmd.keys.map((k) => k.name).join(" ")}${cmd.holdMs !== TAP_HOLD_MS ? ` hold ${cmd.holdMs}` : ""}`;
    case "wait":
      return `wait ${cmd.ms}`;
    case "power":
      return `power ${cmd.action}`;
    case "battery":
      return `battery ${cmd.volts}${cmd.usb ? " usb" : ""}`;
    case "show":
      return "show";
    case "expect":
      return `expect ${cmd.where} ${cmd.colours.map((a) => a.join("/")).join(" ")}`;
  }
}

/** How long a script's board runs after power-on before the first command (the boot and first frame). */
export const SCRIPT_BOOT_MS = 200;

/** A board as scripts start with it: flashed, powered on, booted (SCRIPT_BOOT_MS of virtual time). */
export function bootBoard(opts: BoardOptions = {}): VirtualBoard {
  const board = new VirtualBoard(opts);
  board.powerOn();
  board.advance(SCRIPT_BOOT_MS);
  return board;
}
