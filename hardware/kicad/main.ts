/**
 * npm run pcb [-- --check] [--profile ID]
 *
 * Regenerates each board's KiCad project under hardware/kicad/<profile-id>/ from its profile: the schematic
 * (schematic.ts), the project with its design rules, the routed .kicad_pcb with its planes filled by KiCad
 * (pcbnew's zone filler, run by /usr/bin/python3), and under fab/ the Gerbers and drill files, the position file,
 * the BOM, the schematic as PDF and a 3D render of the board (PNG), all made by kicad-cli; then the printable case
 * from the board's placement (hardware/case/write.ts, into hardware/case/<profile-id>/). With --check it makes
 * everything in a temporary folder and exits 1 naming the files that differ from the committed ones (dates, which
 * KiCad writes into Gerbers, drill, position and PDF files, and its version string are left out of the comparison; the
 * render is only checked to be there, and --no-render skips it). Needs KiCad 9.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadProfile, type Profile } from "../profile.ts";
import { writeCase } from "../case/write.ts";
import { writeBom } from "./bom.ts";
import { netlist, type Netlist } from "./netlist.ts";
import { netlistNets, writePcb, type BoardNets } from "./pcb.ts";
import { repoLibrary } from "./pcb-library.ts";
import { placement } from "./placement.ts";
import { projectFile } from "./project.ts";
import { writeSchematic } from "./schematic.ts";
import { children, parse, text } from "./sexpr.ts";

export const KICAD_DIR = fileURLToPath(new URL("./", import.meta.url));
/** The profiles drawn as boards (the others are firmware and simulator profiles). */
export const BOARD_PROFILES = ["handheld-pico"];
/** KiCad's Python (the Debian package's pcbnew module is built for the system Python). */
export const KICAD_PYTHON = process.env.KICAD_PYTHON ?? "/usr/bin/python3";

/** Whether kicad-cli (KiCad 9) is installed: the tests skip without it. */
export function hasKicad(): boolean {
  try {
    return /^9\./.test(execFileSync("kicad-cli", ["version"], { encoding: "utf8" }).trim());
  } catch {
    return false;
  }
}

function cli(args: string[], cwd?: string): string {
  try {
    return execFileSync("kicad-cli", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`kicad-cli ${args.join(" ")} failed: ${err.stderr || err.stdout || err.message}`);
  }
}

/** The nets as the schematic names them: KiCad's own netlist export (so an unconnected pin's net has KiCad's name). */
export function schematicNets(schematic: string, n: Netlist): BoardNets {
  const out = join(mkdtempSync(join(tmpdir(), "bb-net-")), "board.net");
  cli(["sch", "export", "netlist", "--format", "kicadsexpr", "-o", out, schematic]);
  const tree = parse(readFileSync(out, "utf8"));
  rmSync(out, { force: true });
  const byPad = new Map<string, string>();
  for (const net of children(children(tree, "nets")[0], "net")) {
    const name = text(children(net, "name")[0]?.[1]);
    for (const node of children(net, "node")) byPad.set(`${text(children(node, "ref")[0][1])}/${text(children(node, "pin")[0][1])}`, name);
  }
  const fallback = netlistNets(n);
  // A pad the schematic does not list keeps the netlist's net (none: no net).
  const netOf = (ref: string, pad: string) => byPad.get(`${ref}/${pad}`) ?? fallback.netOf(ref, pad);
  const names = new Set<string>();
  for (const part of n.parts)
    for (const pin of Object.keys(part.pins)) {
      const name = netOf(part.ref, pin);
      if (name) names.add(name);
    }
  return { netOf, names: [...names].sort() };
}

const FILL_ZONES = `
import sys, pcbnew
board = pcbnew.LoadBoard(sys.argv[1])
pcbnew.ZONE_FILLER(board).Fill(board.Zones())
pcbnew.SaveBoard(sys.argv[1], board)
`;

/** KiCad's zone filler on the saved board (kicad-cli cannot fill zones). */
function fillZones(pcb: string): void {
  try {
    execFileSync(KICAD_PYTHON, ["-c", FILL_ZONES, pcb], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(
      `filling the planes needs KiCad's Python module pcbnew in ${KICAD_PYTHON} (set KICAD_PYTHON): ${err.stderr?.toString().trim() || err.message}`,
    );
  }
}

/** The project's footprint table (written with the schematic, from the netlist) also finds the mounting holes' library. */
function addMountingHoleLibrary(table: string): void {
  const text = readFileSync(table, "utf8");
  if (text.includes('(name "MountingHole")')) return;
  const line = '\t(lib (name "MountingHole")(type "KiCad")(uri "${KICAD9_FOOTPRINT_DIR}/MountingHole.pretty")(options "")(descr ""))\n';
  writeFileSync(table, text.replace(/\)\s*$/, `${line})\n`));
}

export interface BoardResult {
  id: string;
  dir: string;
  unrouted: string[];
  tracks: number;
  vias: number;
}

