/**
 * Routes a board's nets on its two outer copper layers by a grid search (Lee/A*): every connection is a path of
 * grid cells, straight steps on F.Cu or B.Cu and vias between them. A cell next to another net's copper is closed to
 * a track by the clearance plus half the track's width, so a path found is a track KiCad's DRC accepts. Inner layers
 * are the power planes (filled zones), reached by vias. Deterministic: the same input gives the same tracks.
 */
import type { PadShape } from "./pcb-footprints.ts";

export interface Rules {
  /** Grid step, mm. */
  pitch: number;
  clearance: number;
  track: number;
  powerTrack: number;
  via: number;
  viaDrill: number;
  /** Copper to board edge, mm. */
  edge: number;
}

export interface Track {
  layer: 0 | 1;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  net: string;
}
export interface Via {
  x: number;
  y: number;
  net: string;
}

const MARGIN = 0.03;
const VIA_COST = 8;

export class Router {
  readonly nx: number;
  readonly ny: number;
  /** Per layer, per cell: 0 free, >0 open only to that net, -1 closed. */
  private owner: [Int32Array, Int32Array];
  private netIds = new Map<string, number>();
  readonly tracks: Track[] = [];
  readonly vias: Via[] = [];
  readonly failed: string[] = [];
  private stamp: Int32Array;
  private cost: Int32Array;
  private from: Int32Array;
  private gen = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly cornerRadius: number,
    readonly rules: Rules,
  ) {
    this.nx = Math.floor(width / rules.pitch) + 1;
    this.ny = Math.floor(height / rules.pitch) + 1;
    const n = this.nx * this.ny;
    this.owner = [new Int32Array(n), new Int32Array(n)];
    this.stamp = new Int32Array(2 * n);
    this.cost = new Int32Array(2 * n);
    this.from = new Int32Array(2 * n);
    this.closeEdges();
  }

  netId(net: string): number {
    let id = this.netIds.get(net);
    if (id === undefined) this.netIds.set(net, (id = this.netIds.size + 1));
    return id;
  }

  private cx(i: number): number {
    return i * this.rules.pitch;
  }

  private closeEdges(): void {
    const e = this.rules.edge + this.rules.track / 2 + MARGIN;
    const r = this.cornerRadius;
    for (let j = 0; j < this.ny; j++)
      for (let i = 0; i < this.nx; i++) {
        const x = this.cx(i);
        const y = this.cx(j);
        // Distance inside the rounded outline.
        const qx = Math.max(r - x, x - (this.width - r), 0);
        const qy = Math.max(r - y, y - (this.height - r), 0);
        const inside = qx > 0 && qy > 0 ? r - Math.hypot(qx, qy) : Math.min(x, y, this.width - x, this.height - y);
        if (inside < e) this.owner[0][j * this.nx + i] = this.owner[1][j * this.nx + i] = -1;
      }
  }

  /** Marks copper of `net` (0: no net, closed to all) within `reach` of a box or a segment, on the given layers. */
  private mark(
    layers: (0 | 1)[],
    net: number,
    reach: number,
    dist: (x: number, y: number) => number,
    box: [number, number, number, number],
  ): void {
    const p = this.rules.pitch;
    const i0 = Math.max(0, Math.floor((box[0] - reach) / p));
    const i1 = Math.min(this.nx - 1, Math.ceil((box[2] + reach) / p));
    const j0 = Math.max(0, Math.floor((box[1] - reach) / p));
    const j1 = Math.min(this.ny - 1, Math.ceil((box[3] + reach) / p));
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) {
        if (dist(this.cx(i), this.cx(j)) >= reach) continue;
        const c = j * this.nx + i;
        for (const l of layers) {
          const o = this.owner[l][c];
          if (net <= 0) this.owner[l][c] = -1;
          else if (o === 0) this.owner[l][c] = net;
          else if (o !== net) this.owner[l][c] = -1;
        }
      }
  }

  private reach(halfWidth: number): number {
    return halfWidth + this.rules.clearance + this.rules.track / 2 + MARGIN;
  }

  /** A pad's copper: open to its net, closed to the others by the clearance. */
  addPad(pad: PadShape, net: string | null): void {
    const id = net ? this.netId(net) : 0;
    const layers = [...(pad.front ? [0] : []), ...(pad.back ? [1] : [])] as (0 | 1)[];
    const hw = pad.w / 2;
    const hh = pad.h / 2;
    const d = (x: number, y: number) => Math.hypot(Math.max(Math.abs(x - pad.x) - hw, 0), Math.max(Math.abs(y - pad.y) - hh, 0));
    const box: [number, number, number, number] = [pad.x - hw, pad.y - hh, pad.x + hw, pad.y + hh];
    this.mark(layers, id, this.reach(0), d, box);
    // A plated hole's barrel also crosses the other outer layer; an unplated hole is kept clear on both.
    if (pad.drill > 0) {
      const r = pad.drill / 2;
      const dh = (x: number, y: number) => Math.max(Math.hypot(x - pad.x, y - pad.y) - r, 0);
      this.mark([0, 1], pad.plated ? id : 0, this.reach(0) + (pad.plated ? 0 : 0.1), dh, [pad.x - r, pad.y - r, pad.x + r, pad.y + r]);
    }
  }

  /** A hole with no copper (a mounting hole), kept clear on both layers. */
  addHole(x: number, y: number, diameter: number): void {
    const r = diameter / 2;
    this.mark([0, 1], 0, this.reach(0) + 0.1, (px, py) => Math.max(Math.hypot(px - x, py - y) - r, 0), [x - r, y - r, x + r, y + r]);
  }

  private addSegment(t: Track): void {
    const id = this.netId(t.net);
    const d = (x: number, y: number) => segDist(x, y, t.x1, t.y1, t.x2, t.y2);
    const box: [number, number, number, number] = [Math.min(t.x1, t.x2), Math.min(t.y1, t.y2), Math.max(t.x1, t.x2), Math.max(t.y1, t.y2)];
    this.mark([t.layer], id, this.reach(t.width / 2), (x, y) => Math.max(d(x, y), 0), box);
    this.tracks.push(t);
  }

  private addVia(v: Via): void {
    const id = this.netId(v.net);
    const r = this.rules.via / 2;
    this.mark([0, 1], id, this.reach(r), (x, y) => Math.max(Math.hypot(x - v.x, y - v.y) - r, 0), [v.x - r, v.y - r, v.x + r, v.y + r]);
    this.vias.push(v);
  }

  private open(l: number, c: number, id: number): boolean {
    const o = this.owner[l][c];
    return o === 0 || o === id;
  }

  /** A cell and its 8 neighbours open on both layers: a via fits (and a wide track passes) here. */
  private roomy(c: number, id: number, layers: number[]): boolean {
    const i = c % this.nx;
    const j = (c - i) / this.nx;
    if (i < 1 || j < 1 || i >= this.nx - 1 || j >= this.ny - 1) return false;
    for (const l of layers)
      for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) if (!this.open(l, c + dj * this.nx + di, id)) return false;
    return true;
  }

  /** The cells inside a pad, on its layers: where a track may end on it. */
  padCells(pad: PadShape): number[] {
    const out: number[] = [];
    const p = this.rules.pitch;
    const hw = pad.w / 2 - 0.05;
    const hh = pad.h / 2 - 0.05;
    for (let j = Math.ceil((pad.y - hh) / p); j <= Math.floor((pad.y + hh) / p); j++)
      for (let i = Math.ceil((pad.x - hw) / p); i <= Math.floor((pad.x + hw) / p); i++) {
        if (pad.round) {
          // A circle or an oval: within its middle segment's reach, not just its bounding box.
          const r = Math.min(pad.w, pad.h) / 2 - 0.05;
          const ex = Math.max(0, pad.w / 2 - pad.h / 2);
          const ey = Math.max(0, pad.h / 2 - pad.w / 2);
          if (segDist(i * p, j * p, pad.x - ex, pad.y - ey, pad.x + ex, pad.y + ey) > r) continue;
        }
        const c = j * this.nx + i;
        if (pad.front) out.push(c);
        if (pad.back) out.push(this.nx * this.ny + c);
      }
    return out;
  }

  /**
   * Connects a plane net's surface-mount pad to the plane: a short track on F.Cu to the nearest place a via fits,
   * at least `away` mm from the pad's centre (never in the pad).
   */
  fanOut(pad: PadShape, net: string, away: number): boolean {
    const id = this.netId(net);
    const n = this.nx * this.ny;
    const starts = this.padCells(pad).filter((s) => s < n);
    const hit = this.search(
      starts,
      id,
      (c) => {
        if (c >= n) return false;
        const x = this.cx(c % this.nx);
        const y = this.cx(Math.floor(c / this.nx));
        const clear = Math.abs(x - pad.x) >= pad.w / 2 + away || Math.abs(y - pad.y) >= pad.h / 2 + away;
        return clear && this.roomy(c, id, [0, 1]);
      },
      false,
      12,
    );
    if (hit < 0) return false;
    this.commit(hit, net, this.rules.track, true);
    return true;
  }

  /** Routes a net through its pads; returns false (and records the net) if a pad could not be reached. */
  route(net: string, pads: PadShape[], width: number): boolean {
    const id = this.netId(net);
    if (pads.length < 2) return true;
    const tree = new Set<number>(this.padCells(pads[0]));
    const left = pads.slice(1);
    let ok = true;
    while (left.length) {
      // The pad nearest the tree's first pad goes next (a chain of short hops for a row of keys).
      left.sort((a, b) => Math.hypot(a.x - pads[0].x, a.y - pads[0].y) - Math.hypot(b.x - pads[0].x, b.y - pads[0].y));
      const target = left.shift()!;
      const goal = new Set(this.padCells(target));
      const hx = Math.round(target.x / this.rules.pitch);
      const hy = Math.round(target.y / this.rules.pitch);
      const hit = this.search([...tree], id, (c) => goal.has(c), width > this.rules.track, 0, [hx, hy]);
      if (hit < 0) {
        ok = false;
        continue;
      }
      for (const c of this.commit(hit, net, width, false)) tree.add(c);
      for (const c of goal) tree.add(c);
    }
    if (!ok) this.failed.push(net);
    return ok;
  }

  /**
   * A* from the start states until `done` holds; returns the state reached (-1: none). States are layer * n + cell.
   * `wide`: the path keeps a cell's 8 neighbours open (a power track). `limit`: the most cells from the start (0: no limit).
   */
  private search(
    starts: number[],
    id: number,
    done: (s: number) => boolean,
    wide: boolean,
    limit: number,
    toward?: [number, number],
  ): number {
    const n = this.nx * this.ny;
    const gen = ++this.gen;
    const buckets: number[][] = [];
    const h = (s: number) => {
      if (!toward) return 0;
      const c = s % n;
      return Math.abs((c % this.nx) - toward[0]) + Math.abs(Math.floor(c / this.nx) - toward[1]);
    };
    const push = (s: number, g: number, f: number) => {
      this.stamp[s] = gen;
      this.cost[s] = g;
      (buckets[f] ??= []).push(s);
    };
    for (const s of starts) {
      if (this.stamp[s] === gen) continue;
      this.from[s] = -1;
      push(s, 0, h(s));
    }
    const steps = [1, -1, this.nx, -this.nx];
    for (let f = 0; f < buckets.length; f++) {
      const b = buckets[f];
      if (!b) continue;
      for (let k = 0; k < b.length; k++) {
        const s = b[k];
        const g = this.cost[s];
        if (g + h(s) !== f) continue; // a stale entry
        if (done(s)) return s;
        if (limit && g >= limit) continue;
        const l = s >= n ? 1 : 0;
        const c = s - l * n;
        const i = c % this.nx;
        for (let d = 0; d < 4; d++) {
          if ((d === 0 && i === this.nx - 1) || (d === 1 && i === 0)) continue;
          const nc = c + steps[d];
          if (nc < 0 || nc >= n) continue;
          if (!this.open(l, nc, id) || (wide && !this.roomy(nc, id, [l]))) continue;
          const ns = l * n + nc;
          const ng = g + 1;
          if (this.stamp[ns] === gen && this.cost[ns] <= ng) continue;
          this.from[ns] = s;
          push(ns, ng, ng + h(ns));
        }
        // A via to the other layer.
        const os = (1 - l) * n + c;
        const vg = g + VIA_COST;
        if (this.roomy(c, id, [0, 1]) && !(this.stamp[os] === gen && this.cost[os] <= vg)) {
          this.from[os] = s;
          push(os, vg, vg + h(os));
        }
      }
      buckets[f] = [];
    }
    return -1;
  }

  /** Lays the path that ends at `end` as tracks and vias; returns its states. */
  private commit(end: number, net: string, width: number, viaAtEnd: boolean): number[] {
    const n = this.nx * this.ny;
    const path: number[] = [];
    for (let s = end; s >= 0; s = this.from[s]) path.push(s);
    path.reverse();
    const xy = (s: number): [number, number] => [this.cx((s % n) % this.nx), this.cx(Math.floor((s % n) / this.nx))];
    let start = 0;
    for (let k = 1; k <= path.length; k++) {
      const layerChange = k < path.length && path[k] >= n !== path[k - 1] >= n;
      const turn = k < path.length && k - start >= 2 && !layerChange && path[k] - path[k - 1] !== path[k - 1] - path[k - 2];
      if (k === path.length || layerChange || turn) {
        const a = xy(path[start]);
        const b = xy(path[k - 1]);
        if (k - 1 > start) this.addSegment({ layer: path[start] >= n ? 1 : 0, x1: a[0], y1: a[1], x2: b[0], y2: b[1], width, net });
        if (layerChange) {
          this.addVia({ x: b[0], y: b[1], net });
          start = k;
        } else start = k - 1;
        if (turn) start = k - 1;
      }
    }
    if (viaAtEnd) {
      const e = xy(end);
      this.addVia({ x: e[0], y: e[1], net });
    }
    return path;
  }
}

function segDist(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len)) : 0;
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}
