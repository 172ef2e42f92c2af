/**
 * Brain Flip's status in words (sim/views/game-status.ts): the round, whose turn it is, the questions
 * left, the scores and the round so far.
 */
import { questionLimit, FLIP_TARGET, type FlipState } from "../../firmware/core/brainflip.ts";
import { FLIP_ANSWER, FLIP_ASK, FLIP_PICK, RESULT_FOUND, RESULT_MISTAKE } from "../../firmware/core/brainflip.ts";
import { BRAIN_FLIP } from "../../firmware/ui/flip.ts";
import type { Settings } from "../../firmware/ui/settings.ts";
import { brainFlipLegends, legendsByKey, menuLegends } from "../../hardware/key-legends.ts";
import { boardOf, cap, screenStatus, type BoardInPlay, type GameStatus, type ScreenStatus, type StatusProfile } from "./game-status.ts";

const FLIP_COLOURS = ["red", "blue", "green", "yellow", "orange", "pink"];

/** Brain Flip's board: a bar per question, one row each, the asker's colour on the row's first key pixel (ui/flip.ts draw). */
function flipBoard(profile: StatusProfile, mode: FlipState["config"]["mode"]): BoardInPlay {
  const rows = Math.min(questionLimit(mode), profile.rows);
  return {
    pegs: profile.pegs,
    rows,
    keyPegs: 1,
    about: `Brain Flip: a row per question, ${rows} rows, the asker's colour on the first key peg (${boardOf(profile)})`,
  };
}

function flipName(p: number): string {
  return `player ${p + 1} (${FLIP_COLOURS[p]})`;
}

function addFlipNumbers(st: ScreenStatus, f: FlipState): void {
  st.scores = f.scores.map((v, p) => ({ name: flipName(p), value: v, unit: "points" }));
  st.facts.push(
    { label: "round", value: String(f.rounds) },
    { label: "Brain Master", value: flipName(f.round.master) },
    { label: "questions left", value: `${questionLimit(f.config.mode) - f.round.asked} of ${questionLimit(f.config.mode)}` },
    { label: "wins", value: `first to ${FLIP_TARGET} points` },
  );
  st.game = `Brain Flip: ${f.config.players} players, ${f.config.grid}x${f.config.grid} cards, ${f.config.mode === "flip" ? "Brain Flip rules (the Master answers the opposite)" : "played straight"}`;
  st.history = f.round.log.map(
    (e, i) =>
      `Question ${i + 1}: ${flipName(e.player)} ${e.kind === FLIP_ANSWER ? `asked, answer ${e.yes ? "yes" : "no"}` : `guessed card ${e.card + 1}: ${e.yes ? "right" : "wrong"}`}.`,
  );
}

function flipStatus(f: FlipState, profile: StatusProfile): ScreenStatus {
  const round = f.round;
  const master = flipName(round.master);
  const makerPad = !!profile.keymap.maker;
  const where = makerPad ? "the codemaker pad" : "the pad's last column";
  let line: string;
  if (f.over) line = `Game over: ${flipName(f.winner)} wins with ${f.scores[f.winner]} points. OK (${where}) returns to the menu.`;
  else if (round.phase === FLIP_PICK)
    line = `Round ${f.rounds}: ${master} is the Brain Master: pick a card on the pad while the others look away. Nothing lights.`;
  else if (round.phase === FLIP_ASK) {
    const left = questionLimit(f.config.mode) - round.asked;
    const lastEntry = round.log[round.log.length - 1];
    const lastAnswer = lastEntry && lastEntry.kind === FLIP_ANSWER ? `Last answer: ${lastEntry.yes ? "yes" : "no"}. ` : "";
    const how = f.config.unitFlips
      ? "the true answer (the unit shows it flipped)"
      : f.config.mode === "flip"
        ? "the opposite answer"
        : "the answer";
    line =
      `${lastAnswer}${cap(flipName(round.turn))}: ask a yes/no question aloud; the Master keys ${how} on ${where} (yes, no). ` +
      `Or press a card: "Got it!". ${left} question${left === 1 ? "" : "s"} left.`;
  } else {
    const result =
      round.result === RESULT_FOUND
        ? `${cap(flipName(round.finder))} found the card: +1.`
        : round.result === RESULT_MISTAKE
          ? `The Master's mistake: ${master} -1.`
          : `Nobody found the card: ${master} (the Master) +1.`;
    line = `${result} OK (${where}) starts the next round.`;
  }
  const st = screenStatus("brainflip", line);
  addFlipNumbers(st, f);
  st.keys = legendsByKey(profile, brainFlipLegends(profile, f.config.grid));
  return st;
}

/** Brain Flip's entry: the screen "flip", the game under the saved state's `flip`. */
export const BRAIN_FLIP_STATUS: GameStatus = {
  kind: BRAIN_FLIP,
  screen: "flip",
  menuRows: "row 1 the game, row 2 the rules, row 3 the players, row 4 the grid, row 5 brightness",
  chosen: (s: Settings) =>
    `Brain Flip, ${s.flipMode === "flip" ? "Brain Flip rules (answers flipped)" : "played straight"}, ${s.players} players, ${s.flipGrid}x${s.flipGrid} cards${s.unitFlips ? ", the unit flips the answers" : ""}`,
  board: (profile, state, s) => flipBoard(profile, state ? (state as FlipState).config.mode : s.flipMode),
  playing: (state, ctx) => flipStatus(state as FlipState, ctx.profile),
  unfinished: (state) => !!state && !(state as FlipState).over,
  kept: (st, state) => addFlipNumbers(st, state as FlipState),
  menuKeys: (s) => menuLegends("brainflip", s),
};
