/**
 * Node side of the solver generator: a decision tree for a set of possible secrets, chosen by a
 * heuristic (expected remaining size) with a lookahead: at each node the `width` best-ranked guesses
 * are each expanded into a full subtree (recursively, with narrower widths below), and the one with
 * the fewest total guesses wins. Subtrees whose lower bound already loses are pruned.
 */
import type { Space } from "./space.ts";

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
}

/** A guess ranked for a set: its expected remaining size (sum of squares of the parts). */
interface Ranked {
  guess: number;
  /** Lower bound of the total guesses with this guess first. */
  bound: number;
  sumsq: number;
  parts: number;
  inSet: boolean;
}

export class TreeSearch {
  readonly space: Space;
  readonly opts: SearchOptions;
  private readonly n: number;
  private readonly counts: Int32Array;
  private readonly relabel: Int32Array;
  private readonly marks: Uint8Array;
  /** lowerBound[k]: fewest total guesses any strategy needs for k secrets. */
  private readonly lowerBound: Int32Array;
  /** Per-guess row of the feedback matrix, or computed on demand. */
  private readonly rowOf: (gi: number) => Uint8Array;
  nodesExpanded = 0;

  constructor(space: Space, opts: SearchOptions, rowOf?: (gi: number) => Uint8Array) {
    this.space = space;
    this.opts = opts;
    this.n = space.secrets.length;
    this.counts = new Int32Array(space.classCount);
    this.relabel = new Int32Array(space.classCount);
    this.marks = new Uint8Array(space.secrets.length);
    const matrix = space.matrix;
    const n = this.n;
    if (rowOf) this.rowOf = rowOf;
    else if (matrix) this.rowOf = (gi) => matrix.subarray(gi * n, gi * n + n);
    else throw new Error("a space without a matrix needs a row function");
    // With b non-winning classes, one secret is solved by the first guess, at most b more by the second, b^2 by the third...
    const b = space.classCount - 1 - space.pegs;
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

  /** The rank of every guess in `pool` for the set (secret indexes). */
  rank(set: Int32Array, pool: ArrayLike<number>): Ranked[] {
    const counts = this.counts;
    const relabel = this.relabel;
    const out: Ranked[] = [];
    const marks = this.marks;
    const seen = new Set<number>();
    for (let i = 0; i < set.length; i++) marks[set[i]] = 1;
    for (let p = 0; p < pool.length; p++) {
      const gi = pool[p];
      const row = this.rowOf(gi);
      counts.fill(0);
      relabel.fill(0);
      // The partition up to the names of its classes: guesses that split the set alike are one option.
      let next = 1;
      let h1 = 0x811c9dc5;
      let h2 = 0x12345;
      for (let i = 0; i < set.length; i++) {
        const c = row[set[i]];
        counts[c]++;
        let l = relabel[c];
        if (!l) l = relabel[c] = c === this.space.winClass ? 99 : next++;
        h1 = Math.imul(h1 ^ l, 0x01000193);
        h2 = (Math.imul(h2, 31) + l) | 0;
      }
      const sig = (h1 >>> 0) * 2097152 + (h2 & 2097151);
      if (seen.has(sig)) continue;
      seen.add(sig);
      let sumsq = 0;
      let parts = 0;
      let bound = set.length;
      for (let c = 0; c < counts.length; c++) {
        const k = counts[c];
        if (k) {
          parts++;
          sumsq += k * k;
          if (c !== this.space.winClass) bound += this.lowerBound[k];
        }
      }
      const asSecret = this.space.guessAsSecret[gi];
      if (parts === 1 && !(asSecret >= 0 && marks[asSecret] === 1)) continue;
      out.push({ guess: gi, bound, sumsq, parts, inSet: asSecret >= 0 && marks[asSecret] === 1 });
    }
    for (let i = 0; i < set.length; i++) marks[set[i]] = 0;
    if (process.env.RANK === "parts")
      out.sort((a, b) => b.parts - a.parts || a.sumsq - b.sumsq || Number(b.inSet) - Number(a.inSet) || a.guess - b.guess);
    else out.sort((a, b) => a.sumsq - b.sumsq || b.parts - a.parts || Number(b.inSet) - Number(a.inSet) || a.guess - b.guess);
    return out;
  }

  /** The set's secrets split by their feedback to guess gi (the winning class left out). */
  split(set: Int32Array, gi: number): Map<number, Int32Array> {
    const row = this.rowOf(gi);
    const groups = new Map<number, number[]>();
    for (let i = 0; i < set.length; i++) {
      const c = row[set[i]];
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
  pool(set: Int32Array, candidates = false): ArrayLike<number> {
    const below = this.opts.candidatesOnlyBelow ?? 0;
    if (candidates || set.length < below) {
      const out: number[] = [];
      for (let i = 0; i < set.length; i++) out.push(this.guessOfSecret(set[i]));
      return out;
    }
    return this.allGuesses();
  }

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
  solve(set: Int32Array, level: number, limit = Infinity, pool?: ArrayLike<number>): TreeNode | null {
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
    const found = this.search(set, level, limit, pool);
    this.memo.set(key, { node: found, atLeast: found ? found.cost : limit });
    return found;
  }

  private readonly memo = new Map<number, { node: TreeNode | null; atLeast: number }>();

  private search(set: Int32Array, level: number, limit: number, pool?: ArrayLike<number>): TreeNode | null {
    const n = set.length;
    this.nodesExpanded++;
    // A candidate that tells all the others apart is optimal: no need to look at other guesses.
    let ranked = this.rank(set, this.pool(set, true));
    if (!(ranked.length && ranked[0].parts === n && ranked[0].bound === this.lowerBound[n]))
      ranked = this.rank(set, pool ?? this.pool(set));
    const width = Math.max(1, this.opts.width(level, n));
    const maxDepthHere = this.opts.maxDepth - level + 1;
    let best: TreeNode | null = null;
    let bestLimit = limit;
    for (let r = 0; r < ranked.length && r < width; r++) {
      const gi = ranked[r].guess;
      const bound = ranked[r].bound;
      if (bound >= bestLimit) continue;
      const groups = this.split(set, gi);
      const kids = new Map<number, TreeNode>();
      let cost = n;
      let depth = 1;
      let failed = false;
      // Largest parts first: they decide whether the option can still win, so pruning comes early.
      const order = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
      let restBound = bound - n;
      for (const [c, g] of order) {
        restBound -= this.lowerBound[g.length];
        const kid = this.solve(g, level + 1, bestLimit - cost - restBound);
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
