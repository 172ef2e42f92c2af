/**
 * npm run solver:tables [-- --only KEY,KEY] [--fresh]
 *
 * Builds each codebreaker variant's decision tree (search.ts), decides where the unit takes over
 * from the book and which subtrees it chooses itself, writes the table (encode.ts) to
 * firmware/core/tables/<storage name>.bin, checks it by playing the unit's own solver
 * (firmware/core/solver.ts) against every secret (or a variant's stated uniform sample), and records the
 * figures in firmware/core/tables/manifest.json. Trees are cached in node_modules/.cache, so a
 * re-run only encodes and checks; --fresh searches again. Searching takes minutes per variant.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CANDIDATE_CAP, MOVE_BUDGET_MS, POLICY_BUDGET } from "../../core/solver.ts";
import { enumerateCandidates } from "./enumerate.ts";
import type { Row } from "../../core/types.ts";
import { bitsFor, classFeedback, encodeTable, lengthBits, type EncodePlan, type EncodeStats } from "./encode.ts";
import { playAll, sampleSecrets } from "./play.ts";
import { TreeSearch, type TreeNode } from "./search.ts";
import { buildSpace, ClassOf, type Space, unpack } from "./space.ts";
import { MANIFEST, TABLES_DIR, VARIANTS, variantOf, type Variant } from "./variants.ts";
import { Prng } from "../prng.ts";
import { EARLY_MS, enumMs, MOVE_MS_MAX, passMs, policyMs, policyMsBelow, TIE_MS } from "./work.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** Where searched trees are kept (BRAINBOARD_SOLVER_CACHE overrides it, e.g. for a worktree whose node_modules is shared). */
const CACHE_DIR = (process.env.BRAINBOARD_SOLVER_CACHE ?? ROOT + "node_modules/.cache/brainboard-solver").replace(/\/?$/, "/");
/** Bump when the search changes in a way the cache key does not see. */
const SEARCH_VERSION = 1;
/** Seed of the uniform sample of secrets that variants too big to play in full are measured on. */
export const SAMPLE_SEED = 8;

/** What the manifest records per variant. */
export interface TableRecord {
  file: string;
  storageName: string;
  bytes: number;
  sha256: string;
  /** Secrets played, and whether that is every secret. */
  games: number;
  allSecrets: boolean;
  averageGuesses: number;
  worstGuesses: number;
  meanEvalsPerMove: number;
  maxEvalsPerMove: number;
  /** The most Pico ms of a move's evaluations after the answer, priced as an enumeration's (play.ts maxMoveMs). */
  maxMoveMs: number;
  /** The longest planned takeover (where the book ends), from the answer to the guess, in Pico ms (work.ts). */
  maxTakeoverMs: number;
  /** The most evaluations the unit ponders between two moves (while the player answers). */
  maxPonderEvals: number;
  bookNodes: number;
  candidateNodes: number;
  policyNodes: number;
  /** Most candidates the unit holds (where it takes over from the book): its list is CANDIDATE_CAP long. */
  largestList: number;
  /** The search tree's own average over all secrets (what the table gives where it holds the whole tree). */
  treeAverage: number;
  search: string;
}

export interface Manifest {
  format: 1;
  tables: Record<string, TableRecord>;
}

// ---- trees: search, cache ----

/** A tree node as JSON: guess, number of secrets, children by class. */
type SerialNode = [number, number, [number, SerialNode][]];

function serialise(node: TreeNode): SerialNode {
  return [node.guess, node.size, [...node.kids].map(([c, k]) => [c, serialise(k)] as [number, SerialNode])];
}

function deserialise(s: SerialNode): TreeNode {
  const kids = new Map<number, TreeNode>();
  let cost = s[1];
  let depth = 1;
  for (const [c, k] of s[2]) {
    const kid = deserialise(k);
    kids.set(c, kid);
    cost += kid.cost;
    depth = Math.max(depth, kid.depth + 1);
  }
  return { guess: s[0], cost, depth, size: s[1], kids };
}

