/**
 * npm run espruino:build -- --source DIR [--out DIR] [--only NAME,...] [--jobs N]
 *
 * Builds the real Espruino interpreter's Linux builds (espruino, espruino-5100, espruino-pico) from an
 * Espruino source checkout, as the configuration in sim/espruino/build.json says: the checkout's
 * boards/LINUX.py less some libraries, with each build's JsVar count, compiler flags and patches. The output
 * folder defaults to where the project looks for them (BRAINBOARD_ESPRUINO_DIR, sim/espruino/binary.ts).
 *
 * The checkout is changed only for the length of a build and restored after: a board file per build
 * (boards/BRAINBOARD_*.py, importing LINUX.py) and the patched sources. Objects go under
 * brainboard-build/NAME in the checkout, so a second run is incremental.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ESPRUINO_DIR_SETTING, espruinoDir, type EspruinoBuild } from "./binary.ts";

export const CONFIG_FILE = fileURLToPath(new URL("./build.json", import.meta.url));

export interface BuildSpec {
  name: EspruinoBuild;
  /** JsVars: 0 grows as needed, otherwise fixed. */
  variables: number;
  /** Lines added to the board file's makefile list (compiler and linker flags). */
  makefile: string[];
  /** Names of entries in `patches`. */
  patches: string[];
  /** What `process.memory()` must report on the built binary. */
  expect: { blocksize?: number; total?: number };
  use: string;
  /** What the build needs beyond make, gcc and python3: said when it fails. */
  requires?: string;
}

export interface Patch {
  file: string;
  why: string;
  find: string;
  replace: string;
}

export interface BuildConfig {
  espruino: { version: string; commit: string; repository: string; license: string };
  baseBoard: string;
  removeLibraries: string[];
  strip: boolean;
  builds: BuildSpec[];
  patches: Record<string, Patch>;
}

export function readConfig(file = CONFIG_FILE): BuildConfig {
  return JSON.parse(readFileSync(file, "utf8")) as BuildConfig;
}

/** A refusal with a message for the user (no stack trace). */
export class BuildError extends Error {}

export interface BuildOptions {
  source: string;
  out: string;
  only?: string[];
  jobs: number;
  /** Keep the symbols (no strip): for `npm run bench:micro -- --count --profile`, whose functions then have names. */
  symbols?: boolean;
}

export const USAGE = `usage: npm run espruino:build -- --source ESPRUINO_CHECKOUT [--out DIR] [--only NAME,...] [--jobs N] [--symbols]
  --source  an Espruino source checkout (git clone https://github.com/espruino/Espruino; the builds were checked at commit c5ff787b1, 2v29)
  --out     where the binaries go (default: ${ESPRUINO_DIR_SETTING}, or ../shared/tools/espruino beside the project)
  --only    some of the builds: espruino, espruino-5100, espruino-pico (default: all three)
  --jobs    parallel compile jobs (default: the number of cores)
  --symbols keep the function names (not stripped): for bench:micro --count --profile (the same machine code)`;

export function parseArgs(argv: string[], config: BuildConfig): BuildOptions {
  let source: string | undefined;
  let out: string | undefined;
  let only: string[] | undefined;
  let jobs = cpus().length;
  let symbols = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new BuildError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === "--source") source = value();
    else if (a === "--out") out = value();
    else if (a === "--only") only = value().split(",");
    else if (a === "--jobs") {
      jobs = Number(value());
      if (!Number.isInteger(jobs) || jobs < 1) throw new BuildError(`--jobs wants a whole number of jobs, 1 or more`);
    } else if (a === "--symbols") symbols = true;
    else if (a === "--help" || a === "-h") throw new BuildError(USAGE);
    else throw new BuildError(`unknown option ${a}\n${USAGE}`);
  }
  if (!source) throw new BuildError(`--source is missing: name an Espruino source checkout\n${USAGE}`);
  const names = config.builds.map((b) => b.name as string);
  for (const n of only ?? [])
    if (!names.includes(n)) throw new BuildError(`--only: no build named "${n}" (the builds: ${names.join(", ")})`);
  return { source: resolve(source), out: resolve(out ?? espruinoDir()), only, jobs, symbols };
}

/** Refuses a --source that is not an Espruino checkout, saying what is wrong with it. */
export function checkSource(source: string, config: BuildConfig): void {
  if (!existsSync(source)) throw new BuildError(`--source ${source} does not exist`);
  if (!statSync(source).isDirectory()) throw new BuildError(`--source ${source} is not a folder`);
  const needed = ["Makefile", `boards/${config.baseBoard}.py`, "scripts/get_makefile_decls.py", "src/jsutils.h"];
  const missing = needed.filter((f) => !existsSync(join(source, f)));
  if (missing.length)
    throw new BuildError(
      `--source ${source} is not an Espruino source checkout: ${missing.join(", ")} missing (git clone ${config.espruino.repository})`,
    );
  for (const name of new Set(config.builds.flatMap((b) => b.patches))) {
    const p = config.patches[name];
    if (!p) throw new BuildError(`sim/espruino/build.json: the patch "${name}" is not defined`);
    const file = join(source, p.file);
    if (!existsSync(file) || !readFileSync(file, "utf8").includes(p.find))
      throw new BuildError(
        `--source ${source}: the patch "${name}" does not apply to ${p.file} (its code differs from Espruino ${config.espruino.version} at ${config.espruino.commit})`,
      );
  }
}

