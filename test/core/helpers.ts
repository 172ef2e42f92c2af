/**
 * Test helpers for the core: a seeded PRNG and a plain enumeration of the valid codes, written
 * from docs/rules.md section 2 independently of firmware/core/codes.ts.
 */
import type { Code, PresetId } from "../../firmware/core/types";
import { Prng } from "../../firmware/tools/prng.ts";

/** mulberry32 (the simulator's Prng): a small seeded PRNG returning numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}

/** What docs/rules.md section 2 says about each preset's codes. */
export interface CodeRulesExpected {
  pegs: number;
  colours: number;
  blanks: boolean;
  secretRepeats: boolean;
  guessRepeats: boolean;
}

export function expectedCodeRules(preset: PresetId, harder: boolean): CodeRulesExpected {
  if (preset === "brainiac") return { pegs: 4, colours: 6, blanks: harder, secretRepeats: true, guessRepeats: true };
  if (preset === "travel") return { pegs: 4, colours: 8, blanks: harder, secretRepeats: false, guessRepeats: true };
  return { pegs: 5, colours: 8, blanks: harder, secretRepeats: harder, guessRepeats: harder };
}

/** Every valid code, in lexicographic order, by filtering all symbol tuples. */
export function plainValidCodes(preset: PresetId, harder: boolean, forSecret: boolean): Code[] {
  const r = expectedCodeRules(preset, harder);
  const symbols = r.colours + (r.blanks ? 1 : 0);
  const repeats = forSecret ? r.secretRepeats : r.guessRepeats;
  const codes: Code[] = [];
  const total = Math.pow(symbols, r.pegs);
  for (let n = 0; n < total; n++) {
    const code: Code = [];
    let rest = n;
    for (let i = 0; i < r.pegs; i++) {
      code.unshift(rest % symbols);
      rest = Math.floor(rest / symbols);
    }
    const colours = code.filter((s) => s < r.colours);
    if (!repeats && new Set(colours).size !== colours.length) continue;
    codes.push(code);
  }
  return codes;
}

export const VARIANTS: { preset: PresetId; harder: boolean; name: string }[] = [
  { preset: "brainiac", harder: false, name: "Brainiac" },
  { preset: "brainiac", harder: true, name: "Brainiac extra challenge" },
  { preset: "travel", harder: false, name: "travel unit" },
  { preset: "travel", harder: true, name: "travel expert" },
  { preset: "race", harder: false, name: "race" },
  { preset: "race", harder: true, name: "race advanced" },
];
