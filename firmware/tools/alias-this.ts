/**
 * A size pass on the minified bundle: Espruino keeps the code as text, and `this.` costs five
 * bytes at each of several hundred uses in the classes' methods. In a method that reads `this` at
 * least MIN_USES times, `this` is aliased by a one-letter local declared first thing in the body
 * (a letter that appears nowhere in the method, so it neither shadows nor is shadowed), and every
 * `this` of the method's own (not of a nested `function` or class, which rebind it; arrows do not)
 * becomes that letter. Constructors of derived classes are left alone (`this` is unusable before
 * super()). Runs after terser, which would fold the alias back into `this`.
 */
import * as acorn from "acorn";
import { children, type AnyNode } from "./ast.ts";

/** Below this many uses the alias's own declaration (`let t=this;`, or `t=this,` joined) costs more than it saves. */
export const MIN_USES = 4;
export const MIN_USES_JOINED = 3;
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$";

/** The `this` expressions that belong to the function whose body is `body`. */
function ownThis(body: AnyNode): AnyNode[] {
  const found: AnyNode[] = [];
  const go = (n: AnyNode): void => {
    if (n.type === "ThisExpression") found.push(n);
    if (n.type === "FunctionExpression" || n.type === "FunctionDeclaration" || n.type === "ClassBody") return;
    for (const c of children(n)) go(c);
  };
  for (const c of children(body)) go(c);
  return found;
}

export function aliasThis(code: string): string {
  const ast = acorn.parse(code, { ecmaVersion: 2020 }) as unknown as AnyNode;
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (n: AnyNode, derived: boolean): void => {
    if (n.type === "ClassDeclaration" || n.type === "ClassExpression") {
      for (const c of children(n)) visit(c, n.superClass !== null && n.superClass !== undefined);
      return;
    }
    if (n.type === "MethodDefinition" && !(n.kind === "constructor" && derived)) {
      const fn = n.value as AnyNode;
      const body = fn.body as AnyNode;
      const uses = ownThis(body);
      const text = code.slice(fn.start, fn.end);
      const used = new Set(text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) || []);
      const letter = [...LETTERS].find((l) => !used.has(l));
      // Joined to a leading let/const when there is one (`let a=this,n=...`: declarators run in order).
      const first = (body.body as AnyNode[])[0];
      const joined = first && first.type === "VariableDeclaration" && first.kind !== "var";
      if (letter && uses.length >= (joined ? MIN_USES_JOINED : MIN_USES)) {
        if (joined) {
          const at = (first.declarations as AnyNode[])[0].start;
          edits.push({ start: at, end: at, text: `${letter}=this,` });
        } else edits.push({ start: body.start + 1, end: body.start + 1, text: `let ${letter}=this;` });
        for (const u of uses) edits.push({ start: u.start, end: u.end, text: letter });
      }
    }
    for (const c of children(n)) visit(c, derived);
  };
  visit(ast, false);
  // From the end backwards; at one position the `this` is replaced before the alias is inserted in front of it.
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
