/**
 * npx tsx hardware/gen-overlay.ts [--check | --force]   (npm run overlay, npm run overlay:check)
 *
 * The printed legend overlay of the unit's keys, one sheet per screen (menu, codebreaker games, Brain
 * Flip), for every profile in hardware/profiles/: hardware/overlay/overlay-<id>-<screen>.svg, and
 * overlay-<id>.pdf with the three sheets as pages. A4, at 1:1: every key where the unit has it on the
 * 10 mm grid (hardware/geometry.ts), its words from the screen tables (hardware/key-legends.ts). Printed on
 * transparency film (or thin paper), the pieces lie over the pads and the keys' LEDs shine through.
 *
 * The PDF is printed by Chromium (playwright-core, already used by the browser tests) from the SVGs;
 * its title carries a digest of them, so --check (which needs no browser) knows whether the committed
 * PDF is the print of the committed SVGs, and a PDF is printed again only when they change (--force
 * prints all). --check writes nothing and exits 1 when a file is stale.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { listProfiles, loadProfile, type Profile } from "./profile.ts";
import { unitGeometry, type KeyPlace, type Rect } from "./geometry.ts";
import {
  brainFlipLegends,
  codebreakerLegends,
  menuLegends,
  SCREEN_IDS,
  SCREEN_TITLES,
  type KeyLegend,
  type ScreenId,
  type ScreenLegends,
} from "./key-legends.ts";

export const OVERLAY_DIR = fileURLToPath(new URL("./overlay/", import.meta.url));

/** A4 portrait, mm. */
const SHEET_W = 210;
const SHEET_H = 297;
const FONT = "DejaVu Sans, Arial, Helvetica, sans-serif";
/** The menu's rows, as printed beside the pad (docs/playing.md "The menu"). */
const MENU_ROWS = ["game", "variant / rules", "roles / players", "match / grid", "brightness · sleep · sound", "lock · resume · OK"];

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function n(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** Words broken into lines of at most `max` characters (a long word keeps its own line). */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && (last + " " + word).length <= max) lines[lines.length - 1] = last + " " + word;
    else lines.push(word);
  }
  return lines;
}

/** One key: its outline (where the cap is) and its words, centred. `second`: the same key's words in Brain Flip's menu, if they differ. */
function keySvg(x: number, y: number, size: number, legend: KeyLegend, second?: KeyLegend): string {
  const h = size / 2;
  const parts = [
    `<rect x="${n(x - h)}" y="${n(y - h)}" width="${n(size)}" height="${n(size)}" rx="2.4" fill="none" stroke="#000" stroke-width="0.3"/>`,
  ];
  const lines: { text: string; size: number; italic: boolean }[] = [];
  const fit = Math.floor(size / 1.4);
  for (const l of wrap(legend.label, fit)) lines.push({ text: l, size: 2.4, italic: false });
  if (second && second.label && second.label !== legend.label)
    for (const l of wrap(`BF: ${second.label}`, Math.floor(size / 1.25))) lines.push({ text: l, size: 2.2, italic: true });
  const total = lines.reduce((t, l) => t + l.size * 1.2, 0);
  let ty = y - total / 2;
  for (const l of lines) {
    ty += l.size * 1.2;
    parts.push(
      `<text x="${n(x)}" y="${n(ty - l.size * 0.3)}" font-size="${l.size}" text-anchor="middle"${l.italic ? ' font-style="italic"' : ' font-weight="bold"'}>${esc(l.text)}</text>`,
    );
  }
  return parts.join("\n");
}

/** The words of each screen, for the sheet (the menu with Brain Flip's words beside the codebreaker games'). */
function sheetLegends(p: Profile, screen: ScreenId): { main: ScreenLegends; second?: ScreenLegends } {
  if (screen === "menu") return { main: menuLegends("codebreaker"), second: menuLegends("brainflip") };
  if (screen === "codebreaker") return { main: codebreakerLegends(p) };
  return { main: brainFlipLegends(p) };
}

const NOTES: Record<ScreenId, string[]> = {
  menu: [
    "Each row is one setting; its options light in the row's colour, the chosen one white.",
    "BF: the key's meaning when Brain Flip is the game chosen on row 1.",
  ],
  codebreaker: [
    "Key a row colour after colour (the hole being filled blinks), then OK. Hint: the white key.",
    "Codemaker pad: the secret, and the answers (exact, near, then OK).",
  ],
  brainflip: [
    "Lay the picture cards on the keys from the top-left corner (2x2 up to the full grid).",
    "The Master answers on the codemaker pad: yes, no; correct the last answer; mistake: -1 point.",
  ],
};

