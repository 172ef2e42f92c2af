/**
 * Node side of the solver generator: a decision tree for a set of possible secrets, chosen by a
 * heuristic ranking (expected remaining size, most parts or entropy) with a lookahead: at each node
 * the `width` best-ranked guesses (one per distinct split of the set) are each expanded into a full
 * subtree, recursively, and the one with the fewest total guesses wins. With a width covering every
 * guess the search is exact for that node. Options whose lower bound already loses are pruned, sets
 * met again through other orders of the same guesses are remembered, and at the top levels only one
 * guess per symmetry orbit is tried (symmetry.ts).
 */
import { FastClass, type Space, unpack } from "./space.ts";
import { canonicalGuesses } from "./symmetry.ts";
import type { Code } from "../../core/types.ts";

/** A decision-tree node: the guess (index into space.guesses) and the subtree per feedback class. */
export interface TreeNode {
  guess: number;
  /** Total guesses, summed over the node's secrets, from this guess on (this guess included). */
  cost: number;
  /** Most guesses any of the node's secrets needs from here (this guess included). */
  depth: number;
  /** Number of secrets that reach this node. */
  size: number;
  /** Child per non-winning feedback class, by class id. */
  kids: Map<number, TreeNode>;
}

/** How wide the lookahead is at a tree level (1 = the root) for a set of n secrets. */
export type WidthSchedule = (level: number, n: number) => number;

export interface SearchOptions {
  width: WidthSchedule;
  /** Guesses tried at a node: all guesses, or only the node's own candidates below this many secrets. */
  candidatesOnlyBelow?: number;
  /** Most guesses any secret may need (a subtree deeper than this loses to any other). */
  maxDepth: number;
  /** The guesses tried for a set at a level after the `played` guesses, when not all of them (e.g. a sample, for huge spaces). */
  pool?: (set: Int32Array, level: number, played: Code[], search: TreeSearch) => ArrayLike<number>;
  /** Down to this level, try one guess per orbit under the symmetries of the guesses played (exact, and much faster). */
  symmetricLevels?: number;
  /** How guesses are ranked before the lookahead: expected size (default), most parts, or entropy. */
  rank?: "sumsq" | "parts" | "entropy";
}

/** A guess ranked for a set: its expected remaining size (sum of squares of the parts). */
interface Ranked {
  guess: number;
  /** Lower bound of the total guesses with this guess first. */
  bound: number;
  sumsq: number;
  /** Σ k log k over the parts: lower means more information (entropy ranking). */
  klogk: number;
  parts: number;
  inSet: boolean;
}

export class TreeSearch {
  readonly space: Space;
  readonly opts: SearchOptions;
  private readonly n: number;
  private readonly counts: Int32Array;
  private readonly marks: Uint8Array;
  private readonly klogk: Float64Array;
  /** lowerBound[k]: fewest total guesses any strategy needs for k secrets. */
  private readonly lowerBound: Int32Array;
  /** Fills out[i] with the feedback class of guess gi against secret set[i]. */
  private readonly classesOf: (gi: number, set: ArrayLike<number>, out: Uint8Array) => void;
  private scratch = new Uint8Array(64);
  nodesExpanded = 0;

  constructor(space: Space, opts: SearchOptions) {
    this.space = space;
    this.opts = opts;
    this.n = space.secrets.length;
    this.counts = new Int32Array(space.classCount);
    this.marks = new Uint8Array(space.secrets.length);
    this.klogk = new Float64Array(space.secrets.length + 1);
    for (let k = 1; k <= space.secrets.length; k++) this.klogk[k] = k * Math.log(k);
    const matrix = space.matrix;
    const n = this.n;
    if (matrix) {
      this.classesOf = (gi, set, out) => {
        const base = gi * n;
        for (let i = 0; i < set.length; i++) out[i] = matrix[base + set[i]];
      };
    } else {
      const fast = new FastClass(space);
      this.classesOf = (gi, set, out) => fast.classes(gi, set, out);
    }
    // With b non-winning feedbacks, one secret is solved by the first guess, at most b more by the second, b^2 by the third...
    const b = ((space.pegs + 1) * (space.pegs + 2)) / 2 - 2;
    this.lowerBound = new Int32Array(n + 1);
    let total = 0;
    let depth = 1;
    let room = 1;
    let used = 0;
    for (let k = 1; k <= n; k++) {
      if (used === room) {
        depth++;
        room = Math.pow(b, depth - 1);
        used = 0;
      }
      used++;
      total += depth;
      this.lowerBound[k] = total;
    }
  }

