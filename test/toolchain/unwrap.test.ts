import { describe, expect, it } from "vitest";
import { unwrapBundle } from "../../firmware/tools/unwrap.ts";

describe("the bundle's outer function taken off (firmware/tools/unwrap.ts)", () => {
  it("puts the outer function's body at the top level", () => {
    expect(unwrapBundle("(()=>{var a=1,f=()=>a;class K{m(){return f()}}new K().m()})();")).toBe(
      "var a=1,f=()=>a;class K{m(){return f()}}new K().m()",
    );
  });

  it("moves the declarations that read a pin before the last statement, after every class", () => {
    expect(unwrapBundle("(()=>{var a=1,p={x:B15,y:[A5,A6]},k=class{};for(let p=0;p<2;p++)a+=p;start()})();")).toBe(
      "var a=1,k=class{};for(let p=0;p<2;p++)a+=p;var p={x:B15,y:[A5,A6]};start()",
    );
    expect(unwrapBundle("(()=>{var p={x:B15};var f=()=>p.x;start()})();")).toBe("var f=()=>p.x;var p={x:B15};start()");
    // Before the first statement that reads them when it runs: a function or a class's constructor run where they stand.
    expect(unwrapBundle("(()=>{var p={x:B15},k=class{};(()=>{p.x})();go()})();")).toBe("var k=class{};var p={x:B15};(()=>{p.x})();go()");
  });

  it("leaves them where they are for an entry run only with the board's prelude (a bench's, a test's)", () => {
    expect(unwrapBundle("(()=>{var p={x:B15},q=p.x,k=class{};start()})();", false)).toBe("var p={x:B15},q=p.x,k=class{};start()");
  });

  it("refuses a top level that reads a moved declaration before it is set, or declares a board's global", () => {
    expect(() => unwrapBundle("(()=>{var p={x:B15},q=p.x,k=class{};start()})();")).toThrow(/before its last class is defined/);
    // (A class made where it reads them: after an error in the moved declaration, the interpreter would parse it.)
    expect(() => unwrapBundle("(()=>{var p={x:B15};var q=new class{constructor(){this.x=p.x}};go()})();")).toThrow(
      /before its last class is defined/,
    );
    expect(() => unwrapBundle("(()=>{var A5=1;start()})();")).toThrow(/would declare "A5", a board's global/);
    expect(() => unwrapBundle("(()=>{var E=1;start()})();")).toThrow(/would declare "E"/);
  });

  it("refuses a bundle that is not one outer function called where it stands, or whose body returns", () => {
    expect(() => unwrapBundle("var a=1;(()=>{})();")).toThrow(/not one outer function/);
    expect(() => unwrapBundle("((x)=>{x()})(1);")).toThrow(/not one outer function/);
    expect(() => unwrapBundle("(()=>{if(a)return;b()})();")).toThrow(/does not parse at the top level/);
  });
});
