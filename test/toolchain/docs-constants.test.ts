/**
 * The numbers README.md and docs/ state about the code, checked against the code: each sentence is found by a
 * pattern that captures its number, and compared with the constant the code uses. A sentence that no longer
 * matches fails too, so the doc and this list change together.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { IMAGE_LIMIT_BYTES, STORED_BOUND_BYTES } from "../../firmware/tools/build.ts";
import { REFUSAL_COLOURS } from "../../firmware/ui/render.ts";
import { COLOUR_NAMES, PALETTE_RGB } from "../../firmware/ui/palette.ts";
import {
  REFUSED_BLANK,
  REFUSED_FEEDBACK_RANGE,
  REFUSED_INCOMPLETE,
  REFUSED_PHASE,
  REFUSED_RANGE,
  REFUSED_REPEAT,
} from "../../firmware/core/types.ts";
import { SOLVER_SLICE } from "../../firmware/ui/codebreaker.ts";
import { BOARDS } from "../../hardware/boards.ts";
import { loadProfile } from "../../hardware/profile.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The number `NAME = value` or `NAME: value` in a source file that cannot be imported (it runs on import) holds. */
function sourceConst(file: string, name: string): number {
  const m = new RegExp(String.raw`\b${name}\s*[=:]\s*([0-9_.]+)\b`).exec(read(file));
  if (!m) throw new Error(`${file} has no ${name} = <number>`);
  return Number(m[1].replace(/_/g, ""));
}

/** The first capture of `pattern` in `file`, as a number ("3,500" -> 3500). */
function stated(file: string, pattern: RegExp): number {
  const m = pattern.exec(read(file).replace(/\s+/g, " "));
  if (!m) throw new Error(`${file} no longer says ${pattern}`);
  return Number(m[1].replace(/,/g, ""));
}

