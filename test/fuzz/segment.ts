/**
 * One segment of the fuzz (see fuzzer.ts): a board, its seeded events, and the invariants checked after each.
 */
import { VirtualBoard } from "../../sim/board/board.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { segmentOffsets, type Profile } from "../../hardware/profile.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import type { Code, MatchState } from "../../firmware/core/types.ts";
import { forEachCode } from "../../firmware/core/codes.ts";
import { codeSpaceSize } from "../../firmware/core/presets.ts";
import { readSavedState, SaveLog, slotCopies, type SlotCopy } from "../saves/saved-state.ts";
import { boardFrame, expectedBootFrame, frameDiff, frameNames, ledName, restoredApp } from "../saves/frame.ts";
import {
  consistentWith,
  firmwareFailures,
  gameEnded,
  playLedProblems,
  rulesOfMatch,
  stateProblems,
  unitRoleOf,
} from "../saves/invariants.ts";
import { gridKey, Player, randomGoal, type Goal } from "../saves/player.ts";
import { FLIP_ASK, FLIP_OVER } from "../../firmware/core/brainflip.ts";
import { ROLE_MAKER } from "../../firmware/core/types.ts";
import { add, FuzzViolation, segmentSeed, type FuzzOptions, type FuzzStats } from "./stats.ts";

/** What the secret check needs to know about a state: is the unit the codemaker of a game still running? */
function unitMakerGame(s: SavedState | null): string | null {
  const m = s && s.screen === "play" ? s.match : null;
  if (!m || gameEnded(m) || unitRoleOf(m) !== ROLE_MAKER) return null;
  return `${m.history.length}/${m.maker}`;
}

function describeReached(s: SavedState): string | null {
  if (s.screen === "play" && s.match) {
    const c = s.match.config;
    return `${c.preset}${c.harder ? "+harder" : ""}/${c.mode}`;
  }
  if (s.screen === "flip" && s.flip) {
    const c = s.flip.config;
    return `brainflip/${c.mode}${c.unitFlips ? "+unit-flips" : ""}/${c.players}p/${c.grid}x${c.grid}`;
  }
  return null;
}

/** Looks through the console's global object for an array equal to `secret`, to depth 3. */
function findInGlobals(global: object, secret: Code): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const equal = (v: unknown) => Array.isArray(v) && v.length === secret.length && v.every((x, i) => x === secret[i]);
  const visit = (v: unknown, path: string, depth: number) => {
    if (found.length > 3 || v === null || (typeof v !== "object" && typeof v !== "function") || seen.has(v)) return;
    seen.add(v);
    if (equal(v)) {
      found.push(path);
      return;
    }
    if (depth >= 3) return;
    let names: string[];
    try {
      names = Object.getOwnPropertyNames(v);
    } catch {
      return;
    }
    for (const n of names) {
      let child: unknown;
      try {
        const d = Object.getOwnPropertyDescriptor(v, n);
        if (!d || !("value" in d)) continue;
        child = d.value;
      } catch {
        continue;
      }
      visit(child, `${path}.${n}`, depth + 1);
    }
  };
  for (const n of Object.getOwnPropertyNames(global)) {
    try {
      const d = Object.getOwnPropertyDescriptor(global, n);
      if (d && "value" in d) visit(d.value, n, 1);
    } catch {
      // a getter of the realm: not a value the firmware stored
    }
  }
  return found;
}

const MAKER_KEYS = (p: Profile) => p.keys.matrices.filter((m) => m.name !== "pad").flatMap((m) => m.keys.flat().filter((k) => k));

/** One board's share of a run. */
export class Segment {
  readonly rng: Prng;
  readonly board: VirtualBoard;
  readonly log: SaveLog;
  readonly player: Player;
  private goal: Goal;
  private goalLeft = 0;
  private plan: string[] = [];
  private held = new Set<string>();
  /** OK held at power-on (the self-test): nothing is saved until the next power cycle. */
  private selfTest = false;
  private lastText = "";
  private state: SavedState | null = null;
  private pendingLit: { before: string | null; at: number; saves: number }[] = [];
  private recent: string[] = [];
  private index = 0;
  private consoleSeen = 0;
  private altCache = new Map<string, Code | null>();
  private readonly allKeys: string[];
  private readonly makerKeys: string[];
  private readonly secretSeg: { start: number; count: number };
  private readonly shielded: boolean;