  /**
   * The guesses of `pool` worth trying for the set (secret indexes), best first by the ranking: each
   * with its lower bound. Guesses that learn nothing are left out.
   */
  rank(set: Int32Array, pool: ArrayLike<number>): Ranked[] {
    const counts = this.counts;
    const marks = this.marks;
    const win = this.space.winClass;
    const rankBy = this.opts.rank ?? "sumsq";
    const keys = new Float64Array(pool.length);
    const found: Ranked[] = [];
    for (let i = 0; i < set.length; i++) marks[set[i]] = 1;
    for (let p = 0; p < pool.length; p++) {
      const gi = pool[p];
      const classes = this.classes(gi, set);
      counts.fill(0);
      for (let i = 0; i < set.length; i++) counts[classes[i]]++;
      let sumsq = 0;
      let klogk = 0;
      let parts = 0;
      let bound = set.length;
      for (let c = 0; c < counts.length; c++) {
        const k = counts[c];
        if (k) {
          parts++;
          sumsq += k * k;
          klogk += this.klogk[k];
          if (c !== win) bound += this.lowerBound[k];
        }
      }
      const asSecret = this.space.guessAsSecret[gi];
      const inSet = asSecret >= 0 && marks[asSecret] === 1;
      if (parts === 1 && !inSet) continue;
      // One sortable number per guess: the score, then candidates first, then the guess index.
      const score =
        rankBy === "parts" ? (64 - parts) * 1e9 + sumsq : rankBy === "entropy" ? Math.round(klogk * 1000) : sumsq * 64 + (64 - parts);
      keys[found.length] = (score * 2 + (inSet ? 0 : 1)) * 65536 + found.length;
      found.push({ guess: gi, bound, sumsq, klogk, parts, inSet });
    }
    for (let i = 0; i < set.length; i++) marks[set[i]] = 0;
    const sorted = keys.subarray(0, found.length).sort();
    const out: Ranked[] = [];
    for (let i = 0; i < sorted.length; i++) out.push(found[sorted[i] % 65536]);
    return out;
  }

  /** The feedback classes of guess gi against the set's secrets (a shared buffer, valid until the next call). */
  classes(gi: number, set: ArrayLike<number>): Uint8Array {
    if (this.scratch.length < set.length) this.scratch = new Uint8Array(set.length * 2);
    this.classesOf(gi, set, this.scratch);
    return this.scratch;
  }

  /** The set's secrets split by their feedback to guess gi (the winning class left out). */
  split(set: Int32Array, gi: number): Map<number, Int32Array> {
    const classes = this.classes(gi, set);
    const groups = new Map<number, number[]>();
    for (let i = 0; i < set.length; i++) {
      const c = classes[i];
      if (c === this.space.winClass) continue;
      let g = groups.get(c);
      if (!g) groups.set(c, (g = []));
      g.push(set[i]);
    }
    const out = new Map<number, Int32Array>();
    for (const c of [...groups.keys()].sort((a, b) => a - b)) out.set(c, Int32Array.from(groups.get(c)!));
    return out;
  }

  /** Guesses worth trying for a set: all of them, or the set's own secrets when it is small. */
  pool(set: Int32Array, candidates = false, level = 1, played: Code[] = []): ArrayLike<number> {
    const below = this.opts.candidatesOnlyBelow ?? 0;
    if (!candidates && level <= (this.opts.symmetricLevels ?? 0)) {
      const key = played.map((g) => g.join("")).join(",");
      let pool = this.canonical.get(key);
      if (!pool) this.canonical.set(key, (pool = Int32Array.from(canonicalGuesses(this.space, played))));
      return pool;
    }
    if (!candidates && this.opts.pool) return this.opts.pool(set, level, played, this);
    if (candidates || set.length < below) {
      const out: number[] = [];
      for (let i = 0; i < set.length; i++) out.push(this.guessOfSecret(set[i]));
      return out;
    }
    return this.allGuesses();
  }

  private readonly canonical = new Map<string, Int32Array>();
  private all: Int32Array | null = null;
  private allGuesses(): Int32Array {
    if (!this.all) {
      this.all = new Int32Array(this.space.guesses.length);
      for (let i = 0; i < this.all.length; i++) this.all[i] = i;
    }
    return this.all;
  }

  private secretToGuess: Int32Array | null = null;
  /** The guess index of a secret (every valid secret is a valid guess in every preset). */
  guessOfSecret(si: number): number {
    if (!this.secretToGuess) {
      this.secretToGuess = new Int32Array(this.n).fill(-1);
      const gs = this.space.guessAsSecret;
      for (let gi = 0; gi < gs.length; gi++) if (gs[gi] >= 0) this.secretToGuess[gs[gi]] = gi;
    }
    return this.secretToGuess[si];
  }

