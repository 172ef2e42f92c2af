/**
 * The six codebreaker variants as the solver generator, the bench and the tests see them: how each
 * one's tree is searched, where the unit takes over from the book, and the figures it is held to
 * (GitHub issue 8).
 */
import { fileURLToPath } from "node:url";
import { rulesFor } from "../../core/presets.ts";
import { solverTableName } from "../../core/solver.ts";
import type { PresetId, Rules } from "../../core/types.ts";
import { MOVE_MS_MAX } from "./work.ts";

export const VARIANT_KEYS = ["brainiac", "brainiac+", "travel", "travel+", "race", "race+"] as const;
export type VariantKey = (typeof VARIANT_KEYS)[number];

/** Where the committed tables live. */
export const TABLES_DIR = fileURLToPath(new URL("../../core/tables/", import.meta.url));
export const MANIFEST = TABLES_DIR + "manifest.json";

/** Evaluations the unit may spend on one move at worst, and on average over all moves (issue 8). */
export const MOVE_EVALS_MAX = 3000;
export const MOVE_EVALS_MEAN = 600;
/**
 * Bytes all tables together may take in Storage (issue 8: bundle ~31 KB + tables + 4 KB saved state <= 48 KB; some of the
 * tables go in the rest of .bootcde's last page, tables.ts bootLayout; npm run bench checks that they fit R1's Storage).
 */
export const TABLES_BYTES_MAX = 13.5 * 1024;

export interface Variant {
  key: VariantKey;
  name: string;
  rules: Rules;
  /** Storage file name of the table. */
  storageName: string;
  /** The tree search (search.ts). */
  rank: "sumsq" | "parts" | "entropy";
  /** Lookahead width at a tree level (1 = root) for n secrets. */
  width: (level: number, n: number) => number;
  /** Levels searched one guess per symmetry orbit. */
  symmetricLevels: number;
  maxDepth: number;
  /** Guesses sampled per node below the symmetric levels (huge spaces only; 0 = all guesses). */
  sampledPool: number;
  /**
   * A book node's child becomes a candidate node (the unit enumerates) when enumerating all its candidates takes a Pico at
   * most this many ms (work.ts enumMs; mostly while the player answers, see TAKEOVER_MS_MAX for the part after it). Lower is
   * a deeper book: less to ponder, more table bytes (README.md there).
   */
  takeoverMs: number;
  /**
   * The most a move of the unit's own choice may take a Pico, in ms (its passes over the candidates, after the answer's):
   * where it would take longer, the table spells the subtree out. work.ts MOVE_MS_MAX where the bytes allow it.
   */
  policyMsMax: number;
  /**
   * The longest move the generator lets the table plan (a takeover's, to its guess), in a Pico's ms: MOVE_MS_MAX, or more
   * where the book cannot go deep enough (and MOVE_BUDGET_MS cannot cut the move before the first candidate is found).
   */
  moveMsMax: number;
  /** Book nodes go no deeper than this level (the unit enumerates below, whatever it costs). */
  maxBookLevel: number;
  /** Most table bytes; subtrees the table cannot hold are left to the unit's own choice. */
  maxBytes: number;
  /** Secrets measured: all (0) or a uniform sample of this many. */
  sample: number;
  /** Issue 8's targets: average guesses over all secrets (or the sample), and the worst case (0 = none). */
  targetAverage: number;
  targetWorst: number;
  /** The best figure published, and the plain heuristics measured, for the report. */
  published: string;
}

function variant(key: VariantKey, v: Omit<Variant, "key" | "rules" | "storageName">): Variant {
  const harder = key.endsWith("+");
  const rules = rulesFor((harder ? key.slice(0, -1) : key) as PresetId, harder);
  return { key, rules, storageName: solverTableName(rules), ...v };
}

