/**
 * Triangle meshes out of the kernel: binary STL bytes (deterministic: same solid, same bytes), read back,
 * and the checks a slicer relies on (every edge shared by exactly two triangles, in opposite directions,
 * no degenerate triangle).
 */
import type { Manifold } from "./manifold.ts";

export interface TriMesh {
  /** x, y, z per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  triangles: Uint32Array;
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export function meshOf(solid: Manifold): TriMesh {
  const mesh = solid.getMesh();
  const n = mesh.numProp;
  const positions = new Float32Array(mesh.numVert * 3);
  for (let v = 0; v < mesh.numVert; v++) for (let k = 0; k < 3; k++) positions[3 * v + k] = mesh.vertProperties[n * v + k];
  return { positions, triangles: Uint32Array.from(mesh.triVerts) };
}

const HEADER = 80;
const RECORD = 50;

/** Binary STL: an 80-byte header (the title, space-padded), the count, then normal + 3 corners per triangle. */
export function stlBytes(mesh: TriMesh, title: string): Uint8Array {
  const count = mesh.triangles.length / 3;
  const out = new Uint8Array(HEADER + 4 + RECORD * count);
  const view = new DataView(out.buffer);
  const head = new TextEncoder().encode(title.slice(0, HEADER));
  out.fill(0x20, 0, HEADER);
  out.set(head, 0);
  view.setUint32(HEADER, count, true);
  const p = mesh.positions;
  for (let t = 0; t < count; t++) {
    const [a, b, c] = [0, 1, 2].map((k) => 3 * mesh.triangles[3 * t + k]);
    const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
    const w = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
    const nx = u[1] * w[2] - u[2] * w[1];
    const ny = u[2] * w[0] - u[0] * w[2];
    const nz = u[0] * w[1] - u[1] * w[0];
    const len = Math.hypot(nx, ny, nz) || 1;
    const values = [nx / len, ny / len, nz / len, ...[a, b, c].flatMap((i) => [p[i], p[i + 1], p[i + 2]])];
    const o = HEADER + 4 + RECORD * t;
    values.forEach((v, k) => view.setFloat32(o + 4 * k, v, true));
    view.setUint16(o + 48, 0, true);
  }
  return out;
}

/**
 * Reads a binary STL back into an indexed mesh, welding corners with bit-identical coordinates (the
 * writer stores each shared vertex once, so equal positions are the same vertex).
 */
export function parseStl(bytes: Uint8Array): TriMesh {
  if (bytes.length < HEADER + 4) throw new Error(`not a binary STL: ${bytes.length} bytes, shorter than its header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(HEADER, true);
  if (bytes.length !== HEADER + 4 + RECORD * count)
    throw new Error(`not a binary STL: ${bytes.length} bytes for ${count} triangles (expected ${HEADER + 4 + RECORD * count})`);
  const index = new Map<string, number>();
  const positions: number[] = [];
  const triangles = new Uint32Array(3 * count);
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 3; k++) {
      const o = HEADER + 4 + RECORD * t + 12 + 12 * k;
      const xyz = [view.getFloat32(o, true), view.getFloat32(o + 4, true), view.getFloat32(o + 8, true)];
      const key = xyz.join(",");
      let i = index.get(key);
      if (i === undefined) {
        i = positions.length / 3;
        index.set(key, i);
        positions.push(...xyz);
      }
      triangles[3 * t + k] = i;
    }
  }
  return { positions: Float32Array.from(positions), triangles };
}

/**
 * What keeps a mesh from being a closed solid: edges not shared by exactly two triangles, edges that two
 * triangles run the same way (inconsistent orientation), and degenerate triangles. Empty when closed.
 */
export function closednessProblems(mesh: TriMesh, limit = 10): string[] {
  const problems: string[] = [];
  const directed = new Map<string, number>();
  const p = mesh.positions;
  const count = mesh.triangles.length / 3;
  for (let t = 0; t < count; t++) {
    const v = [mesh.triangles[3 * t], mesh.triangles[3 * t + 1], mesh.triangles[3 * t + 2]];
    const [a, b, c] = v.map((i) => [p[3 * i], p[3 * i + 1], p[3 * i + 2]]);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const area2 = Math.hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]);
    if (v[0] === v[1] || v[1] === v[2] || v[0] === v[2] || area2 === 0) problems.push(`triangle ${t} is degenerate`);
    for (let k = 0; k < 3; k++) {
      const key = `${v[k]}>${v[(k + 1) % 3]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of directed) {
    const [from, to] = key.split(">");
    const back = directed.get(`${to}>${from}`) ?? 0;
    if (n !== 1 || back !== 1) problems.push(`edge ${from}-${to}: ${n} triangle(s) one way, ${back} the other (expected 1 and 1)`);
  }
  return problems.slice(0, limit);
}

export function boundsOf(mesh: TriMesh): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < mesh.positions.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], mesh.positions[i + k]);
      max[k] = Math.max(max[k], mesh.positions[i + k]);
    }
  return { min, max };
}

/**
 * The area (mm²) of faces that look down at more than `angle` degrees from the vertical and are not on the
 * bed: what a printer must bridge or support. A 45° chamfer is not counted at the default 46°.
 */
export function overhangArea(mesh: TriMesh, angle = 46): number {
  const limit = -Math.sin((angle * Math.PI) / 180);
  const p = mesh.positions;
  let area = 0;
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => 3 * mesh.triangles[t + k]);
    if (Math.min(p[a + 2], p[b + 2], p[c + 2]) < 1e-3) continue;
    const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
    const w = [p[c] - p[a], p[c + 1] - p[a + 1], p[c + 2] - p[a + 2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len > 0 && n[2] / len < limit) area += len / 2;
  }
  return area;
}