  constructor(
    readonly opts: FuzzOptions,
    readonly segment: number,
    readonly firstIndex: number,
    readonly stats: FuzzStats,
  ) {
    const seed = segmentSeed(opts.seed, segment);
    this.rng = new Prng(seed);
    const bounce = [5, 5, 5, 3, 0][this.rng.int(0, 4)];
    this.board = new VirtualBoard({
      firmware: opts.firmware,
      profile: opts.profile,
      seed,
      bounceMs: bounce,
      callbackTimeoutMs: opts.fast ? 0 : undefined,
    });
    this.log = new SaveLog(this.board);
    this.player = new Player(opts.profile, this.rng, 0.12);
    this.goal = randomGoal(this.rng);
    this.allKeys = this.board.keys.map((k) => k.id);
    this.makerKeys = MAKER_KEYS(opts.profile);
    this.secretSeg = segmentOffsets(opts.profile).secret;
    this.shielded = opts.profile.leds.segments.some((s) => s.name === "secret" && s.shielded === true);
    this.board.on("leds", () => this.onFrame());
    stats.boards++;
    this.board.powerOn();
    this.board.advance(200);
    this.refresh();
  }

  // ------------------------------------------------------------ reporting

  private fail(invariant: string, details: string[]): never {
    const o = this.opts;
    const global = this.firstIndex + this.index;
    const hint =
      `npm run fuzz -- --seed ${o.seed} --events ${o.events}` +
      (o.boardEvents ? ` --board-events ${o.boardEvents}` : "") +
      ` --segment ${this.segment} --trace-from ${Math.max(this.firstIndex, global - 30)}`;
    throw new FuzzViolation(o.seed, this.segment, global, invariant, details, this.recent.slice(-25), hint);
  }

  private note(kind: string, what: string): void {
    add(this.stats.byKind, kind);
    const line = `#${this.firstIndex + this.index} t=${this.board.now.toFixed(0)} ${what}`;
    this.recent.push(line);
    if (this.recent.length > 60) this.recent.splice(0, 20);
    if (this.opts.traceFrom !== undefined && this.firstIndex + this.index >= this.opts.traceFrom) this.opts.log?.(line);
  }

  // ------------------------------------------------------------ state

  /** Takes in the last committed save; checks (b), (c) and the secret's pixels when it changed. */
  private refresh(): void {
    const c: SlotCopy | null = this.log.committed;
    const text = c ? c.text : "";
    if (text === this.lastText) return;
    const before = this.state;
    this.lastText = text;
    this.state = c ? c.state : null;
    const s = this.state;
    if (!s) return;
    const problems = stateProblems(s);
    this.stats.invariantChecks += 2;
    if (problems.length) this.fail("(b)/(c) the saved state's invariants", problems);
    const reached = describeReached(s);
    if (reached) add(this.stats.reached, reached);
    this.countEnds(before, s);
    this.differential();
  }

  private countEnds(a: SavedState | null, b: SavedState): void {
    const m0 = a?.match;
    const m1 = b.match;
    if (m1 && (!m0 || m1.history.length > m0.history.length) && m1.history.length > 0) {
      const h = m1.history[m1.history.length - 1];
      this.stats.gamesFinished++;
      add(this.stats.gamesByEnd, h.replayed ? "wrong information" : h.solved ? "solved" : "unsolved");
    }
    if (m1 && m1.over && !(m0 && m0.over)) this.stats.matchesFinished++;
    const f0 = a?.flip;
    const f1 = b.flip;
    if (f1 && f1.round.phase === FLIP_OVER && !(f0 && f0.round.phase === FLIP_OVER && f0.rounds === f1.rounds))
      this.stats.flipRoundsFinished++;
    if (f1 && f1.over && !(f0 && f0.over)) this.stats.flipGamesFinished++;
  }

