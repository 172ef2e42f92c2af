/**
 * npm run build [-- --profile NAME|PATH] [--out FILE] [--no-minify]
 * Bundles firmware/main.ts into one ES2015 IIFE for Espruino 2v29 with the hardware profile compiled
 * in, runs the bundle gate on it, and writes it (dist/firmware.js: what the simulator runs) and its
 * pretokenised image (dist/firmware.tok: what npm run flash stores as .bootcde, pretokenise.ts), and
 * prints both sizes against their bounds (docs/design.md 5).
 */
import * as esbuild from "esbuild";
import { minify as terserMinify } from "terser";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_PROFILE, firmwareProfileSource, loadProfile, ProfileError } from "../../hardware/profile.ts";
import { aliasThis } from "./alias-this.ts";
import { arrowFunctions } from "./arrow-functions.ts";
import { checkBundle, formatProblem } from "./gate.ts";
import { aliasGlobals } from "./alias-globals.ts";
import { keptPropertyNames, manglePattern, pinnedNames } from "./mangle.ts";
import { pretokenise, programDifference } from "./pretokenise.ts";
import { unwrapBundle } from "./unwrap.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEFAULT_OUT = ROOT + "dist/firmware.js";
/**
 * docs/design.md section 5: the most Storage `npm run flash` gives `.bootcde`, the image stored from the bundle. The
 * bundle's own text is not stored anywhere on the unit, so it has no limit of its own.
 */
export const IMAGE_LIMIT_BYTES = 32 * 1024;
/**
 * docs/design.md section 5: the firmware as stored in the unit's Storage (the pretokenised image): 30.5 KB, in the KB of
 * the Pico's 48 KB of Storage. At it the Storage still has 4,112 bytes free for the saves beside the image, the pad that
 * keeps the tables on their page and the tables (`npm run bench` holds that to 4 KB; with an image of 30,500 to 31,000
 * bytes, 4,336).
 */
export const STORED_BOUND_BYTES = 31_232;

/** Language features esbuild must not emit, because Espruino 2v29 cannot parse them (docs/espruino.md 3.4). */
const UNSUPPORTED = [
  "destructuring",
  "default-argument",
  "rest-argument",
  "array-spread",
  "generator",
  "async-await",
  "async-generator",
  "for-await",
  "new-target",
  "class-static-blocks",
  "object-rest-spread",
  "exponent-operator",
  "logical-assignment",
  "nullish-coalescing",
  "optional-chain",
  "bigint",
  "top-level-await",
  "class-private-field",
  "class-private-method",
  "class-private-accessor",
  "class-private-static-field",
  "class-private-static-method",
  "class-private-static-accessor",
  "regexp-named-capture-groups",
  "regexp-lookbehind-assertions",
];

export interface BuildOptions {
  profile?: string;
  out?: string;
  minify?: boolean;
  entry?: string;
  /** A list of games (a module exporting GAMES) in place of firmware/ui/games.ts: a build with another game. */
  games?: string;
}
export interface BuildResult {
  /** The minified bundle's file, size and code: JavaScript, what the simulator runs. */
  out: string;
  bytes: number;
  code: string;
  /** The pretokenised image's file, size and bytes: what the unit stores as .bootcde. */
  imageOut: string;
  imageBytes: number;
  image: Uint8Array;
}

/** Where the image of a bundle written to `out` goes: beside it, .tok for .js. */
export function imagePath(out: string): string {
  return out.replace(/\.js$/, "") + ".tok";
}

export class BuildError extends Error {}