function searchDescription(v: Variant): string {
  const widths = [1, 2, 3, 4].map((level) => [10, 40, 120, 200, 400, 2000].map((n) => v.width(level, n)).join("/")).join(" ");
  // (The smallest sets only where their width differs, so that the other variants' descriptions, and cache keys, stay as they were.)
  const small = [1, 2, 3, 4].map((level) => v.width(level, 5));
  const smallNote = small.some((w, i) => w !== v.width(i + 1, 10)) ? `, n=5: ${small.join(" ")}` : "";
  return `rank ${v.rank}, widths by level for n=10/40/120/200/400/2000: ${widths}${smallNote}, symmetric levels ${v.symmetricLevels}, max depth ${v.maxDepth}${v.sampledPool ? `, ${v.sampledPool} sampled guesses per node below` : ""}`;
}

export { buildTree, spaceOf };

function buildTree(v: Variant, space: Space, fresh: boolean): TreeNode {
  const key = createHash("sha256")
    .update(JSON.stringify([SEARCH_VERSION, v.key, searchDescription(v)]))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = `${CACHE_DIR}${v.storageName}-${key}.json`;
  if (!fresh && existsSync(cacheFile)) return deserialise(JSON.parse(readFileSync(cacheFile, "utf8")) as SerialNode);
  const started = Date.now();
  const search = new TreeSearch(space, {
    rank: v.rank,
    width: v.width,
    maxDepth: v.maxDepth,
    symmetricLevels: v.symmetricLevels,
    pool: v.sampledPool
      ? (set, _level, _played, s) => {
          // Huge spaces below the symmetric levels: the candidates when few, and a sample of the other guesses.
          let h = set.length;
          for (let i = 0; i < Math.min(set.length, 8); i++) h = Math.imul(h ^ set[i], 0x01000193);
          // Seeded per node, so that the pool of a set does not depend on the order of the search.
          const prng = new Prng(h);
          const rand = () => prng.next();
          const out = new Set<number>();
          if (set.length <= 400) for (let i = 0; i < set.length; i++) out.add(s.guessOfSecret(set[i]));
          const want = out.size + (set.length > 100 ? v.sampledPool : Math.max(300, v.sampledPool / 3));
          while (out.size < want) out.add(Math.floor(rand() * space.guesses.length));
          return [...out];
        }
      : undefined,
  });
  const all = new Int32Array(space.secrets.length).map((_, i) => i);
  const tree = search.solve(all, 1);
  if (!tree) throw new Error(`${v.key}: the search found no tree`);
  console.log(`${v.key}: searched in ${((Date.now() - started) / 1000).toFixed(0)} s, ${search.nodesExpanded} nodes expanded`);
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(serialise(tree)));
  return tree;
}

// ---- the plan: book nodes, takeover lists, the unit's own subtrees ----

class Planner {
  readonly space: Space;
  readonly v: Variant;
  private readonly cls: ClassOf;
  private readonly index = new Map<number, number>();
  private readonly secretGuess: Int32Array;
  private readonly packBits: number;
  private readonly policyCosts = new Map<TreeNode, number>();
  private readonly splits = new Map<TreeNode, Map<number, number[]>>();
  readonly plan: EncodePlan;
  /** Candidate children of book nodes, with their candidates in enumeration order and what enumerating them costs the unit. */
  readonly takeovers: { node: TreeNode; list: number[]; ms: number; toGuessMs: number }[] = [];

  constructor(space: Space, v: Variant) {
    this.space = space;
    this.v = v;
    this.cls = new ClassOf(space.pegs, space.symbols);
    space.secrets.forEach((s, i) => this.index.set(s, i));
    this.secretGuess = new Int32Array(space.secrets.length);
    space.guessAsSecret.forEach((si, gi) => {
      if (si >= 0) this.secretGuess[si] = gi;
    });
    this.packBits = bitsFor(Math.pow(space.symbols, space.pegs));
    this.plan = {
      space,
      split: (set, gi) => this.split(set, gi),
      bookNodes: new Set(),
      takeoverLists: new Map(),
      packedTakeovers: new Set(),
      policyNodes: new Set(),
    };
  }

  split(set: number[], gi: number): Map<number, number[]> {
    const groups = new Map<number, number[]>();
    this.cls.setGuess(this.space.guesses[gi]);
    for (const si of set) {
      const c = this.cls.of(this.space.secrets[si]);
      if (c === this.space.winClass) continue;
      let g = groups.get(c);
      if (!g) groups.set(c, (g = []));
      g.push(si);
    }
    return new Map([...groups].sort((a, b) => a[0] - b[0]));
  }