/** One sheet: the main pad's piece and the codemaker pad's piece, a scale bar, at 1 SVG unit = 1 mm. */
export function overlaySvg(p: Profile, screen: ScreenId): string {
  const g = unitGeometry(p);
  const { main, second } = sheetLegends(p, screen);
  const padWell = g.wells.find((w) => w.kind === "pad") as Rect;
  const makerWell = g.wells.find((w) => w.kind === "maker");
  const body: string[] = [];
  const top = 50;
  const padX = (SHEET_W - padWell.w) / 2;
  // The main pad: the well's outline is the cut line.
  const piece = (
    well: Rect,
    x0: number,
    y0: number,
    title: string,
    keys: KeyPlace[],
    legendOf: (k: KeyPlace) => [KeyLegend, KeyLegend?],
  ) => {
    body.push(`<g transform="translate(${n(x0 - well.x)} ${n(y0 - well.y)})">`);
    body.push(
      `<rect x="${n(well.x)}" y="${n(well.y)}" width="${n(well.w)}" height="${n(well.h)}" rx="3.5" fill="none" stroke="#000" stroke-width="0.4" stroke-dasharray="3 1.5"/>`,
    );
    for (const k of keys) {
      const [a, b] = legendOf(k);
      body.push(keySvg(k.x, k.y, k.size, a, b));
    }
    body.push("</g>");
    body.push(`<text x="${n(x0)}" y="${n(y0 - 2.5)}" font-size="3" font-weight="bold">${esc(title)}</text>`);
  };
  const padKeys = g.keys.filter((k) => k.padLed !== undefined);
  piece(padWell, padX, top, "main pad (6x6), in front of the codebreaker", padKeys, (k) => [
    main.pad[k.padLed as number],
    second?.pad[k.padLed as number],
  ]);
  if (screen === "menu")
    MENU_ROWS.forEach((row, r) => {
      const y = top + 10 + 20 * r;
      const lines = wrap(row, 12);
      lines.forEach((l, i) =>
        body.push(
          `<text x="${n(padX - 2)}" y="${n(y + 1 + (i - (lines.length - 1) / 2) * 3.2)}" font-size="2.6" text-anchor="end">${esc(l)}</text>`,
        ),
      );
    });
  let y = top + padWell.h + 14;
  const makerKeys = g.keys.filter((k) => k.padLed === undefined);
  if (makerWell && makerKeys.some((k) => main.maker[k.id])) {
    const none: KeyLegend = { label: "", about: "" };
    piece(makerWell, (SHEET_W - makerWell.w) / 2, y, "codemaker pad, under the shield", makerKeys, (k) => [main.maker[k.id] ?? none]);
    y += makerWell.h + 12;
  }
  // The scale bar: 100 mm, a tick every 10 mm.
  const barY = Math.min(y, SHEET_H - 32);
  const bar = [`<line x1="55" y1="${barY}" x2="155" y2="${barY}" stroke="#000" stroke-width="0.4"/>`];
  for (let i = 0; i <= 10; i++)
    bar.push(
      `<line x1="${55 + 10 * i}" y1="${barY - (i % 5 ? 1.5 : 3)}" x2="${55 + 10 * i}" y2="${barY}" stroke="#000" stroke-width="0.3"/>`,
    );
  bar.push(
    `<text x="105" y="${barY + 5}" font-size="2.8" text-anchor="middle">100 mm: print at 100 % (actual size) and check this bar before cutting</text>`,
  );
  const head = [
    `<text x="15" y="20" font-size="6" font-weight="bold">Brainboard: ${esc(SCREEN_TITLES[screen])}</text>`,
    `<text x="15" y="27" font-size="3.2">${esc(p.name)}. Print on transparency film or thin paper; cut along the dashed lines;</text>`,
    `<text x="15" y="31.5" font-size="3.2">lay each piece over its pad: the keys' lights show through.</text>`,
    ...NOTES[screen].map((t, i) => `<text x="15" y="${n(37.5 + 4.5 * i)}" font-size="3.2">${esc(t)}</text>`),
  ];
  const foot = `<text x="15" y="${SHEET_H - 12}" font-size="2.6">Generated from hardware/profiles/${esc(p.id)}.json by hardware/gen-overlay.ts (npm run overlay).</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SHEET_W}mm" height="${SHEET_H}mm" viewBox="0 0 ${SHEET_W} ${SHEET_H}" font-family="${FONT}" fill="#000">`,
    `<title>Brainboard ${esc(p.id)}: ${esc(SCREEN_TITLES[screen])} overlay</title>`,
    `<rect width="${SHEET_W}" height="${SHEET_H}" fill="#fff"/>`,
    ...head,
    ...body,
    ...bar,
    foot,
    "</svg>",
    "",
  ].join("\n");
}

export interface OverlaySet {
  profile: string;
  /** File name (in hardware/overlay/) -> SVG text. */
  svgs: { file: string; text: string }[];
  pdf: string;
  /** What the PDF's title must say: the digest of the SVGs it prints. */
  pdfTitle: string;
}

