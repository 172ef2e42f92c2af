/**
 * Writes a board's .kicad_pcb (KiCad 9, format 20241229) from its netlist and its placement: the footprints with
 * their pads' nets, every signal net routed on F.Cu and B.Cu (router.ts), GND and the LED rail as planes on the two
 * inner layers (zones; KiCad fills them, main.ts), the mounting holes, the outline, and the keys' legends on the
 * silkscreen from the overlay's screen tables (the codebreaker games' words, as on the printed overlay).
 */
import type { Profile } from "../profile.ts";
import { codebreakerLegends } from "../key-legends.ts";
import { NET, type Netlist } from "./netlist.ts";
import { BODIES, type BoardPlacement, type PlacedPart } from "./placement.ts";
import { instanceNode, padShapes, toBoard, uuidOf, type PadShape, type Placed } from "./pcb-footprints.ts";
import { Router, type Rules } from "./router.ts";
import { num, q, serialize, type SExpr } from "./sexpr.ts";

/**
 * The board is drawn for JLCPCB's standard 4-layer process (1.6 mm, 1 oz outer copper, as listed at
 * jlcpcb.com/capabilities): track and space 0.127 mm (5 mil; the 4-layer process goes finer, at a price), vias 0.3 mm
 * drill / 0.45 mm pad without surcharge, holes 0.3 mm at the least and 0.5 mm apart, copper 0.3 mm from the edge,
 * silkscreen text 1 mm high with 0.15 mm strokes. The design keeps well inside: 0.25 mm tracks (0.5 mm for power),
 * 0.2 mm clearance, 0.6 / 0.3 mm vias, 0.5 mm from the edge.
 */
export const RULES: Rules = { pitch: 0.25, clearance: 0.2, track: 0.25, powerTrack: 0.5, via: 0.6, viaDrill: 0.3, edge: 0.5 };

/** The fab's limits, for the design rules the DRC checks against (project.ts). */
export const FAB = {
  name: "JLCPCB, 4-layer, 1.6 mm, 1 oz outer",
  minTrack: 0.127,
  minClearance: 0.127,
  minViaDiameter: 0.45,
  minViaDrill: 0.3,
  minHole: 0.3,
  minAnnularRing: 0.13,
  holeToHole: 0.5,
  copperToEdge: 0.3,
  silkMinWidth: 0.15,
  silkMinHeight: 1,
};

export interface BoardNets {
  /** The net of a part's pad, as the schematic names it; null: no net. */
  netOf(ref: string, pad: string): string | null;
  /** Every net name, sorted. */
  names: string[];
}

/** The nets as netlist.ts names them (the schematic's own names, from KiCad's netlist export, override them: main.ts). */
export function netlistNets(n: Netlist): BoardNets {
  const byPad = new Map<string, string | null>();
  for (const part of n.parts) for (const [pin, net] of Object.entries(part.pins)) byPad.set(`${part.ref}/${pin}`, net);
  const names = [...new Set([...byPad.values()].filter((x): x is string => !!x))].sort();
  return { netOf: (ref, pad) => byPad.get(`${ref}/${pad}`) ?? null, names };
}

/** The footprint's origin for a part placed by its body's centre. */
export function originOf(part: PlacedPart): Placed {
  const body = BODIES[part.footprint];
  const [cx, cy] = body ? body.centre : [0, 0];
  // The centre is at toBoard(origin, cx, cy): undo the rotated offset.
  const probe = toBoard({ ref: part.ref, footprint: part.footprint, x: 0, y: 0, rotation: part.rotation }, cx, cy);
  return { ref: part.ref, footprint: part.footprint, x: round(part.x - probe[0]), y: round(part.y - probe[1]), rotation: part.rotation };
}

function round(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}

