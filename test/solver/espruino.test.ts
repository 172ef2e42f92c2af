import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { buildFirmware, ROOT } from "../../firmware/tools/build.ts";
import { solverCodeBytes } from "../bench/solver.ts";

const SOLVER = join(ROOT, "firmware/core/solver.ts");

/** Type-checks files with the firmware's compiler options (tsconfig.json: noLib, Espruino's built-ins). */
function firmwareDiagnostics(files: string[]): string[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const types = parsed.fileNames.filter((f) => f.includes("firmware/types/"));
  const program = ts.createProgram([...files, ...types], parsed.options);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the device-side solver on Espruino 2v29", () => {
  it("type-checks against Espruino's built-ins (firmware tsconfig)", () => {
    expect(firmwareDiagnostics([SOLVER])).toEqual([]);
  });

  it("bundles and passes the bundle gate (no syntax or built-in Espruino lacks)", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "bb-solver-")), "solver.js");
    const r = await buildFirmware({ entry: join(ROOT, "test/solver/fixtures/unit-entry.ts"), out });
    expect(r.bytes).toBeGreaterThan(0);
  });

  it("creates no function inside a loop (no closure per evaluation) and no closure but the state's own", () => {
    const source = ts.createSourceFile(SOLVER, readFileSync(SOLVER, "utf8"), ts.ScriptTarget.ES2015, true);
    const inLoops: string[] = [];
    const visit = (node: ts.Node, loop: boolean): void => {
      const isLoop = ts.isForStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isForInStatement(node);
      if (loop && (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isFunctionDeclaration(node)))
        inLoops.push(`line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      // A function body runs later: a loop around its declaration is what counts, not loops inside it.
      const fn = ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isFunctionDeclaration(node);
      ts.forEachChild(node, (child) => visit(child, fn ? false : loop || isLoop));
    };
    visit(source, false);
    expect(inLoops).toEqual([]);
  });

  it("stays small: the unit's part of it, minified", async () => {
    // The bound keeps it from growing past what it is now: the whole bundle must stay under 32 KB. (4,150 bytes before the
    // class without a loop over the holes and the enumeration without a call per prefix: 25-40% less time a move; 4,830
    // before the early guess and pondering: a takeover's long enumeration, and the split of the candidates by the guess
    // played, done while the player answers; 5,300 before the hints' example ahead of their count, and the count that tries
    // the symbols no row holds once for all of them: 3-4x fewer evaluations for race's counts; 5,450 before a move's
    // budget, MOVE_BUDGET_MS; 5,470 before fits(), which lets an answer that fits count without a conflict search, and a pass's
    // candidates counted four to an evaluation; 5,640 before a node's children placed while the player answers, and rows
    // the book's steps that read no subtree lengths taken with no question to stop; 6,040 before the table dropped where
    // the player answers before a long enumeration's rest, PENDING_MS.)
    expect(await solverCodeBytes()).toBeLessThanOrEqual(6240);
  });
});
