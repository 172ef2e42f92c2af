/**
 * npm run espruino:build (sim/espruino/build.ts) without building Espruino: the script runs against a fake
 * source tree, with stubs of `make` and `strip` first on PATH that record how they were called and what the
 * checkout held at that moment, and a stub `make` that writes a fake interpreter answering the script's
 * check. Also: clear refusals of a missing or invalid --source.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../sim/espruino/build.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SCRIPT = join(ROOT, "sim/espruino/build.ts");
const TSX = join(ROOT, "node_modules/.bin/tsx");
const config = readConfig();
const getch = config.patches["getch-at-end-of-input"];

/** The parts of an Espruino checkout the script looks at. */
function fakeSource(dir: string): string {
  const src = join(dir, "Espruino");
  for (const d of ["boards", "scripts", "src", "targets/linux"]) mkdirSync(join(src, d), { recursive: true });
  writeFileSync(join(src, "Makefile"), "# fake\n");
  writeFileSync(join(src, "boards/LINUX.py"), "info = {}\n");
  writeFileSync(join(src, "scripts/get_makefile_decls.py"), "\n");
  writeFileSync(join(src, "src/jsutils.h"), "\n");
  writeFileSync(join(src, "targets/linux/jshardware.c"), `int getch()\n{\n    int r;\n    unsigned char c;\n${getch.find}\n    }\n}\n`);
  return src;
}

/**
 * Stubs: make logs its arguments, copies the board file and jshardware.c as they are during the build, and
 * writes BINDIR/<binary_name> as a script that prints what process.memory() would for that build.
 */
function stubs(dir: string): string {
  const bin = join(dir, "stub-bin");
  mkdirSync(bin);
  const log = join(dir, "calls.log");
  writeFileSync(
    join(bin, "make"),
    `#!/bin/sh
echo "make $* (in $PWD)" >> ${log}
for a in "$@"; do case "$a" in BOARD=*) BOARD="\${a#BOARD=}";; BINDIR=*) BINDIR="\${a#BINDIR=}";; esac; done
cp "boards/$BOARD.py" "${dir}/seen-$BOARD.py"
cp targets/linux/jshardware.c "${dir}/seen-$BOARD.c"
NAME=$(sed -n "s/^info\\['binary_name'\\] = \\"\\(.*\\)\\"$/\\1/p" "boards/$BOARD.py")
VARS=$(sed -n "s/^info\\['variables'\\] = \\(.*\\)$/\\1/p" "boards/$BOARD.py")
BLOCK=27; case "$NAME" in *pico) BLOCK=13;; *5100) BLOCK=17;; esac
printf '#!/bin/sh\\necho "BB_CHECK {\\\\"v\\\\":\\\\"2v29\\\\",\\\\"b\\\\":%s,\\\\"t\\\\":%s}"\\n' $BLOCK $VARS > "$BINDIR/$NAME"
chmod +x "$BINDIR/$NAME"
`,
  );
  writeFileSync(join(bin, "strip"), `#!/bin/sh\necho "strip $*" >> ${log}\n`);
  for (const f of ["make", "strip"]) chmodSync(join(bin, f), 0o755);
  return bin;
}

