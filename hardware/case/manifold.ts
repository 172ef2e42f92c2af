/**
 * The geometry kernel: manifold-3d (WASM), loaded once per process. Its boolean operations always give
 * closed, consistently oriented meshes, which a slicer needs and a test checks (mesh.ts).
 */
import Module, { type ManifoldToplevel } from "manifold-3d";

export type { CrossSection, Manifold } from "manifold-3d";
export type Kernel = ManifoldToplevel;

let kernel: Promise<Kernel> | undefined;

export function loadKernel(): Promise<Kernel> {
  kernel ??= Module().then((wasm) => {
    wasm.setup();
    return wasm;
  });
  return kernel;
}

/** Segments for a circle of radius r: chords of about 0.8 mm, at least 12 (a sensible STL size). */
export function segmentsFor(r: number): number {
  return Math.max(12, 4 * Math.ceil((2 * Math.PI * r) / 0.8 / 4));
}
