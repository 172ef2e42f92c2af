/**
 * A memory pass on the minified bundle, last: the outer function that scoped the bundle for the minifier (its names
 * mangled short) is taken off, so that its declarations are the interpreter's globals. Espruino gives a function defined
 * inside another a link to the scope it was defined in (a JsVar), and a closure two functions deep a chain of them (an
 * array of the scopes: three more); at the top level a function has none. On a Pico's 13-byte JsVars that is one JsVar for
 * each of the ~170 functions and methods at the bundle's top level, and three for each closure made inside them (the
 * solver's, the device's callbacks): ~250 JsVars at boot, ~320 while the unit thinks (docs/performance.md).
 *
 * Two things change with that, both handled here:
 * - The names are a board's globals then: none may be one the interpreter or the board defines (a pin such as A5, LED1,
 *   BTN1, `E`). The minifier never takes a global the bundle reads; this pass refuses any other that looks like one.
 * - Espruino 2v29 goes on parsing the top level after an uncaught error (without running it), and a class parsed so
 *   fails an assertion that stops the interpreter. The only error the top level can meet is a pin the interpreter lacks
 *   (the Linux build runs the upload before the board's prelude defines them), so the declarations that read pins (the
 *   compiled profile) move to a statement of their own just before the last one, which starts the firmware: every class
 *   is defined by then. Nothing at the top level reads them before (checked), only functions called later.
 */
import * as acorn from "acorn";
import { children, type AnyNode } from "./ast.ts";

/** A board's pins as globals (A0..H15, D0..D47), LEDs and buttons: an interpreter without them throws where one is read. */
const PIN = /^(?:[A-H]\d{1,2}|LED\d|BTN\d?)$/;
/** Names a minified name could take that an Espruino board defines as a global. */
const BOARD_GLOBAL = (name: string): boolean => PIN.test(name) || name === "E";

export class UnwrapError extends Error {}

/**
 * The bundle `(()=>{...})();` as the body of its outer function, at the top level. `uploaded`: the bundle may run where
 * the pins are missing (the firmware, uploaded to the Linux interpreter), so its pin-reading declarations move; a bench's
 * or a test's entry runs with the board's prelude only.
 */
export function unwrapBundle(code: string, uploaded = true): string {
  const program = parse(code);
  const only = program.body.length === 1 ? program.body[0] : undefined;
  const call = only?.type === "ExpressionStatement" ? only.expression : undefined;
  const fn = call?.type === "CallExpression" && !call.arguments.length ? call.callee : undefined;
  if (!fn || fn.type !== "ArrowFunctionExpression" || fn.body.type !== "BlockStatement" || fn.params.length)
    throw new UnwrapError("the bundle is not one outer function called where it stands");
  // The body at the top level must parse (no `return` of the outer function's own) and declare no board's global.
  const body = code.slice(fn.body.start + 1, fn.body.end - 1);
  const top = parse(body);
  const declared = new Set<string>();
  for (const s of top.body) for (const name of declaredNames(s)) declared.add(name);
  for (const name of declared)
    if (BOARD_GLOBAL(name)) throw new UnwrapError(`the bundle's top level would declare "${name}", a board's global`);
  return uploaded ? pinsLast(body, top, declared) : body;
}

function parse(code: string): acorn.Program {
  try {
    return acorn.parse(code, { ecmaVersion: 2020, sourceType: "script" });
  } catch (e) {
    throw new UnwrapError(`the bundle's body does not parse at the top level: ${(e as Error).message}`);
  }
}

/**
 * Moves the top-level declarators that read a pin to a `var` of their own, after the last statement that defines a class
 * and before the first that reads them.
 */
