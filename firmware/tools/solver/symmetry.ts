/**
 * Node side of the solver generator: the guesses worth trying after some guesses, up to symmetry.
 *
 * Permuting the holes and renaming the symbols (the blank is a symbol like any other in every
 * preset) maps valid codes to valid codes and keeps every feedback. The permutations that map
 * each guess played so far to itself therefore map the set of secrets still possible to itself,
 * and two guesses related by one of them split that set alike: trying one guess per orbit is
 * enough. At the root every guess with the same pattern of repeats is equivalent; after a guess
 * or two the orbits are still large, which makes exact searches at the top of the tree affordable.
 */
import type { Code } from "../../core/types.ts";
import { type Space, pack, unpack } from "./space.ts";

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let at = 0; at <= rest.length; at++) out.push([...rest.slice(0, at), n - 1, ...rest.slice(at)]);
  }
  return out;
}

/** One symmetry of the guesses played: a permutation of the holes, and the renaming of the symbols they use. */
interface Symmetry {
  holes: number[];
  /** rename[s] for the symbols the played guesses use; -1 for the others (renamed by first use). */
  rename: Int8Array;
}

function symmetriesOf(played: Code[], pegs: number, symbols: number, fixed: number): Symmetry[] {
  const out: Symmetry[] = [];
  for (const holes of permutations(pegs)) {
    const rename = new Int8Array(symbols).fill(-1);
    const taken = new Int8Array(symbols).fill(-1);
    if (fixed >= 0) rename[fixed] = taken[fixed] = fixed;
    let ok = true;
    for (const g of played) {
      for (let i = 0; i < pegs && ok; i++) {
        const from = g[holes[i]];
        const to = g[i];
        if (rename[from] === -1 && taken[to] === -1) {
          rename[from] = to;
          taken[to] = from;
        } else if (rename[from] !== to) ok = false;
      }
    }
    if (ok) out.push({ holes, rename });
  }
  return out;
}

/**
 * One guess (index into space.guesses) per orbit of the guesses under the symmetries of `played`:
 * the one whose packed value is the smallest of its orbit. The travel unit's expert variant treats
 * the blank unlike the colours (it may repeat in a secret, they may not): there it stays a blank.
 */
export function canonicalGuesses(space: Space, played: Code[]): number[] {
  const { pegs, symbols, rules } = space;
  const fixed = rules.blanks && !rules.secretRepeats ? rules.colours : -1;
  const symmetries = symmetriesOf(played, pegs, symbols, fixed);
  const used = new Uint8Array(symbols);
  if (fixed >= 0) used[fixed] = 1;
  for (const g of played) for (const s of g) used[s] = 1;
  const unused: number[] = [];
  for (let s = 0; s < symbols; s++) if (!used[s]) unused.push(s);
  const image = new Array<number>(pegs);
  const fresh = new Int8Array(symbols);
  const out: number[] = [];
  for (let gi = 0; gi < space.guesses.length; gi++) {
    const v = space.guesses[gi];
    const code = unpack(v, pegs, symbols);
    let canonical = true;
    for (const sym of symmetries) {
      fresh.fill(-1);
      let next = 0;
      for (let i = 0; i < pegs; i++) {
        const s = code[sym.holes[i]];
        if (used[s]) image[i] = sym.rename[s];
        else {
          if (fresh[s] === -1) fresh[s] = unused[next++];
          image[i] = fresh[s];
        }
      }
      if (pack(image, symbols) < v) {
        canonical = false;
        break;
      }
    }
    if (canonical) out.push(gi);
  }
  return out;
}