  /** A valid secret other than `secret`, consistent with every row, from a random place in the enumeration. */
  private alternative(m: MatchState): Code | null {
    const secret = m.game.secret as Code;
    const key = `${m.config.preset}${m.config.harder}|${secret.join()}|${JSON.stringify(m.game.rows)}`;
    if (this.altCache.has(key)) return this.altCache.get(key)!;
    const rules = rulesOfMatch(m);
    const start = this.rng.int(0, codeSpaceSize(rules, true) - 1);
    let first: Code | null = null;
    let found: Code | null = null;
    let i = 0;
    forEachCode(rules, true, (code) => {
      const at = i++;
      if (code.join() === secret.join() || !consistentWith(code, m.game.rows)) return false;
      if (at >= start) {
        found = code.slice();
        return true;
      }
      first ??= code.slice();
      return false;
    });
    const alt = found ?? first;
    if (this.altCache.size > 200) this.altCache.clear();
    this.altCache.set(key, alt);
    return alt;
  }

  /**
   * (e), differentially: the public pixels of the saved state, on whatever screen it is (the game, or the
   * menu with a game to resume), do not depend on the secret (or the Brain Flip pick) before the reveal.
   */
  private differential(): void {
    const s = this.state;
    if (!s) return;
    const p = this.opts.profile;
    const other: SavedState = structuredClone(s);
    let swapped = "";
    // The secret segment is public unless it sits under the shield in front of a human codemaker.
    let secretPublic = true;
    const m = s.match;
    if (m && !gameEnded(m) && m.game.secret) {
      const alt = this.alternative(m);
      if (alt) {
        other.match!.game.secret = alt;
        swapped += `secret ${alt.join()} for ${m.game.secret.join()} `;
        if (s.screen === "play" && this.shielded && unitRoleOf(m) !== ROLE_MAKER) secretPublic = false;
      } else this.stats.differentialSkipped++;
    }
    const f = s.flip;
    if (f && !f.over && f.round.phase === FLIP_ASK) {
      const r = f.round;
      const cards: number[] = [];
      for (let c = 0; c < f.config.grid * f.config.grid; c++) if (c !== r.pick && !r.wrongCards.includes(c)) cards.push(c);
      if (cards.length) {
        other.flip!.round.pick = cards[this.rng.int(0, cards.length - 1)];
        swapped += `card ${other.flip!.round.pick} for ${r.pick}`;
      } else this.stats.differentialSkipped++;
    }
    if (!swapped) return;
    const now = this.board.uptime;
    for (const t of [now, now + 300]) {
      const a = frameNames(restoredApp(p, s, 0).app, t);
      const b = frameNames(restoredApp(p, other, 0).app, t);
      const leaks: string[] = [];
      for (let i = 0; i < a.length; i++) {
        const inSecret = i >= this.secretSeg.start && i < this.secretSeg.start + this.secretSeg.count;
        if (a[i] !== b[i] && (secretPublic || !inSecret)) leaks.push(`${ledName(p, i)}: ${a[i]} with the secret, ${b[i]} with another`);
      }
      this.stats.differentialChecks++;
      if (leaks.length)
        this.fail("(e) the secret stays secret (public pixels depend on it)", [
          `screen ${s.screen}; ${swapped}`,
          `state: ${JSON.stringify(s.screen === "flip" ? s.flip : s.match)}`,
          ...leaks.slice(0, 8),
        ]);
    }
  }

  /** Every frame the board shows: while the unit is the codemaker of a running game, the secret segment is dark. */
  private onFrame(): void {
    this.stats.framesChecked++;
    if (!this.board.isOn || this.secretSeg.start < 0 || this.selfTest) return;
    const lit = this.board.colours("secret").some((c) => c !== "off");
    if (!lit) return;
    this.stats.secretFramesLit++;
    // The save of the action that drew this frame comes after it: the last one committed is the state before.
    this.pendingLit.push({ before: unitMakerGame(this.log.committed?.state ?? null), at: this.board.now, saves: this.log.saves });
  }

