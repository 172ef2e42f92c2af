/**
 * Estimates Espruino memory use in blocks (JsVars) with the cost model of docs/espruino.md 4.2, for
 * `E.getSizeOf` and `process.memory()`. Espruino stores every value as linked 13-byte blocks:
 * an object is one block plus a name block per property (a small integer, boolean or undefined
 * value packs into the name block; other values take their own blocks); strings and typed-array
 * data take about bytesPerJsVar - 3 bytes per block; a function keeps its code in flash
 * (`.bootcde`) but its parameters and the scopes it closes over are in RAM.
 *
 * A bundled firmware keeps its state in closures, which plain JavaScript cannot see, so the scopes
 * a function closes over are read through the V8 inspector (synchronously, in this thread). When
 * the inspector is unavailable the estimate leaves closures out.
 */
import inspector from "node:inspector";

export interface SizeOptions {
  bytesPerJsVar: number;
  /** Objects that are built into the interpreter (API functions, pins...), free in RAM. */
  isBuiltin?: (value: object) => boolean;
  /** Read closure scopes through the inspector (default true). */
  closures?: boolean;
  /** Strings that Storage.read gave: memory-mapped files, one block each. */
  isFlashString?: (value: string) => boolean;
}

/** E.getSizeOf(new Date()) on the device. */
const DATE_BLOCKS = 11;

/** Any function of the firmware's realm. */
type AnyFunction = (...args: unknown[]) => unknown;

type Scope = { names: string[]; values: unknown[] };

/** Reads the variables that functions close over, through an inspector session of this thread. */
class ScopeReader {
  private session: inspector.Session | null = null;
  private failed = false;
  private sink: unknown[] = [];

  private post(method: string, params: object): Record<string, unknown> {
    let result: Record<string, unknown> | undefined;
    let error: Error | null = null;
    this.session!.post(method, params, (err, res) => {
      error = err;
      result = res as Record<string, unknown>;
    });
    if (error) throw error;
    if (result === undefined) throw new Error(`inspector ${method} did not answer synchronously`);
    return result;
  }

  private connect(): boolean {
    if (this.session) return true;
    if (this.failed) return false;
    try {
      this.session = new inspector.Session();
      this.session.connect();
      return true;
    } catch {
      this.failed = true;
      this.session = null;
      return false;
    }
  }

  /** The closure scopes of each function (global scopes excluded), or null if unavailable. */
  scopesOf(fns: AnyFunction[]): Scope[][] | null {
    if (!fns.length) return [];
    if (!this.connect()) return null;
    const group = "brainboard-memory";
    const slot = "\u00a7brainboardProbe";
    const g = globalThis as unknown as Record<string, unknown>;
    g[slot] = { fns, sink: (x: unknown) => this.sink.push(x) };
    try {
      const probe = this.post("Runtime.evaluate", { expression: `globalThis[${JSON.stringify(slot)}]`, objectGroup: group }).result as {
        objectId: string;
      };
      const props = this.post("Runtime.getProperties", { objectId: probe.objectId, ownProperties: true, objectGroup: group })
        .result as PropDesc[];
      const sinkId = props.find((p) => p.name === "sink")!.value!.objectId!;
      const listId = props.find((p) => p.name === "fns")!.value!.objectId!;
      const items = (
        this.post("Runtime.getProperties", { objectId: listId, ownProperties: true, objectGroup: group }).result as PropDesc[]
      ).filter((p) => /^\d+$/.test(p.name));
      const out: Scope[][] = fns.map(() => []);
      for (const item of items) {
        const fnProps = this.post("Runtime.getProperties", { objectId: item.value!.objectId, ownProperties: true, objectGroup: group });
        const internal = (fnProps.internalProperties ?? []) as PropDesc[];
        const scopesProp = internal.find((p) => p.name === "[[Scopes]]");
        if (!scopesProp?.value?.objectId) continue;
        const scopes = this.post("Runtime.getProperties", { objectId: scopesProp.value.objectId, ownProperties: true, objectGroup: group })
          .result as PropDesc[];
        for (const sc of scopes) {
          if (!sc.value?.objectId || sc.value.description === "Global") continue;
          this.post("Runtime.callFunctionOn", {
            objectId: sc.value.objectId,
            functionDeclaration: "function (sink) { sink(this); }",
            arguments: [{ objectId: sinkId }],
            objectGroup: group,
          });
          const desc = this.sink.pop() as { object?: Record<string, unknown> } | undefined;
          const vars = desc?.object;
          if (!vars || typeof vars !== "object") continue;
          const names = Object.keys(vars);
          out[Number(item.name)].push({ names, values: names.map((n) => vars[n]) });
        }
      }
      return out;
    } catch {
      this.failed = true;
      return null;
    } finally {
      delete g[slot];
      this.sink = [];
      try {
        this.post("Runtime.releaseObjectGroup", { objectGroup: group });
      } catch {
        // nothing to release
      }
    }
  }
}

interface PropDesc {
  name: string;
  value?: { objectId?: string; description?: string };
}

const scopeReader = new ScopeReader();

/** Counts blocks for a set of roots; values reached twice are counted once. */
export class SizeEstimator {
  private readonly dataPerBlock: number;
  private readonly inlineName: number;
  private readonly isBuiltin: (value: object) => boolean;
  private readonly isFlashString: (value: string) => boolean;
  private readonly closures: boolean;
  private visited = new Set<unknown>();
  private scopes: Scope[] = [];
  private pendingFns: AnyFunction[] = [];