function pinsLast(body: string, top: acorn.Program, declared: Set<string>): string {
  const statements = top.body;
  const moved: acorn.VariableDeclarator[] = [];
  for (const s of statements)
    if (s.type === "VariableDeclaration" && s.kind === "var")
      for (const d of s.declarations) if (d.init && readsNow(d.init as AnyNode).some((n) => PIN.test(n) && !declared.has(n))) moved.push(d);
  if (!moved.length) return body;
  const names = new Set(moved.map((d) => (d.id.type === "Identifier" ? d.id.name : "")));
  if (names.has("")) throw new UnwrapError("a declaration that reads a pin is a pattern");
  // The first statement that reads them when it runs (functions run later, when they are set), and the last that defines
  // a class: the declarations go between the two.
  let first = statements.length;
  let lastClass = -1;
  statements.forEach((s, i) => {
    // (A for loop's own `let` of that name is another variable.)
    const own = new Set(s.type === "VariableDeclaration" ? [] : declaredNames(s, true));
    const reads = readsNow(s as AnyNode, moved as unknown as AnyNode[]);
    if (first === statements.length && reads.some((n) => names.has(n) && !own.has(n))) first = i;
    if (reads.includes(CLASS)) lastClass = i;
  });
  if (lastClass >= first)
    throw new UnwrapError(`the top level reads what reads a pin before its last class is defined (statement ${first + 1})`);
  // Cut each moved declarator with its comma from its declaration (a declaration left empty goes whole).
  const cuts: [number, number][] = [];
  for (const s of statements) {
    if (s.type !== "VariableDeclaration") continue;
    const ds = s.declarations;
    const gone = ds.filter((d) => moved.includes(d));
    if (gone.length === ds.length) cuts.push([s.start, s.end]);
    else
      for (const d of gone) {
        const i = ds.indexOf(d);
        cuts.push(i + 1 < ds.length ? [d.start, ds[i + 1].start] : [ds[i - 1].end, d.end]);
      }
  }
  // (Every cut is before `at`: the moved declarations come from statements before their first reader.)
  const at = statements[Math.min(first, statements.length - 1)].start;
  let out = "";
  let from = 0;
  for (const [a, b] of cuts.sort((x, y) => x[0] - y[0])) {
    out += body.slice(from, a);
    from = b;
  }
  const moves = "var " + moved.map((d) => body.slice(d.start, d.end)).join(",") + ";";
  return out + body.slice(from, at) + moves + body.slice(at);
}

/** The names a top-level statement declares (var, let, const, function, class); with `loops`, its for loops' too. */
function declaredNames(s: acorn.Statement | acorn.ModuleDeclaration, loops = false): string[] {
  const names: string[] = [];
  const pattern = (p: acorn.Pattern | null | undefined): void => {
    if (!p) return;
    if (p.type === "Identifier") names.push(p.name);
    else if (p.type === "ObjectPattern") for (const q of p.properties) pattern(q.type === "RestElement" ? q : q.value);
    else if (p.type === "ArrayPattern") for (const q of p.elements) pattern(q);
    else if (p.type === "RestElement") pattern(p.argument);
    else if (p.type === "AssignmentPattern") pattern(p.left);
  };
  const declaration = (v: acorn.Node | null | undefined): void => {
    if (v && v.type === "VariableDeclaration") for (const d of (v as acorn.VariableDeclaration).declarations) pattern(d.id);
  };
  if (s.type === "VariableDeclaration") declaration(s);
  else if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) names.push(s.id.name);
  else if (loops && s.type === "ForStatement") declaration(s.init);
  else if (loops && (s.type === "ForInStatement" || s.type === "ForOfStatement")) declaration(s.left);
  return names;
}

/** Stands for a class among the names readsNow returns (no identifier has a space). */
const CLASS = "class ";

/**
 * The identifiers `node` reads when it runs (not in the functions and methods it defines, which run later), and CLASS for
 * each class it defines then.
 */
function readsNow(node: AnyNode, skip: AnyNode[] = []): string[] {
  const names: string[] = [];
  const go = (n: AnyNode): void => {
    if (skip.includes(n)) return;
    // A function called where it stands (an IIFE), or a class made where it stands, runs its body (constructor) now.
    const callee = (n.type === "CallExpression" || n.type === "NewExpression") && (n.callee as AnyNode);
    if (callee && (callee.type === "FunctionExpression" || callee.type === "ArrowFunctionExpression")) {
      go(callee.body as AnyNode);
      for (const a of n.arguments as AnyNode[]) go(a);
      return;
    }
    if (callee && callee.type === "ClassExpression")
      for (const m of (callee.body as AnyNode).body as AnyNode[]) if (m.kind === "constructor") go((m.value as AnyNode).body as AnyNode);
    switch (n.type) {
      case "FunctionExpression":
      case "ArrowFunctionExpression":
      case "FunctionDeclaration":
        return;
      case "Identifier":
        names.push(n.name as string);
        return;
      case "ClassExpression":
      case "ClassDeclaration":
        names.push(CLASS);
        break;
      case "MemberExpression":
        go(n.object as AnyNode);
        if (n.computed) go(n.property as AnyNode);
        return;
      case "Property":
      case "MethodDefinition":
      case "PropertyDefinition":
        if (n.computed) go(n.key as AnyNode);
        if (n.type === "Property") go(n.value as AnyNode);
        else if (n.type === "PropertyDefinition" && n.value) go(n.value as AnyNode);
        return;
    }
    for (const c of children(n)) go(c);
  };
  go(node);
  return names;
}