  /** Frames with a lit secret, judged once the state after them is known: a violation if the unit was the codemaker throughout. */
  private judgeFrames(): void {
    if (!this.pendingLit.length) return;
    const after = unitMakerGame(this.state);
    for (const f of this.pendingLit)
      if (f.before !== null && f.before === after && !this.selfTest)
        this.fail("(e) the secret segment stays dark while the unit is the codemaker", [
          `at t=${f.at}: secret LEDs lit while the unit was the codemaker of game ${after}`,
          `state: ${JSON.stringify(this.state?.match)}`,
        ]);
    this.pendingLit = [];
  }

  /** (a) and (b) on the LEDs, when they show the play screen of the saved state. */
  private checkLeds(): void {
    const s = this.state;
    // (Between the LED supply coming on and the first frame after it settles, the LEDs are dark: nothing shown yet.)
    if (!s || s.screen !== "play" || !s.match || this.selfTest || !this.board.isOn || !this.board.ledsShowing) return;
    const problems = playLedProblems(this.opts.profile, boardFrame(this.board), s.match);
    this.stats.ledRowChecks++;
    this.stats.invariantChecks++;
    if (problems.length) this.fail("(a)/(b) the rows the LEDs show: guesses, feedback, none unsaved or past the preset", problems);
  }

  /** (e) from the console: no global named secret, and no global value (to depth 3) equal to it. */
  private scanConsole(): void {
    const m = this.state?.match;
    if (!m || !m.game.secret || gameEnded(m) || !this.board.isOn) return;
    this.stats.consoleScans++;
    this.stats.invariantChecks++;
    const t = this.board.repl("typeof secret");
    if (t !== "undefined") this.fail("(e) the secret is not a global", [`typeof secret is ${String(t)}`]);
    const found = findInGlobals(this.board.repl("this") as object, m.game.secret);
    if (found.length) this.fail("(e) no global holds the secret", [`secret ${m.game.secret.join()} found at ${found.join(", ")}`]);
  }

  private checkErrors(): void {
    this.stats.invariantChecks++;
    const b = this.board;
    if (b.errors.length === 0 && b.consoleLog.length === this.consoleSeen && b.resets.length === 0) return;
    const failures = firmwareFailures(b, this.consoleSeen);
    this.consoleSeen = b.consoleLog.length;
    if (failures.length) this.fail("(d) no exception escapes, none is swallowed, no reset", failures.slice(0, 5));
  }

  // ------------------------------------------------------------ events

  private screenKeys(): string[] {
    const s = this.state;
    const g = (list: number[]) => list.map(gridKey);
    if (!s || s.screen === "menu") {
      const menu: number[] = [];
      for (let i = 0; i < 30; i++) menu.push(i);
      return g(menu.concat([31, 34, 35]));
    }
    if (s.screen === "play") return g([0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 18, 19, 30, 33, 34, 35]).concat(this.makerKeys);
    const all: number[] = [];
    for (let i = 0; i < 36; i++) all.push(i);
    return g(all).concat(this.makerKeys);
  }

  private pick<T>(list: T[]): T {
    return list[this.rng.int(0, list.length - 1)];
  }

  private randomKey(): string {
    return this.rng.next() < 0.9 ? this.pick(this.screenKeys()) : this.pick(this.allKeys);
  }

  private tap(key: string, hold: number, gap: number): void {
    this.board.press(key);
    this.board.advance(hold);
    this.board.release(key);
    this.held.delete(key);
    this.board.advance(gap);
  }

