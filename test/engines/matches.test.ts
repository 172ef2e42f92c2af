/**
 * A full match of every preset in every role, on both engines, played through keys and read off the
 * LEDs: roles 1 (the unit referees) and 2 (the codemaker answers) by a player who keys chosen
 * secrets and guesses, roles 4 then 3 (against the unit) by the watcher (sim/watch.ts). Each engine
 * must give the true feedback for every row and finish the match; where the play does not depend on
 * the unit's own random draw (everything but the unit's secrets in role 3) the two engines must
 * show the same rows, feedback, scores and winner.
 */
import { describe, expect, it } from "vitest";
import { feedback } from "../../firmware/core/feedback.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { randomSecret } from "../../firmware/core/random.ts";
import type { Code, MatchMode, PresetId, Rules } from "../../firmware/core/types.ts";
import { Prng } from "../../sim/random.ts";
import { watch, watchRealTime, type WatchEvent } from "../../sim/watch.ts";
import { EspruinoBoard } from "../../sim/espruino/engine.ts";
import { gridKey } from "../scenarios/driver.ts";
import { bootEngine, closeEngine, ESPRUINO_MISSING, type AnyBoard, type Engine } from "./engines.ts";

const PRESETS: PresetId[] = ["brainiac", "travel", "race"];
const MODES: MatchMode[] = ["referee", "manual", "unit-makes", "unit-breaks"];
const GAMES = [2, 4, 6, 8, 10];
const MAKER_COLOUR_KEYS = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24"];
/** How long after a row's OK the LEDs are read (the unit answers in a few ms; real time has slack). */
const SETTLE_MS = 250;

interface PlayedRow {
  guess: string;
  shown: string;
  truth: string;
}
interface Transcript {
  games: { secret: string; rows: PlayedRow[] }[];
  track: string[];
  winner: string;
  menuAfter: string;
}

async function tap(board: AnyBoard, ...keys: string[]): Promise<void> {
  for (const k of keys) await board.tap(k, 60, 60);
}

/** The feedback a row's key LEDs show, in the preset's look (violet or red: exact; white: near). */
function shownFeedback(board: AnyBoard, row: number): string {
  const w = board.profile.pegs;
  const px = board.colours("keys").slice(row * w, row * w + w);
  const count = (c: string) => px.filter((p) => p === c).length;
  return `${count("violet") + count("red")} exact, ${count("white")} near`;
}

const codeKeys = (rules: Rules, code: Code, keyOf: (s: number) => string, blank: string) =>
  code.map((s) => (s === rules.colours ? blank : keyOf(s)));

/** Roles 1 and 2: the player keys the secrets and the guesses (two wrong rows, then the code; the race: the code at once). */
async function playKeyedMatch(board: AnyBoard, preset: PresetId, mode: "referee" | "manual"): Promise<Transcript> {
  const rules = rulesFor(preset, false);
  const prng = new Prng(7);
  await tap(board, gridKey(PRESETS.indexOf(preset)), gridKey(6), gridKey(12 + MODES.indexOf(mode)));
  if (preset !== "race") await tap(board, gridKey(18 + GAMES.indexOf(2)));
  await tap(board, "p66");
  await board.advance(SETTLE_MS);
  const t: Transcript = { games: [], track: [], winner: "", menuAfter: "" };
  // Race: every code broken in row 1 (+12 holes) ends the match in game 5 (RULES.md 2.3).
  const games = preset === "race" ? 5 : 2;
  for (let g = 0; g < games; g++) {
    const secret = randomSecret(rules, () => prng.next());
    await tap(board, ...codeKeys(rules, secret, (s) => MAKER_COLOUR_KEYS[s], "m31"), "m34");
    await board.advance(SETTLE_MS);
    const guesses: Code[] = [];
    if (preset !== "race")
      while (guesses.length < 2) {
        const c = randomSecret(rules, () => prng.next());
        if (c.join() !== secret.join()) guesses.push(c);
      }
    guesses.push(secret);
    const rows: PlayedRow[] = [];
    for (const [r, guess] of guesses.entries()) {
      await tap(board, ...codeKeys(rules, guess, gridKey, "p23"), "p66");
      const truth = feedback(guess, secret);
      if (mode === "manual") {
        await board.advance(SETTLE_MS);
        await tap(board, ...Array(truth.exact).fill("m31"), ...Array(truth.near).fill("m32"), "m34");
      }
      await board.advance(SETTLE_MS);
      rows.push({ guess: guess.join(), shown: shownFeedback(board, r), truth: `${truth.exact} exact, ${truth.near} near` });
    }
    t.games.push({ secret: secret.join(), rows });
    if (g < games - 1) {
      await tap(board, "p66");
      await board.advance(SETTLE_MS);
    }
  }
  await board.advance(SETTLE_MS);
  t.track = board.colours("track");
  t.winner = board.colours("status")[0];
  await tap(board, "p66");
  await board.advance(SETTLE_MS);
  t.menuAfter = board.colours("pad").slice(0, 6).join(" ");
  return t;
}

