/**
 * KiCad's files are S-expressions: lists of atoms. An atom is kept as written: a quoted string keeps its quotes
 * ("\"B15\""), so a string and a bare word stay apart when written back; q() quotes, text() reads either kind.
 */
export type SExpr = string | SExpr[];

/** A quoted string atom. */
export function q(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

/** The text of an atom: unquoted and unescaped if quoted, as written otherwise. */
export function text(a: SExpr | undefined): string {
  if (a === undefined || Array.isArray(a)) return "";
  if (!a.startsWith('"')) return a;
  return a.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/** A number as KiCad writes it: up to 6 decimals, no trailing zeros, no "-0". */
export function num(v: number): string {
  const r = Math.round(v * 1e6) / 1e6;
  return r === 0 ? "0" : String(r);
}

export function parse(src: string): SExpr {
  const stack: SExpr[][] = [];
  let root: SExpr | undefined;
  let i = 0;
  const n = src.length;
  while (i < n) {
    const ch = src[i];
    if (ch === "(") {
      const list: SExpr[] = [];
      if (stack.length) stack[stack.length - 1].push(list);
      else root = list;
      stack.push(list);
      i++;
    } else if (ch === ")") {
      stack.pop();
      i++;
    } else if (ch === '"') {
      const start = i++;
      while (i < n && src[i] !== '"') i += src[i] === "\\" ? 2 : 1;
      i++;
      stack[stack.length - 1].push(src.slice(start, i));
    } else if (ch === " " || ch === "\n" || ch === "\t" || ch === "\r") i++;
    else {
      const start = i;
      while (i < n && !/[\s()"]/.test(src[i])) i++;
      stack[stack.length - 1].push(src.slice(start, i));
    }
  }
  if (root === undefined) throw new Error("sexpr: no list in the text");
  return root;
}

/** The head word of a list. */
export function head(x: SExpr | undefined): string | undefined {
  return Array.isArray(x) && typeof x[0] === "string" ? x[0] : undefined;
}

/** The first child list with this head. */
export function child(x: SExpr | undefined, name: string): SExpr[] | undefined {
  if (!Array.isArray(x)) return undefined;
  return x.find((c) => head(c) === name) as SExpr[] | undefined;
}

export function children(x: SExpr | undefined, name: string): SExpr[][] {
  if (!Array.isArray(x)) return [];
  return x.filter((c) => head(c) === name) as SExpr[][];
}

/** Writes a tree, a list of lists one child per line (tab-indented, as KiCad writes), short flat lists on one line. */
export function serialize(x: SExpr, depth = 0): string {
  if (!Array.isArray(x)) return x;
  const flat = x.every((c) => !Array.isArray(c) || c.every((d) => !Array.isArray(d)));
  if (flat && x.length <= 8) return `(${x.map((c) => (Array.isArray(c) ? `(${c.join(" ")})` : c)).join(" ")})`;
  const pad = "\t".repeat(depth + 1);
  const words: string[] = [];
  const lines: string[] = [];
  for (const c of x) {
    if (!Array.isArray(c) && lines.length === 0) words.push(c);
    else lines.push(pad + serialize(c, depth + 1));
  }
  return `(${words.join(" ")}\n${lines.join("\n")}\n${"\t".repeat(depth)})`;
}