export function overlaySets(): OverlaySet[] {
  return listProfiles().map((id) => {
    const p = loadProfile(id);
    const svgs = SCREEN_IDS.map((screen) => ({ file: `overlay-${id}-${screen}.svg`, text: overlaySvg(p, screen) }));
    const digest = createHash("sha256")
      .update(svgs.map((s) => s.text).join("\n"))
      .digest("hex")
      .slice(0, 16);
    return { profile: id, svgs, pdf: `overlay-${id}.pdf`, pdfTitle: `Brainboard ${id} overlay ${digest}` };
  });
}

/** The title a PDF says it has (/Title, as a literal or a UTF-16 hex string), or null. */
export function pdfTitle(pdf: Buffer): string | null {
  const text = pdf.toString("latin1");
  const hex = /\/Title\s*<([0-9A-Fa-f\s]+)>/.exec(text);
  if (hex) {
    const bytes = Buffer.from(hex[1].replace(/\s/g, ""), "hex");
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return bytes.subarray(2).swap16().toString("utf16le");
    return bytes.toString("latin1");
  }
  const lit = /\/Title\s*\(((?:\\.|[^\\)])*)\)/.exec(text);
  return lit ? lit[1].replace(/\\(.)/g, "$1") : null;
}

/** The overlay files that are missing or differ from what the profiles and screen tables produce. */
export function staleOverlays(sets: OverlaySet[] = overlaySets()): string[] {
  const stale: string[] = [];
  for (const set of sets) {
    for (const s of set.svgs)
      if (!existsSync(OVERLAY_DIR + s.file) || readFileSync(OVERLAY_DIR + s.file, "utf8") !== s.text) stale.push(s.file);
    const pdf = OVERLAY_DIR + set.pdf;
    if (!existsSync(pdf) || pdfTitle(readFileSync(pdf)) !== set.pdfTitle) stale.push(set.pdf);
  }
  return stale;
}

/** Prints each set's SVGs as the pages of its PDF, at their size (A4, no margins), with Chromium. */
async function writePdfs(sets: OverlaySet[]): Promise<void> {
  if (!sets.length) return;
  const { findChromium, launchChromium, CHROMIUM_HELP } = await import("./browser.ts");
  const chromium = findChromium();
  if ("missing" in chromium) throw new Error(`cannot print the PDFs: ${chromium.missing}; ${CHROMIUM_HELP}`);
  const browser = await launchChromium(chromium.path);
  try {
    const page = await browser.context.newPage();
    for (const set of sets) {
      const pages = set.svgs.map((s) => `<div class="sheet">${s.text.replace(/<title>[^<]*<\/title>/, "")}</div>`).join("\n");
      await page.setContent(
        `<!doctype html><html><head><meta charset="utf-8"><title>${set.pdfTitle}</title><style>` +
          `@page{size:${SHEET_W}mm ${SHEET_H}mm;margin:0}html,body{margin:0}.sheet{width:${SHEET_W}mm;height:${SHEET_H}mm;break-after:page;overflow:hidden}` +
          `.sheet svg{display:block}</style></head><body>${pages}</body></html>`,
      );
      const pdf = await page.pdf({
        preferCSSPageSize: true,
        printBackground: true,
        margin: { top: "0", right: "0", bottom: "0", left: "0" },
      });
      writeFileSync(OVERLAY_DIR + set.pdf, pdf);
    }
  } finally {
    await browser.close();
  }
}

async function main(): Promise<number> {
  const sets = overlaySets();
  if (process.argv.includes("--check")) {
    const stale = staleOverlays(sets);
    if (stale.length) {
      console.error(`hardware/overlay differs from the profiles and screen tables: ${stale.join(", ")}\nrun: npm run overlay`);
      return 1;
    }
    console.log(`hardware/overlay matches the profiles and screen tables (${sets.length} profiles, ${sets.length * 4} files)`);
    return 0;
  }
  mkdirSync(OVERLAY_DIR, { recursive: true });
  for (const set of sets) for (const s of set.svgs) writeFileSync(OVERLAY_DIR + s.file, s.text);
  // A PDF is printed again only when its SVGs changed (Chromium stamps every print with its date).
  const force = process.argv.includes("--force");
  const printed = sets.filter((set) => force || staleOverlays([set]).length > 0);
  await writePdfs(printed);
  const files = [...sets.flatMap((s) => s.svgs.map((x) => x.file)), ...printed.map((s) => s.pdf)];
  const rest = printed.length < sets.length ? " (the other PDFs were current)" : "";
  console.log(`wrote ${files.map((f) => `hardware/overlay/${f}`).join(", ")}${rest}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) process.exitCode = await main();
