/**
 * The build's size passes (firmware/tools/build.ts): function declarations as arrows, this-aliasing in
 * methods and type-aware property mangling. Each changes the bundle's text, so each must keep its meaning.
 */
import { describe, expect, it } from "vitest";
import { runInNewContext } from "node:vm";
import { aliasThis } from "../../firmware/tools/alias-this.ts";
import { aliasGlobals } from "../../firmware/tools/alias-globals.ts";
import { arrowFunctions } from "../../firmware/tools/arrow-functions.ts";
import { espruinoPropertyNames, manglePattern } from "../../firmware/tools/mangle.ts";
import { ROOT } from "../../firmware/tools/build.ts";

const SAMPLE = `
class A{constructor(t){this.v=t,this.w=[],this.n=0,this.k=1}add(t){let e=t*2;this.w.push(e),this.n+=e,this.k++;return this.n}
each(){let r=[];this.w.forEach(function(t){r.push(this===undefined?t:-1)});this.w.forEach(t=>r.push(this.v+t));return r.concat([this.n,this.k])}
few(){return this.v+this.n}}
class B extends A{constructor(t){super(t),this.x=this.v+1,this.y=this.x+1,this.z=this.y+1}get s(){return this.x+this.y+this.z+this.v}}
function run(C){const b=new C(3);b.add(2);b.add(5);return JSON.stringify([b.each(),b.few(),b.s])}
out=run(B);`;

