/**
 * Footprints for the board: read from KiCad's library (or the repo's Brainboard.pretty), their pads' copper as
 * shapes on the board for the router, and each placed copy as the board file holds it (KiCad copies a footprint
 * into the board, its pads carrying their nets).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { child, children, head, num, parse, q, text, type SExpr } from "./sexpr.ts";

export const REPO_LIBRARY = "Brainboard";
export const REPO_LIBRARY_DIR = fileURLToPath(new URL("./Brainboard.pretty/", import.meta.url));
/** KiCad's footprint library; KICAD9_FOOTPRINT_DIR overrides it, as in KiCad itself. */
export const KICAD_FOOTPRINT_DIR = process.env.KICAD9_FOOTPRINT_DIR ?? "/usr/share/kicad/footprints";

/** A UUID derived from a name: the same board gets the same UUIDs each time it is generated. */
export function uuidOf(name: string): string {
  const h = createHash("sha1").update(`brainboard:${name}`).digest("hex");
  const variant = ((parseInt(h[16], 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function footprintFile(id: string): string {
  const [lib, name] = id.split(":");
  if (!name) throw new Error(`footprint id "${id}" is not Library:Name`);
  const dir = lib === REPO_LIBRARY ? REPO_LIBRARY_DIR : `${KICAD_FOOTPRINT_DIR}/${lib}.pretty/`;
  return `${dir}${name}.kicad_mod`;
}

const cache = new Map<string, SExpr[]>();
export function loadFootprint(id: string): SExpr[] {
  let fp = cache.get(id);
  if (!fp) {
    const file = footprintFile(id);
    if (!existsSync(file)) throw new Error(`footprint ${id}: no file ${file} (is KiCad's footprint library installed?)`);
    fp = parse(readFileSync(file, "utf8")) as SExpr[];
    cache.set(id, fp);
  }
  return fp;
}

/** A pad's copper on the board: a rectangle (circles and ovals by their bounding box) on some copper layers. */
export interface PadShape {
  ref: string;
  number: string;
  x: number;
  y: number;
  /** Extent along the board's x and y, after rotation. */
  w: number;
  h: number;
  round: boolean;
  drill: number;
  /** "F" (F.Cu), "B" (B.Cu) or both; a plated hole reaches the inner layers too. */
  front: boolean;
  back: boolean;
  plated: boolean;
}

export interface Placed {
  ref: string;
  footprint: string;
  /** The footprint's origin on the board and its rotation (degrees, counter-clockwise). */
  x: number;
  y: number;
  rotation: number;
}

/** A local point of a footprint at (x, y, rotation) on the board (KiCad: y down, angles counter-clockwise). */
export function toBoard(p: Placed, lx: number, ly: number): [number, number] {
  const a = (p.rotation * Math.PI) / 180;
  const c = Math.round(Math.cos(a) * 1e9) / 1e9;
  const s = Math.round(Math.sin(a) * 1e9) / 1e9;
  return [p.x + lx * c + ly * s, p.y - lx * s + ly * c];
}

export function padShapes(p: Placed): PadShape[] {
  const fp = loadFootprint(p.footprint);
  return children(fp, "pad").map((pad) => {
    const at = child(pad, "at")!;
    const size = child(pad, "size")!;
    const [x, y] = toBoard(p, Number(at[1]), Number(at[2]));
    const turn = (Number(at[3] ?? 0) + p.rotation) % 180 !== 0;
    const sw = Number(size[1]);
    const sh = Number(size[2]);
    const layers = (child(pad, "layers") ?? []).slice(1).map(text);
    const drill = child(pad, "drill");
    const kind = text(pad[2]);
    const all = layers.includes("*.Cu");
    return {
      ref: p.ref,
      number: text(pad[1]),
      x,
      y,
      w: turn ? sh : sw,
      h: turn ? sw : sh,
      round: text(pad[3]) === "circle" || text(pad[3]) === "oval",
      drill: drill ? Number(drill.find((d, i) => i > 0 && !Array.isArray(d) && d !== "oval") ?? 0) : 0,
      front: all || layers.includes("F.Cu"),
      back: all || layers.includes("B.Cu"),
      plated: kind === "thru_hole",
    };
  });
}

export interface Instance extends Placed {
  value: string;
  /** The net of each pad number: [index, name] or null (no net). */
  netOf: (pad: string) => [number, string] | null;
  /** Attributes added to the library's (e.g. board_only for a mounting hole). */
  extraAttr?: string[];
  /** The reference not printed (a mounting hole's). */
  hideReference?: boolean;
  /** Properties to carry (the schematic's fields). */
  fields?: Record<string, string>;
}

const ANGLED = new Set(["property", "fp_text", "pad"]);
const UUID_ITEMS = new Set(["property", "fp_text", "fp_line", "fp_rect", "fp_circle", "fp_arc", "fp_poly", "pad", "zone", "group"]);

/** A placed copy of a footprint as the board file holds it. */
export function instanceNode(inst: Instance): SExpr[] {
  const fp = loadFootprint(inst.footprint);
  let n = 0;
  const uid = () => q(uuidOf(`${inst.ref}/${n++}`));
  const rot = inst.rotation;
  const out: SExpr[] = ["footprint", q(inst.footprint)];
  // KiCad gives every footprint a Datasheet and a Description field; given here, they keep their UUIDs.
  const fields: Record<string, string> = { Datasheet: "", Description: "", ...(inst.fields ?? {}) };
  const rewrite = (item: SExpr[]): SExpr[] => {
    const h = head(item)!;
    const copy: SExpr[] = item.map((c) => {
      if (!Array.isArray(c)) return c;
      if (head(c) === "uuid") return ["uuid", uid()];
      // Pads and texts hold their angle on the board (their own plus the footprint's).
      if (head(c) === "at" && ANGLED.has(h) && rot) return ["at", c[1], c[2], num((Number(c[3] ?? 0) + rot) % 360)];
      return c;
    });
    if (h === "property") {
      const name = text(item[1]);
      if (name === "Reference") copy[2] = q(inst.ref);
      if (name === "Reference" && inst.hideReference && !child(copy, "hide")) copy.splice(3, 0, ["hide", "yes"]);
      if (name === "Value") copy[2] = q(inst.value);
      if (name === "Footprint") copy[2] = q(inst.footprint);
      delete fields[name];
    }
    if (h === "pad") {
      const net = inst.netOf(text(item[1]));
      const at = copy.findIndex((c) => head(c) === "uuid");
      if (net) copy.splice(at < 0 ? copy.length : at, 0, ["net", String(net[0]), q(net[1])]);
    }
    // Every item gets a UUID of its own (KiCad would make up a new one on each load for an item without).
    if (UUID_ITEMS.has(h) && !copy.some((c) => head(c) === "uuid")) copy.push(["uuid", uid()]);
    if (h === "attr" && inst.extraAttr) return [...copy, ...inst.extraAttr.filter((a) => !copy.includes(a))];
    return copy;
  };
  let placedAt = false;
  for (const item of fp.slice(2)) {
    if (!Array.isArray(item)) continue;
    const h = head(item);
    if (h === "version" || h === "generator" || h === "generator_version" || h === "embedded_fonts") continue;
    if (h === "property" && !placedAt) {
      out.push(["uuid", q(uuidOf(`${inst.ref}/footprint`))], ["at", num(inst.x), num(inst.y), ...(rot ? [num(rot)] : [])]);
      placedAt = true;
    }
    if (h === "attr") {
      // Properties the schematic carries come before the attributes.
      for (const [name, v] of Object.entries(fields))
        out.push([
          "property",
          q(name),
          q(v),
          ["at", "0", "0", ...(rot ? [num(rot)] : [])],
          ["layer", q("F.Fab")],
          ["hide", "yes"],
          ["uuid", uid()],
          ["effects", ["font", ["size", "1", "1"], ["thickness", "0.15"]]],
        ]);
      for (const k of Object.keys(fields)) delete fields[k];
    }
    out.push(rewrite(item));
  }
  if (!children(out, "attr").length && inst.extraAttr) out.push(["attr", ...inst.extraAttr]);
  return out;
}