function runScript(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(TSX, [SCRIPT, ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 60000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe("npm run espruino:build", () => {
  it("builds the three interpreters from the board configuration, into --out, and leaves the checkout as it was", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-build-"));
    const src = fakeSource(dir);
    const out = join(dir, "out");
    const bin = stubs(dir);
    const before = readFileSync(join(src, "targets/linux/jshardware.c"), "utf8");
    const r = runScript(["--source", src, "--out", out, "--jobs", "3"], { PATH: `${bin}:${process.env.PATH}` });
    expect(r.status, r.out).toBe(0);

    // One make per build, each with its own board file and its own object folders in the checkout.
    const calls = readFileSync(join(dir, "calls.log"), "utf8").trim().split("\n");
    const makes = calls.filter((c) => c.startsWith("make "));
    expect(makes).toHaveLength(3);
    for (const [i, board] of ["BRAINBOARD_GROW", "BRAINBOARD_5100", "BRAINBOARD_PICO"].entries()) {
      expect(makes[i]).toContain(`-j3 BOARD=${board} GENDIR=${src}/brainboard-build/`);
      expect(makes[i]).toContain(`(in ${src})`);
    }
    // The board files: LINUX.py with the libraries taken out, the JsVars, and the Pico build's 32-bit static flags.
    const grow = readFileSync(join(dir, "seen-BRAINBOARD_GROW.py"), "utf8");
    expect(grow).toContain("import LINUX as base");
    expect(grow).toContain(`["TENSORFLOW","CRYPTO","SHA256","SHA512","AES_CCM","TLS"]`);
    expect(grow).toContain("info['variables'] = 0");
    expect(readFileSync(join(dir, "seen-BRAINBOARD_5100.py"), "utf8")).toContain("info['variables'] = 5100");
    const pico = readFileSync(join(dir, "seen-BRAINBOARD_PICO.py"), "utf8");
    expect(pico).toContain(`["CFLAGS+=-m32","LDFLAGS+=-m32 -static","DEFINES+=-DUSE_CALLFUNCTION_HACK"]`);
    // The getch() fix is in the Pico build's source only, and undone after it.
    expect(readFileSync(join(dir, "seen-BRAINBOARD_PICO.c"), "utf8")).toContain(getch.replace);
    expect(readFileSync(join(dir, "seen-BRAINBOARD_GROW.c"), "utf8")).toBe(before);
    expect(readFileSync(join(src, "targets/linux/jshardware.c"), "utf8")).toBe(before);
    expect(readdirSync(join(src, "boards"))).toEqual(["LINUX.py"]);

    // The binaries land in --out, stripped there, and each was run and checked.
    expect(readdirSync(out).sort()).toEqual(["espruino", "espruino-5100", "espruino-pico"]);
    expect(calls.filter((c) => c.startsWith("strip "))).toEqual(
      ["espruino", "espruino-5100", "espruino-pico"].map((n) => `strip ${join(out, n)}`),
    );
    expect(r.out).toContain("espruino-pico: Espruino 2v29, 5100 JsVars of 13 bytes");
    expect(r.out).toContain(`BRAINBOARD_ESPRUINO_DIR=${out}`);
  });

  it("--only builds just the builds named, into the folder BRAINBOARD_ESPRUINO_DIR names when --out is not given", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-build-"));
    const src = fakeSource(dir);
    const bin = stubs(dir);
    const out = join(dir, "tools");
    const r = runScript(["--source", src, "--only", "espruino"], { PATH: `${bin}:${process.env.PATH}`, BRAINBOARD_ESPRUINO_DIR: out });
    expect(r.status, r.out).toBe(0);
    expect(readdirSync(out)).toEqual(["espruino"]);
  });

  it("--symbols leaves the binaries unstripped (bench:micro --count --profile names their functions)", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-build-"));
    const src = fakeSource(dir);
    const bin = stubs(dir);
    const out = join(dir, "out");
    const r = runScript(["--source", src, "--out", out, "--only", "espruino", "--symbols"], { PATH: `${bin}:${process.env.PATH}` });
    expect(r.status, r.out).toBe(0);
    expect(readdirSync(out)).toEqual(["espruino"]);
    const calls = readFileSync(join(dir, "calls.log"), "utf8").trim().split("\n");
    expect(calls.filter((c) => c.startsWith("make "))).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith("strip "))).toEqual([]);
  });

  it("refuses a missing --source, a folder that is not an Espruino checkout, and an unknown build, saying which", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-espruino-build-"));
    const none = runScript([]);
    expect(none.status).toBe(1);
    expect(none.out).toContain("espruino:build: --source is missing: name an Espruino source checkout");
    expect(none.out).toContain("usage: npm run espruino:build -- --source ESPRUINO_CHECKOUT");

    const gone = runScript(["--source", join(dir, "nowhere")]);
    expect(gone.status).toBe(1);
    expect(gone.out).toContain(`--source ${join(dir, "nowhere")} does not exist`);

    const empty = join(dir, "empty");
    mkdirSync(empty);
    const notEspruino = runScript(["--source", empty, "--out", join(dir, "out")]);
    expect(notEspruino.status).toBe(1);
    expect(notEspruino.out).toContain(`--source ${empty} is not an Espruino source checkout: Makefile, boards/LINUX.py`);
    expect(existsSync(join(dir, "out"))).toBe(false);

    const src = fakeSource(dir);
    writeFileSync(join(src, "targets/linux/jshardware.c"), "int getch() { return 0; }\n");
    const changed = runScript(["--source", src, "--out", join(dir, "out")]);
    expect(changed.out).toContain(`the patch "getch-at-end-of-input" does not apply to targets/linux/jshardware.c`);

    // A make that fails (here: the Pico build's, as without 32-bit libraries) says what that build needs.
    const bin = stubs(dir);
    writeFileSync(join(bin, "make"), `#!/bin/sh\ncase "$*" in *BRAINBOARD_PICO*) echo "cannot find -lstdc++" >&2; exit 2;; esac\n`);
    writeFileSync(join(src, "targets/linux/jshardware.c"), `${getch.find}\n`);
    const failed = runScript(["--source", src, "--out", join(dir, "out2"), "--only", "espruino-pico"], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(failed.status).toBe(1);
    expect(failed.out).toContain("espruino:build: make failed (exit 2); its output is above. This build needs 32-bit C and C++ libraries");
    expect(readFileSync(join(src, "targets/linux/jshardware.c"), "utf8")).toBe(`${getch.find}\n`);

    const unknown = runScript(["--source", src, "--only", "espruino-esp32"]);
    expect(unknown.out).toContain(`--only: no build named "espruino-esp32" (the builds: espruino, espruino-5100, espruino-pico)`);
    for (const r of [none, gone, notEspruino, changed, unknown]) expect(r.out).not.toMatch(/\n\s+at /);
  });
});
