import { describe, expect, it } from "vitest";
import { loadProfile } from "../../hardware/profile.ts";
import { aliasSummary, keyAliases, keyboardShortcuts, keyRanges, resolveKey } from "../../hardware/key-names.ts";
import { formatCommand, parseDuration, parseScript, ScriptError } from "../../sim/play/script.ts";

const R1 = loadProfile("r1-pico");
const MINI = loadProfile("mini-pico");

/** The message of the ScriptError a script throws. */
function problem(text: string, profile = R1): string {
  try {
    parseScript(text, profile);
  } catch (e) {
    expect(e).toBeInstanceOf(ScriptError);
    return (e as Error).message;
  }
  throw new Error(`the script parsed: ${text}`);
}

describe("parseScript: the commands", () => {
  it("reads press and release of a key id or an alias", () => {
    expect(parseScript("press p11\nrelease ok")).toEqual([
      { line: 1, op: "press", keys: [{ id: "p11", name: "p11" }] },
      { line: 2, op: "release", keys: [{ id: "p66", name: "ok" }] },
    ]);
  });

  it("reads tap with several keys, with the default hold or the one given", () => {
    const [a, b] = parseScript("tap red green ok\ntap menu hold 1.5s");
    expect(a).toEqual({
      line: 1,
      op: "tap",
      holdMs: 60,
      keys: [
        { id: "p11", name: "red" },
        { id: "p12", name: "green" },
        { id: "p66", name: "ok" },
      ],
    });
    expect(b).toMatchObject({ op: "tap", holdMs: 1500, keys: [{ id: "p61" }] });
  });

  it("reads wait in ms, with ms or in seconds", () => {
    expect(parseScript("wait 200\nwait 250ms\nwait 2s\nwait 1.5s").map((c) => (c as { ms: number }).ms)).toEqual([200, 250, 2000, 1500]);
  });

  it("reads power on, off and cycle", () => {
    expect(parseScript("power on\npower off\npower cycle").map((c) => (c as { action: string }).action)).toEqual(["on", "off", "cycle"]);
  });

  it("refuses battery on a USB-only build, saying why", () => {
    expect(() => parseScript("battery 3.7", "mini-pico")).toThrow(/battery: the mini-pico build has no battery .*USB only/);
  });

  it("reads battery with and without usb", () => {
    expect(parseScript("battery 3.7\nbattery 4.1 usb")).toEqual([
      { line: 1, op: "battery", volts: 3.7, usb: false },
      { line: 2, op: "battery", volts: 4.1, usb: true },
    ]);
  });

  it("reads show", () => {
    expect(parseScript("show")).toEqual([{ line: 1, op: "show" }]);
  });

  it("reads expect on a whole segment, from an index, and on a row", () => {
    const [a, b, c] = parseScript("expect secret red green\nexpect pad[35] green\nexpect board row 2 red black hole/off * off");
    expect(a).toEqual({ line: 1, op: "expect", segment: "secret", start: 0, colours: [["red"], ["green"]], where: "secret" });
    expect(b).toEqual({ line: 2, op: "expect", segment: "pad", start: 35, colours: [["green"]], where: "pad[35]" });
    expect(c).toEqual({
      line: 3,
      op: "expect",
      segment: "board",
      start: 5,
      colours: [["red"], ["violet"], ["hole", "off"], ["*"], ["off"]],
      where: "board row 2",
    });
  });

  it("skips blank lines and comments, and keeps the line numbers of the file", () => {
    const cmds = parseScript("# a game\n\n   \ntap ok # start\n  # indented comment\nwait 1s");
    expect(cmds.map((c) => [c.line, c.op])).toEqual([
      [4, "tap"],
      [6, "wait"],
    ]);
  });

  it("is not case-sensitive about commands, keys and colours", () => {
    expect(parseScript("TAP OK Maker.Red\nExpect Board Row 1 RED")).toMatchObject([
      { op: "tap", keys: [{ id: "p66" }, { id: "m11" }] },
      { op: "expect", colours: [["red"]] },
    ]);
  });

  it("formats commands back into the same script text", () => {
    const text =
      "press ok\nrelease p11\ntap red green hold 100\nwait 200\npower cycle\nbattery 3.5 usb\nshow\nexpect board row 1 red hole/off";
    const cmds = parseScript(text);
    expect(cmds.map(formatCommand).join("\n")).toBe(text);
    expect(parseScript(cmds.map(formatCommand).join("\n"))).toEqual(cmds);
  });
});