const LAYERS: SExpr = [
  "layers",
  ["0", q("F.Cu"), "signal"],
  ["4", q("In1.Cu"), "power"],
  ["6", q("In2.Cu"), "power"],
  ["2", q("B.Cu"), "signal"],
  ["9", q("F.Adhes"), "user", q("F.Adhesive")],
  ["11", q("B.Adhes"), "user", q("B.Adhesive")],
  ["13", q("F.Paste"), "user"],
  ["15", q("B.Paste"), "user"],
  ["5", q("F.SilkS"), "user", q("F.Silkscreen")],
  ["7", q("B.SilkS"), "user", q("B.Silkscreen")],
  ["1", q("F.Mask"), "user"],
  ["3", q("B.Mask"), "user"],
  ["17", q("Dwgs.User"), "user", q("User.Drawings")],
  ["19", q("Cmts.User"), "user", q("User.Comments")],
  ["25", q("Edge.Cuts"), "user"],
  ["27", q("Margin"), "user"],
  ["31", q("F.CrtYd"), "user", q("F.Courtyard")],
  ["29", q("B.CrtYd"), "user", q("B.Courtyard")],
  ["35", q("F.Fab"), "user"],
  ["33", q("B.Fab"), "user"],
];

const COPPER = ["F.Cu", "B.Cu"];

export interface PcbResult {
  text: string;
  /** Nets the router could not complete (empty when every net is routed). */
  unrouted: string[];
  tracks: number;
  vias: number;
}

/** The board file of a profile. */
export function writePcb(p: Profile, net: Netlist, pl: BoardPlacement, nets: BoardNets = netlistNets(net)): PcbResult {
  const parts = new Map(net.parts.map((x) => [x.ref, x]));
  const netIndex = new Map<string, number>(nets.names.map((n, i) => [n, i + 1]));
  const idOf = (name: string | null): [number, string] | null => (name ? [netIndex.get(name)!, name] : null);
  const placedAll: PlacedPart[] = [...pl.leds, ...pl.keys, ...pl.parts];
  const origins = placedAll.map(originOf);

  // Planes: GND on In1.Cu, the LED rail on In2.Cu; named as the schematic names the nets on U1's GND and LED1's VDD.
  const gnd = nets.netOf("U1", "GND") ?? NET.gnd;
  const ledVdd = net.parts.find((x) => x.ref === "LED1")!;
  const vddPin = Object.keys(ledVdd.pins).find((k) => ledVdd.pins[k] === NET.ledRail || ledVdd.pins[k] === NET.fused)!;
  const ledRail = nets.netOf("LED1", vddPin)!;
  const planes = new Set([gnd, ledRail]);
  const wide = new Set<string>([NET.rail, NET.fused, NET.cell]);

  // Nets that failed go first on the next try (a rip-up of everything, in a new order); three tries at most.
  let first: string[] = [];
  let routed = routeBoard(pl, origins, nets, planes, wide, first);
  for (let attempt = 0; attempt < 3 && routed.router.failed.length; attempt++) {
    first = [...new Set([...routed.router.failed, ...first])];
    routed = routeBoard(pl, origins, nets, planes, wide, first);
  }
  const { router, unrouted } = routed;

  const items: SExpr[] = [];
  // Footprints.
  origins.forEach((o) => {
    const part = parts.get(o.ref)!;
    items.push(
      instanceNode({
        ...o,
        value: part.value,
        netOf: (pad) => idOf(nets.netOf(o.ref, pad)),
        // The many small parts' references would bury the legends: they stay on the fab layer's drawing only.
        hideReference: /^(LED|C|D|R|SW)\d/.test(o.ref),
        fields: { MPN: part.MPN, Manufacturer: part.Manufacturer },
      }),
    );
  });
  pl.holes.forEach((h, i) =>
    items.push(
      instanceNode({
        ref: `H${i + 1}`,
        footprint: "MountingHole:MountingHole_3.2mm_M3",
        x: h.x,
        y: h.y,
        rotation: 0,
        value: "M3",
        netOf: () => null,
        extraAttr: ["board_only", "exclude_from_pos_files", "exclude_from_bom"],
        hideReference: true,
      }),
    ),
  );
  // Tracks and vias.
  router.tracks.forEach((t, i) =>
    items.push([
      "segment",
      ["start", num(t.x1), num(t.y1)],
      ["end", num(t.x2), num(t.y2)],
      ["width", num(t.width)],
      ["layer", q(COPPER[t.layer])],
      ["net", String(netIndex.get(t.net))],
      ["uuid", q(uuidOf(`track/${i}`))],
    ]),
  );
  router.vias.forEach((v, i) =>
    items.push([
      "via",
      ["at", num(v.x), num(v.y)],
      ["size", num(RULES.via)],
      ["drill", num(RULES.viaDrill)],
      ["layers", q("F.Cu"), q("B.Cu")],
      ["net", String(netIndex.get(v.net))],
      ["uuid", q(uuidOf(`via/${i}`))],
    ]),
  );
  // The planes.
  const inset = 0.5;
  const { width: W, height: H } = pl.outline;
  [
    [gnd, "In1.Cu"],
    [ledRail, "In2.Cu"],
  ].forEach(([n, layer]) =>
    items.push([
      "zone",
      ["net", String(netIndex.get(n))],
      ["net_name", q(n)],
      ["layer", q(layer)],
      ["uuid", q(uuidOf(`zone/${layer}`))],
      ["hatch", "edge", "0.5"],
      ["connect_pads", "yes", ["clearance", "0.3"]],
      ["min_thickness", "0.25"],
      ["filled_areas_thickness", "no"],
      ["fill", "yes", ["thermal_gap", "0.5"], ["thermal_bridge_width", "0.5"], ["island_removal_mode", "1"]],
      [
        "polygon",
        [
          "pts",
          ...[
            [inset, inset],
            [W - inset, inset],
            [W - inset, H - inset],
            [inset, H - inset],
          ].map(([x, y]) => ["xy", num(x), num(y)]),
        ],
      ],
    ]),
  );
  items.push(...outline(W, H, pl.outline.cornerRadius), ...legends(p, pl));

  const board: SExpr[] = [
    "kicad_pcb",
    ["version", "20241229"],
    ["generator", q("brainboard")],
    ["generator_version", q("9.0")],
    ["general", ["thickness", num(pl.outline.thickness)], ["legacy_teardrops", "no"]],
    ["paper", q("A3")],
    [
      "title_block",
      ["title", q(p.name)],
      ["comment", "1", q(`Generated from hardware/profiles/${p.id}.json by npm run pcb; fab: ${FAB.name}`)],
    ],
    LAYERS,
    ["setup", ["pad_to_mask_clearance", "0"], ["allow_soldermask_bridges_in_footprints", "no"], ["tenting", "front", "back"]],
    ["net", "0", q("")],
    ...nets.names.map((n, i) => ["net", String(i + 1), q(n)]),
    ...items,
    ["embedded_fonts", "no"],
  ];
  return { text: serialize(board) + "\n", unrouted, tracks: router.tracks.length, vias: router.vias.length };
}

