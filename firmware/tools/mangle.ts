/**
 * Property-name mangling for the bundle. esbuild's minifier keeps property names, and in this
 * firmware they are a seventh of the bytes. We mangle exactly the names our own firmware declares
 * (interface members, class members, object-literal keys in firmware/core, ui, device, main.ts, profile.ts)
 * and never:
 *  - a name the firmware uses on an object of Espruino's built-ins or API (firmware/types), which the
 *    device looks up by name: found with the type checker (espruinoPropertyNames), so a name of our
 *    own that Espruino also happens to declare (`match`, `round`, `state`) is still mangled;
 *  - a member of an interface the firmware indexes with computed keys (DYNAMIC_KEY_INTERFACES: none
 *    today; the self-test names the segments one by one). ESLint's dot-notation rule forbids
 *    obj["literal"] in firmware, so a computed key is always a variable, and that list names them all.
 * Short names are esbuild's, chosen afresh by every build (the same sources give the same names), with
 * one exception: the saved state's fields are pinned to their keys in the save format
 * (firmware/save-format.ts SAVE_KEYS), so Storage holds the format's keys whatever the build.
 * No mapping is tracked: nothing but the save depends on a short name surviving from one build to the next.
 */
import ts from "typescript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SAVE_KEYS } from "../save-format.ts";

const SOURCE_DIRS = ["firmware/core", "firmware/ui", "firmware/device"];
/** The firmware's files outside those folders: the entry, the compiled profile's type, the save format. */
const SOURCE_FILES = ["firmware/main.ts", "firmware/profile.ts", "firmware/save-format.ts"];

/** Every firmware source file the mangler reads. */
function firmwareFiles(root: string): string[] {
  return SOURCE_DIRS.flatMap((d) => tsFiles(root, d)).concat(SOURCE_FILES.map((f) => join(root, f)));
}
const RESERVED_DECLS = ["firmware/types/lib.espruino.d.ts", "firmware/types/espruino.d.ts"];
/** Interfaces whose members are read with computed keys (their names are data, not just code): none today. */
const DYNAMIC_KEY_INTERFACES: string[] = [];

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((f) => {
    const p = join(root, dir, f);
    return statSync(p).isDirectory() ? tsFiles(root, join(dir, f)) : f.endsWith(".ts") ? [p] : [];
  });
}

function walk(file: string, visit: (n: ts.Node) => void): void {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const go = (n: ts.Node) => {
    visit(n);
    ts.forEachChild(n, go);
  };
  go(sf);
}

/**
 * Property names the firmware uses that are not mangled (short ones like `v` or `ok`, and
 * Espruino's): a cached short name must never equal one of them, or two properties would merge
 * (esbuild avoids such clashes for names it picks, but honours the cache as it is).
 */
export function keptPropertyNames(root: string, mangled: RegExp): Set<string> {
  const kept = new Set<string>();
  const files = firmwareFiles(root);
  for (const f of files)
    walk(f, (n) => {
      let name: ts.Node | undefined;
      if (ts.isPropertyAccessExpression(n)) name = n.name;
      else if (
        ts.isPropertyAssignment(n) ||
        ts.isShorthandPropertyAssignment(n) ||
        ts.isPropertySignature(n) ||
        ts.isPropertyDeclaration(n) ||
        ts.isMethodDeclaration(n)
      )
        name = n.name;
      if (name && ts.isIdentifier(name) && !mangled.test(name.text)) kept.add(name.text);
    });
  return kept;
}

/**
 * The property names the firmware reads or writes on Espruino's objects, or where the checker cannot
 * tell whose property it is (an `any`): every property access and object-literal key of the firmware,
 * resolved with the type checker, kept when one of its declarations is in Espruino's declarations.
 */
