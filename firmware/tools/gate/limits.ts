/**
 * What Espruino 2v29 lacks or refuses, as the bundle gate (../gate.ts) checks it: missing built-ins,
 * unsupported syntax and regex constructs, each with the reason the gate prints.
 */
/** One thing Espruino 2v29 cannot run. line and column are 1-based, as editors expect. */
export interface GateProblem {
  line: number;
  column: number;
  message: string;
  file: string;
}

export function formatProblem(p: GateProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

// ---- What Espruino 2v29 lacks (docs/espruino.md 1.2) ----

export const words = (text: string) => text.split(" ");

/** Globals whose `typeof` is "undefined" on 2v29. */
export const MISSING_GLOBALS = new Set(
  words("Map Set WeakMap WeakSet WeakRef FinalizationRegistry Symbol Proxy Reflect RangeError BigInt Intl"),
);

export const TYPED_ARRAYS = words(
  "Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array",
);

/** Static methods that are undefined on 2v29. */
export const MISSING_STATIC_METHODS: Record<string, readonly string[]> = {
  Array: words("from of"),
  Math: words("imul trunc clz32 log2 log10 log1p expm1 hypot cbrt fround sinh cosh tanh asinh acosh atanh"),
  Number: words("isInteger isSafeInteger isFinite isNaN parseInt parseFloat"),
  Object: words("freeze seal is isFrozen isSealed preventExtensions getOwnPropertySymbols"),
  Promise: words("race allSettled any"),
  Date: words("UTC"),
  String: words("fromCodePoint raw"),
  ...Object.fromEntries(TYPED_ARRAYS.map((name) => [name, words("from of")])),
};

/** Static values that are undefined on 2v29: any read is a bug, even an alias. */
export const MISSING_STATIC_VALUES: Record<string, readonly string[]> = { Number: words("EPSILON MAX_SAFE_INTEGER MIN_SAFE_INTEGER") };

/** Built-ins whose methods are not reachable as `X.prototype.method` (only through an instance, e.g. `[].slice`). */
export const PROTOTYPE_LESS_BUILTINS = new Set(["Array", "String", "Function", ...TYPED_ARRAYS]);

/** Instance methods missing on 2v29, recognisable by name (unless the bundle defines a method of that name itself). */
export const MISSING_INSTANCE_METHODS = new Set(
  words(
    "trimStart trimEnd matchAll codePointAt normalize localeCompare toLocaleString reduceRight flatMap flat at findLast findLastIndex copyWithin finally",
  ),
);

export const ERROR_CLASSES = new Set(words("Error TypeError SyntaxError ReferenceError RangeError EvalError URIError AggregateError"));

export const NO_DESTRUCTURING = "Espruino 2v29 cannot destructure (docs/espruino.md 1.1)";
export const NO_SPREAD = "Espruino 2v29 cannot parse spread or rest (docs/espruino.md 1.1)";
export const NO_GENERATORS = "Espruino 2v29 has no generators (docs/espruino.md 1.1)";
export const NO_ASYNC = "Espruino 2v29 has no async/await (docs/espruino.md 1.1)";
export const NO_LABELS = "Espruino 2v29 reads a label as a variable and throws ReferenceError (docs/espruino.md 1.1)";
export const SYNTAX_ERROR = "SyntaxError on Espruino 2v29 (docs/espruino.md 1.1)";
export const NO_MODULES = "Espruino 2v29 has no ES modules; bundle to one script (docs/espruino.md 1.1)";
export const UNDEFINED_BUILTIN = "undefined on Espruino 2v29 (docs/espruino.md 1.2)";
export const SHARED_LOOP_BINDING =
  "Espruino 2v29 shares one binding across iterations (docs/espruino.md 1.1); declare a copy inside the loop body";
export const REGEX_REASONS: Record<string, string> = {
  quantifier: "Espruino 2v29 regexes only support * and + after a single character",
  group: "Espruino 2v29 regexes have no (?: groups, lookaround or named groups",
  boundary: "Espruino 2v29 regexes have no word boundaries",
  backReference: "Espruino 2v29 throws 'Backreferences not supported'",
  flag: "Espruino 2v29 regexes only support the g and i flags",
};

// ---- Regex syntax (docs/espruino.md 1.2: src/jswrap_regexp.c handles * and + after one character, g and i) ----

export interface RegexProblem {
  /** Offset in the pattern, or -1 for a flag. */
  offset: number;
  construct: string;
  reason: string;
}

export function findRegexProblems(pattern: string, flags: string): RegexProblem[] {
  const found: RegexProblem[] = [];
  const add = (offset: number, construct: string, reason: string) => {
    if (!found.some((p) => p.construct === construct)) found.push({ offset, construct, reason });
  };
  for (const flag of flags) if (flag !== "g" && flag !== "i") add(-1, `flag ${flag}`, REGEX_REASONS.flag);
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    const next = pattern[i + 1] ?? "";
    if (ch === "\\") {
      // Inside [...] \b is a backspace and digits are octal-ish escapes, both fine.
      if (!inClass && (next === "b" || next === "B")) add(i, `\\${next} word boundary`, REGEX_REASONS.boundary);
      else if (!inClass && /[1-9]/.test(next)) add(i, `back-reference \\${next}`, REGEX_REASONS.backReference);
      else if (!inClass && next === "k" && pattern[i + 2] === "<") add(i, "named back-reference \\k<", REGEX_REASONS.backReference);
      i++;
    } else if (inClass) {
      if (ch === "]") inClass = false;
    } else if (ch === "[") {
      inClass = true;
    } else if (ch === "(" && next === "?") {
      add(i, `group (?${pattern[i + 2] === "<" ? pattern.slice(i + 2, i + 4) : (pattern[i + 2] ?? "")}`, REGEX_REASONS.group);
      i++;
    } else if (ch === ")" && /[*+?{]/.test(next)) {
      add(i + 1, `quantifier ${next} after a group`, REGEX_REASONS.quantifier);
      i++;
    } else if (ch === "?") {
      const previous = pattern[i - 1];
      add(i, previous === "*" || previous === "+" ? `lazy quantifier ${previous}?` : "? quantifier", REGEX_REASONS.quantifier);
    } else if (ch === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i, i + 24))) {
      add(i, "{n,m} quantifier", REGEX_REASONS.quantifier);
    }
  }
  return found;
}