/** Every pad on the router, the planes' surface-mount pads fanned out to vias, then the signals, `first` first. */
function routeBoard(pl: BoardPlacement, origins: Placed[], nets: BoardNets, planes: Set<string>, wide: Set<string>, first: string[]) {
  const router = new Router(pl.outline.width, pl.outline.height, pl.outline.cornerRadius, RULES);
  const padsByNet = new Map<string, PadShape[]>();
  for (const o of origins)
    for (const pad of padShapes(o)) {
      const n = pad.number ? nets.netOf(o.ref, pad.number) : null;
      router.addPad(pad, n);
      if (n) (padsByNet.get(n) ?? padsByNet.set(n, []).get(n)!).push(pad);
    }
  for (const h of pl.holes) router.addHole(h.x, h.y, h.drill);
  const unrouted: string[] = [];
  for (const plane of [...planes].sort())
    for (const pad of padsByNet.get(plane) ?? [])
      if (!pad.drill && !router.fanOut(pad, plane, 0.55)) unrouted.push(`${plane} at ${pad.ref}.${pad.number}`);
  const span = (n: string) => {
    const ps = padsByNet.get(n)!;
    const xs = ps.map((x) => x.x);
    const ys = ps.map((x) => x.y);
    return Math.max(...xs) - Math.min(...xs) + Math.max(...ys) - Math.min(...ys);
  };
  const rank = (n: string) => (first.includes(n) ? first.indexOf(n) - first.length : 0);
  const signals = [...padsByNet.keys()]
    .filter((n) => !planes.has(n))
    .sort((a, b) => rank(a) - rank(b) || span(a) - span(b) || (a < b ? -1 : 1));
  for (const n of signals) router.route(n, padsByNet.get(n)!, wide.has(n) ? RULES.powerTrack : RULES.track);
  unrouted.push(...router.failed);
  return { router, unrouted };
}

