/**
 * Name resolution for the bundle gate (../gate.ts): enough scopes to tell globals from locals and to
 * find a use before its declaration.
 */
import type * as acorn from "acorn";

// ---- Scopes: enough name resolution to tell globals from locals and to find use before declaration ----

export type DeclarationKind = "var" | "let" | "const" | "class" | "function" | "param" | "catch" | "import" | "own name";

/** A place in a statement list: which statement of `list` a node belongs to, and the same for the enclosing lists. */
export interface Slot {
  list: readonly acorn.AnyNode[];
  index: number;
  outer: Slot | null;
}

export interface Declaration {
  kind: DeclarationKind;
  /** The statement whose execution creates the binding; null for bindings that exist on entry (params). */
  slot: Slot | null;
  /** For a let/const in a `for (;;)` header: the scope of the loop's test, update and body, which 2v29 runs with one shared binding. */
  sharedIn?: Scope;
}

export interface Scope {
  parent: Scope | null;
  isFunction: boolean;
  /** Code here runs later than where it stands: a function that is not called right away, or an instance field initialiser. */
  deferred: boolean;
  names: Map<string, Declaration>;
}

export interface Context {
  scope: Scope;
  /** Statement-list slots up to the nearest function boundary whose body does not run right away. */
  slot: Slot | null;
  /** A function expression that is called where it stands (an IIFE), so its body runs now. */
  calledNow?: acorn.AnyNode;
}

/** A name read in the bundle; resolved after the walk, when every (unhoisted) declaration is known. */
export interface Reference {
  node: acorn.Identifier;
  scope: Scope;
  slot: Slot | null;
}

/** A use that is a problem only when `name` is the global (not declared in the file) and not feature-tested. */
export interface GlobalUse {
  name: string;
  scope: Scope;
  at: acorn.Node;
  message: string;
  /** `typeof featureTest` anywhere in the file marks the use as guarded (docs/espruino.md 3.5). */
  featureTest: string;
}

export function newScope(parent: Scope | null, isFunction: boolean, deferred = false): Scope {
  return { parent, isFunction, deferred, names: new Map() };
}

export function declare(scope: Scope, name: string, kind: DeclarationKind, slot: Slot | null): void {
  // The first declaration wins: it is the one that creates the binding when the code runs in order.
  if (!scope.names.has(name)) scope.names.set(name, { kind, slot });
}

export function resolve(scope: Scope | null, name: string): Declaration | undefined {
  for (; scope; scope = scope.parent) {
    const found = scope.names.get(name);
    if (found) return found;
  }
  return undefined;
}

export function functionScope(scope: Scope): Scope {
  while (!scope.isFunction && scope.parent) scope = scope.parent;
  return scope;
}

export function bindingIdentifiers(pattern: acorn.Pattern, out: acorn.Identifier[] = []): acorn.Identifier[] {
  switch (pattern.type) {
    case "Identifier":
      out.push(pattern);
      break;
    case "ObjectPattern":
      for (const property of pattern.properties) bindingIdentifiers(property.type === "Property" ? property.value : property, out);
      break;
    case "ArrayPattern":
      for (const element of pattern.elements) if (element) bindingIdentifiers(element, out);
      break;
    case "RestElement":
      bindingIdentifiers(pattern.argument, out);
      break;
    case "AssignmentPattern":
      bindingIdentifiers(pattern.left, out);
      break;
  }
  return out;
}

export function propertyName(member: acorn.MemberExpression): string | undefined {
  if (!member.computed && member.property.type === "Identifier") return member.property.name;
  if (member.computed && member.property.type === "Literal" && typeof member.property.value === "string") return member.property.value;
  return undefined;
}

/** The cooked text of a string literal or an expression-free template literal. */
export function constantString(node: acorn.AnyNode | undefined): string | undefined {
  if (node?.type === "Literal" && typeof node.value === "string") return node.value;
  if (node?.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked ?? undefined;
  return undefined;
}

export function isFunctionNode(node: acorn.AnyNode): boolean {
  return node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";
}