  private splitOf(node: TreeNode, list: number[]): Map<number, number[]> {
    let s = this.splits.get(node);
    if (!s) this.splits.set(node, (s = this.split(list, node.guess)));
    return s;
  }

  /**
   * Walks the book from the root: a child stays a book node while the unit would take too long over its candidates (to
   * its guess after the answer, or to them all, pondering), or they are too many to hold.
   */
  book(tree: TreeNode, set: number[], path: Row[], level: number): TreeNode {
    // (A copy: the plan may put another node in place of a child, and the tree is the caller's.)
    const node: TreeNode = { ...tree, kids: new Map(tree.kids) };
    this.plan.bookNodes.add(node);
    const code = unpack(this.space.guesses[node.guess], this.space.pegs, this.space.symbols);
    for (const [c, kid] of this.split(set, node.guess)) {
      const child = node.kids.get(c)!;
      const childPath = [...path, { guess: code, feedback: classFeedback(c, this.space.pegs) }];
      const found = enumerateCandidates(this.space.rules, childPath);
      const rows = childPath.length;
      const all = enumMs(found.evals, rows);
      // Where the whole enumeration is long, the guess is packed (more bits than an index): the unit plays it once it has
      // found 3 candidates, not all (an index's width needs their number). With fewer, it finds them all first.
      const packed = all > EARLY_MS;
      const toGuess = packed && found.candidates.length > 2 ? enumMs(found.evalsToThird, rows) : all;
      // The unit holds at most CANDIDATE_CAP candidates: more would be enumerated again at every move.
      const tooMany = found.candidates.length > CANDIDATE_CAP;
      if ((all > this.v.takeoverMs || toGuess > MOVE_MS_MAX || tooMany) && level < this.v.maxBookLevel)
        node.kids.set(c, this.book(child, kid, childPath, level + 1));
      else {
        const list = found.candidates.map((p) => this.index.get(p)!);
        if (list.length !== kid.length)
          throw new Error(`${this.v.key}: the unit enumerates ${list.length} candidates where the tree has ${kid.length}`);
        if (tooMany)
          throw new Error(`${this.v.key}: ${found.candidates.length} candidates where the unit takes over, over its ${CANDIDATE_CAP}`);
        let ms = toGuess;
        let takeover = child;
        if (toGuess > MOVE_BUDGET_MS) {
          // Past the move's budget (the book can go no deeper) the unit plays the first candidate it found: the table's
          // guess there is that one (index 0), and below it the unit chooses itself (one or two candidates: the same).
          ms = Math.min(all, Math.max(MOVE_BUDGET_MS, enumMs(found.evalsToFirst, rows)));
          if (list.length > 2) {
            takeover = { guess: this.secretGuess[list[0]], cost: kid.length, depth: 1, size: kid.length, kids: new Map() };
            node.kids.set(c, takeover);
          }
        } else if (packed) this.plan.packedTakeovers.add(child);
        this.plan.takeoverLists.set(takeover, list);
        this.takeovers.push({ node: takeover, list, ms: all, toGuessMs: ms });
      }
    }
    return node;
  }

  /** Total guesses of the unit's own choice (solver.ts policy) over the candidates `list`, in the same order. */
  policyCost(list: number[]): number {
    const n = list.length;
    if (n <= 2) return n === 2 ? 3 : n;
    const tries = Math.max(1, Math.min(n, Math.floor(POLICY_BUDGET / n)));
    const counts = new Int32Array(this.space.classCount);
    let best = 0;
    let bestParts = 0;
    for (let t = 0; t < tries; t++) {
      this.cls.setGuess(this.space.secrets[list[t]]);
      counts.fill(0);
      let parts = 0;
      for (const si of list) if (counts[this.cls.of(this.space.secrets[si])]++ === 0) parts++;
      if (parts > bestParts) {
        bestParts = parts;
        best = t;
      }
    }
    let cost = n;
    for (const kid of this.split(list, this.secretGuess[list[best]]).values()) cost += this.policyCost(kid);
    return cost;
  }

