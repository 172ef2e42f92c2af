/**
 * The bundle gate: refuses JavaScript that Espruino 2v29 cannot run (docs/espruino.md 1 and 3.5).
 * esbuild lowers or refuses most modern syntax (docs/espruino.md 3.4), but lets labels, use before declaration,
 * missing built-ins and unsupported regex syntax through; this walks the bundle and reports all of them.
 *
 * Usage: npx tsx firmware/tools/gate.ts FILE...   (prints file:line:column: message, exits 1 on any problem)
 */
import * as acorn from "acorn";
import * as walk from "acorn-walk";
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

import {
  formatProblem,
  MISSING_GLOBALS,
  MISSING_STATIC_METHODS,
  MISSING_STATIC_VALUES,
  PROTOTYPE_LESS_BUILTINS,
  MISSING_INSTANCE_METHODS,
  ERROR_CLASSES,
  NO_DESTRUCTURING,
  NO_SPREAD,
  NO_GENERATORS,
  NO_ASYNC,
  NO_LABELS,
  SYNTAX_ERROR,
  NO_MODULES,
  UNDEFINED_BUILTIN,
  SHARED_LOOP_BINDING,
  findRegexProblems,
  type GateProblem,
} from "./gate/limits.ts";
import {
  newScope,
  declare,
  resolve,
  functionScope,
  bindingIdentifiers,
  propertyName,
  constantString,
  isFunctionNode,
  type DeclarationKind,
  type Slot,
  type Scope,
  type Context,
  type Reference,
  type GlobalUse,
} from "./gate/scopes.ts";

export { formatProblem, type GateProblem } from "./gate/limits.ts";

// ---- The checker ----

/** acorn-walk's walker callback; its type declarations leave out the category argument ("Expression", "Pattern", ...). */
type Visit = (node: acorn.AnyNode, ctx: Context, category?: "Expression" | "Statement" | "Pattern" | "Function" | "Class") => void;
type Visitors = { [T in acorn.AnyNode["type"]]?: (node: Extract<acorn.AnyNode, { type: T }>, ctx: Context, c: Visit) => void } & {
  Function?: (node: acorn.Function, ctx: Context, c: Visit) => void;
  Class?: (node: acorn.Class, ctx: Context, c: Visit) => void;
};

/** acorn-walk's default walkers, used for the children of the nodes the checker looks at. */
const base = walk.base as unknown as Required<Visitors>;