export async function buildFirmware(opts: BuildOptions = {}): Promise<BuildResult> {
  const profile = loadProfile(opts.profile ?? DEFAULT_PROFILE);
  const out = opts.out ?? DEFAULT_OUT;
  const entry = opts.entry ?? ROOT + "firmware/main.ts";
  const minify = opts.minify ?? true;
  const result = await esbuild
    .build({
      entryPoints: [entry],
      bundle: true,
      // CommonJS output leaves require("Storage") and require("neopixel") as plain calls of Espruino's
      // global require (the IIFE format wraps them in a dynamic-require shim of about 270 bytes, with a
      // Proxy fallback); the function scope is added below, then the whole is minified as one script.
      format: "cjs",
      target: "es2015",
      // (Syntax only here: when bundling, esbuild also writes const as let, 176 bytes.)
      minifySyntax: minify,
      write: false,
      legalComments: "none",
      charset: "ascii",
      tsconfig: ROOT + "tsconfig.json",
      supported: Object.fromEntries(UNSUPPORTED.map((f) => [f, false])),
      external: ["neopixel", "Storage"],
      logLevel: "silent",
      plugins: [
        {
          name: "brainboard-profile",
          setup(b) {
            b.onResolve({ filter: /^brainboard:profile$/ }, () => ({ path: profile.id, namespace: "profile" }));
            b.onLoad({ filter: /.*/, namespace: "profile" }, () => ({ contents: firmwareProfileSource(profile), loader: "js" }));
          },
        },
        {
          name: "brainboard-games",
          setup(b) {
            const games = opts.games;
            if (games)
              b.onResolve({ filter: /^\.\/games$/ }, (a) => (a.importer.startsWith(ROOT + "firmware/ui/") ? { path: games } : undefined));
          },
        },
      ],
    })
    .catch((e: esbuild.BuildFailure) => {
      throw new BuildError(
        e.errors.map((m) => `${m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ""}${m.text}`).join("\n"),
      );
    });
  // ("use strict" is accepted and ignored by Espruino 2v29: docs/espruino.md 1.1.) The outer function scopes the bundle for
  // the minifier, which mangles its names; unwrap.ts takes it off last, so that its declarations are globals (JsVars).
  let code = "(()=>{" + result.outputFiles[0].text.replace(/^"use strict";\n/, "") + "})();";
  if (minify) {
    const pattern = manglePattern(ROOT);
    let pinned: Record<string, string>;
    try {
      pinned = pinnedNames(pattern, keptPropertyNames(ROOT, pattern));
    } catch (e) {
      throw new BuildError((e as Error).message);
    }
    const min = await esbuild
      .transform(code, {
        minify: true,
        target: "es2015",
        mangleProps: pattern,
        mangleCache: pinned,
        legalComments: "none",
        charset: "ascii",
        supported: Object.fromEntries(UNSUPPORTED.map((f) => [f, false])),
      })
      .catch((e: esbuild.TransformFailure) => {
        throw new BuildError(e.errors.map((m) => m.text).join("\n"));
      });
    checkPinned(pinned, min.mangleCache);
    code = aliasGlobals(aliasThis(await compress(arrowFunctions(min.code))));
    try {
      code = unwrapBundle(code, opts.entry === undefined);
    } catch (e) {
      throw new BuildError((e as Error).message);
    }
  }
  const problems = checkBundle(code, relative(ROOT, out));
  if (problems.length) throw new BuildError(`the bundle gate refused ${relative(ROOT, out)}:\n${problems.map(formatProblem).join("\n")}`);
  const image = pretokenise(code);
  // The image must read back (as the 2v29 lexer reads it) as the very program the bundle is.
  const differs = programDifference(code, image);
  if (differs) throw new BuildError(`the pretokenised image of ${relative(ROOT, out)} is not the same program: ${differs}`);
  const imageOut = imagePath(out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  writeFileSync(imageOut, image);
  return { out, bytes: Buffer.byteLength(code), code, imageOut, imageBytes: image.length, image };
}

/** The saved state's fields must have kept their keys (esbuild honours a mangle cache; this proves it). */
function checkPinned(pinned: Record<string, string>, used: Record<string, string | false> | undefined): void {
  for (const name of Object.keys(pinned))
    if (used && name in used && used[name] !== pinned[name])
      throw new BuildError(`save format: "${name}" was renamed "${String(used[name])}", not its key "${pinned[name]}"`);
}

/**
 * A second minifier pass: terser's compressor finds about 2% more than esbuild's (constant folding
 * across statements, joined declarations, shorter conditionals). Options that could emit what
 * Espruino lacks stay off (pure_getters is on: the firmware defines no getters). Anonymous function
 * expressions become arrows (unsafe_arrows: terser converts only those that use neither `this` nor
 * `arguments`, whose meaning an arrow changes; the firmware never calls a function expression with
 * `new`): about 400 bytes; likewise object-literal functions become methods (unsafe_methods). No hoisting
 * of functions or vars (2v29 does not hoist), ES2015 output only; the gate checks the result anyway.
 */
async function compress(code: string): Promise<string> {
  const out = await terserMinify(code, {
    ecma: 2015,
    compress: {
      passes: 2,
      hoist_funs: false,
      hoist_vars: false,
      arrows: true,
      unsafe_arrows: true,
      keep_fargs: true,
      pure_getters: true,
      unsafe_methods: true,
      // Statements stay statements: joined into sequences, an early `a();return` becomes `return void a()` (longer).
      sequences: false,
    },
    // (E is never a local's name: alias-globals.ts then finds every E.CRC32... is Espruino's.)
    mangle: { reserved: ["E"] },
    format: { ascii_only: true, comments: false },
  });
  if (out.code === undefined) throw new BuildError("terser returned no code");
  return out.code;
}

/** "N bytes (P% of the B-byte bound)", or "N bytes" for a size without a bound. */
export function sizeReport(bytes: number, bound?: number): string {
  if (bound === undefined) return `${bytes} bytes`;
  const pct = ((bytes / bound) * 100).toFixed(1);
  return `${bytes} bytes (${pct}% of the ${bound}-byte bound)`;
}

/** Why a build's sizes are refused (the stored image over its bound, which is within IMAGE_LIMIT_BYTES), or null. */
export function sizeRefusal(r: Pick<BuildResult, "imageBytes">): string | null {
  if (r.imageBytes > STORED_BOUND_BYTES)
    return `the firmware as stored (the pretokenised image, ${r.imageBytes} bytes) is over the ${STORED_BOUND_BYTES}-byte bound`;
  return null;
}

async function main() {
  const { values } = parseArgs({
    options: { profile: { type: "string" }, out: { type: "string" }, "no-minify": { type: "boolean" } },
  });
  try {
    const r = await buildFirmware({ profile: values.profile, out: values.out, minify: !values["no-minify"] });
    console.log(`${relative(process.cwd(), r.out)}: ${sizeReport(r.bytes)}, the bundle (the unit stores its image)`);
    console.log(`${relative(process.cwd(), r.imageOut)}: ${sizeReport(r.imageBytes, STORED_BOUND_BYTES)}, as stored in the unit's Storage`);
    const refused = sizeRefusal(r);
    if (refused) {
      console.error(`error: ${refused}`);
      process.exit(1);
    }
  } catch (e) {
    if (e instanceof BuildError || e instanceof ProfileError) {
      console.error(`build failed: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
