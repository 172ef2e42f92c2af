/**
 * Plays on either engine through keys and LEDs only: a full match in roles 1 and 2 with chosen secrets
 * and guesses (the engine comparison and the real-interpreter benchmark share it).
 */
import { feedback } from "../../firmware/core/feedback.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import { randomSecret } from "../../firmware/core/random.ts";
import type { Code, MatchMode, PresetId, Rules } from "../../firmware/core/types.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { gridKey } from "../scenarios/driver.ts";
import type { AnyBoard } from "./engines.ts";

export const PRESETS: PresetId[] = ["brainiac", "travel", "race"];
const MODES: MatchMode[] = ["referee", "manual", "unit-makes", "unit-breaks"];
const GAMES = [2, 4, 6, 8, 10];
const MAKER_COLOUR_KEYS = ["m11", "m12", "m13", "m14", "m21", "m22", "m23", "m24"];
/** How long after a row's OK the LEDs are read (the unit answers in a few ms; real time has slack). */
const SETTLE_MS = 250;

export interface PlayedRow {
  guess: string;
  shown: string;
  truth: string;
}
export interface Transcript {
  games: { secret: string; rows: PlayedRow[] }[];
  track: string[];
  winner: string;
  menuAfter: string;
}

export async function tap(board: AnyBoard, ...keys: string[]): Promise<void> {
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
export async function playKeyedMatch(board: AnyBoard, preset: PresetId, mode: "referee" | "manual"): Promise<Transcript> {
  const rules = rulesFor(preset, false);
  const prng = new Prng(7);
  await tap(board, gridKey(PRESETS.indexOf(preset)), gridKey(6), gridKey(12 + MODES.indexOf(mode)));
  if (preset !== "race") await tap(board, gridKey(18 + GAMES.indexOf(2)));
  await tap(board, "p66");
  await board.advance(SETTLE_MS);
  const t: Transcript = { games: [], track: [], winner: "", menuAfter: "" };
  // Race: every code broken in row 1 (+12 holes) ends the match in game 5 (docs/rules.md 2).
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
