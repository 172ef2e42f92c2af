/**
 * A picture of a board's case for the README: the assembled case seen from above at an angle, the shield
 * lifted off, the LEDs' diffusers marked, drawn by a small z-buffer rasteriser (flat shading, one light) into a PNG.
 *
 *   npx tsx hardware/case/preview.ts [profile-id]    writes hardware/case/<profile-id>/preview.png
 *
 * Not part of `npm run pcb` or its check: a PNG's compressed bytes may differ between zlib builds.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { loadKernel } from "./manifold.ts";
import { meshOf, type TriMesh } from "./mesh.ts";
import { buildCase } from "./shells.ts";
import { caseBoard } from "./from-placement.ts";
import { placement } from "../kicad/placement.ts";
import { loadProfile } from "../profile.ts";
import { CASE_DIR } from "./write.ts";

type Rgb = [number, number, number];

const COLOURS: Record<string, Rgb> = {
  top: [236, 232, 222],
  bottom: [120, 130, 150],
  shield: [60, 60, 66],
  cap: [200, 205, 215],
  led: [255, 170, 60],
};

/** Renders the meshes (each with its colour) seen from azimuth az and elevation el, degrees, into RGB pixels. */
export function render(meshes: { mesh: TriMesh; colour: Rgb }[], width: number, height: number, az: number, el: number): Uint8Array {
  const [a, e] = [(az * Math.PI) / 180, (el * Math.PI) / 180];
  const view = (x: number, y: number, z: number): [number, number, number] => {
    const [x1, y1] = [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a)];
    return [x1, y1 * Math.sin(e) + z * Math.cos(e), -y1 * Math.cos(e) + z * Math.sin(e)];
  };
  const viewed = meshes.map(({ mesh }) =>
    Array.from({ length: mesh.positions.length / 3 }, (_, i) => view(...([0, 1, 2].map((k) => mesh.positions[3 * i + k]) as Rgb))),
  );
  const all = viewed.flat();
  const [minX, maxX] = [Math.min(...all.map((v) => v[0])), Math.max(...all.map((v) => v[0]))];
  const [minY, maxY] = [Math.min(...all.map((v) => v[1])), Math.max(...all.map((v) => v[1]))];
  const scale = Math.min((width - 40) / (maxX - minX), (height - 40) / (maxY - minY));
  const ox = (width - (maxX - minX) * scale) / 2;
  const oy = (height - (maxY - minY) * scale) / 2;
  const depth = new Float64Array(width * height).fill(-Infinity);
  const pixels = new Uint8Array(width * height * 3).fill(255);
  const light = [-0.35, 0.45, 0.82];
  meshes.forEach(({ mesh, colour }, m) => {
    const v = viewed[m];
    const screen = v.map(([x, y, z]) => [ox + (x - minX) * scale, height - oy - (y - minY) * scale, z]);
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      const [i, j, k] = [mesh.triangles[t], mesh.triangles[t + 1], mesh.triangles[t + 2]];
      const u = [0, 1, 2].map((c) => v[j][c] - v[i][c]);
      const w = [0, 1, 2].map((c) => v[k][c] - v[i][c]);
      const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
      const len = Math.hypot(n[0], n[1], n[2]) || 1;
      const shade = 0.45 + 0.55 * Math.max(0, (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]) / len);
      const rgb = colour.map((c) => Math.round(c * shade));
      const [A, B, C] = [screen[i], screen[j], screen[k]];
      const d = (B[1] - C[1]) * (A[0] - C[0]) + (C[0] - B[0]) * (A[1] - C[1]);
      if (Math.abs(d) < 1e-9) continue;
      const x0 = Math.max(0, Math.floor(Math.min(A[0], B[0], C[0])));
      const x1 = Math.min(width - 1, Math.ceil(Math.max(A[0], B[0], C[0])));
      const y0 = Math.max(0, Math.floor(Math.min(A[1], B[1], C[1])));
      const y1 = Math.min(height - 1, Math.ceil(Math.max(A[1], B[1], C[1])));
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const l1 = ((B[1] - C[1]) * (x - C[0]) + (C[0] - B[0]) * (y - C[1])) / d;
          const l2 = ((C[1] - A[1]) * (x - C[0]) + (A[0] - C[0]) * (y - C[1])) / d;
          const l3 = 1 - l1 - l2;
          if (l1 < -1e-6 || l2 < -1e-6 || l3 < -1e-6) continue;
          const z = l1 * A[2] + l2 * B[2] + l3 * C[2];
          if (z <= depth[y * width + x]) continue;
          depth[y * width + x] = z;
          pixels.set(rgb, 3 * (y * width + x));
        }
    }
  });
  return pixels;
}

/** RGB pixels as a PNG file (8-bit truecolour, one zlib stream). */
export function png(pixels: Uint8Array, width: number, height: number): Buffer {
  const rows = Buffer.alloc((3 * width + 1) * height);
  for (let y = 0; y < height; y++) rows.set(pixels.subarray(3 * width * y, 3 * width * (y + 1)), (3 * width + 1) * y + 1);
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = table[(c ^ x) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

async function main(): Promise<void> {
  const id = process.argv[2] ?? "handheld-pico";
  const k = await loadKernel();
  const model = buildCase(k, caseBoard(placement(loadProfile(id))));
  const meshes = model.parts.map((p) => {
    const lift = p.name === "shield" ? 25 : 0;
    const colour = COLOURS[p.kind === "cap" ? "cap" : p.name] ?? COLOURS.cap;
    return { mesh: meshOf(p.assembled.translate([0, 0, lift])), colour };
  });
  // Where the LEDs shine through the top: a thin disc on each diffuser.
  const L = model.levels;
  const glow = model.board.parts
    .filter((p) => p.light)
    .map((p) =>
      k.Manifold.cylinder(0.05, p.light!.d / 2, p.light!.d / 2, 16).translate([
        (p.box.x0 + p.box.x1) / 2,
        (p.box.y0 + p.box.y1) / 2,
        L.plateTop,
      ]),
    );
  meshes.push({ mesh: meshOf(k.Manifold.union(glow)), colour: COLOURS.led });
  const [width, height] = [1200, 800];
  const file = join(CASE_DIR, id, "preview.png");
  writeFileSync(file, png(render(meshes, width, height, -25, 38), width, height));
  console.log(`wrote ${file}`);
}

if (process.argv[1]?.endsWith("preview.ts")) await main();