export function espruinoPropertyNames(root: string): Set<string> {
  const configPath = join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, (p) => readFileSync(p, "utf8"));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const checker = program.getTypeChecker();
  const reservedFiles = RESERVED_DECLS.map((f) => join(root, f));
  const sources = new Set(firmwareFiles(root));
  const used = new Set<string>();
  const isEspruinos = (symbol: ts.Symbol | undefined): boolean =>
    !symbol || !symbol.declarations || symbol.declarations.some((d) => reservedFiles.includes(d.getSourceFile().fileName));
  for (const sf of program.getSourceFiles()) {
    if (!sources.has(sf.fileName)) continue;
    const go = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.name)) {
        if (isEspruinos(checker.getSymbolAtLocation(n.name))) used.add(n.name.text);
      } else if (
        (ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n) || ts.isMethodDeclaration(n)) &&
        ts.isIdentifier(n.name)
      ) {
        // An object literal's key is Espruino's when the literal is typed by Espruino (setWatch's options...),
        // or when nothing types the literal (it might be handed to Espruino later).
        const literal = n.parent;
        if (ts.isObjectLiteralExpression(literal)) {
          const name = n.name.text;
          const contextual = checker.getContextualType(literal);
          const types = contextual ? (contextual.isUnion() ? contextual.types : [contextual]) : [];
          if (!contextual || types.some((t) => t.getProperty(name) !== undefined && isEspruinos(t.getProperty(name)))) used.add(name);
        }
      }
      ts.forEachChild(n, go);
    };
    go(sf);
  }
  return used;
}

/** The property names to mangle, as an anchored regular expression for esbuild's mangleProps. */
export function manglePattern(root: string): RegExp {
  const declared = new Set<string>();
  const dynamic = new Set<string>();
  const files = firmwareFiles(root);
  for (const f of files)
    walk(f, (n) => {
      if (
        (ts.isPropertySignature(n) ||
          ts.isPropertyDeclaration(n) ||
          ts.isMethodDeclaration(n) ||
          ts.isMethodSignature(n) ||
          ts.isPropertyAssignment(n) ||
          ts.isShorthandPropertyAssignment(n) ||
          ts.isGetAccessorDeclaration(n) ||
          // A constructor's parameter property (`constructor(readonly layout: Layout)`) is a member too.
          (ts.isParameter(n) && ts.isConstructorDeclaration(n.parent) && ts.getModifiers(n)?.length)) &&
        ts.isIdentifier(n.name)
      )
        declared.add(n.name.text);
      if (ts.isInterfaceDeclaration(n) && DYNAMIC_KEY_INTERFACES.includes(n.name.text))
        for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) dynamic.add(m.name.text);
    });
  const reserved = new Set<string>();
  for (const f of RESERVED_DECLS)
    walk(join(root, f), (n) => {
      if (ts.isInterfaceDeclaration(n) && DYNAMIC_KEY_INTERFACES.includes(n.name.text))
        for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) dynamic.add(m.name.text);
    });
  // Members and globals only: a parameter's name in a declaration is not a property anyone reads.
  for (const f of RESERVED_DECLS)
    walk(join(root, f), (n) => {
      if (ts.isParameter(n) || ts.isTypeParameterDeclaration(n)) return;
      const name = (n as { name?: ts.Node }).name;
      if (name && ts.isIdentifier(name)) reserved.add(name.text);
    });
  // Of those, only the names the firmware really uses on Espruino's objects stay as they are.
  const used = espruinoPropertyNames(root);
  for (const name of [...reserved]) if (!used.has(name)) reserved.delete(name);
  // Two-letter names gain little; keeping them also keeps the profile's short keys readable.
  const names = [...declared].filter((n) => n.length > 2 && !reserved.has(n) && !dynamic.has(n)).sort();
  return new RegExp(`^(${names.join("|")})$`);
}

/**
 * esbuild's mangle cache for a build: the saved state's fields pinned to their save keys. Throws when
 * the format and the code disagree: a mangled field whose key is also a name the bundle keeps (two
 * properties would merge), a kept field saved under another key, or one key for two fields.
 */
export function pinnedNames(mangled: RegExp, kept: Set<string>): Record<string, string> {
  const pinned: Record<string, string> = {};
  const owner = new Map<string, string>();
  for (const [name, key] of Object.entries(SAVE_KEYS)) {
    const other = owner.get(key);
    if (other !== undefined) throw new Error(`save format: "${name}" and "${other}" both have the key "${key}"`);
    owner.set(key, name);
    if (!mangled.test(name)) {
      if (key !== name)
        throw new Error(`save format: "${name}" is kept as it is by the bundle, so its key must be "${name}", not "${key}"`);
      continue;
    }
    if (kept.has(key)) throw new Error(`save format: the key "${key}" of "${name}" is also a property name the bundle keeps`);
    pinned[name] = key;
  }
  return pinned;
}