describe("the numbers the docs state are the code's", () => {
  it("the key scan of docs/architecture.md: every 5 ms, 3 agreeing scans, settled after 30 ms, then every 20 ms, stuck after 8 s", () => {
    const doc = "docs/architecture.md";
    // firmware/device is type-checked against Espruino's API only, so its constants are read from the source.
    const [SCAN_MS, DEBOUNCE_SCANS, STEADY_AFTER_MS, STEADY_SCAN_MS, STUCK_MS] = [
      "SCAN_MS",
      "DEBOUNCE_SCANS",
      "STEADY_AFTER_MS",
      "STEADY_SCAN_MS",
      "STUCK_MS",
    ].map((name) => sourceConst("firmware/device/keys.ts", name));
    expect(stated(doc, /every (\d+) ms \(`SCAN_MS`\)/)).toBe(SCAN_MS);
    expect(stated(doc, /only when (\d+) scans in a row agree \(`DEBOUNCE_SCANS`\)/)).toBe(DEBOUNCE_SCANS);
    expect(stated(doc, /settled for (\d+) ms \(`STEADY_AFTER_MS`\)/)).toBe(STEADY_AFTER_MS);
    expect(stated(doc, /only every (\d+) ms \(`STEADY_SCAN_MS`\)/)).toBe(STEADY_SCAN_MS);
    expect(stated(doc, /held for (\d+) s \(`STUCK_MS`\)/) * 1000).toBe(STUCK_MS);
    expect(stated(doc, /at most ([\d.]+) ms of the interpreter's clock/)).toBe(sourceConst("firmware/main.ts", "SLICE_MS"));
    expect(stated(doc, /or (\d+) evaluations, started/)).toBe(SOLVER_SLICE);
    expect(stated(doc, /started at most every (\d+) ms/)).toBe(sourceConst("firmware/main.ts", "THINK_PERIOD_MS"));
    expect(stated(doc, /with 5 ms of bounce \(`npm run bench`; bound (\d+) ms\)/)).toBe(
      sourceConst("test/bench/bench.ts", "LATENCY_BOUND_MS"),
    );
  });

  it("the refusal colours of docs/playing.md are status LED 2's, reason by reason", () => {
    const rows = new Map<string, string>();
    for (const m of read("docs/playing.md").matchAll(/^\| (\w+) +\| (.+?) +\|$/gm)) rows.set(m[2], m[1]);
    const colourOf = (reason: number) => COLOUR_NAMES[REFUSAL_COLOURS[reason]];
    expect(rows.get("the row has empty holes")).toBe(colourOf(REFUSED_INCOMPLETE));
    expect(rows.get("a colour is used twice where the preset forbids it")).toBe(colourOf(REFUSED_REPEAT));
    expect(rows.get("a blank where the preset has none")).toBe(colourOf(REFUSED_BLANK));
    expect(rows.get("feedback that no code can give")).toBe(colourOf(REFUSED_FEEDBACK_RANGE));
    expect(rows.get("a key that does nothing now, or a value out of range")).toBe(colourOf(REFUSED_PHASE));
    expect(colourOf(REFUSED_RANGE)).toBe(colourOf(REFUSED_PHASE));
  });

  it("the palette table of docs/playing.md gives every colour's RGB as firmware/ui/palette.ts sends it", () => {
    const table = [...read("docs/playing.md").matchAll(/^\| (\w+) +\| (\d+), (\d+), (\d+) +\|/gm)];
    expect(table.map((m) => m[1])).toEqual(COLOUR_NAMES.slice(1));
    for (const m of table) {
      const i = COLOUR_NAMES.indexOf(m[1]);
      expect([m[2], m[3], m[4]].map(Number), m[1]).toEqual(Array.from(PALETTE_RGB.slice(i * 3, i * 3 + 3)));
    }
  });

  it("the unit's average and worst guesses in docs/playing.md are the tables' manifest's", () => {
    const manifest = JSON.parse(read("firmware/core/tables/manifest.json")) as {
      tables: Record<string, { averageGuesses: number; worstGuesses: number }>;
    };
    const rows: Record<string, string> = {
      brainiac: "Brainiac",
      "brainiac+": "Brainiac with blanks",
      travel: "travel unit",
      "travel+": "travel unit, expert",
      race: "five-peg race",
      "race+": "five-peg race, advanced",
    };
    const doc = read("docs/playing.md");
    for (const [variant, label] of Object.entries(rows)) {
      const m = new RegExp(String.raw`^\| ${label.replace(/[+]/g, "\\+")} +\| ([\d.]+), worst (\d+) `, "m").exec(doc);
      expect(m, label).not.toBeNull();
      expect(m![1], variant).toBe(manifest.tables[variant].averageGuesses.toFixed(3));
      expect(Number(m![2]), variant).toBe(manifest.tables[variant].worstGuesses);
    }
  });

  it("the bounds and the reference unit of docs/design.md are the build's, the benchmarks' and the profile's", () => {
    const doc = "docs/design.md";
    const r1 = loadProfile("r1-pico");
    const pixels = r1.leds.segments.reduce((n, s) => n + s.count, 0);
    expect(stated(doc, /<= 32 KB \(([\d,]+) bytes\)/)).toBe(IMAGE_LIMIT_BYTES);
    expect(stated(doc, /<= ([\d,]+) bytes: the Pico's 48 KB of Storage/)).toBe(STORED_BOUND_BYTES);
    expect(stated(doc, /Segments in chain order, (\d+) pixels in all/)).toBe(pixels);
    expect(stated(doc, /full LED refresh on the wire \((\d+) pixels/)).toBe(pixels);
    expect(stated(doc, /\(R1: (\d+) mA\) by scaling/)).toBe(r1.leds.budgetMa);
    expect(stated(doc, /changed LEDs, simulator \(virtual time\) \| <= (\d+) ms/)).toBe(
      sourceConst("test/bench/bench.ts", "LATENCY_BOUND_MS"),
    );
    expect(stated(doc, /\| <= (\d+) ms, and only when the frame changed/)).toBe(sourceConst("test/bench/bench.ts", "REFRESH_BOUND_MS"));
    const real = (name: string) => sourceConst("test/bench/real.ts", name);
    expect(stated(doc, /peak <= ([\d,]+) of/)).toBe(real("jsvarsPeak"));
    expect(stated(doc, /peak <= [\d,]+ of ([\d,]+)/)).toBe(BOARDS.pico.jsVars);
    expect(stated(doc, /median <= (\d+) ms; a re-render/)).toBe(real("keyMs"));
    expect(stated(doc, /a re-render <= (\d+) ms/)).toBe(real("renderMs"));
    expect(stated(doc, /blocked, Pico estimate \| <= (\d+) ms/)).toBe(real("stallMaxMs"));
    expect(stated(doc, /mean <= (\d+) ms, worst <= \d+ ms, sliced/)).toBe(real("moveMeanMs"));
    expect(stated(doc, /mean <= \d+ ms, worst <= (\d+) ms, sliced/)).toBe(real("moveMaxMs"));
    expect(stated(doc, /worst <= (\d+) ms in every variant/)).toBe(real("hintMaxMs"));
    expect(stated(doc, /the watchdog fires at (\d+) s/)).toBe(sourceConst("firmware/device/power.ts", "WATCHDOG_S"));
    expect(stated(doc, /the solver alone: mean <= (\d+) ms/)).toBe(sourceConst("test/bench/moves.ts", "meanMs"));
    expect(stated(doc, /the solver alone: mean <= \d+ ms, worst <= (\d+) ms/)).toBe(sourceConst("test/bench/moves.ts", "maxMs"));
  });

  it("README.md's LED count is the reference unit's", () => {
    const pixels = loadProfile("r1-pico").leds.segments.reduce((n, s) => n + s.count, 0);
    expect(stated("README.md", /a chain of (\d+) WS2812 LEDs/)).toBe(pixels);
  });

  it("the Pico and the interpreter's builds in docs/espruino.md are hardware/boards.ts' and sim/espruino/build.json's", () => {
    const doc = "docs/espruino.md";
    expect(stated(doc, /the Pico has ([\d,]+) JsVars of 13 bytes/)).toBe(BOARDS.pico.jsVars);
    expect(stated(doc, /the Pico has [\d,]+ JsVars of (\d+) bytes/)).toBe(BOARDS.pico.bytesPerJsVar);
    expect(stated(doc, /and (\d+) KB of Storage; LED and game state/) * 1024).toBe(BOARDS.pico.storageBytes);
    const builds = (
      JSON.parse(read("sim/espruino/build.json")) as { builds: { name: string; expect: { blocksize: number; total?: number } }[] }
    ).builds;
    const byName = Object.fromEntries(builds.map((b) => [b.name, b.expect]));
    expect(stated(doc, /`espruino` +\| grow as needed \((\d+) bytes each\)/)).toBe(byName.espruino.blocksize);
    expect(stated(doc, /`espruino-5100` \| fixed at [\d,]+ of (\d+) bytes/)).toBe(byName["espruino-5100"].blocksize);
    expect(stated(doc, /`espruino-5100` \| fixed at ([\d,]+) of/)).toBe(byName["espruino-5100"].total);
    expect(stated(doc, /`espruino-pico` \| fixed at [\d,]+ of (\d+) bytes/)).toBe(byName["espruino-pico"].blocksize);
    expect(stated(doc, /`espruino-pico` \| fixed at ([\d,]+) of/)).toBe(byName["espruino-pico"].total);
  });
});

describe("README.md's commands are package.json's", () => {
  it("every npm script has a line in the README's command table, and every command there exists", () => {
    const scripts = Object.keys((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts);
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf("## Commands"), readme.indexOf("\n## ", readme.indexOf("## Commands") + 1));
    const named = new Set<string>();
    for (const m of table.matchAll(/`npm (start|test)\b|`npm run ([\w:-]+)|\/ `([\w:-]+)`/g)) named.add(m[1] ?? m[2] ?? m[3]);
    expect(
      [...named].filter((n) => !scripts.includes(n)),
      "in the README, not in package.json",
    ).toEqual([]);
    expect(
      scripts.filter((s) => !named.has(s)),
      "in package.json, not in the README",
    ).toEqual([]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-");
}

describe("the map's links lead somewhere", () => {
  // Written by other parts of the work (the reliability and performance pages); checked once they exist.
  const elsewhere = new Set(["docs/reliability.md", "docs/performance.md"]);
  const pages = [
    "README.md",
    "docs/rules.md",
    "docs/design.md",
    "docs/espruino.md",
    "docs/playing.md",
    "docs/architecture.md",
    "docs/developing.md",
  ];

  for (const page of pages)
    it(`every relative link and anchor of ${page} exists`, () => {
      const broken: string[] = [];
      for (const m of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target, anchor] = m[1].split("#");
        if (/^[a-z]+:/.test(target)) continue;
        const file = target ? join(page, "..", target).replace(/^\.\//, "") : page;
        if (elsewhere.has(file) && !existsSync(join(ROOT, file))) continue;
        if (!existsSync(join(ROOT, file))) {
          broken.push(m[1]);
          continue;
        }
        if (anchor && file.endsWith(".md")) {
          const anchors = [...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((h) => slug(h[1]));
          if (!anchors.includes(anchor)) broken.push(m[1]);
        }
      }
      expect(broken).toEqual([]);
    });
});