  private powerCut(): void {
    const b = this.board;
    const midWrite = this.rng.next() < 0.5;
    const before = b.powerCuts.length;
    if (midWrite) {
      const x = this.rng.next();
      const fraction = x < 0.1 ? 0 : x < 0.2 ? 1 : x < 0.35 ? this.rng.range(0, 0.03) : this.rng.next();
      b.cutPowerDuringWrite(1, fraction);
      // Meaningful moves until the save is cut (or a few moves went by without one).
      for (let i = 0; i < 4 && b.isOn; i++) {
        for (const k of this.player.next(this.state, this.goal).keys) {
          if (!b.isOn) break;
          this.tap(k, this.rng.int(25, 45), this.rng.int(25, 60));
        }
        this.refresh();
      }
      b.cancelPowerCuts();
      if (b.isOn) b.schedulePowerCut(b.now);
      this.note("cut", `power cut armed for the next save (fraction ${fraction.toFixed(3)})`);
    } else {
      b.schedulePowerCut(b.now + this.rng.range(0, 400));
      this.note("cut", "power cut at a random instant");
    }
    b.advance(this.rng.int(0, 3000));
    if (b.isOn) {
      b.cancelPowerCuts();
      b.schedulePowerCut(b.now);
      b.advance(0);
    }
    if (b.powerCuts.length !== before + 1) this.fail("the power cut happened", [`${b.powerCuts.length - before} cuts made`]);
    const cut = b.powerCuts[b.powerCuts.length - 1];
    this.stats.powerCuts++;
    if (cut.write) {
      this.stats.powerCutsMidWrite++;
      add(this.stats.cutStages, `${cut.write.op} ${cut.write.stage}`);
      // Frames of the call whose save was torn show a state that was never committed: nothing to judge them by.
      const saves = this.log.saves;
      this.pendingLit = this.pendingLit.filter((f) => f.saves < saves);
    }
    this.refresh();
    this.judgeFrames();
    this.powerOn();
  }

  /** Powers on, usually with every key released; checks that the unit resumed the last committed state. */
  private powerOn(): void {
    const b = this.board;
    const keepHeld = this.rng.next() < 0.08;
    if (!keepHeld) for (const k of [...this.held]) this.release(k);
    if (this.rng.next() < 0.03) this.press(gridKey(35)); // OK held at power-on: the self-test
    const slots = slotCopies(b.storage);
    this.selfTest = this.held.has(gridKey(35));
    b.powerOn();
    this.note("power-on", `power on${this.held.size ? ` with ${[...this.held].join(",")} held` : ""}`);
    b.advance(200);
    this.checkErrors();
    const committed = this.log.committed?.state ?? null;
    this.stats.invariantChecks++;
    const resumed = readSavedState(b);
    if (JSON.stringify(resumed) !== JSON.stringify(committed))
      this.fail("(d) the unit resumes the last committed state", [
        `Storage offers ${JSON.stringify(resumed)}`,
        `committed ${JSON.stringify(committed)}`,
      ]);
    if (this.held.size === 0 && b.ledsPowered) {
      const diff = frameDiff(
        this.opts.profile,
        expectedBootFrame(this.opts.profile, committed, b.uptime, { warned: committed === null && slots.length > 0 }),
        boardFrame(b),
      );
      this.stats.resumesChecked++;
      this.stats.invariantChecks++;
      if (diff.length) this.fail("(d) the resumed frame shows the last committed state", diff);
    }
  }

  private press(key: string): void {
    this.board.press(key);
    this.held.add(key);
  }

  private release(key: string): void {
    this.board.release(key);
    this.held.delete(key);
  }