async function keyedOn(engine: Engine, preset: PresetId, mode: "referee" | "manual"): Promise<Transcript> {
  const board = await bootEngine(engine);
  try {
    const t = await playKeyedMatch(board, preset, mode);
    expect(board.errors).toEqual([]);
    return t;
  } finally {
    await closeEngine(board);
  }
}

/** Roles 4 then 3: the watcher plays a two-game match against the unit. */
async function againstUnitOn(engine: Engine, preset: PresetId, harder: boolean): Promise<WatchEvent[]> {
  const board = await bootEngine(engine);
  const opts = { preset, harder, games: 2, pressMs: 150, rowPauseMs: 100, gamePauseMs: 300, timeoutMs: 60_000 };
  try {
    const events = board instanceof EspruinoBoard ? await watchRealTime(board, opts) : watch(board, opts);
    expect(board.errors).toEqual([]);
    return events;
  } finally {
    await closeEngine(board);
  }
}

describe.skipIf(!!ESPRUINO_MISSING)(
  ESPRUINO_MISSING ? `full matches on the real interpreter (skipped: ${ESPRUINO_MISSING})` : "full matches on both engines",
  () => {
    for (const preset of PRESETS)
      for (const mode of ["referee", "manual"] as const)
        it(`${preset}, role ${mode === "referee" ? "1 (the unit referees)" : "2 (the codemaker answers)"}: true feedback on every row, and the same match on both engines`, async () => {
          const sim = await keyedOn("sim", preset, mode);
          const real = await keyedOn("espruino", preset, mode);
          for (const t of [sim, real]) for (const g of t.games) for (const r of g.rows) expect(r.shown).toBe(r.truth);
          expect(real).toEqual(sim);
          expect(["red", "blue", "white"]).toContain(sim.winner);
          expect(sim.menuAfter.split(" ")).toContain("white");
        }, 240_000);

    for (const preset of PRESETS)
      it(`${preset}${preset === "race" ? " advanced" : ""}, roles 4 then 3 (against the unit): the match finishes on both engines, and the unit breaks the same code the same way`, async () => {
        const harder = preset === "race";
        const sim = await againstUnitOn("sim", preset, harder);
        const real = await againstUnitOn("espruino", preset, harder);
        for (const events of [sim, real]) {
          const end = events[events.length - 1];
          expect(end, end.text).toMatchObject({ type: "stopped", reason: "done" });
        }
        // Game 1: the unit breaks the watcher's code (drawn from the watcher's seed): the same rows on both.
        const unitRows = (events: WatchEvent[]) => {
          const g2 = events.findIndex((e) => e.type === "game");
          return events.slice(0, g2 + 1).map((e) => e.text);
        };
        expect(unitRows(real)).toEqual(unitRows(sim));
      }, 240_000);
  },
);