describe("this-aliasing (firmware/tools/alias-this.ts)", () => {
  const aliased = aliasThis(SAMPLE);

  it("keeps the meaning of the code", () => {
    const before: { out?: string } = {};
    const after: { out?: string } = {};
    runInNewContext(SAMPLE, before);
    runInNewContext(aliased, after);
    expect(after.out).toBe(before.out);
    expect(aliased.length).toBeLessThan(SAMPLE.length);
  });

  it("aliases methods with enough uses, joined to a leading let, with a letter the method does not use", () => {
    expect(aliased).toContain("add(t){let a=this,e=t*2;a.w.push(e),a.n+=e,a.k++;return a.n}");
    // few() reads this twice: an alias would cost more than it saves
    expect(aliased).toContain("few(){return this.v+this.n}");
  });

  it("leaves a nested function's own this alone, aliases an arrow's, and never touches a derived constructor", () => {
    expect(aliased).toMatch(/forEach\(function\(t\)\{r\.push\(this===undefined/);
    expect(aliased).toMatch(/forEach\(t=>r\.push\([a-z]\.v\+t\)\)/);
    expect(aliased).toContain("constructor(t){super(t),this.x=this.v+1");
  });
});

describe("globals and void 0 as locals of the outer function (firmware/tools/alias-globals.ts)", () => {
  const CODE =
    "(()=>{var t=[1.5,2.5,3.5],f=(x)=>x===void 0?Math.floor(t[0]):Math.max(Math.floor(x),Math.min(1,Math.ceil(2)));" +
    "let a=new Uint8Array(3),b=new Uint8Array(2),c=new Uint8Array(t.length),d=new Int8Array(1);a.set([5,6],1);" +
    "let o={Math:1},k=o.Math,r=Math.round(1.5)+Math.round(2.5)+Math.abs(-1)+Math.abs(2)+Math.sign(-3)+Math.sign(3)," +
    "j=JSON.stringify([f(),f(7.5),a[1],b.length,c.length,d.length,k,void 0===t[9],r]);" +
    "out=j})();";
  const aliased = aliasGlobals(CODE);

  it("keeps the meaning of the code, and is shorter", () => {
    const before: { out?: string } = {};
    const after: { out?: string } = {};
    runInNewContext(CODE, before);
    runInNewContext(aliased, after);
    expect(after.out).toBe(before.out);
    expect(aliased.length).toBeLessThan(CODE.length);
  });

  it("declares each alias once, first in the outer function, with a name the code did not use; keys and properties stay", () => {
    const head = /^\(\(\)=>\{var ([^;]*?),t=\[/.exec(aliased);
    expect(head).not.toBeNull();
    const decls = head![1].split(",");
    expect(decls.some((d) => d.endsWith("=Math"))).toBe(true);
    expect(decls.some((d) => d.endsWith("=Uint8Array"))).toBe(true);
    // Math.floor (used twice) is a local of its own: a call through it reads neither Math nor floor.
    expect(decls.some((d) => d.endsWith("=Math.floor"))).toBe(true);
    expect(aliased.match(/Math\.floor/g)).toHaveLength(1);
    // void 0 becomes a declared, unassigned name; Int8Array (used once) is not worth its declaration.
    expect(decls.some((d) => /^[a-zA-Z][_$0-9]$/.test(d))).toBe(true);
    expect(aliased).not.toContain("void 0");
    expect(aliased).toContain("new Int8Array(1)");
    expect(aliased).toContain("{Math:1}");
    expect(aliased).toContain("o.Math");
  });

  it('makes null and require("Storage") locals too, require asked once at boot', () => {
    const code =
      '(()=>{var s=[null,null,null,null],f=(x)=>x===null?require("Storage").read(x):null;' +
      'out=[s.length,f(null),f(1),require("Storage").read(2),require("Storage").read(3),calls].join()})();';
    const run = (c: string) => {
      const ctx: { out?: string; calls: number; require?: (m: string) => unknown } = { calls: 0 };
      ctx.require = (m: string) => (ctx.calls++, { read: (x: unknown) => `${m}:${String(x)}` });
      runInNewContext(c, ctx);
      return ctx.out;
    };
    const aliased = aliasGlobals(code);
    expect(aliased.match(/null/g)).toHaveLength(1);
    expect(aliased.match(/require\("Storage"\)/g)).toHaveLength(1);
    expect(aliased.length).toBeLessThan(code.length);
    expect(run(code)).toBe("4,Storage:null,,Storage:2,Storage:3,3");
    expect(run(aliased)).toBe("4,Storage:null,,Storage:2,Storage:3,1");
  });

  it("makes a repeated string a local, spaced from the words it touched; keys stay", () => {
    const code =
      '(()=>{var m=(x)=>{if("race"===x)return"race";switch(x){case"flip":return{race:"flip"};default:return"race"in{race:1}}};' +
      'out=JSON.stringify([m("race"),m("flip"),m("flip"),m("x")])})();';
    const run = (c: string) => {
      const ctx: { out?: string } = {};
      runInNewContext(c, ctx);
      return ctx.out;
    };
    const aliased = aliasGlobals(code);
    expect(aliased.match(/"race"/g)).toHaveLength(1);
    expect(aliased.match(/"flip"/g)).toHaveLength(1);
    expect(aliased).toContain("{race:1}");
    expect(aliased.length).toBeLessThan(code.length);
    expect(run(aliased)).toBe(run(code));
  });

  it("leaves a global alone where the bundle declares that name itself", () => {
    const shadowed = "(()=>{var Math={floor:(x)=>x},a=Math.floor(1)+Math.floor(2)+Math.floor(3)+Math.floor(4);out=a})();";
    expect(aliasGlobals(shadowed)).toBe(shadowed);
  });
});

describe("function declarations as arrows (firmware/tools/arrow-functions.ts)", () => {
  const CODE = `
function add(a,b){return a+b}
function scaled(k){function by(x){return x*k}return [1,2].map(by)}
function Point(x){this.x=x}
function count(){return arguments.length}
function Maker(){return {v:1}}
var made=new Maker();
out=JSON.stringify([add(1,2),scaled(3),new Point(4).x,count(1,2,3),made.v]);`;
  const arrows = arrowFunctions(CODE);

  it("keeps the meaning of the code", () => {
    const before: { out?: string } = {};
    const after: { out?: string } = {};
    runInNewContext(CODE, before);
    runInNewContext(arrows, after);
    expect(after.out).toBe(before.out);
  });

  it("turns a function that uses neither this nor arguments into a var holding an arrow, nested ones too", () => {
    expect(arrows).toContain("var add=(a,b)=>{return a+b};");
    expect(arrows).toContain("var scaled=(k)=>{var by=(x)=>{return x*k};return [1,2].map(by)};");
  });

  it("leaves a function that uses this or arguments, or is called with new, as it is", () => {
    expect(arrows).toContain("function Point(x){this.x=x}");
    expect(arrows).toContain("function count(){return arguments.length}");
    expect(arrows).toContain("function Maker(){return {v:1}}");
  });
});

describe("type-aware property mangling (firmware/tools/mangle.ts)", () => {
  const pattern = manglePattern(ROOT);
  const used = espruinoPropertyNames(ROOT);

  it("keeps the names the firmware uses on Espruino's objects: setWatch and analogWrite options, E.lockConsole, array methods", () => {
    for (const name of ["repeat", "edge", "freq", "lockConsole", "length", "push", "write", "read"]) {
      expect(used.has(name), name).toBe(true);
      expect(pattern.test(name), name).toBe(false);
    }
  });

  it("mangles the firmware's own names even where Espruino declares the same name (String.match, Math.round...)", () => {
    for (const name of ["match", "round", "state", "history", "layout"]) expect(pattern.test(name), name).toBe(true);
  });
});
