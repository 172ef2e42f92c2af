/**
 * A size pass on the minified bundle, after terser: `void 0` (terser's undefined), `null`, the globals the
 * bundle names most (`Math`, the typed-array constructors, `JSON`...), static functions of those it calls
 * often (`Math.floor`...), require("Storage") and the strings it repeats become two-character locals of
 * the bundle's outer function, declared once at its top. Espruino keeps the code as text, so that is
 * bytes saved at every use; and a local of the outer function, declared first, is found sooner than
 * a global (the interpreter searches the scopes outwards: measured on the 2v29 Linux build, `u_` for
 * `void 0` and `m_.floor` for `Math.floor` both ran faster).
 *
 * Each alias is a name that appears nowhere in the bundle, so nothing declares, shadows or reads it
 * but the pass. A global is aliased only where that saves bytes (its uses pay for the declaration);
 * one the bundle declares itself is left alone.
 */
import * as acorn from "acorn";
import { children, type AnyNode } from "./ast.ts";

/**
 * Globals worth an alias when used often enough: namespaces, constructors, and Espruino's pin and clock
 * functions (plain functions: none reads `this`, so a call through a local is the same call).
 */
export const ALIASED_GLOBALS = [
  "digitalWrite",
  "digitalRead",
  "getTime",
  "Math",
  "JSON",
  "Object",
  "Array",
  "Uint8Array",
  "Int8Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float64Array",
];

/**
 * Static functions of those namespaces worth an alias of their own (`Math.floor` as a local): none reads `this`
 * (checked on the 2v29 interpreter), and a call through the local skips the namespace's lookup as well.
 */
export const ALIASED_MEMBERS = [
  "Math.floor",
  "Math.min",
  "Math.max",
  "Math.ceil",
  "Array.isArray",
  "String.fromCharCode",
  "E.CRC32",
  "E.sum",
  "E.mapInPlace",
  "E.hwRand",
  "JSON.stringify",
];

/** Built-in modules worth an alias: require() of one returns the same object every time, so it is asked for once, at boot. */
export const ALIASED_MODULES = ["Storage"];

/** The names ALIASED_MEMBERS and ALIASED_MODULES read: a bundle that declares one of these names gets none of their aliases. */
const MEMBER_OWNERS = new Set([...ALIASED_MEMBERS.map((m) => m.split(".")[0]), "require"]);

const FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const SECOND = "_$0123456789";

export function aliasGlobals(code: string): string {
  const ast = acorn.parse(code, { ecmaVersion: 2020 }) as unknown as AnyNode;
  const names = new Set(code.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) || []);
  const uses = new Map<string, AnyNode[]>();
  const declared = new Set<string>();
  const add = (key: string, n: AnyNode) => {
    const list = uses.get(key) ?? [];
    list.push(n);
    uses.set(key, list);
  };
  const visit = (n: AnyNode, parent: AnyNode | null): void => {
    if (
      n.type === "UnaryExpression" &&
      n.operator === "void" &&
      (n.argument as AnyNode).type === "Literal" &&
      (n.argument as AnyNode).value === 0
    )
      add("void 0", n);
    if (n.type === "Literal" && n.value === null && n.raw === "null") add("null", n);
    // A string the code repeats (a mode's name, a typeof's answer): held once rather than spelled out at each use.
    const isLiteralKey = (parent?.type === "Property" || parent?.type === "MethodDefinition") && parent.key === n;
    if (n.type === "Literal" && typeof n.value === "string" && !isLiteralKey) add(n.raw as string, n);
    const args = n.type === "CallExpression" ? (n.arguments as AnyNode[]) : [];
    if (
      (n.callee as AnyNode | undefined)?.type === "Identifier" &&
      (n.callee as AnyNode).name === "require" &&
      args.length === 1 &&
      args[0].type === "Literal" &&
      ALIASED_MODULES.includes(args[0].value as string)
    ) {
      add(`require(${JSON.stringify(args[0].value)})`, n);
      return;
    }
    const object = n.type === "MemberExpression" && !n.computed ? (n.object as AnyNode) : null;
    if (object?.type === "Identifier" && !(parent?.type === "AssignmentExpression" && parent.left === n)) {
      const member = `${object.name as string}.${(n.property as AnyNode).name as string}`;
      if (ALIASED_MEMBERS.includes(member)) {
        add(member, n);
        return;
      }
    }
    if (n.type === "Identifier" && (ALIASED_GLOBALS.includes(n.name as string) || MEMBER_OWNERS.has(n.name as string))) {
      const p = parent as AnyNode;
      const isKey =
        (p.type === "MemberExpression" && p.property === n && !p.computed) ||
        ((p.type === "Property" || p.type === "MethodDefinition") && p.key === n && !p.computed && !p.shorthand);
      const isDeclaration =
        (p.type === "VariableDeclarator" && p.id === n) ||
        ((p.type === "FunctionDeclaration" || p.type === "FunctionExpression" || p.type === "ArrowFunctionExpression") &&
          (p.params as AnyNode[]).includes(n)) ||
        ((p.type === "FunctionDeclaration" || p.type === "ClassDeclaration") && p.id === n);
      if (isDeclaration) declared.add(n.name as string);
      // (A shorthand property `{Math}` would need `Math:m_`: not worth handling; such a global is left alone.)
      else if (p.type === "Property" && p.shorthand) declared.add(n.name as string);
      else if (!isKey && ALIASED_GLOBALS.includes(n.name as string)) add(n.name as string, n);
    }
    for (const c of children(n)) visit(c, n);
  };
  visit(ast, null);

  const fresh = (function* () {
    for (const a of FIRST) for (const b of SECOND) if (!names.has(a + b)) yield a + b;
  })();
  const edits: { start: number; end: number; text: string }[] = [];
  const decls: string[] = [];
  // (A literal may touch a word: `return"race"`, `"race"in o`; the alias is a word, so it gets a space there.)
  const word = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$]/.test(c);
  for (const [key, list] of uses) {
    if (declared.has(key) || declared.has(key.split(/[.(]/)[0])) continue;
    // Declaration: `,xx=Math` (or `,xx` for undefined) against what each use saves.
    const cost = key === "void 0" ? 3 : 4 + key.length;
    if (list.length * (key.length - 2) <= cost) continue;
    const alias = fresh.next().value as string;
    decls.push(key === "void 0" ? alias : `${alias}=${key}`);
    for (const u of list)
      edits.push({
        start: u.start,
        end: u.end,
        text: (word(code[u.start - 1]) ? " " : "") + alias + (word(code[u.end]) ? " " : ""),
      });
  }
  if (!decls.length) return code;
  // The declarations go first in the outer function: joined to its leading `var` when it has one.
  const head = /^\(\(\)=>\{var /.exec(code);
  const opening = /^\(\(\)=>\{/.exec(code);
  if (!opening) throw new Error("alias-globals: the bundle does not start with its outer function");
  if (head) edits.push({ start: head[0].length, end: head[0].length, text: decls.join(",") + "," });
  else edits.push({ start: opening[0].length, end: opening[0].length, text: `var ${decls.join(",")};` });
  edits.sort((a, b) => b.start - a.start);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
