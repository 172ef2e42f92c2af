import { PresetId, Rules } from "./types";

/** The codebreaker presets, in menu order. */
export const PRESET_IDS: PresetId[] = ["brainiac", "travel", "race"];

/** Race track: holes advanced for a solve in row r (index r-1), docs/rules.md section 2. */
const RACE_ADVANCE = [12, 12, 12, 12, 10, 10, 8, 8, 6, 6, 4, 4];

/**
 * The rules of a preset with its variant resolved (docs/rules.md section 2):
 * - brainiac: 4 pegs, 6 colours, 12 rows, repeats anywhere; harder (extra challenge) adds the blank.
 * - travel: 4 pegs, 8 colours, 9 rows, secret without repeated colours; harder (expert) adds the
 *   blank, which may repeat while the colours stay unique in the secret.
 * - race: 5 pegs, 8 colours, 12 rows, secret and guesses all different; harder (advanced) allows
 *   repeats and blanks in both.
 */
export function rulesFor(preset: PresetId, harder: boolean): Rules {
  // Made once per variant and shared (nothing writes into a Rules): the ui asks for them on every key and frame.
  const i = PRESET_IDS.indexOf(preset) * 2 + (harder ? 1 : 0);
  return i < 0 ? makeRules(preset, harder) : RULES[i] || (RULES[i] = makeRules(preset, harder));
}
const RULES: Rules[] = [];

function makeRules(preset: PresetId, harder: boolean): Rules {
  const brainiac = preset === "brainiac";
  const travel = preset === "travel";
  const race = preset === "race";
  return {
    preset: preset,
    harder: harder,
    pegs: race ? 5 : 4,
    colours: brainiac ? 6 : 8,
    rows: travel ? 9 : 12,
    blanks: harder,
    secretRepeats: brainiac || (race && harder),
    guessRepeats: !race || harder,
    look: travel ? "arms" : "pegs",
    scoring: race ? "race" : "points",
    unsolvedPoints: race ? 0 : travel ? 9 : 13,
    raceAdvance: race ? RACE_ADVANCE : [],
    raceTarget: race ? 30 : 0,
    wrongInfoBonus: 3,
  };
}

/**
 * How many valid ways there are to fill `holes` holes of a secret (forSecret) or guess when
 * `usedColours` distinct real colours are already taken elsewhere in the code. Counts by the
 * number k of blanks: C(holes, k) placements times the colourings of the other holes.
 */
export function countCompletions(rules: Rules, forSecret: boolean, holes: number, usedColours: number): number {
  const repeats = forSecret ? rules.secretRepeats : rules.guessRepeats;
  // With repeats every hole takes any symbol, the blank too: the sum below is (colours + 1)^holes, or colours^holes.
  if (repeats) return Math.pow(rules.colours + (rules.blanks ? 1 : 0), holes);
  const free = rules.colours - usedColours;
  let total = 0;
  let placements = 1; // C(holes, blanks)
  for (let blanks = 0; blanks <= (rules.blanks ? holes : 0); blanks++) {
    const coloured = holes - blanks;
    let colourings = 1;
    for (let i = 0; i < coloured; i++) colourings *= repeats ? rules.colours : free - i;
    total += placements * colourings; // (never negative: a factor reaches 0 before free - i could)
    placements = (placements * (holes - blanks)) / (blanks + 1);
  }
  return total;
}

/** The number of valid secrets (forSecret) or valid guesses under these rules. */
export function codeSpaceSize(rules: Rules, forSecret: boolean): number {
  return countCompletions(rules, forSecret, rules.pegs, 0);
}