  /** One event, then the checks. */
  step(): void {
    const rng = this.rng;
    const b = this.board;
    if (this.goalLeft <= 0 || this.gameOver()) {
      this.goal = randomGoal(rng);
      this.goalLeft = rng.int(150, 1200);
      add(this.stats.goals, this.goal.game === "brainflip" ? "brainflip" : `${this.goal.game}/${this.goal.mode}`);
    }
    this.goalLeft--;
    const x = rng.next();
    if (this.selfTest && x < 0.3) this.powerCut();
    else if (this.plan.length && x < 0.9) {
      const k = this.plan.shift()!;
      this.tap(k, rng.int(25, 45), rng.int(22, 60));
      this.note("tap", `tap ${k} (planned)`);
    } else if (x < 0.45) {
      if (rng.next() < 0.8) {
        const move = this.player.next(this.state, this.goal);
        this.plan = move.keys.slice();
        const k = this.plan.shift()!;
        this.tap(k, rng.int(25, 45), rng.int(22, 60));
        this.note("tap", `tap ${k} (${move.label})`);
      } else {
        const k = this.randomKey();
        this.tap(k, rng.int(20, 120), rng.int(10, 200));
        this.note("tap", `tap ${k}`);
      }
    } else if (x < 0.51) {
      const k = this.randomKey();
      this.press(k);
      b.advance(rng.int(0, 80));
      this.note("press", `press ${k}`);
    } else if (x < 0.6) {
      if (this.held.size) {
        const k = this.pick([...this.held]);
        this.release(k);
        b.advance(rng.int(0, 80));
        this.note("release", `release ${k}`);
      } else {
        b.advance(rng.int(5, 100));
        this.note("wait", "wait (nothing held to release)");
      }
    } else if (x < 0.62) {
      const k = this.randomKey();
      const ms = rng.next() < 0.7 ? rng.int(300, 2000) : rng.int(7000, 10000);
      this.press(k);
      b.advance(ms);
      this.release(k);
      b.advance(rng.int(20, 100));
      this.note("hold", `hold ${k} for ${ms} ms`);
    } else if (x < 0.65) {
      const keys = [this.randomKey(), this.randomKey(), this.randomKey()].slice(0, rng.int(2, 3));
      for (const k of keys) {
        this.press(k);
        b.advance(rng.int(0, 15));
      }
      b.advance(rng.int(30, 200));
      for (const k of keys) {
        this.release(k);
        b.advance(rng.int(0, 15));
      }
      b.advance(rng.int(20, 100));
      this.note("chord", `chord ${keys.join("+")}`);
    } else if (x < 0.68) {
      const k = this.randomKey();
      const n = rng.int(3, 12);
      for (let i = 0; i < n; i++) this.tap(k, rng.int(4, 30), rng.int(4, 30));
      this.note("burst", `burst of ${n} on ${k}`);
    } else if (x < 0.683 && b.profile.battery) {
      // The battery sags (low: a warning and a save; empty: a save and sleep) and, if empty, comes back. A USB-only build has none.
      const volts = this.pick([4.15, 4.0, 3.7, 3.5, 3.44, 3.4, 3.31, 3.25]);
      const usb = rng.next() < 0.3;
      b.setBattery(volts, usb);
      b.advance(rng.int(10, 3000));
      if (volts < 3.3) {
        b.setBattery(3.9, usb);
        b.advance(rng.int(10, 1000));
      }
      this.note("battery", `battery ${volts} V${usb ? " on USB" : ""}${volts < 3.3 ? ", then 3.9 V" : ""}`);
    } else if (x < 0.985) {
      const ms = rng.next() < 0.97 ? rng.int(10, 700) : rng.next() < 0.9 ? rng.int(2000, 60000) : rng.int(120000, 960000);
      b.advance(ms);
      this.note(ms > 100000 ? "long wait" : "wait", `wait ${ms} ms`);
    } else this.powerCut();
    this.afterStep();
  }

  private gameOver(): boolean {
    const s = this.state;
    return (
      s !== null && ((s.match !== null && s.match.over && s.screen === "play") || (s.flip !== null && s.flip.over && s.screen === "flip"))
    );
  }

  private afterStep(): void {
    this.stats.events++;
    this.checkErrors();
    this.refresh();
    this.judgeFrames();
    this.checkLeds();
    if (this.index % 97 === 96) this.scanConsole();
    this.index++;
    if (this.index % 256 === 0) this.opts.progress?.(this.firstIndex + this.index);
  }

  finish(): void {
    this.stats.virtualMs += this.board.now;
    this.stats.saves += this.log.saves;
    this.log.detach();
  }
}

/** The segments (boards) of a run: [segment, first event index, events]. */
export function segmentsOf(events: number, boardEvents: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let s = 0, i = 0; i < events; s++, i += boardEvents) out.push([s, i, Math.min(boardEvents, events - i)]);
  return out;
}
