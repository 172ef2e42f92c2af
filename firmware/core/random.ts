import { codeAt } from "./codes";
import { codeSpaceSize } from "./presets";
import { Code, Rules } from "./types";

/**
 * A secret drawn uniformly from the valid secrets under `rules`: a uniform index into the
 * enumerated secret space, decoded directly. `rand` returns numbers in [0, 1).
 */
export function randomSecret(rules: Rules, rand: () => number): Code {
  const size = codeSpaceSize(rules, true);
  // (The min guards a rand() that returns 1.)
  return codeAt(rules, true, Math.min(Math.floor(rand() * size), size - 1));
}
