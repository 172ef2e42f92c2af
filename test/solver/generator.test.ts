import { describe, expect, it } from "vitest";
import { makeTable } from "../../firmware/tools/solver/generate.ts";
import { playAll } from "../../firmware/tools/solver/play.ts";
import { TreeSearch, type TreeNode } from "../../firmware/tools/solver/search.ts";
import { buildSpace, type Space } from "../../firmware/tools/solver/space.ts";
import { variantOf, type Variant } from "../../firmware/tools/solver/variants.ts";

/** A quick tree (greedy: no lookahead) for a variant, to check the encoding rather than the play. */
function quickTree(v: Variant): { space: Space; tree: TreeNode } {
  const space = buildSpace(v.rules);
  const search = new TreeSearch(space, { width: () => 1, maxDepth: 12, rank: v.rank, symmetricLevels: 2 });
  const tree = search.solve(
    Int32Array.from({ length: space.secrets.length }, (_, i) => i),
    1,
  );
  if (!tree) throw new Error("no tree");
  return { space, tree };
}

describe("the table generator and the unit agree", () => {
  const brainiac = variantOf("brainiac");
  const { space, tree } = quickTree(brainiac);

  for (const [what, change] of [
    ["a book of the root only", {}],
    ["a book three levels deep", { takeoverMs: 0, maxBookLevel: 3 }],
    ["a table too small for the tree (the unit chooses where it stops)", { takeoverMs: 2500, policyMsMax: 3000, maxBytes: 160 }],
  ] as [string, Partial<Variant>][]) {
    it(`Brainiac, ${what}: the unit plays exactly what the generator planned, every secret`, () => {
      const v = { ...brainiac, ...change };
      const made = makeTable(v, space, tree);
      if (change.maxBytes) {
        expect(made.table.length).toBeLessThanOrEqual(change.maxBytes);
        expect(made.stats.policyNodes).toBeGreaterThan(0);
      }
      if (change.maxBookLevel) expect(made.stats.bookNodes).toBeGreaterThan(14);
      const played = playAll(v.rules, made.table);
      expect(played.unsolved).toBe(0);
      expect(played.guesses).toBe(made.predicted);
      // Where the table holds the whole tree, the unit plays the tree (or better, where its own choice beat it). (A book
      // held to three levels ends where some enumerations outlast the move's budget, MOVE_BUDGET_MS: there the unit plays
      // the first candidate it found, as planned.)
      if (!change.maxBytes && !change.maxBookLevel) expect(played.guesses).toBeLessThanOrEqual(tree.cost);
    });
  }

  it("Brainiac with blanks: the blank is one more symbol in the table, and the unit plays the plan", () => {
    const v = variantOf("brainiac+");
    const quick = quickTree(v);
    const made = makeTable(v, quick.space, quick.tree);
    const played = playAll(v.rules, made.table);
    expect(played.unsolved).toBe(0);
    expect(played.guesses).toBe(made.predicted);
  });
});