  /**
   * Decides, bottom-up, which candidate nodes the table spells out and which it leaves to the unit:
   * the cheaper in guesses + lambda * bits. Returns the guesses of the subtree, and its bits when the
   * table spells it out (0 when the unit chooses; the flag that says so is the parent's). `before`:
   * the Pico ms the unit has worked on the move when it arrives at the node (its enumeration, or the pass
   * over the parent's candidates); the unit's own choice is left out where it would take the move
   * over `most` (the variant's policyMsMax; MOVE_MS_MAX where the book ends).
   */
  choose(node: TreeNode, list: number[], lambda: number, before: number, most = this.v.policyMsMax): { cost: number; bits: number } {
    const n = list.length;
    if (n <= 2) return { cost: n === 2 ? 3 : n, bits: 0 };
    let policy = this.policyCosts.get(node);
    if (policy === undefined) this.policyCosts.set(node, (policy = this.policyCost(list)));
    // (Below it too, the unit passes over these candidates and chooses again: up to n + POLICY_BUDGET in a move.)
    if (before + policyMs(n) > most || passMs(n) + policyMsBelow(n) > most) policy = Infinity;
    const asSecret = this.space.guessAsSecret[node.guess];
    const packed = !(asSecret >= 0 && list.includes(asSecret)) || this.plan.packedTakeovers.has(node);
    let bits = 1 + (packed ? this.packBits : bitsFor(n));
    let cost = n;
    const sub: number[] = [];
    for (const [c, kid] of this.splitOf(node, list)) {
      const child = node.kids.get(c);
      const r = child ? this.choose(child, kid, lambda, passMs(n)) : { cost: this.policyCost(kid), bits: 0 };
      cost += r.cost;
      if (kid.length > 2) {
        bits += 1 + r.bits;
        if (child && !this.plan.policyNodes.has(child)) sub.push(r.bits);
      }
    }
    for (let i = 0; i < sub.length - 1; i++) bits += lengthBits(sub[i]);
    // Spelt out, the subtree also costs its parent a length (most of the time). On a tie the unit
    // chooses itself only where that is cheap: its own choice costs evaluations.
    // Many small nodes gain one guess for the same bits: a fixed jitter of the price per node lets the
    // table take some of them rather than all or none, so that its size follows lambda smoothly.
    const price = lambda * (1 + (((Math.imul(list[0] + 1, 0x9e3779b1) ^ node.guess) >>> 0) % 1024) / 4096);
    if (policy < cost + price * (bits + lengthBits(bits)) || (policy === cost && policyMs(n) <= TIE_MS)) {
      this.plan.policyNodes.add(node);
      return { cost: policy, bits: 0 };
    }
    this.plan.policyNodes.delete(node);
    return { cost, bits };
  }
}

// ---- one variant ----

const spaces = new Map<string, Space>();
function spaceOf(v: Variant): Space {
  let s = spaces.get(v.key);
  if (!s) spaces.set(v.key, (s = buildSpace(v.rules)));
  return s;
}

/** The secrets a variant is measured on: all, or its fixed uniform sample. */
export function measuredSecrets(v: Variant, size: number): Int32Array | undefined {
  return v.sample ? sampleSecrets(size, v.sample, SAMPLE_SEED) : undefined;
}

/** The table of a tree, fitted to the variant's bytes; and the total guesses the unit will need over every secret with it. */
export function makeTable(
  v: Variant,
  space: Space,
  tree: TreeNode,
): { table: Uint8Array; stats: EncodeStats; predicted: number; largestList: number; takeoverMs: number } {
  const planner = new Planner(space, v);
  const all: number[] = [];
  for (let i = 0; i < space.secrets.length; i++) all.push(i);
  const root = planner.book(tree, all, [], 1);
  let bookGuesses = 0;
  for (const b of planner.plan.bookNodes) bookGuesses += b.size;

  // The smallest lambda (guesses per bit) whose table fits the variant's bytes.
  let largestList = 0;
  for (const t of planner.takeovers) largestList = Math.max(largestList, t.list.length);
  const encode = (
    lambda: number,
  ): { table: Uint8Array; stats: EncodeStats; predicted: number; largestList: number; takeoverMs: number } => {
    let predicted = bookGuesses;
    // The longest takeover from the answer to the guess: where the unit chooses itself there, every candidate, then its passes.
    let takeoverMs = 0;
    for (const t of planner.takeovers) {
      predicted += planner.choose(t.node, t.list, lambda, t.ms, MOVE_MS_MAX).cost;
      const ms = planner.plan.policyNodes.has(t.node) ? t.ms + policyMs(t.list.length) : t.toGuessMs;
      takeoverMs = Math.max(takeoverMs, ms);
    }
    const stats: EncodeStats = { bookNodes: 0, candidateNodes: 0, policyNodes: 0 };
    return { table: encodeTable(root, planner.plan, stats), stats, predicted, largestList, takeoverMs };
  };
  let result = encode(0);
  if (result.table.length > v.maxBytes) {
    let low = 0;
    let high = 1;
    for (let smallest = encode(high).table.length; smallest > v.maxBytes; smallest = encode(high).table.length) {
      // (The book, and the candidate nodes the unit may not leave to itself, are not for sale.)
      if (high > 1e6) throw new Error(`${v.key}: the table needs ${smallest} bytes at least, over the ${v.maxBytes} allowed`);
      high *= 2;
    }
    for (let i = 0; i < 24; i++) {
      const mid = (low + high) / 2;
      if (encode(mid).table.length > v.maxBytes) low = mid;
      else high = mid;
    }
    result = encode(high);
  }
  return result;
}

