/** What the size passes (alias-this.ts, alias-globals.ts, arrow-functions.ts) share to walk acorn's syntax tree. */
import type * as acorn from "acorn";

/** A node of any kind, its fields read by name. */
export type AnyNode = acorn.Node & Record<string, unknown>;

/** The node's child nodes, in field order. */
export function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === "object" && typeof (x as AnyNode).type === "string") out.push(x as AnyNode);
    } else if (v && typeof v === "object" && typeof (v as AnyNode).type === "string") out.push(v as AnyNode);
  }
  return out;
}
