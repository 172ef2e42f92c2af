/**
 * Node side of the solver generator: writes a decision tree as the table format that
 * firmware/core/solver.ts reads (documented in solver-format.ts there and in README.md beside this file).
 *
 * Book nodes sit at the top, where the unit does not hold the candidates; below them, candidate
 * nodes, whose guess is mostly an index into the candidates the unit enumerated (a few bits) and
 * whose children follow from the unit's own split of those candidates.
 */
import { TABLE_VERSION } from "../../core/solver.ts";
import type { Space } from "./space.ts";
import type { TreeNode } from "./search.ts";
import type { Feedback } from "../../core/types.ts";

/** The feedback of a class id (exact * (pegs + 1) + near). */
export function classFeedback(c: number, pegs: number): Feedback {
  return { exact: Math.floor(c / (pegs + 1)), near: c % (pegs + 1) };
}

/** Bits, most significant first, as an array of 0/1. */
export class Bits {
  readonly bits: number[] = [];

  write(value: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(value / Math.pow(2, i)) % 2);
  }

  /** Elias gamma code of length + 1 (lengths may be 0). */
  writeLength(length: number): void {
    const v = length + 1;
    const width = Math.floor(Math.log2(v)) + 1;
    this.write(0, width - 1);
    this.write(v, width);
  }

  append(other: Bits): void {
    for (const b of other.bits) this.bits.push(b);
  }

  get length(): number {
    return this.bits.length;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => {
      if (b) out[i >> 3] |= 0x80 >> (i & 7);
    });
    return out;
  }
}

/** Splits an ordered set of secret indexes by feedback class to guess gi, keeping the order; the winning class left out. */
export type Splitter = (set: number[], gi: number) => Map<number, number[]>;

export interface EncodePlan {
  space: Space;
  split: Splitter;
  /** Nodes written as book nodes (the root always is). */
  bookNodes: Set<TreeNode>;
  /** For each candidate child of a book node: its candidates (secret indexes) in the unit's enumeration order. */
  takeoverLists: Map<TreeNode, number[]>;
  /**
   * Candidate children of book nodes whose guess is written packed although it is one of the candidates: those whose
   * enumeration is long. The unit plays such a guess once its enumeration has found 3 candidates, and finishes it while
   * the player answers (an index's width needs their number).
   */
  packedTakeovers: Set<TreeNode>;
  /** Candidate nodes whose subtree the unit chooses itself (written as 11). */
  policyNodes: Set<TreeNode>;
}

export interface EncodeStats {
  bookNodes: number;
  candidateNodes: number;
  policyNodes: number;
}

export function bitsFor(n: number): number {
  let bits = 0;
  while (1 << bits < n) bits++;
  return bits;
}

/** Bits of the Elias gamma code of length + 1. */
export function lengthBits(length: number): number {
  return 2 * Math.floor(Math.log2(length + 1)) + 1;
}

/** The table bytes for a tree whose root set is every secret. */
export function encodeTable(root: TreeNode, plan: EncodePlan, stats?: EncodeStats): Uint8Array {
  const space = plan.space;
  const packBits = bitsFor(Math.pow(space.symbols, space.pegs));
  const st = stats ?? { bookNodes: 0, candidateNodes: 0, policyNodes: 0 };
  const all: number[] = [];
  for (let i = 0; i < space.secrets.length; i++) all.push(i);

  /**
   * A candidate node the table spells out (not one left to the unit): its guess, then per child of 3 or more candidates a
   * flag (set: the table goes on below), then those subtrees; the guess packed where the plan says so.
   */
  const candidateNode = (node: TreeNode, set: number[]): Bits => {
    const out = new Bits();
    const n = set.length;
    if (n <= 2) return out; // the unit guesses set[0]: optimal for one or two candidates
    st.candidateNodes++;
    const asSecret = space.guessAsSecret[node.guess];
    const index = asSecret >= 0 && !plan.packedTakeovers.has(node) ? set.indexOf(asSecret) : -1;
    if (index >= 0) {
      out.write(0, 1);
      out.write(index, bitsFor(n));
    } else {
      out.write(1, 1);
      out.write(space.guesses[node.guess], packBits);
    }
    const subtrees: Bits[] = [];
    for (const [c, kid] of plan.split(set, node.guess)) {
      if (kid.length <= 2) continue;
      const child = node.kids.get(c);
      const table = child !== undefined && !plan.policyNodes.has(child);
      out.write(table ? 1 : 0, 1);
      if (table) subtrees.push(candidateNode(child, kid));
      else st.policyNodes++;
    }
    for (let i = 0; i < subtrees.length - 1; i++) out.writeLength(subtrees[i].length);
    for (const b of subtrees) out.append(b);
    return out;
  };

  const bookNode = (node: TreeNode, set: number[]): Bits => {
    st.bookNodes++;
    const out = new Bits();
    out.write(space.guesses[node.guess], packBits);
    const children = [...plan.split(set, node.guess)];
    for (let c = 0; c < space.winClass; c++) out.write(children.some((x) => x[0] === c) ? 1 : 0, 1);
    const subtrees: Bits[] = [];
    for (const [c, kid] of children) {
      const child = node.kids.get(c);
      if (!child) throw new Error("tree node without a child for class " + c);
      const book = plan.bookNodes.has(child);
      out.write(book ? 1 : 0, 1);
      if (book) subtrees.push(bookNode(child, kid));
      else {
        const list = plan.takeoverLists.get(child);
        if (!list) throw new Error("a candidate child of a book node without its enumeration order");
        // A flag first: set when the table goes on below (clear: the unit chooses itself from the start).
        const sub = new Bits();
        const table = !plan.policyNodes.has(child);
        sub.write(table ? 1 : 0, 1);
        if (table) sub.append(candidateNode(child, list));
        else st.policyNodes++;
        subtrees.push(sub);
      }
    }
    for (let i = 0; i < subtrees.length - 1; i++) out.writeLength(subtrees[i].length);
    for (const b of subtrees) out.append(b);
    return out;
  };

  const table = new Bits();
  table.write(TABLE_VERSION, 8);
  table.write(space.pegs * 16 + space.symbols, 8);
  table.append(bookNode(root, all));
  return table.bytes();
}