describe("parseScript: bad lines name the line and the problem", () => {
  it("names an unknown key with the key ranges", () => {
    expect(problem("tap ok\nwait 100\npress p77")).toMatch(
      /^line 3: unknown key "p77" \(keys: p11\.\.p66, m11\.\.m34; aliases: ok, menu, /,
    );
  });

  it("wants a duration after wait", () => {
    for (const bad of ["wait", "wait soon", "wait 2 s", "wait -5", "wait 2h"])
      expect(problem(`\n\n\n\n${bad}`)).toBe("line 5: wait needs a duration like 200 or 1.5s");
  });

  it("names an unknown command", () => {
    expect(problem("\n\n\n\n\n\nprss ok")).toBe(
      'line 7: unknown command "prss" (commands: press, release, tap, wait, power, battery, show, expect)',
    );
  });

  it("wants a key after press, release and tap", () => {
    expect(problem("press")).toBe("line 1: press needs a key, like press ok");
    expect(problem("release")).toBe("line 1: release needs a key, like release ok");
    expect(problem("tap hold 100")).toBe("line 1: tap needs a key, like tap red green ok");
  });

  it("wants one duration at the end after tap ... hold", () => {
    expect(problem("tap ok hold")).toBe("line 1: tap ... hold needs one duration at the end, like tap ok hold 500 or hold 2s");
    expect(problem("tap ok hold 100 red")).toMatch(/^line 1: tap \.\.\. hold needs one duration/);
  });

  it("wants on, off or cycle after power", () => {
    expect(problem("power up")).toBe("line 1: power needs on, off or cycle");
    expect(problem("power")).toBe("line 1: power needs on, off or cycle");
  });

  it("wants a voltage after battery", () => {
    for (const bad of ["battery", "battery full", "battery 3.7 mains", "battery 3.7 usb now", "battery 99"])
      expect(problem(bad)).toBe("line 1: battery needs a voltage like 3.7, and optionally usb (battery 4.1 usb)");
  });

  it("wants nothing after show", () => {
    expect(problem("show board")).toBe("line 1: show takes nothing after it");
  });

  it("names an unknown segment, with the profile's segments", () => {
    expect(problem("expect boad row 1 red")).toBe(
      'line 1: unknown segment "boad" (segments of r1-pico: board, keys, secret, pad, track, status)',
    );
    expect(problem("expect secret red", MINI)).toBe('line 1: unknown segment "secret" (segments of mini-pico: board, keys, pad, status)');
  });

  it("refuses an index past the end of the segment", () => {
    expect(problem("expect pad[36] green")).toBe("line 1: pad[36] is past the end: the pad segment has 36 pixels (0..35)");
  });

  it("refuses a row the segment does not have", () => {
    expect(problem("expect board row 13 red")).toBe("line 1: row needs a number from 1 to 12 (the board segment's rows)");
    expect(problem("expect board row 0 red")).toBe("line 1: row needs a number from 1 to 12 (the board segment's rows)");
    expect(problem("expect track row 1 red")).toBe("line 1: the track segment has no rows; use track[INDEX]");
  });

  it("wants colours, no more than fit, and known ones", () => {
    expect(problem("expect board row 1")).toMatch(/^line 1: expect board row 1 needs colours \(colours: off, red, /);
    expect(problem("expect board row 1 red red red red red red")).toBe(
      "line 1: 6 colours do not fit board row 1: it has 5 pixels from there",
    );
    expect(problem("expect status[1] red green")).toBe("line 1: 2 colours do not fit status[1]: it has 1 pixels from there");
    expect(problem("expect board row 1 purple")).toMatch(/^line 1: unknown colour "purple" \(colours: off, red, green, blue, /);
    expect(problem("expect")).toMatch(/^line 1: expect needs a place and colours/);
    expect(problem("expect board(1) red")).toMatch(/^line 1: expect needs a place and colours/);
  });

  it("reports every bad line at once, and nothing parses", () => {
    const e = (() => {
      try {
        parseScript("tap ok\nprss ok\nwait\npress p99");
      } catch (err) {
        return err as ScriptError;
      }
    })();
    expect(e).toBeInstanceOf(ScriptError);
    expect(e!.line).toBe(2);
    expect(e!.problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(e!.message.split("\n")).toHaveLength(3);
  });
});

describe("key aliases", () => {
  it("names the R1 keys as docs/playing.md's tables say", () => {
    const table: Record<string, string> = {
      ok: "p66",
      menu: "p61",
      undo: "p64",
      clear: "p65",
      red: "p11",
      green: "p12",
      blue: "p13",
      yellow: "p14",
      white: "p15",
      orange: "p16",
      pink: "p21",
      black: "p22",
      blank: "p23",
      slot1: "p31",
      slot5: "p35",
      "maker.red": "m11",
      "maker.black": "m24",
      "maker.blank": "m31",
      "maker.exact": "m31",
      "maker.yes": "m31",
      "maker.near": "m32",
      "maker.no": "m32",
      "maker.undo": "m33",
      "maker.ok": "m34",
    };
    for (const [alias, id] of Object.entries(table)) expect(resolveKey(R1, alias), alias).toBe(id);
  });

  it("follows the profile: a 4-peg build without a codemaker pad has slot1..slot4 and no maker keys", () => {
    expect(resolveKey(MINI, "slot4")).toBe("p34");
    expect(resolveKey(MINI, "slot5")).toBeUndefined();
    expect(resolveKey(MINI, "maker.ok")).toBeUndefined();
    expect(keyRanges(MINI)).toBe("p11..p66");
    expect(aliasSummary(MINI)).not.toContain("maker");
    expect(problem("tap maker.ok", MINI)).toMatch(/^line 1: unknown key "maker.ok" \(keys: p11\.\.p66;/);
  });

  it("gives every alias one key, and every keyboard shortcut one key", () => {
    const aliases = keyAliases(R1).map((a) => a.alias);
    expect(new Set(aliases).size).toBe(aliases.length);
    const combos = keyboardShortcuts(R1).map((s) => s.combo);
    expect(new Set(combos).size).toBe(combos.length);
    const shortcut = (combo: string) => keyboardShortcuts(R1).find((s) => s.combo === combo)?.id;
    expect([shortcut("1"), shortcut("8"), shortcut("9"), shortcut("q"), shortcut("t"), shortcut("Enter")]).toEqual([
      "p11",
      "p22",
      "p23",
      "p31",
      "p35",
      "p66",
    ]);
    expect([shortcut("Backspace"), shortcut("Escape"), shortcut("m"), shortcut("a"), shortcut("Shift+1"), shortcut("v")]).toEqual([
      "p64",
      "p65",
      "p61",
      "m11",
      "m11",
      "m34",
    ]);
  });
});

describe("parseDuration", () => {
  it("reads ms and seconds, and nothing else", () => {
    expect(parseDuration("0")).toBe(0);
    expect(parseDuration("15ms")).toBe(15);
    expect(parseDuration(".5s")).toBe(500);
    expect(parseDuration("1.25S")).toBe(1250);
    expect(parseDuration("1e3")).toBeUndefined();
    expect(parseDuration(undefined)).toBeUndefined();
  });
});
