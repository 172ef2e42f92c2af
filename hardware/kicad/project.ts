/**
 * A board's KiCad project: the .kicad_pro with the design rules the DRC checks (the fab's limits, pcb.ts FAB, and
 * the net classes the router draws with), and the fp-lib-table that finds the repo's own footprint library.
 */
import { FAB, RULES } from "./pcb.ts";

/** The .kicad_pro of a board (JSON; KiCad fills in every setting not given with its default). */
export function projectFile(id: string): string {
  const netClass = (name: string, track: number) => ({
    name,
    bus_width: 12,
    clearance: RULES.clearance,
    diff_pair_gap: 0.25,
    diff_pair_via_gap: 0.25,
    diff_pair_width: 0.2,
    line_style: 0,
    microvia_diameter: 0.3,
    microvia_drill: 0.1,
    pcb_color: "rgba(0, 0, 0, 0.000)",
    priority: name === "Default" ? 2147483647 : 0,
    schematic_color: "rgba(0, 0, 0, 0.000)",
    track_width: track,
    via_diameter: RULES.via,
    via_drill: RULES.viaDrill,
    wire_width: 6,
  });
  const pro = {
    board: {
      design_settings: {
        defaults: {
          board_outline_line_width: 0.1,
          copper_line_width: 0.2,
          silk_line_width: 0.12,
          silk_text_size_h: 1,
          silk_text_size_v: 1,
          silk_text_thickness: 0.15,
        },
        rule_severities: {
          // Silkscreen crossing pads is clipped by the fab; a legend or outline over copper is cosmetic.
          silk_over_copper: "ignore",
          silk_overlap: "ignore",
        },
        rules: {
          min_clearance: FAB.minClearance,
          min_track_width: FAB.minTrack,
          min_via_diameter: FAB.minViaDiameter,
          min_via_annular_width: FAB.minAnnularRing,
          min_through_hole_diameter: FAB.minHole,
          min_hole_clearance: 0.25,
          min_hole_to_hole: FAB.holeToHole,
          min_copper_edge_clearance: FAB.copperToEdge,
          min_silk_clearance: 0,
          min_text_height: FAB.silkMinHeight,
          min_text_thickness: FAB.silkMinWidth,
          min_microvia_diameter: 0.2,
          min_microvia_drill: 0.1,
          min_resolved_spokes: 2,
        },
      },
    },
    net_settings: {
      classes: [netClass("Default", RULES.track), netClass("Power", RULES.powerTrack)],
      meta: { version: 4 },
      net_colors: null,
      netclass_assignments: null,
      netclass_patterns: ["+5V", "+5V_F", "VCELL"].map((pattern) => ({ netclass: "Power", pattern })),
    },
    meta: { filename: `${id}.kicad_pro`, version: 3 },
  };
  return JSON.stringify(pro, null, 2) + "\n";
}

/** The project's footprint library table: the repo's Brainboard.pretty beside the project folders. */
export function footprintTable(): string {
  return `(fp_lib_table\n\t(version 7)\n\t(lib (name "Brainboard") (type "KiCad") (uri "\${KIPRJMOD}/../Brainboard.pretty") (options "") (descr "Brainboard's own footprints (hardware/kicad/pcb-library.ts)"))\n)\n`;
}