/** The board file of one build: the base board (boards/LINUX.py) with this build's changes. */
export function boardFile(config: BuildConfig, build: BuildSpec): string {
  const py = (v: unknown) => JSON.stringify(v);
  return `# Written by Brainboard's npm run espruino:build for the build ${build.name}; removed after the build.
import copy
import ${config.baseBoard} as base
info = copy.deepcopy(base.info)
info['boardname'] = ${py(config.baseBoard)}
info['binary_name'] = ${py(build.name)}
info['variables'] = ${build.variables}
info['build']['libraries'] = [l for l in info['build']['libraries'] if l not in ${py(config.removeLibraries)}]
info['build']['makefile'] = info['build']['makefile'] + ${py(build.makefile)}
chip = base.chip
devices = base.devices
def get_pins():
  return base.get_pins()
`;
}

/** boards/BRAINBOARD_GROW.py for espruino, BRAINBOARD_5100.py, BRAINBOARD_PICO.py. */
export function boardName(build: BuildSpec): string {
  const suffix = build.name
    .replace(/^espruino-?/, "")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "_");
  return "BRAINBOARD_" + (suffix || "GROW");
}

function run(cmd: string, args: string[], cwd: string, log: (s: string) => void, requires?: string): void {
  log(`$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error) throw new BuildError(`${cmd} could not run: ${r.error.message}`);
  if (r.status !== 0)
    throw new BuildError(
      `${cmd} failed (exit ${r.status ?? r.signal}); its output is above${requires ? `. This build needs ${requires}` : ""}`,
    );
}

/** What process.memory() says on a built binary, checked against the build's expectations. */
function checkBinary(bin: string, build: BuildSpec, log: (s: string) => void): void {
  const r = spawnSync(
    bin,
    ["-e", 'var m=process.memory();print("BB_CHECK "+JSON.stringify({v:process.version,b:m.blocksize,t:m.total}));quit();'],
    {
      encoding: "latin1",
      timeout: 30000,
    },
  );
  const line = (r.stdout ?? "").split("\n").find((l) => l.startsWith("BB_CHECK "));
  if (!line) throw new BuildError(`${bin} built, but did not run: ${r.error?.message ?? (r.stderr || r.stdout).slice(-500)}`);
  const got = JSON.parse(line.slice(9)) as { v: string; b: number; t: number };
  log(`${build.name}: Espruino ${got.v}, ${got.t} JsVars of ${got.b} bytes`);
  if (build.expect.blocksize !== undefined && got.b !== build.expect.blocksize)
    throw new BuildError(`${bin}: JsVars of ${got.b} bytes, expected ${build.expect.blocksize}`);
  if (build.expect.total !== undefined && got.t !== build.expect.total)
    throw new BuildError(`${bin}: ${got.t} JsVars, expected ${build.expect.total}`);
}

export function buildEspruino(opts: BuildOptions, config: BuildConfig, log: (s: string) => void = console.log): string[] {
  checkSource(opts.source, config);
  try {
    mkdirSync(opts.out, { recursive: true });
  } catch (e) {
    throw new BuildError(`--out ${opts.out} cannot be made: ${(e as Error).message}`);
  }
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: opts.source, encoding: "utf8" }).stdout?.trim() ?? "";
  if (!head.startsWith(config.espruino.commit))
    log(
      `note: ${opts.source} is at ${head || "an unknown commit"}; the builds were checked at ${config.espruino.commit} (${config.espruino.version})`,
    );
  const made: string[] = [];
  for (const build of config.builds) {
    if (opts.only && !opts.only.includes(build.name)) continue;
    const board = boardName(build);
    const boardPath = join(opts.source, "boards", board + ".py");
    const work = join(opts.source, "brainboard-build", build.name);
    const originals = new Map<string, string>();
    try {
      writeFileSync(boardPath, boardFile(config, build));
      for (const name of build.patches) {
        const p = config.patches[name];
        const file = join(opts.source, p.file);
        const text = readFileSync(file, "utf8");
        originals.set(file, text);
        writeFileSync(file, text.replace(p.find, p.replace));
        log(`${build.name}: patch ${name} (${p.file}): ${p.why}`);
      }
      const dirs = ["gen", "obj", "bin"].map((d) => join(work, d));
      for (const d of dirs) mkdirSync(d, { recursive: true });
      run(
        "make",
        [`-j${opts.jobs}`, `BOARD=${board}`, `GENDIR=${dirs[0]}`, `OBJDIR=${dirs[1]}`, `BINDIR=${dirs[2]}`],
        opts.source,
        log,
        build.requires,
      );
      const built = join(dirs[2], build.name);
      if (!existsSync(built)) throw new BuildError(`make succeeded but wrote no ${built}`);
      const dest = join(opts.out, build.name);
      copyFileSync(built, dest);
      chmodSync(dest, 0o755);
      if (config.strip && !opts.symbols) run("strip", [dest], opts.out, log);
      checkBinary(dest, build, log);
      log(`${build.name}: ${dest} (${build.use})`);
      made.push(dest);
    } finally {
      for (const [file, text] of originals) writeFileSync(file, text);
      rmSync(boardPath, { force: true });
    }
  }
  return made;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const config = readConfig();
    const made = buildEspruino(parseArgs(process.argv.slice(2), config), config);
    console.log(`built ${made.length}: ${made.join(", ")}`);
    if (made.length && resolve(made[0], "..") !== espruinoDir())
      console.log(`the project finds them with ${ESPRUINO_DIR_SETTING}=${resolve(made[0], "..")}`);
  } catch (e) {
    if (!(e instanceof BuildError)) throw e;
    console.error(`espruino:build: ${e.message}`);
    process.exit(1);
  }
}
