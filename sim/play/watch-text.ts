/** The watcher's words (sim/play/watch.ts): codes, feedback and games as its events say them. */
import type { Code, Feedback, PresetId, Rules } from "../../firmware/core/types.ts";
import { PEG_NAMES } from "../../firmware/ui/palette.ts";

/** A code as colour names ("red green blank yellow"). */
export function codeText(rules: Rules, code: Code): string {
  return code.map((s) => (s === rules.colours ? "blank" : (PEG_NAMES[s] ?? "?"))).join(" ");
}

export function feedbackText(fb: Feedback): string {
  return `${fb.exact} exact, ${fb.near} near`;
}

export function presetName(preset: PresetId): string {
  return { brainiac: "Brainiac", travel: "the travel unit", race: "the five-peg race" }[preset];
}

/** "Brainiac", "travel unit (expert)", "five-peg race (advanced)"... */
export function variantName(rules: Rules): string {
  const harder = { brainiac: "extra challenge", travel: "expert", race: "advanced" }[rules.preset];
  return presetName(rules.preset) + (rules.harder ? ` (${harder})` : "");
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