  constructor(opts: SizeOptions) {
    this.dataPerBlock = Math.max(4, opts.bytesPerJsVar - 3);
    this.inlineName = Math.round(this.dataPerBlock * 0.4);
    this.isBuiltin = opts.isBuiltin ?? (() => false);
    this.isFlashString = opts.isFlashString ?? (() => false);
    this.closures = opts.closures ?? true;
  }

  /** Blocks of a string of `length` characters. */
  stringBlocks(length: number): number {
    return Math.max(1, Math.ceil(length / this.dataPerBlock));
  }

  /** Blocks of a property name. */
  nameBlocks(name: string): number {
    return 1 + (name.length > this.inlineName ? Math.ceil((name.length - this.inlineName) / this.dataPerBlock) : 0);
  }

  /** Blocks of `value` and of everything it references that was not counted before. */
  sizeOf(value: unknown): number {
    let total = this.valueBlocks(value);
    // Functions are collected while walking, then their closures are read in batches.
    while (this.pendingFns.length) {
      const fns = this.pendingFns;
      this.pendingFns = [];
      const scopeLists = this.closures ? scopeReader.scopesOf(fns) : null;
      if (!scopeLists) continue;
      for (const list of scopeLists) {
        // The function's link to its scope, then the scope itself (shared scopes counted once).
        if (list.length) total += 1;
        for (const scope of list) total += this.scopeBlocks(scope);
      }
    }
    return total;
  }

  /** Cost of a value stored in a property slot (beyond the name block). */
  private slotBlocks(v: unknown): number {
    if (v === undefined || v === null || typeof v === "boolean") return 0;
    if (typeof v === "number") return Number.isInteger(v) && v >= -32768 && v < 32768 ? 0 : 1;
    return this.valueBlocks(v);
  }

  private valueBlocks(v: unknown): number {
    if (v === undefined || v === null) return 0;
    if (typeof v === "number" || typeof v === "boolean") return 1;
    if (typeof v === "string") return this.isFlashString(v) ? 1 : this.stringBlocks(v.length);
    if (typeof v !== "object" && typeof v !== "function") return 1;
    if (this.visited.has(v)) return 0;
    this.visited.add(v);
    const o = v as object;
    if (this.isBuiltin(o)) return 0;
    if (ArrayBuffer.isView(o)) {
      const buf = (o as ArrayBufferView).buffer;
      let n = 1;
      if (!this.visited.has(buf)) {
        this.visited.add(buf);
        n += 1 + this.stringBlocks(buf.byteLength);
      }
      return n;
    }
    if (isArrayBuffer(o)) return 1 + this.stringBlocks((o as ArrayBuffer).byteLength);
    // Measured on the device (docs/espruino.md 4.2).
    if (Object.prototype.toString.call(o) === "[object Date]") return DATE_BLOCKS;
    let n = 1;
    if (typeof o === "function") {
      const fn = o as AnyFunction;
      // Parameter names, and the code: a reference into flash for functions from .bootcde.
      n += fn.length + 1;
      this.pendingFns.push(fn);
    }
    for (const key of Object.getOwnPropertyNames(o)) {
      if (typeof o === "function" && (key === "length" || key === "name" || key === "arguments" || key === "caller")) continue;
      if (Array.isArray(o) && key === "length") continue;
      const d = Object.getOwnPropertyDescriptor(o, key)!;
      if (key === "prototype" && typeof o === "function") {
        // A prototype only costs when it carries methods (classes, constructor functions).
        const proto = d.value as object | undefined;
        if (proto && Object.getOwnPropertyNames(proto).some((k) => k !== "constructor")) n += 1 + this.valueBlocks(proto);
        continue;
      }
      n += this.nameBlocks(key);
      if ("value" in d) n += this.slotBlocks(d.value);
      else n += this.valueBlocks(d.get) + this.valueBlocks(d.set);
    }
    const proto = Object.getPrototypeOf(o);
    // Instances of the firmware's own classes point at their prototype through a __proto__ slot.
    if (proto && typeof o !== "function" && Object.getPrototypeOf(proto) !== null && !isIntrinsicProto(proto))
      n += 1 + this.valueBlocks(proto);
    return n;
  }

  private scopeBlocks(scope: Scope): number {
    for (const s of this.scopes)
      if (s.names.length === scope.names.length && s.names.every((n, i) => n === scope.names[i] && sameValue(s.values[i], scope.values[i])))
        return 0;
    this.scopes.push(scope);
    let n = 1;
    scope.names.forEach((name, i) => {
      n += this.nameBlocks(name) + this.slotBlocks(scope.values[i]);
    });
    return n;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b);
}

function isArrayBuffer(o: object): boolean {
  return Object.prototype.toString.call(o) === "[object ArrayBuffer]";
}

/** Built-in prototypes (of any realm): Object, Array, Function, Error, Date, RegExp, Promise... */
function isIntrinsicProto(proto: object): boolean {
  const ctor = (Object.getOwnPropertyDescriptor(proto, "constructor")?.value ?? null) as AnyFunction | null;
  if (typeof ctor !== "function") return false;
  return /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(ctor));
}
