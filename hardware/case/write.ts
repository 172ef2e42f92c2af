/**
 * Writes a board's case: one binary STL per printed part, in its print orientation, and parts.md (what to
 * print, how many, the screws), into hardware/case/<profile-id>/. Nothing is written for a case
 * that does not fit its board or whose meshes are not closed: the build stops with what is wrong.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { loadKernel } from "./manifold.ts";
import { closednessProblems, meshOf, parseStl, stlBytes } from "./mesh.ts";
import { buildCase, type CaseModel } from "./shells.ts";
import { fitProblems } from "./fit.ts";
import { PRINT } from "./params.ts";
import { type CaseBoard, outlineBox } from "./board.ts";
import { caseBoard } from "./from-placement.ts";
import { placement } from "../kicad/placement.ts";
import type { Profile } from "../profile.ts";

export const CASE_DIR = fileURLToPath(new URL("./", import.meta.url));

export interface CaseFile {
  name: string;
  bytes: Uint8Array;
}

/** The files of a board's case, after checking that it fits and that every mesh is closed. */
export async function caseFiles(board: CaseBoard): Promise<{ model: CaseModel; files: CaseFile[] }> {
  const k = await loadKernel();
  const model = buildCase(k, board);
  const problems = fitProblems(k, model);
  const files: CaseFile[] = model.parts.map((p) => {
    const bytes = stlBytes(meshOf(p.print), `Brainboard ${board.id} ${p.title}`);
    problems.push(...closednessProblems(parseStl(bytes)).map((m) => `${p.name}.stl: ${m}`));
    return { name: `${p.name}.stl`, bytes };
  });
  if (problems.length) throw new Error(`the case of ${board.id} is not right:\n  ${problems.join("\n  ")}`);
  // Formatted as the repository's prettier would, so its format check passes on the generated file.
  const md = await format(partsList(model), { ...(await resolveConfig(join(CASE_DIR, "README.md"))), parser: "markdown" });
  files.push({ name: "parts.md", bytes: new TextEncoder().encode(md) });
  return { model, files };
}

const mm = (v: number) => `${Math.round(v * 10) / 10} mm`;

/** What to print and buy, generated with the STLs so the numbers always match them. */
export function partsList(model: CaseModel): string {
  const b = model.board;
  const L = model.levels;
  const lines = [
    `# The case of ${b.id}`,
    "",
    "Generated with the STL files beside it from the board's placement (`npm run pcb`); see ../README.md for",
    "print settings and assembly.",
    "",
    "| file | print | size as printed (x y z) |",
    "| --- | --- | --- |",
    ...model.parts.map((p) => {
      const { min, max } = p.print.boundingBox();
      const size = [0, 1, 2].map((i) => (max[i] - min[i]).toFixed(1)).join(" x ");
      return `| ${p.name}.stl | ${p.count} x, ${p.title.split(": ")[1] ?? p.title} | ${size} mm |`;
    }),
    "",
    `Screws: ${b.holes.length} x ${model.screw.name} ${model.screwLength} mm, up through the bottom's bosses and the board into the top's posts,`,
    `where each cuts its own thread in a ${mm(model.screw.pilot)} pilot hole (no inserts).`,
    "",
    `Board ${mm(b.thickness)} thick; room under it ${mm(-L.floorTop)} (the cell), over it ${mm(L.plateUnder - L.boardTop)};`,
    `the case stands ${mm(L.plateTop - L.floorBottom)} tall (${mm(L.shieldTop - L.floorBottom)} with the shield).`,
    `Walls ${mm(PRINT.wall)}, the board ${mm(PRINT.boardGap)} from them, every part at least ${mm(PRINT.partGap)} from the case`,
    `(${mm(PRINT.fit)} from the posts and bosses, which stand inside the mounting holes' keep-outs).`,
    "",
    ...model.openings.map((o) => {
      const part = b.parts.find((p) => p.ref === o.ref)!;
      const board = outlineBox(b.outline);
      const wall = PRINT.boardGap + PRINT.wall;
      const out = {
        left: board.x0 - wall - part.box.x0,
        right: part.box.x1 - board.x1 - wall,
        bottom: board.y0 - wall - part.box.y0,
        top: part.box.y1 - board.y1 - wall,
      }[o.side];
      const along = o.side === "left" || o.side === "right" ? o.box.y1 - o.box.y0 : o.box.x1 - o.box.x0;
      const size = `${mm(along)} wide, from ${mm(Math.max(o.box.z0, 0))} to ${mm(o.box.z1)} over the board's underside`;
      const reach = out > 0 ? `stands ${mm(out)} out of the case` : `sits ${mm(-out)} inside the case's outer face`;
      return `- ${o.ref} (${o.side} wall): ${reach}; its opening is ${size}.`;
    }),
    "",
  ];
  return lines.join("\n");
}

/**
 * Writes the case of a board into dir, or with check compares and writes nothing. Returns the files that
 * differ from the committed ones (check) or that were written; stray .stl files count as differing and
 * are removed when writing.
 */
export async function writeCaseFiles(board: CaseBoard, dir: string, check = false): Promise<string[]> {
  const { files } = await caseFiles(board);
  const names = new Set(files.map((f) => f.name));
  const stray = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".stl") && !names.has(f)) : [];
  const changed = files.filter((f) => {
    const path = join(dir, f.name);
    return !existsSync(path) || Buffer.compare(readFileSync(path), f.bytes) !== 0;
  });
  if (!check) {
    mkdirSync(dir, { recursive: true });
    for (const f of changed) writeFileSync(join(dir, f.name), f.bytes);
    for (const f of stray) rmSync(join(dir, f));
  }
  return [...changed.map((f) => join(dir, f.name)), ...stray.map((f) => join(dir, f))];
}

/**
 * The case of a profile's board, from its placement, into dir (hardware/case/<profile-id>/ by default);
 * with check, writes nothing and returns the files that differ.
 */
export function writeCase(profile: Profile, dir: string = join(CASE_DIR, profile.id), check = false): Promise<string[]> {
  return writeCaseFiles(caseBoard(placement(profile)), dir, check);
}
