/**
 * A size pass on the bundle, before terser's: a function declaration that uses neither `this` nor
 * `arguments` and is never called with `new` becomes `var name=(params)=>{body};`. On Espruino that
 * means the same (2v29 does not hoist function declarations, so neither is usable before its
 * statement has run; the bundle gate checks nothing is), and terser then joins the vars into the
 * declarations around them and shortens `=>{return x}` to `=>x`: about 5 bytes a function. Measured on
 * the real interpreter, an arrow is called as fast as a function and takes as many JsVars.
 */
import * as acorn from "acorn";
import { children, type AnyNode } from "./ast.ts";

/** Does the function (its parameters and body) use its own `this` or `arguments`? Arrows inside share them; other functions and classes do not. */
function usesOwnThisOrArguments(fn: AnyNode): boolean {
  let uses = false;
  const go = (n: AnyNode): void => {
    if (uses) return;
    if (n.type === "ThisExpression" || n.type === "Super" || (n.type === "Identifier" && n.name === "arguments")) uses = true;
    if (n.type === "FunctionExpression" || n.type === "FunctionDeclaration" || n.type === "ClassBody") return;
    for (const c of children(n)) go(c);
  };
  for (const p of fn.params as AnyNode[]) go(p);
  go(fn.body as AnyNode);
  return uses;
}

export function arrowFunctions(code: string): string {
  const ast = acorn.parse(code, { ecmaVersion: 2020 }) as unknown as AnyNode;
  // Names called with `new` anywhere stay functions (by name: conservative across scopes).
  const constructed = new Set<string>();
  const find = (n: AnyNode): void => {
    if (n.type === "NewExpression" && (n.callee as AnyNode).type === "Identifier") constructed.add((n.callee as AnyNode).name as string);
    for (const c of children(n)) find(c);
  };
  find(ast);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (n: AnyNode): void => {
    if (n.type === "FunctionDeclaration" && !n.generator && !n.async && !usesOwnThisOrArguments(n)) {
      const id = n.id as AnyNode;
      const name = id.name as string;
      const params = n.params as AnyNode[];
      const body = n.body as AnyNode;
      if (!constructed.has(name)) {
        const paramText = params.length ? code.slice(params[0].start, params[params.length - 1].end) : "";
        edits.push({ start: n.start, end: body.start, text: `var ${name}=(${paramText})=>` });
        edits.push({ start: body.end, end: body.end, text: ";" });
      }
    }
    for (const c of children(n)) visit(c);
  };
  visit(ast);
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