function generate(v: Variant, fresh: boolean): TableRecord {
  const space = spaceOf(v);
  const tree = buildTree(v, space, fresh);
  const result = makeTable(v, space, tree);
  const { table, stats } = result;
  const file = `${v.storageName}.bin`;
  mkdirSync(TABLES_DIR, { recursive: true });
  writeFileSync(TABLES_DIR + file, table);

  const play = playAll(v.rules, table, { secrets: measuredSecrets(v, space.secrets.length) });
  const record: TableRecord = {
    file,
    storageName: v.storageName,
    bytes: table.length,
    sha256: createHash("sha256").update(table).digest("hex"),
    games: play.games,
    allSecrets: !v.sample,
    averageGuesses: play.guesses / play.games,
    worstGuesses: play.worst,
    meanEvalsPerMove: play.evals / play.moves,
    maxEvalsPerMove: play.maxMoveEvals,
    maxMoveMs: Math.round(play.maxMoveMs),
    maxTakeoverMs: Math.round(result.takeoverMs),
    maxPonderEvals: play.maxPonderEvals,
    bookNodes: stats.bookNodes,
    candidateNodes: stats.candidateNodes,
    policyNodes: stats.policyNodes,
    largestList: result.largestList,
    treeAverage: tree.cost / space.secrets.length,
    search: searchDescription(v),
  };
  if (result.takeoverMs > v.moveMsMax)
    throw new Error(`${v.key}: a takeover takes a Pico ${result.takeoverMs.toFixed(0)} ms to its guess, over the ${v.moveMsMax} allowed`);
  if (play.unsolved) throw new Error(`${v.key}: ${play.unsolved} games not solved within ${v.rules.rows} rows`);
  // The unit's own code, played, must do exactly what the generator planned (its tree, and its model of the unit's own choices).
  if (!v.sample && play.guesses !== result.predicted)
    throw new Error(`${v.key}: the unit played ${play.guesses} guesses in all where the plan needs ${result.predicted}`);
  return record;
}

function readManifest(): Manifest {
  return existsSync(MANIFEST) ? (JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest) : { format: 1, tables: {} };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: "string" }, fresh: { type: "boolean" } } });
  const chosen = values.only ? values.only.split(",").map((k) => variantOf(k.trim())) : VARIANTS;
  const manifest = readManifest();
  for (const v of chosen) {
    const record = generate(v, values.fresh ?? false);
    manifest.tables[v.key] = record;
    console.log(
      `${v.key}: ${record.bytes} bytes (${record.bookNodes} book, ${record.candidateNodes} candidate, ${record.policyNodes} left to the unit); ` +
        `${record.averageGuesses.toFixed(4)} guesses on average over ${record.allSecrets ? "all " : "a sample of "}${record.games} secrets, worst ${record.worstGuesses}; ` +
        `evaluations per move ${record.meanEvalsPerMove.toFixed(0)} mean, ${record.maxEvalsPerMove} max, ${record.maxPonderEvals} most pondered`,
    );
    const ordered: Record<string, TableRecord> = {};
    for (const x of VARIANTS) if (manifest.tables[x.key]) ordered[x.key] = manifest.tables[x.key];
    manifest.tables = ordered;
    writeFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + "\n");
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