  /** Fewest total guesses for k secrets under any strategy. */
  bound(k: number): number {
    return this.lowerBound[k];
  }

  /** The best tree found for the set at this level (1 = first guess), or null when none beats `limit` total guesses. */
  solve(set: Int32Array, level: number, limit = Infinity, played: Code[] = []): TreeNode | null {
    const n = set.length;
    if (n === 1) return { guess: this.guessOfSecret(set[0]), cost: 1, depth: 1, size: 1, kids: new Map() };
    if (n === 2) {
      const kids = this.split(set, this.guessOfSecret(set[0]));
      const kid: TreeNode = { guess: this.guessOfSecret(set[1]), cost: 1, depth: 1, size: 1, kids: new Map() };
      return { guess: this.guessOfSecret(set[0]), cost: 3, depth: 2, size: 2, kids: new Map([[kids.keys().next().value!, kid]]) };
    }
    if (this.lowerBound[n] >= limit) return null;
    // The same set comes back in other orders of the same guesses: remember what was found for it.
    let h1 = 0x811c9dc5 ^ level;
    let h2 = n;
    for (let i = 0; i < n; i++) {
      h1 = Math.imul(h1 ^ set[i], 0x01000193);
      h2 = (Math.imul(h2, 0x5bd1e995) + set[i]) | 0;
    }
    const key = (h1 >>> 0) * 2097152 + (h2 & 2097151);
    const known = this.memo.get(key);
    if (known) {
      if (known.node) return known.node.cost < limit ? known.node : null;
      if (known.atLeast >= limit) return null;
    }
    const found = this.search(set, level, limit, played);
    this.memo.set(key, { node: found, atLeast: found ? found.cost : limit });
    return found;
  }

  private readonly memo = new Map<number, { node: TreeNode | null; atLeast: number }>();

  private search(set: Int32Array, level: number, limit: number, played: Code[]): TreeNode | null {
    const n = set.length;
    this.nodesExpanded++;
    // A candidate that tells all the others apart is optimal: no need to look at other guesses.
    let ranked = this.rank(set, this.pool(set, true));
    if (!(ranked.length && ranked[0].parts === n && ranked[0].bound === this.lowerBound[n]))
      ranked = this.rank(set, this.pool(set, false, level, played));
    const width = Math.max(1, this.opts.width(level, n));
    const maxDepthHere = this.opts.maxDepth - level + 1;
    let best: TreeNode | null = null;
    let bestLimit = limit;
    // Guesses that split the set alike are one option: only the first of them counts towards the width.
    const seen = new Set<number>();
    for (let r = 0; r < ranked.length && seen.size < width; r++) {
      const gi = ranked[r].guess;
      const bound = ranked[r].bound;
      if (bound >= bestLimit) continue;
      const groups = this.split(set, gi);
      let signature = ranked[r].inSet ? 1 : 0;
      for (const g of groups.values()) {
        let h = g.length;
        for (let i = 0; i < g.length; i++) h = Math.imul(h ^ g[i], 0x01000193);
        signature = (signature + (h >>> 0)) % 4294967291;
      }
      if (seen.has(signature)) continue;
      seen.add(signature);
      const kids = new Map<number, TreeNode>();
      const nextPlayed = [...played, unpack(this.space.guesses[gi], this.space.pegs, this.space.symbols)];
      let cost = n;
      let depth = 1;
      let failed = false;
      // Largest parts first: they decide whether the option can still win, so pruning comes early.
      const order = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
      let restBound = bound - n;
      for (const [c, g] of order) {
        restBound -= this.lowerBound[g.length];
        const kid = this.solve(g, level + 1, bestLimit - cost - restBound, nextPlayed);
        if (!kid) {
          failed = true;
          break;
        }
        cost += kid.cost;
        depth = Math.max(depth, kid.depth + 1);
        kids.set(c, kid);
        if (cost + restBound >= bestLimit) {
          failed = true;
          break;
        }
      }
      if (failed) continue;
      if (depth > maxDepthHere && best && best.depth <= maxDepthHere) continue;
      if (!best || (best.depth > maxDepthHere && depth <= maxDepthHere) || cost < best.cost) {
        const sorted = new Map([...kids.entries()].sort((a, b) => a[0] - b[0]));
        best = { guess: gi, cost, depth, size: n, kids: sorted };
        if (best.depth <= maxDepthHere) bestLimit = cost;
        if (cost === this.lowerBound[n]) break;
      }
    }
    return best;
  }
}

/** Every node of a tree, parents before children, children in class order. */
export function* preorder(node: TreeNode): Generator<TreeNode> {
  yield node;
  for (const kid of node.kids.values()) yield* preorder(kid);
}