export const VARIANTS: Variant[] = [
  variant("brainiac", {
    name: "Brainiac (4 pegs, 6 colours, repeats)",
    rank: "sumsq",
    // Every kind of first guess, and every distinct guess for sets of up to 300 secrets: this finds Koyama & Lai's optimum.
    width: (level, n) => (level === 1 ? 5 : n <= 300 ? 1000 : 1),
    symmetricLevels: 4,
    maxDepth: 6,
    sampledPool: 0,
    takeoverMs: 1200,
    policyMsMax: MOVE_MS_MAX,
    moveMsMax: MOVE_MS_MAX,
    maxBookLevel: 9,
    maxBytes: 4096,
    sample: 0,
    targetAverage: 4.35,
    targetWorst: 6,
    published: "optimal 4.340 / 6 (Koyama & Lai 1993); Knuth 4.476 / 5; most-parts 4.373, entropy 4.415",
  }),
  variant("brainiac+", {
    name: "Brainiac extra challenge (4 pegs, 7 symbols with the blank, repeats)",
    rank: "entropy",
    // Entropy's own first guess is not the best one here: all five kinds of first guess are searched.
    width: (level, n) => (level === 1 ? 5 : n <= 250 ? 1000 : 1),
    symmetricLevels: 4,
    maxDepth: 7,
    sampledPool: 0,
    takeoverMs: 1500,
    policyMsMax: MOVE_MS_MAX,
    moveMsMax: MOVE_MS_MAX,
    maxBookLevel: 9,
    maxBytes: 4096,
    sample: 0,
    targetAverage: 4.7,
    targetWorst: 0,
    published: "optimal 4.676 (Ville 2013); entropy 4.739",
  }),
  variant("travel", {
    name: "travel unit (4 pegs, 8 colours, secret without repeats)",
    rank: "sumsq",
    width: (level, n) => (level === 1 ? 5 : n <= 250 ? 1000 : 1),
    symmetricLevels: 4,
    maxDepth: 6,
    sampledPool: 0,
    takeoverMs: 1500,
    policyMsMax: MOVE_MS_MAX,
    moveMsMax: MOVE_MS_MAX,
    maxBookLevel: 9,
    maxBytes: 4096,
    sample: 0,
    targetAverage: 4.66,
    targetWorst: 0,
    published: "optimal 4.653 / 6 (published optimal tree); entropy 4.698",
  }),
  variant("travel+", {
    name: "travel unit expert (4 pegs, 8 unique colours + repeatable blank)",
    rank: "entropy",
    width: (level, n) => (level === 1 ? 12 : n <= 150 ? 1000 : 1),
    symmetricLevels: 4,
    maxDepth: 8,
    sampledPool: 0,
    takeoverMs: 3500,
    policyMsMax: MOVE_MS_MAX,
    moveMsMax: MOVE_MS_MAX,
    maxBookLevel: 9,
    maxBytes: 4096,
    sample: 0,
    // No published figure: the target is to beat plain entropy (measured with the same tools: 5.0027).
    targetAverage: 5.0027,
    targetWorst: 0,
    published: "none known; plain entropy (measured here) 5.003 / 7",
  }),
  variant("race", {
    name: "race (5 pegs, 8 colours, no repeats, guesses all different)",
    rank: "entropy",
    width: (_level, n) => (n <= 30 ? 1000 : 1),
    symmetricLevels: 3,
    maxDepth: 8,
    sampledPool: 0,
    takeoverMs: 9000,
    // (400 ms would need a table of 11.6 KB: almost every node of the tree spelt out.)
    policyMsMax: 500,
    moveMsMax: MOVE_MS_MAX,
    maxBookLevel: 9,
    maxBytes: 4096,
    sample: 0,
    targetAverage: 5.16,
    targetWorst: 0,
    published: "none known; entropy 5.164 / 7",
  }),
  variant("race+", {
    name: "race advanced (5 pegs, 9 symbols with the blank, repeats)",
    rank: "entropy",
    // Every guess scanned at every node; from the second guess on the best 2 (up to 8 where sets are small) are each expanded in full.
    width: (level, n) => (level < 2 ? 1 : level <= 3 ? (n <= 8000 ? 2 : 1) : n <= 8 ? 8 : n <= 40 ? 5 : n <= 300 ? 4 : n <= 1200 ? 3 : 2),
    symmetricLevels: 3,
    maxDepth: 10,
    sampledPool: 0,
    takeoverMs: 30000,
    // (1.5 s would need a table of 11.3 KB.)
    policyMsMax: 3000,
    // Where its book ends (3 rows played) finding even the first code that fits takes a Pico up to 2.5 s at some takeovers;
    // MOVE_BUDGET_MS cuts the others at 0.5 s. (A book to the 4th level, 8.8 KB, left 4.3 s at 399 takeovers after 4 rows,
    // and the bench's race advanced game its longest move there, 3 s, for 0.4 s at the 4th.)
    moveMsMax: 2600,
    maxBookLevel: 3,
    maxBytes: 7400,
    sample: 0,
    // Better than plain entropy (the table, with the first candidates played where a move outlasts MOVE_BUDGET_MS: 5.8286).
    targetAverage: 5.835,
    targetWorst: 0,
    published: "none known; entropy 5.835 / 8",
  }),
];

export function variantOf(key: string): Variant {
  const v = VARIANTS.find((x) => x.key === key);
  if (!v) throw new Error(`unknown variant "${key}" (known: ${VARIANT_KEYS.join(", ")})`);
  return v;
}