function edge(kind: "gr_line" | "gr_arc", pts: [string, number, number][], id: string): SExpr[] {
  return [
    kind,
    ...pts.map(([k, x, y]) => [k, num(x), num(y)]),
    ["stroke", ["width", "0.1"], ["type", "default"]],
    ["layer", q("Edge.Cuts")],
    ["uuid", q(uuidOf(id))],
  ];
}

function outline(W: number, H: number, r: number): SExpr[] {
  const m = r * (1 - Math.SQRT1_2);
  return [
    edge(
      "gr_line",
      [
        ["start", r, 0],
        ["end", W - r, 0],
      ],
      "edge/top",
    ),
    edge(
      "gr_line",
      [
        ["start", W, r],
        ["end", W, H - r],
      ],
      "edge/right",
    ),
    edge(
      "gr_line",
      [
        ["start", W - r, H],
        ["end", r, H],
      ],
      "edge/bottom",
    ),
    edge(
      "gr_line",
      [
        ["start", 0, H - r],
        ["end", 0, r],
      ],
      "edge/left",
    ),
    edge(
      "gr_arc",
      [
        ["start", 0, r],
        ["mid", m, m],
        ["end", r, 0],
      ],
      "edge/tl",
    ),
    edge(
      "gr_arc",
      [
        ["start", W - r, 0],
        ["mid", W - m, m],
        ["end", W, r],
      ],
      "edge/tr",
    ),
    edge(
      "gr_arc",
      [
        ["start", W, H - r],
        ["mid", W - m, H - m],
        ["end", W - r, H],
      ],
      "edge/br",
    ),
    edge(
      "gr_arc",
      [
        ["start", r, H],
        ["mid", m, H - m],
        ["end", 0, H - r],
      ],
      "edge/bl",
    ),
  ];
}

function silk(s: string, x: number, y: number, size: number, id: string): SExpr[] {
  return [
    "gr_text",
    q(s),
    ["at", num(x), num(y), "0"],
    ["layer", q("F.SilkS")],
    ["uuid", q(uuidOf(`silk/${id}`))],
    ["effects", ["font", ["size", num(size), num(size)], ["thickness", num(Math.max(0.15, size * 0.15))]]],
  ];
}

/** The keys' legends (the codebreaker games' words, as on the printed overlay), row numbers and labels. */
function legends(p: Profile, pl: BoardPlacement): SExpr[] {
  const words = codebreakerLegends(p);
  const out: SExpr[] = [];
  for (const k of pl.keys) {
    const gi = p.keymap.grid.indexOf(k.id);
    const label = gi >= 0 ? words.pad[gi].label : (words.maker[k.id]?.label ?? "");
    if (label) out.push(silk(label.length > 13 ? label.slice(0, 13) : label, k.x, k.y + 4.6, 1, `key/${k.id}`));
  }
  // Row numbers between a row's code holes and its key pegs.
  const board = pl.leds.filter((l) => l.segment === "board");
  const pegs = pl.leds.filter((l) => l.segment === "keys");
  for (let r = 0; r < p.rows; r++) {
    const last = board[r * p.pegs + p.pegs - 1];
    const peg = pegs[r * p.pegs];
    if (last && peg) out.push(silk(String(r + 1), (last.x + peg.x) / 2, last.y, 1, `row/${r + 1}`));
  }
  const secret = pl.leds.find((l) => l.segment === "secret");
  if (secret) out.push(silk("SECRET", secret.x + 3, secret.y - 3, 1, "secret"));
  out.push(silk("BRAINBOARD", 120, 127.6, 1.5, "brand"), silk(p.id, 165, 127.6, 1, "model"));
  return out;
}
