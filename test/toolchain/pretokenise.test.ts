/**
 * The firmware as the unit stores it (firmware/tools/pretokenise.ts): the bundle through the espruino package's
 * tokeniser, read back as Espruino 2v29's lexer reads it, and refused when it would not read back as the same program.
 * That the real interpreter runs such an image from Storage is test/engines/flashed.test.ts and
 * test/flash/real-interpreter.test.ts.
 */
import { describe, expect, it } from "vitest";
import { detokenise, pretokenise, programDifference, TokenError } from "../../firmware/tools/pretokenise.ts";
import { firmwareBundle } from "../device/helpers.ts";

const bytes = (...codes: (number | string)[]) =>
  Uint8Array.from(codes.flatMap((c) => (typeof c === "string" ? [...Buffer.from(c, "latin1")] : [c])));

describe("pretokenising the firmware", () => {
  it("makes a reserved word or a two-character operator one byte, a string its length and bytes, an integer one to three bytes", () => {
    // 0xAC var, 0xD1 a string of up to 255 bytes, 0xD5 a 16-bit integer, 0xD4 an 8-bit one, 0xAA function, 0xAB return,
    // 0x8B ===, 0xD3 the integer 0 (jslex.h LEX_TYPES)
    expect(pretokenise('var s="hi",n=300,m=-5;function f(x){return x===0}')).toEqual(
      bytes(0xac, "s=", 0xd1, 2, "hi,n=", 0xd5, 44, 1, ",m=", 0xd4, 0xfb, ";", 0xaa, "f(x){", 0xab, "x", 0x8b, 0xd3, "}"),
    );
  });

  it("reads an image back as the interpreter does: tokens as their words, raw strings and integers as literals", () => {
    const code = 'var s="h\\u00e9llo",n=300,m=-5,k=[1,-2];if(n>=m&&s!==null)print(s,n,m,k,typeof n)';
    const read = detokenise(pretokenise(code));
    expect(read).not.toBe(code);
    // The same program: what it prints, run here.
    const run = (src: string) => {
      const out: unknown[][] = [];
      new Function("print", src)((...a: unknown[]) => out.push(a));
      return out;
    };
    expect(run(read)).toEqual(run(code));
    expect(run(read)).toEqual([["h\u00e9llo", 300, -5, [1, -2], "number"]]);
  });

  it("leaves code with no tokens as it is, 8-bit characters in strings, comments and regular expressions included", () => {
    const code = 'var s="d\xe9j\xe0 /x/",r=/["\xe9]/g;/* \xe9t\xe9 */print(s.replace(r,"-"))// \xff\n';
    expect(detokenise(Buffer.from(code, "latin1"))).toBe(code);
  });

  it("the firmware's image is smaller than its bundle and reads back as the same program", () => {
    const code = firmwareBundle();
    const image = pretokenise(code);
    expect(image.length).toBeLessThan(code.length * 0.95);
    expect(programDifference(code, image)).toBeNull();
  });

  it("refuses a byte that is no token, and a raw string cut short, naming where", () => {
    expect(() => detokenise(bytes("print(", 0xe0, ")"))).toThrow(TokenError);
    expect(() => detokenise(bytes("print(", 0xe0, ")"))).toThrow(/byte 0xe0 at 6 is no token of Espruino 2v29/);
    expect(() => detokenise(bytes("print(", 0xd1, 9, "abc"))).toThrow(/a raw string at byte 7 is cut short/);
  });

  it("finds an image that is not the bundle's program: another integer, another word, a byte that is no token", () => {
    const code = "var a=5;if(a)print(a)";
    const image = pretokenise(code);
    expect(programDifference(code, image)).toBeNull();
    const changed = image.slice();
    changed[changed.indexOf(0xd4) + 1] = 6; // the integer 5 becomes 6
    expect(programDifference(code, changed)).toMatch(/value: 5 in the bundle, 6 in the image/);
    const word = image.slice();
    word[0] = 0xad; // var becomes let
    expect(programDifference(code, word)).toMatch(/kind: "var" in the bundle, "let" in the image/);
    const bad = image.slice();
    bad[0] = 0xf0;
    expect(programDifference(code, bad)).toMatch(/byte 0xf0 at 0 is no token/);
  });

  it("takes a template literal without substitutions, stored as a raw string, for the same program", () => {
    const code = "var a=`two words`,b=`${a}!`;print(a,b)";
    expect(programDifference(code, pretokenise(code))).toBeNull();
  });

  it("refuses a string with characters beyond 7 bits: a build with Unicode support would read its raw form otherwise", () => {
    const code = 'print("d\\u00e9j\\u00e0")';
    expect(programDifference(code, pretokenise(code))).toMatch(/the string "d\u00e9j\u00e0" has characters beyond 7 bits/);
  });
});