/** Writes one board's project and fab outputs into `root`/<id>/ (the repo library into `root`). */
export function buildBoard(p: Profile, root: string, opts: { render?: boolean } = {}): BoardResult {
  const dir = join(root, p.id);
  const fab = join(dir, "fab");
  mkdirSync(join(fab, "gerbers"), { recursive: true });
  const lib = join(root, "Brainboard.pretty");
  mkdirSync(lib, { recursive: true });
  for (const [f, t] of Object.entries(repoLibrary())) writeFileSync(join(lib, f), t);

  writeSchematic(p, dir);
  addMountingHoleLibrary(join(dir, "fp-lib-table"));
  writeFileSync(join(dir, `${p.id}.kicad_pro`), projectFile(p.id));
  const n = netlist(p);
  const schematic = join(dir, `${p.id}.kicad_sch`);
  const nets = schematicNets(schematic, n);
  const pcb = join(dir, `${p.id}.kicad_pcb`);
  const r = writePcb(p, n, placement(p, n), nets);
  writeFileSync(pcb, r.text);
  fillZones(pcb);
  // The local settings KiCad saves beside a project it opened: per user, not part of the design.
  rmSync(join(dir, `${p.id}.kicad_prl`), { force: true });

  const gerbers = join(fab, "gerbers");
  const layers = "F.Cu,In1.Cu,In2.Cu,B.Cu,F.Paste,B.Paste,F.SilkS,B.SilkS,F.Mask,B.Mask,Edge.Cuts";
  cli(["pcb", "export", "gerbers", "-o", gerbers + "/", "-l", layers, "--no-x2", "--no-netlist", pcb]);
  cli([
    "pcb",
    "export",
    "drill",
    "-o",
    gerbers + "/",
    "--format",
    "excellon",
    "--excellon-units",
    "mm",
    "--generate-map",
    "--map-format",
    "pdf",
    pcb,
  ]);
  cli([
    "pcb",
    "export",
    "pos",
    "-o",
    join(fab, `${p.id}-pos.csv`),
    "--format",
    "csv",
    "--units",
    "mm",
    "--side",
    "both",
    "--exclude-dnp",
    pcb,
  ]);
  writeBom(p, join(fab, `${p.id}-bom.csv`));
  cli(["sch", "export", "pdf", "-o", join(fab, `${p.id}-schematic.pdf`), schematic]);
  if (opts.render !== false)
    cli([
      "pcb",
      "render",
      "-o",
      join(fab, `${p.id}-3d.png`),
      "--width",
      "1600",
      "--height",
      "1100",
      "--zoom",
      "1.35",
      "--quality",
      "basic",
      pcb,
    ]);
  return { id: p.id, dir, unrouted: r.unrouted, tracks: r.tracks, vias: r.vias };
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

/** A file's text with what KiCad stamps on each run (dates, times, its version string) taken out. */
export function normalise(name: string, data: Buffer): string {
  if (name.endsWith(".png")) return `${data.length > 0}`;
  if (name.endsWith(".pdf"))
    return data
      .toString("latin1")
      .replace(/\/(CreationDate|ModDate) \([^)]*\)/g, "")
      .replace(/\/ID \[[^\]]*\]/g, "")
      .replace(/\b9\.0\.\d+(\+\d+)?/g, "<kicad 9.0>");
  return data
    .toString("utf8")
    .replace(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[^\s*"]*/g, "<date>")
    .replace(/\b9\.0\.\d+(\+\d+)?/g, "<kicad 9.0>")
    .replace(/^(; |## |%TF\.CreationDate|G04 Created by|;\s*DRILL file).*$/gm, "$1<stamp>");
}

/** The generated files under `fresh` that differ from (or are missing in) `committed`. */
export function differences(fresh: string, committed: string): string[] {
  const out: string[] = [];
  for (const f of files(fresh)) {
    const c = join(committed, f);
    if (!existsSync(c)) out.push(`${f} (missing)`);
    else if (normalise(f, readFileSync(join(fresh, f))) !== normalise(f, readFileSync(c))) out.push(f);
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: "boolean" }, profile: { type: "string" }, "no-render": { type: "boolean" } } });
  if (!hasKicad()) {
    console.error("npm run pcb needs KiCad 9 (kicad-cli): not found");
    process.exit(2);
  }
  const ids = values.profile ? [values.profile] : BOARD_PROFILES;
  const root = values.check ? mkdtempSync(join(tmpdir(), "bb-pcb-")) : KICAD_DIR;
  let bad = 0;
  for (const id of ids) {
    const r = buildBoard(loadProfile(id), root, { render: !values["no-render"] });
    console.log(
      `${id}: ${r.tracks} tracks, ${r.vias} vias${r.unrouted.length ? `; NOT ROUTED: ${r.unrouted.join(", ")}` : ", every net routed"}`,
    );
    if (r.unrouted.length) bad = 1;
  }
  // The printable case, from each board's placement (hardware/case/write.ts compares on its own with --check).
  const caseDiff: string[] = [];
  for (const id of ids)
    caseDiff.push(...(await writeCase(loadProfile(id), undefined, !!values.check)).map((f) => relative(join(KICAD_DIR, ".."), f)));
  if (values.check) {
    const diff = ids.flatMap((id) => differences(join(root, id), join(KICAD_DIR, id)).map((f) => `${id}/${f}`));
    diff.push(...caseDiff);
    diff.push(...differences(join(root, "Brainboard.pretty"), join(KICAD_DIR, "Brainboard.pretty")).map((f) => `Brainboard.pretty/${f}`));
    for (const f of readdirSync(root).filter((x) => statSync(join(root, x)).isFile()))
      if (
        normalise(f, readFileSync(join(root, f))) !==
        (existsSync(join(KICAD_DIR, f)) ? normalise(f, readFileSync(join(KICAD_DIR, f))) : null)
      )
        diff.push(f);
    rmSync(root, { recursive: true, force: true });
    if (diff.length) {
      console.error(`hardware/kicad differs from what the profiles make:\n  ${diff.join("\n  ")}\nrun: npm run pcb`);
      process.exit(1);
    }
    console.log("hardware/kicad is current");
  } else console.log(`written under ${relative(process.cwd(), KICAD_DIR) || "."}`);
  process.exit(bad);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  await main().catch((e: Error) => {
    console.error(`npm run pcb: ${e.message}`);
    process.exit(1);
  });
