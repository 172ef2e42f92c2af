/**
 * The bill of materials of a board, from its netlist: the parts on the board grouped by what is ordered (same MPN,
 * value and footprint), then the parts that are not on the board (key caps, the cell, screws, the case), each line
 * with its quantity, MPN, manufacturer and supplier fields. Written as CSV for ordering and for an assembly house.
 */
import { writeFileSync } from "node:fs";
import type { Profile } from "../profile.ts";
import { screwFor } from "../case/params.ts";
import { netlist, type Netlist, type OffBoardItem } from "./netlist.ts";
import { placement } from "./placement.ts";

export interface BomLine {
  refs: string[];
  qty: number;
  value: string;
  description: string;
  manufacturer: string;
  mpn: string;
  supplier: string;
  supplierPn: string;
  footprint: string;
  onBoard: boolean;
}

export const BOM_HEADER = ["Refs", "Qty", "Value", "Description", "Manufacturer", "MPN", "Supplier", "SupplierPN", "Footprint", "On board"];

/** Sorts R2 before R10. */
function byRef(a: string, b: string): number {
  const [, pa, na] = /^([A-Z_#]+)(\d*)$/i.exec(a) ?? [a, a, ""];
  const [, pb, nb] = /^([A-Z_#]+)(\d*)$/i.exec(b) ?? [b, b, ""];
  return pa === pb ? Number(na) - Number(nb) : pa < pb ? -1 : 1;
}

/** The screws that hold the board in the printed case: one per mounting hole (the case's choice of screw). */
export function caseHardware(p: Profile, n: Netlist = netlist(p)): OffBoardItem[] {
  const holes = placement(p, n).holes;
  if (!holes.length) return [];
  const screw = screwFor(holes[0].drill);
  const size = screw.name.split(" ")[0];
  return [
    {
      ref: "SCREW",
      qty: holes.length,
      value: `${screw.name} screw`,
      MPN: `ISO 7380 ${size}, A2 stainless`,
      Manufacturer: "any",
      Supplier: "any",
      SupplierPN: "",
      Description: `Through the case's bottom bosses and the board's ${holes[0].drill} mm holes, cutting its thread in the top's posts (length: hardware/case/README.md)`,
    },
  ];
}

export function bomLines(n: Netlist, extra: OffBoardItem[] = []): BomLine[] {
  const groups = new Map<string, BomLine>();
  for (const part of n.parts) {
    const key = [part.MPN, part.value, part.footprint].join("|");
    const line = groups.get(key);
    if (line) {
      line.refs.push(part.ref);
      line.qty++;
      // Parts of one kind in different roles: the line says what the part is, the schematic each one's role.
      if (line.description !== part.Description) line.description = part.Description.split(": ")[0];
    } else
      groups.set(key, {
        refs: [part.ref],
        qty: 1,
        value: part.value,
        description: part.Description,
        manufacturer: part.Manufacturer,
        mpn: part.MPN,
        supplier: part.Supplier,
        supplierPn: part.SupplierPN,
        footprint: part.footprint,
        onBoard: true,
      });
  }
  const board = [...groups.values()];
  for (const line of board) line.refs.sort(byRef);
  board.sort((a, b) => byRef(a.refs[0], b.refs[0]));
  const off = [...n.offBoard, ...extra].map((x): BomLine => ({
    refs: [x.ref],
    qty: x.qty,
    value: x.value,
    description: x.Description,
    manufacturer: x.Manufacturer,
    mpn: x.MPN,
    supplier: x.Supplier,
    supplierPn: x.SupplierPN,
    footprint: "",
    onBoard: false,
  }));
  return [...board, ...off];
}

function cell(v: string | number): string {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Refs as a maker reads them: runs of consecutive numbers as ranges (LED1-LED193). */
export function refRanges(refs: string[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < refs.length) {
    const m = /^(.*?)(\d+)$/.exec(refs[i]);
    let j = i;
    if (m)
      while (j + 1 < refs.length) {
        const next = /^(.*?)(\d+)$/.exec(refs[j + 1]);
        if (!next || next[1] !== m[1] || Number(next[2]) !== Number(m[2]) + (j + 1 - i)) break;
        j++;
      }
    out.push(j > i + 1 ? `${refs[i]}-${refs[j]}` : refs.slice(i, j + 1).join(" "));
    i = j + 1;
  }
  return out.join(" ");
}

export function bomCsv(n: Netlist, extra: OffBoardItem[] = []): string {
  const rows = bomLines(n, extra).map((l) =>
    [
      refRanges(l.refs),
      l.qty,
      l.value,
      l.description,
      l.manufacturer,
      l.mpn,
      l.supplier,
      l.supplierPn,
      l.footprint,
      l.onBoard ? "yes" : "no",
    ]
      .map(cell)
      .join(","),
  );
  return [BOM_HEADER.join(","), ...rows].join("\n") + "\n";
}

/** Writes the board's BOM as CSV to `file`. */
export function writeBom(p: Profile, file: string): void {
  const n = netlist(p);
  writeFileSync(file, bomCsv(n, caseHardware(p, n)));
}
