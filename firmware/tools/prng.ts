import { randomBytes } from "node:crypto";

/**
 * A seed from the host's cryptographic source: what a board that must not be predictable (a console a
 * stranger may reach, whose lock password comes from E.hwRand) starts from.
 */
export function cryptoSeed(): number {
  return randomBytes(4).readUInt32LE(0);
}

/**
 * A small seeded pseudo-random generator (mulberry32) for the Node side: the simulator's only source
 * of randomness (a board built with the same seed behaves the same way on every run), and the solver
 * tables' generator's sampling (the same tables on every run).
 */
export class Prng {
  private state: number;

  constructor(seed = 1) {
    this.state = seed >>> 0;
  }

  /** Re-seeds the generator (like C srand). */
  seed(seed: number): void {
    this.state = seed >>> 0;
  }

  /** A 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** A float in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
}
