/**
 * The case's view of a board (board.ts) from the PCB's placement (hardware/kicad/placement.ts): the same
 * parts, turned into the case's frame (y up), with what the case chooses for them: each key's printed
 * cap, each LED's hole, the way out of each USB connector, and the cell under the board.
 */
import type { BoardPlacement, PlacedPart } from "../kicad/placement.ts";
import { type BoardPart, type Box2, type CaseBoard, type Point } from "./board.ts";
import { PRINT } from "./params.ts";

/**
 * The cell the netlist names (Adafruit 2011, LiPo 2000 mAh: 60 x 36 x 7 mm, a little more in its wrap),
 * lying under the code holes: only surface-mount LEDs are above it there, so no leads stick down at it.
 */
export const CELL = { w: 37, h: 62, height: 7.5 };
/** A 6 x 6 x 5 mm tactile switch's body; its plunger stands over it to the part's full height. */
const TACTILE_BODY = 3.5;
/** The bodies that must enter a USB opening from outside: a USB-A socket's (a cable's or a computer's) and a micro-USB plug's overmould. */
const USB_A_SOCKET: [number, number] = [18, 10];
const MICRO_USB_PLUG: [number, number] = [11, 7.5];
/** The largest LED hole, and the least web between two holes or a hole and a key's opening. */
const LED_HOLE = 4.5;
const WEB = 0.8;
/** The width of the channel the cell's lead takes round the board's edge (a JST-PH lead: two wires side by side). */
const LEAD_WAY = 6;

export function caseBoard(pl: BoardPlacement): CaseBoard {
  const H = pl.outline.height;
  const T = pl.outline.thickness;
  /** A box in the placement's frame (y down) to the case's (y up). */
  const flip = (x: number, y: number, w: number, h: number): Box2 => ({
    x0: x - w / 2,
    x1: x + w / 2,
    y0: H - y - h / 2,
    y1: H - y + h / 2,
  });
  const bodyBox = (p: PlacedPart) => flip(p.x, p.y, p.body.w, p.body.h);
  const other = (p: PlacedPart, box = bodyBox(p)): BoardPart => ({ ref: p.ref, role: "other", side: p.side, box, height: p.height });

  const parts: BoardPart[] = [];
  const cableWays: Box2[] = [];
  const keys = pl.keys.map((k): BoardPart => {
    const spacing = Math.min(...pl.keys.filter((o) => o !== k).map((o) => Math.max(Math.abs(o.x - k.x), Math.abs(o.y - k.y))));
    const capSize = Math.min(8, Math.floor(2 * (spacing - 2 * PRINT.capFlange - 2 * PRINT.fit)) / 2);
    return { ...other(k), role: "key", key: { capSize, bodyHeight: TACTILE_BODY, plunger: k.actuator } };
  });
  parts.push(...keys);

  const openingGap = (x: number, y: number) =>
    Math.min(
      ...keys.map((k) => {
        const a = k.key!.capSize / 2 + PRINT.keyGap;
        const [kx, ky] = [(k.box.x0 + k.box.x1) / 2, (k.box.y0 + k.box.y1) / 2];
        return Math.hypot(Math.max(Math.abs(x - kx) - a, 0), Math.max(Math.abs(y - ky) - a, 0));
      }),
    );
  for (const led of pl.leds) {
    const nearest = Math.min(...pl.leds.filter((o) => o !== led).map((o) => Math.hypot(o.x - led.x, o.y - led.y)));
    const d = Math.min(LED_HOLE, nearest - 2 * WEB, 2 * (openingGap(led.x, H - led.y) - WEB));
    parts.push({ ...other(led), role: "led", light: { d: Math.floor(d * 10) / 10, diffuse: true } });
  }

  // The Pico: its body inside the board's edge; its USB tongue out over it, with room for the socket it plugs into.
  const usb = pl.usb;
  for (const p of pl.parts) {
    if (p.ref === usb.ref) {
      const b = bodyBox(p);
      parts.push(other(p, { ...b, x1: Math.min(b.x1, pl.outline.width) }));
      const tongue = flip(usb.x + usb.overhang / 2, usb.y, usb.overhang, usb.width);
      parts.push({ ref: `${p.ref} USB`, role: "usb", side: "top", box: tongue, height: p.height, plug: USB_A_SOCKET });
    } else if (pl.powerSwitch && p.ref === pl.powerSwitch.ref) {
      const { direction, travel } = pl.powerSwitch;
      parts.push({ ...other(p), role: "switch", slide: { axis: direction, travel } });
    } else if (p.footprint.startsWith("Buzzer_Beeper:")) parts.push({ ...other(p), role: "buzzer" });
    else parts.push(other(p));
  }
  const charger = pl.chargerUsb;
  if (charger) {
    const module = pl.parts.find((p) => p.ref === charger.ref)!;
    const depth = 5;
    const box = flip(charger.x, charger.y - depth / 2, charger.width, depth);
    parts.push({
      ref: `${charger.ref} USB`,
      role: "usb",
      side: "top",
      box,
      height: module.height,
      base: module.height - charger.height,
      plug: MICRO_USB_PLUG,
    });
    const b = pl.regions.board;
    parts.push({ ref: "BT1", role: "cell", side: "bottom", box: flip(b.x + b.w / 2, b.y + b.h / 2, CELL.w, CELL.h), height: CELL.height });
    // The cell's lead comes up round the board's edge just beside the charger, on the edge its USB socket is on.
    const u3 = bodyBox(module);
    const edge = H - charger.y;
    cableWays.push({ x0: u3.x0 - LEAD_WAY - 1, x1: u3.x0 - 1, y0: edge, y1: edge });
  }

  const r = pl.outline.cornerRadius;
  const [W, Hh] = [pl.outline.width, pl.outline.height];
  const corner = (cx: number, cy: number, from: number): Point[] =>
    Array.from({ length: 9 }, (_, i) => {
      const a = ((from + (90 * i) / 8) * Math.PI) / 180;
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    });
  const outline = [...corner(W - r, r, 270), ...corner(W - r, Hh - r, 0), ...corner(r, Hh - r, 90), ...corner(r, r, 180)];
  const s = pl.shield;
  return {
    id: pl.profileId,
    outline,
    thickness: T,
    holes: pl.holes.map((h) => ({ x: h.x, y: H - h.y, d: h.drill, keepout: h.keepout })),
    parts,
    shield: flip(s.x + s.w / 2, s.y + s.h / 2, s.w, s.h),
    cableWays,
  };
}