export function checkBundle(code: string, file: string): GateProblem[] {
  const problems: GateProblem[] = [];
  const report = (line: number, column0: number, message: string) => problems.push({ file, line, column: column0 + 1, message });
  const reportAt = (node: acorn.Node, message: string) => report(node.loc!.start.line, node.loc!.start.column, message);

  let program: acorn.Program;
  try {
    program = acorn.parse(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      locations: true,
      // Parse module syntax and top-level await too, so they are reported as constructs rather than as parse errors.
      allowImportExportEverywhere: true,
      allowAwaitOutsideFunction: true,
      allowHashBang: true,
    });
  } catch (error) {
    const loc = (error as { loc?: acorn.Position }).loc;
    const text = (error as Error).message.replace(/ \(\d+:\d+\)$/, "");
    report(loc?.line ?? 1, loc?.column ?? 0, `parse error: ${text}`);
    return problems;
  }

  const references: Reference[] = [];
  const globalUses: GlobalUse[] = [];
  const typeofTested = new Set<string>();
  /** Reads of missing static methods that only alias or test them (esbuild's `__getOwnPropSymbols = Object.getOwnPropertySymbols`). */
  const guardedReads = new Set<acorn.AnyNode>();
  /** Calls such as `.at(`, and the property names the bundle defines itself: the firmware's Scheduler has its own `at`. */
  const instanceCalls: { method: string; at: acorn.Node }[] = [];
  const ownMethods = new Set<string>();
  const defineMethod = (key: acorn.AnyNode, computed: boolean) => {
    if (!computed && key.type === "Identifier") ownMethods.add(key.name);
    else if (key.type === "Literal" && typeof key.value === "string") ownMethods.add(key.value);
  };

  const checkRegex = (at: acorn.Node, pattern: string, flags: string, literalColumn: number | null) => {
    for (const p of findRegexProblems(pattern, flags)) {
      const shown = pattern.length > 40 ? pattern.slice(0, 37) + "..." : pattern;
      const column = literalColumn !== null && p.offset >= 0 ? literalColumn + 1 + p.offset : at.loc!.start.column;
      report(at.loc!.start.line, column, `regex ${p.construct} in /${shown}/${flags}: ${p.reason} (docs/espruino.md 1.2)`);
    }
  };

  const checkRegExpCall = (node: acorn.CallExpression | acorn.NewExpression, ctx: Context) => {
    if (node.callee.type !== "Identifier" || node.callee.name !== "RegExp") return;
    const pattern = constantString(node.arguments[0]);
    if (pattern === undefined || resolve(ctx.scope, "RegExp")) return;
    checkRegex(node.arguments[0], pattern, constantString(node.arguments[1]) ?? "", null);
  };

  // Destructuring anywhere a binding or assignment target goes (docs/espruino.md 1.1: SyntaxError or silently undefined names).
  const checkTarget = (target: acorn.Pattern | acorn.VariableDeclaration, where: string) => {
    if (target.type === "ObjectPattern" || target.type === "ArrayPattern")
      reportAt(target, `destructuring pattern in ${where}: ${NO_DESTRUCTURING}`);
  };

  const declareAll = (pattern: acorn.Pattern, scope: Scope, kind: DeclarationKind, slot: Slot | null) => {
    for (const id of bindingIdentifiers(pattern)) {
      // `var of = 1` is a SyntaxError on 2v29 (docs/espruino.md 1.1).
      if (id.name === "of") reportAt(id, `'of' as a variable name: ${SYNTAX_ERROR}`);
      declare(scope, id.name, kind, slot);
    }
  };

  const declareVariables = (node: acorn.VariableDeclaration, ctx: Context, where: string, c: Visit) => {
    // `using` declarations are not even ES2024; Espruino has none of them.
    if (node.kind !== "var" && node.kind !== "let" && node.kind !== "const") reportAt(node, `'${node.kind}' declaration: ${SYNTAX_ERROR}`);
    const kind = node.kind === "var" || node.kind === "let" || node.kind === "const" ? node.kind : "let";
    const scope = kind === "var" ? functionScope(ctx.scope) : ctx.scope;
    for (const declarator of node.declarations) {
      checkTarget(declarator.id, where);
      declareAll(declarator.id, scope, kind, ctx.slot);
      c(declarator.id, ctx, "Pattern");
      if (declarator.init) {
        // Aliasing a missing static into a variable is how helpers feature-test it (esbuild's __spreadValues).
        guardedReads.add(declarator.init);
        c(declarator.init, ctx, "Expression");
      }
    }
  };

  // Each statement of a list gets its own slot, so a later declaration can tell which earlier statements read it.
  const walkStatements = (list: readonly acorn.AnyNode[], ctx: Context, c: Visit) => {
    for (let index = 0; index < list.length; index++) c(list[index], { ...ctx, slot: { list, index, outer: ctx.slot } }, "Statement");
  };

  // An assignment target is written, not read: `Array.prototype.myMethod = ...` works on 2v29, so skip the read checks.
  const walkTarget = (target: acorn.Pattern, ctx: Context, c: Visit) => {
    if (target.type !== "MemberExpression") return c(target, ctx, "Pattern");
    defineMethod(target.property, target.computed);
    if (target.property.type === "PrivateIdentifier") reportAt(target.property, `#private member: ${SYNTAX_ERROR}`);
    c(target.object, ctx, "Expression");
    if (target.computed) c(target.property, ctx, "Expression");
  };

  const walkForInOf = (node: acorn.ForInStatement | acorn.ForOfStatement, ctx: Context, c: Visit) => {
    const head = node.type === "ForOfStatement" ? "a for-of head" : "a for-in head";
    const inner = { ...ctx, scope: newScope(ctx.scope, false) };
    if (node.left.type === "VariableDeclaration") declareVariables(node.left, inner, head, c);
    else {
      checkTarget(node.left, head);
      walkTarget(node.left, inner, c);
    }
    c(node.right, inner, "Expression");
    c(node.body, inner, "Statement");
  };

  const walkCall = (node: acorn.CallExpression | acorn.NewExpression, ctx: Context, c: Visit) => {
    for (const arg of node.arguments) if (arg.type === "SpreadElement") reportAt(arg, `spread argument in a call: ${NO_SPREAD}`);
    checkRegExpCall(node, ctx);
    // An IIFE, plain or through .call/.apply, runs its body now: keep the caller's slots for use-before-declaration.
    const callee = node.callee;
    let calledNow: acorn.AnyNode | undefined;
    if (isFunctionNode(callee)) calledNow = callee;
    else if (callee.type === "MemberExpression" && isFunctionNode(callee.object) && /^(call|apply)$/.test(propertyName(callee) ?? ""))
      calledNow = callee.object;
    c(callee, calledNow ? { ...ctx, calledNow } : ctx, "Expression");
    for (const arg of node.arguments) c(arg, ctx, "Expression");
  };

  const visitors: Visitors = {
    Program(node, ctx, c) {
      walkStatements(node.body, ctx, c);
    },
    BlockStatement(node, ctx, c) {
      walkStatements(node.body, { ...ctx, scope: newScope(ctx.scope, false) }, c);
    },
    StaticBlock(node, ctx, c) {
      reportAt(node, `class static block: ${SYNTAX_ERROR}`);
      walkStatements(node.body, { ...ctx, scope: newScope(ctx.scope, true) }, c);
    },
    SwitchStatement(node, ctx, c) {
      c(node.discriminant, ctx, "Expression");
      const inner = { ...ctx, scope: newScope(ctx.scope, false) };
      // Cases fall through in order, so all their statements form one statement list.
      const list = node.cases.flatMap((switchCase) => switchCase.consequent);
      let index = 0;
      for (const switchCase of node.cases) {
        if (switchCase.test) c(switchCase.test, inner, "Expression");
        for (const statement of switchCase.consequent)
          c(statement, { ...inner, slot: { list, index: index++, outer: ctx.slot } }, "Statement");
      }
    },

    FunctionDeclaration(node, ctx, c) {
      if (node.id) declare(ctx.scope, node.id.name, "function", ctx.slot);
      c(node, ctx, "Function");
    },
    Function(node, ctx, c) {
      // Generators and async functions: SyntaxError / ReferenceError on 2v29 (docs/espruino.md 1.1).
      if (node.generator) reportAt(node, `generator function (function*): ${NO_GENERATORS}`);
      if (node.async) reportAt(node, `async function: ${NO_ASYNC}`);
      const scope = newScope(ctx.scope, true, ctx.calledNow !== node);
      if (node.type === "FunctionExpression" && node.id) declare(scope, node.id.name, "own name", null);
      // A function body runs later (no use-before-declaration from it), unless the function is an IIFE.
      const inner: Context = { scope, slot: ctx.calledNow === node ? ctx.slot : null };
      for (const param of node.params) {
        // Default and rest parameters: SyntaxError on 2v29 (docs/espruino.md 1.1).
        if (param.type === "AssignmentPattern") reportAt(param, `default parameter: ${SYNTAX_ERROR}`);
        if (param.type === "RestElement") reportAt(param, `rest parameter: ${NO_SPREAD}`);
        const target = param.type === "AssignmentPattern" ? param.left : param.type === "RestElement" ? param.argument : param;
        checkTarget(target, "a parameter");
        declareAll(param, scope, "param", null);
        c(param, inner, "Pattern");
      }
      if (node.body.type === "BlockStatement") walkStatements(node.body.body, inner, c);
      else c(node.body, inner, "Expression");
    },

    VariableDeclaration(node, ctx, c) {
      declareVariables(node, ctx, "a declaration", c);
    },
    ForStatement(node, ctx, c) {
      const head = { ...ctx, scope: newScope(ctx.scope, false) };
      if (node.init) c(node.init, head, node.init.type === "VariableDeclaration" ? "Statement" : "Expression");
      // The test, update and body get a scope of their own, so a read of a header binding can tell it is inside the loop.
      const loop = { ...ctx, scope: newScope(head.scope, false) };
      if (node.init?.type === "VariableDeclaration" && node.init.kind !== "var")
        for (const declaration of head.scope.names.values()) declaration.sharedIn = loop.scope;
      if (node.test) c(node.test, loop, "Expression");
      if (node.update) c(node.update, loop, "Expression");
      c(node.body, loop, "Statement");
    },
    ForInStatement(node, ctx, c) {
      walkForInOf(node, ctx, c);
    },
    ForOfStatement(node, ctx, c) {
      if (node.await) reportAt(node, `for await: ${NO_ASYNC}`);
      walkForInOf(node, ctx, c);
    },
    CatchClause(node, ctx, c) {
      const inner = { ...ctx, scope: newScope(ctx.scope, false) };
      if (node.param) {
        checkTarget(node.param, "a catch parameter");
        declareAll(node.param, inner.scope, "catch", null);
        c(node.param, inner, "Pattern");
      }
      c(node.body, inner, "Statement");
    },

    ClassDeclaration(node, ctx, c) {
      if (node.id) declare(ctx.scope, node.id.name, "class", ctx.slot);
      c(node, ctx, "Class");
    },
    Class(node, ctx, c) {
      const inner = { ...ctx, scope: newScope(ctx.scope, false) };
      if (node.type === "ClassExpression" && node.id) declare(inner.scope, node.id.name, "own name", null);
      const superClass = node.superClass;
      // 2v29 cannot subclass built-in errors, and accepts only a name after `extends` (docs/espruino.md 1.1).
      if (superClass?.type === "Identifier" && ERROR_CLASSES.has(superClass.name))
        reportAt(
          superClass,
          `class extends ${superClass.name}: Espruino 2v29 cannot subclass built-in errors; use Object.create(Error.prototype) (docs/espruino.md 1.1)`,
        );
      else if (superClass && superClass.type !== "Identifier" && superClass.type !== "MemberExpression")
        reportAt(superClass, `class extends an expression: Espruino 2v29 only accepts a name after 'extends' (docs/espruino.md 1.1)`);
      if (superClass) c(superClass, inner, "Expression");
      c(node.body, inner);
    },
    MethodDefinition(node, ctx, c) {
      defineMethod(node.key, node.computed);
      if (node.computed) reportAt(node.key, `computed class member name [key]: ${SYNTAX_ERROR}`);
      if (node.key.type === "PrivateIdentifier") reportAt(node.key, `#private member: ${SYNTAX_ERROR}`);
      base.MethodDefinition(node, ctx, c);
    },
    PropertyDefinition(node, ctx, c) {
      defineMethod(node.key, node.computed);
      if (node.computed) reportAt(node.key, `computed class member name [key]: ${SYNTAX_ERROR}`);
      if (node.key.type === "PrivateIdentifier") reportAt(node.key, `#private member: ${SYNTAX_ERROR}`);
      if (node.computed) c(node.key, ctx, "Expression");
      // Instance field initialisers run at construction time, not where the class is declared.
      if (node.value) c(node.value, node.static ? ctx : { ...ctx, scope: newScope(ctx.scope, false, true), slot: null }, "Expression");
    },

    Identifier(node, ctx) {
      references.push({ node, scope: ctx.scope, slot: ctx.slot });
      if (MISSING_GLOBALS.has(node.name))
        globalUses.push({
          name: node.name,
          scope: ctx.scope,
          at: node,
          message: `${node.name} is ${UNDEFINED_BUILTIN}`,
          featureTest: node.name,
        });
    },
    UnaryExpression(node, ctx, c) {
      // `typeof X` and `typeof X.y` are feature tests: the file copes with X missing (docs/espruino.md 3.5).
      if (node.operator === "typeof") {
        const arg = node.argument;
        if (arg.type === "Identifier") typeofTested.add(arg.name);
        else if (arg.type === "MemberExpression" && arg.object.type === "Identifier" && propertyName(arg))
          typeofTested.add(`${arg.object.name}.${propertyName(arg)}`);
      }
      if (node.operator === "!") guardedReads.add(node.argument);
      c(node.argument, ctx, "Expression");
    },
    LogicalExpression(node, ctx, c) {
      guardedReads.add(node.left);
      base.LogicalExpression(node, ctx, c);
    },
    IfStatement(node, ctx, c) {
      guardedReads.add(node.test);
      base.IfStatement(node, ctx, c);
    },
    ConditionalExpression(node, ctx, c) {
      guardedReads.add(node.test);
      base.ConditionalExpression(node, ctx, c);
    },

    MemberExpression(node, ctx, c) {
      // `a?.b` (docs/espruino.md 1.1).
      if (node.optional) reportAt(node, `optional chaining ?.: ${SYNTAX_ERROR}`);
      if (node.property.type === "PrivateIdentifier") reportAt(node.property, `#private member: ${SYNTAX_ERROR}`);
      const name = propertyName(node);
      const object = node.object;
      if (name !== undefined && object.type === "Identifier") {
        // Missing statics such as Array.from or Number.EPSILON (docs/espruino.md 1.2).
        const isMethod = MISSING_STATIC_METHODS[object.name]?.includes(name) && !guardedReads.has(node);
        if (isMethod || MISSING_STATIC_VALUES[object.name]?.includes(name)) {
          const message = `${object.name}.${name} is ${UNDEFINED_BUILTIN}`;
          globalUses.push({ name: object.name, scope: ctx.scope, at: node, message, featureTest: `${object.name}.${name}` });
        }
      }
      // Array.prototype.slice and the like read as undefined on 2v29; instances work, e.g. [].slice (docs/espruino.md 1.2).
      if (
        name !== undefined &&
        object.type === "MemberExpression" &&
        object.object.type === "Identifier" &&
        propertyName(object) === "prototype"
      ) {
        const builtin = object.object.name;
        if (PROTOTYPE_LESS_BUILTINS.has(builtin)) {
          const message = `${builtin}.prototype.${name}: built-in methods are undefined through X.prototype on Espruino 2v29; use an instance, e.g. [].${name} (docs/espruino.md 1.2)`;
          globalUses.push({ name: builtin, scope: ctx.scope, at: node, message, featureTest: `${builtin}.prototype.${name}` });
        }
      }
      base.MemberExpression(node, ctx, c);
    },
    CallExpression(node, ctx, c) {
      if (node.optional) reportAt(node, `optional chaining ?.(): ${SYNTAX_ERROR}`);
      // Calls of missing instance methods such as .at(: reported after the walk, once all method definitions are known.
      const callee = node.callee;
      if (callee.type === "MemberExpression") {
        const method = propertyName(callee);
        if (method !== undefined && MISSING_INSTANCE_METHODS.has(method)) instanceCalls.push({ method, at: callee.property });
      }
      walkCall(node, ctx, c);
    },
    NewExpression(node, ctx, c) {
      walkCall(node, ctx, c);
    },
    ArrayExpression(node, ctx, c) {
      for (const element of node.elements)
        if (element?.type === "SpreadElement") reportAt(element, `spread element in an array literal: ${NO_SPREAD}`);
      base.ArrayExpression(node, ctx, c);
    },
    ObjectExpression(node, ctx, c) {
      for (const property of node.properties) {
        if (property.type === "SpreadElement") reportAt(property, `spread property in an object literal: ${NO_SPREAD}`);
        else if (property.computed) reportAt(property.key, `computed key {[key]: value} in an object literal: ${SYNTAX_ERROR}`);
        else defineMethod(property.key, false);
      }
      base.ObjectExpression(node, ctx, c);
    },

    AssignmentExpression(node, ctx, c) {
      // `**=` and the logical assignments ??= ||= &&= (docs/espruino.md 1.1).
      if (node.operator === "**=") reportAt(node, `**= operator: SyntaxError on Espruino 2v29; use Math.pow (docs/espruino.md 1.1)`);
      if (node.operator === "??=" || node.operator === "||=" || node.operator === "&&=")
        reportAt(node, `${node.operator} operator: ${SYNTAX_ERROR}`);
      checkTarget(node.left, "an assignment");
      checkLengthWrite(node.left);
      walkTarget(node.left, ctx, c);
      c(node.right, ctx, "Expression");
    },
    UpdateExpression(node, ctx, c) {
      checkLengthWrite(node.argument);
      base.UpdateExpression(node, ctx, c);
    },
    BinaryExpression(node, ctx, c) {
      if (node.operator === "**") reportAt(node, `** operator: SyntaxError on Espruino 2v29; use Math.pow (docs/espruino.md 1.1)`);
      if (node.left.type === "PrivateIdentifier") reportAt(node.left, `#private member: ${SYNTAX_ERROR}`);
      base.BinaryExpression(node, ctx, c);
    },

    YieldExpression(node, ctx, c) {
      reportAt(node, `yield expression: ${NO_GENERATORS}`);
      base.YieldExpression(node, ctx, c);
    },
    AwaitExpression(node, ctx, c) {
      reportAt(node, `await expression: ${NO_ASYNC}`);
      base.AwaitExpression(node, ctx, c);
    },
    LabeledStatement(node, ctx, c) {
      reportAt(node, `labelled statement ${node.label.name}: ${NO_LABELS}`);
      base.LabeledStatement(node, ctx, c);
    },
    BreakStatement(node) {
      if (node.label) reportAt(node, `labelled break ${node.label.name}: ${NO_LABELS}`);
    },
    ContinueStatement(node) {
      if (node.label) reportAt(node, `labelled continue ${node.label.name}: ${NO_LABELS}`);
    },
    TaggedTemplateExpression(node, ctx, c) {
      reportAt(node, `tagged template: Espruino 2v29 throws 'Tagged template literals not supported' (docs/espruino.md 1.1)`);
      base.TaggedTemplateExpression(node, ctx, c);
    },
    MetaProperty(node) {
      if (node.meta.name === "new") reportAt(node, `new.target: ${SYNTAX_ERROR}`);
      else reportAt(node, `import.meta: ${NO_MODULES}`);
    },
    Literal(node) {
      if (node.bigint !== undefined) reportAt(node, `BigInt literal ${node.raw}: Espruino 2v29 has no BigInt (docs/espruino.md 1.2)`);
      if (node.regex) checkRegex(node, node.regex.pattern, node.regex.flags, node.loc!.start.column);
    },
    ImportExpression(node, ctx, c) {
      reportAt(node, `dynamic import(): ${NO_MODULES}`);
      base.ImportExpression(node, ctx, c);
    },
    ImportDeclaration(node, ctx) {
      reportAt(node, `import declaration: ${NO_MODULES}`);
      for (const specifier of node.specifiers) declare(ctx.scope, specifier.local.name, "import", null);
    },
    ExportNamedDeclaration(node, ctx, c) {
      reportAt(node, `export declaration: ${NO_MODULES}`);
      base.ExportNamedDeclaration(node, ctx, c);
    },
    ExportDefaultDeclaration(node, ctx, c) {
      reportAt(node, `export declaration: ${NO_MODULES}`);
      base.ExportDefaultDeclaration(node, ctx, c);
    },
    ExportAllDeclaration(node) {
      reportAt(node, `export declaration: ${NO_MODULES}`);
    },
  };

  // `arr.length = n` throws TypeError on 2v29; use arr.splice(0) (docs/espruino.md 1.2).
  function checkLengthWrite(target: acorn.AnyNode) {
    if (target.type === "MemberExpression" && propertyName(target) === "length")
      reportAt(
        target.property,
        `assignment to .length: throws 'TypeError: Assignment to a constant' on Espruino 2v29; use splice (docs/espruino.md 1.2)`,
      );
  }

  walk.recursive(program, { scope: newScope(null, true), slot: null }, visitors as walk.RecursiveVisitors<Context>);

  // Missing instance methods, by name: only when the bundle does not define a method of that name itself (docs/espruino.md 1.2).
  for (const call of instanceCalls) if (!ownMethods.has(call.method)) reportAt(call.at, `.${call.method}() is ${UNDEFINED_BUILTIN}`);

  for (const use of globalUses) if (!resolve(use.scope, use.name) && !typeofTested.has(use.featureTest)) reportAt(use.at, use.message);

  // No hoisting on 2v29 (docs/espruino.md 1.1): a statement that runs before a declaration statement of the same list must not read
  // the declared name. Reads inside a function that runs later are fine; reads inside an IIFE are not.
  for (const ref of references) {
    const declaration = resolve(ref.scope, ref.node.name);
    const declared = declaration?.slot;
    if (!declaration || !declared) continue;
    for (let slot = ref.slot; slot; slot = slot.outer) {
      if (slot.list !== declared.list) continue;
      if (slot.index < declared.index)
        reportAt(
          ref.node,
          `${ref.node.name} is used before its ${declaration.kind} declaration runs: Espruino 2v29 does not hoist (docs/espruino.md 1.1)`,
        );
      break;
    }
  }

  // A `for (let i ...)` header is one binding on 2v29, not one per iteration (docs/espruino.md 1.1): a function made in the loop
  // and called later sees the final value. Functions called where they stand (IIFEs) read the current value, which is right.
  for (const ref of references) {
    const declaration = resolve(ref.scope, ref.node.name);
    if (!declaration?.sharedIn) continue;
    let deferred = false;
    for (let scope: Scope | null = ref.scope; scope; scope = scope.parent) {
      if (scope === declaration.sharedIn) {
        if (deferred)
          reportAt(ref.node, `closure reads ${ref.node.name}, declared in a for (${declaration.kind} ...) header: ${SHARED_LOOP_BINDING}`);
        break;
      }
      deferred ||= scope.deferred;
    }
  }

  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

// ---- Command line ----

function main(files: string[]): number {
  if (files.length === 0) {
    console.error("usage: tsx firmware/tools/gate.ts FILE...");
    return 2;
  }
  let failed = false;
  for (const file of files) {
    let code: string;
    try {
      code = readFileSync(file, "utf8");
    } catch (error) {
      console.error(`${file}: cannot read: ${(error as Error).message}`);
      failed = true;
      continue;
    }
    const problems = checkBundle(code, file);
    for (const problem of problems) console.log(formatProblem(problem));
    if (problems.length) {
      console.error(`gate: ${file}: ${problems.length} problem${problems.length === 1 ? "" : "s"} for Espruino 2v29`);
      failed = true;
    } else console.log(`gate: ${file}: ok`);
  }
  return failed ? 1 : 0;
}

function isMainModule(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) process.exitCode = main(process.argv.slice(2));
