import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkBundle, formatProblem, type GateProblem } from "../../firmware/tools/gate.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const GATE = "firmware/tools/gate.ts";
const REJECT_DIR = "test/gate/fixtures/reject/";
const ACCEPT_DIR = "test/gate/fixtures/accept/";

const fixtureNames = (dir: string) =>
  readdirSync(ROOT + dir)
    .filter((name) => name.endsWith(".js"))
    .sort();
const read = (path: string) => readFileSync(ROOT + path, "utf8");

interface Expectation {
  line: number;
  fragment: string;
}

/** Reject fixtures end each offending line with `// expect: <fragment>`: a problem naming the construct must be reported there. */
function expectationsOf(code: string): Expectation[] {
  return code.split("\n").flatMap((text, index) => {
    const marker = / \/\/ expect: (.+)$/.exec(text);
    return marker ? [{ line: index + 1, fragment: marker[1].trim() }] : [];
  });
}

function runGate(...files: string[]) {
  return spawnSync("npx", ["tsx", GATE, ...files], { cwd: ROOT, encoding: "utf8" });
}

describe("bundle gate: rejected constructs", () => {
  const names = fixtureNames(REJECT_DIR);

  it("has a fixture for every rejected construct", () => {
    expect(names.length).toBeGreaterThanOrEqual(35);
  });

  for (const name of names) {
    const construct = name.replace(/\.js$/, "").replace(/-/g, " ");
    it(construct, () => {
      const file = REJECT_DIR + name;
      const code = read(file);
      const expectations = expectationsOf(code);
      expect(expectations.length, `${file} has no // expect: markers`).toBeGreaterThan(0);

      const problems = checkBundle(code, file);
      const missing = expectations.filter((e) => !problems.some((p) => p.line === e.line && p.message.includes(e.fragment)));
      // Precise, too: nothing is reported on lines the fixture does not mark.
      const unexpected = problems.filter((p) => !expectations.some((e) => e.line === p.line)).map(formatProblem);
      expect({ missing, unexpected }).toEqual({ missing: [], unexpected: [] });
      for (const problem of problems) {
        expect(problem.file).toBe(file);
        expect(problem.message).toMatch(/docs\/espruino\.md|parse error/);
      }
    });
  }
});

describe("bundle gate: clean code", () => {
  for (const name of fixtureNames(ACCEPT_DIR)) {
    it(`accepts ${name.replace(/\.js$/, "")}`, () => {
      const file = ACCEPT_DIR + name;
      expect(checkBundle(read(file), file).map(formatProblem)).toEqual([]);
    });
  }

  it("checks a 30 KB bundle and finds it clean", () => {
    const app = read(ACCEPT_DIR + "esbuild-app.js");
    let bundle = "";
    while (bundle.length < 30 * 1024) bundle += `(function () {\n${app}\n})();\n`;
    expect(checkBundle(bundle, "big.js")).toEqual([]);
  });
});

describe("bundle gate: positions and format", () => {
  it("formats a problem as file:line:column: message", () => {
    const problem: GateProblem = {
      file: "dist/firmware.js",
      line: 3,
      column: 14,
      message: "Map is undefined on Espruino 2v29 (docs/espruino.md 1.2)",
    };
    expect(formatProblem(problem)).toBe("dist/firmware.js:3:14: Map is undefined on Espruino 2v29 (docs/espruino.md 1.2)");
  });

  it("reports 1-based lines and columns at the construct", () => {
    const problems = checkBundle("var list = [1];\nprint(f(...list));\n", "a.js");
    expect(problems.map(formatProblem)).toEqual([
      "a.js:2:9: spread argument in a call: Espruino 2v29 cannot parse spread or rest (docs/espruino.md 1.1)",
    ]);
  });

  it("points into a regex literal at the unsupported syntax", () => {
    const [problem] = checkBundle("var ok = /^[a-z?]+\\d*x?$/i;\n", "r.js");
    expect(problem).toMatchObject({ line: 1, column: 23 });
    expect(problem.message).toContain("regex ? quantifier");
  });

  it("reports a parse error at its position", () => {
    expect(checkBundle("var a = 1;\nvar b = ;\n", "p.js")).toEqual([
      { file: "p.js", line: 2, column: 9, message: "parse error: Unexpected token" },
    ]);
  });

  it("returns [] for clean code", () => {
    expect(checkBundle("var a = [1, 2].map((n) => n * 2);\n", "ok.js")).toEqual([]);
  });
});

describe("bundle gate: command line", () => {
  it("exits 1 and prints file:line:column for a rejected file", () => {
    const result = runGate(REJECT_DIR + "use-before-function.js");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${REJECT_DIR}use-before-function.js:2:1: start is used before its function declaration runs`);
  }, 30_000);

  it("exits 0 for a clean file", () => {
    const result = runGate(ACCEPT_DIR + "esbuild-require-shim.min.js", ACCEPT_DIR + "classes.js");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("ok");
  }, 30_000);

  it("exits 1 naming an unreadable or unparsable file", () => {
    const missing = runGate("test/gate/fixtures/no-such-file.js");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("test/gate/fixtures/no-such-file.js: cannot read");

    const broken = runGate(REJECT_DIR + "parse-error.js");
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain(`${REJECT_DIR}parse-error.js:3:5: parse error`);
  }, 30_000);
});
