/**
 * The key contacts of the virtual board: a press closes a key's contact in the matrix at once, then it
 * chatters for the board's bounce time (an even number of toggles at seeded random times) and settles;
 * a release likewise. The circuit (sim/board/circuit.ts) sees each change as it happens on the clock.
 */
import type { KeyInfo } from "../../hardware/profile.ts";
import type { Prng } from "../../firmware/tools/prng.ts";
import type { Circuit } from "./circuit.ts";
import type { ClockEvent, VirtualClock } from "./clock.ts";

export class KeyContacts {
  private readonly byId = new Map<string, KeyInfo>();
  /** Each key's final state (held down or not), bounce aside. */
  private readonly target: boolean[];
  /** Each key's contact changes still to come (its chatter). */
  private readonly pending = new Map<number, ClockEvent[]>();

  constructor(
    private readonly clock: VirtualClock,
    private readonly circuit: Circuit,
    private readonly keys: KeyInfo[],
    private readonly bounceMs: number,
    private readonly bounce: Prng,
    private readonly profileId: string,
  ) {
    for (const k of keys) this.byId.set(k.id, k);
    this.target = keys.map(() => false);
  }

  /** Presses (closed) or releases a key: its contact changes now, chatters for bounceMs, then settles. */
  move(keyId: string, closed: boolean): void {
    const k = this.key(keyId);
    const pending = this.pending.get(k.index) ?? [];
    if (this.target[k.index] === closed && pending.length === 0) return;
    for (const ev of pending) this.clock.cancel(ev);
    this.target[k.index] = closed;
    const events: ClockEvent[] = [];
    const start = this.clock.now;
    const set = (at: number, state: boolean) => {
      const ev = this.clock.schedule(at, () => {
        events.splice(events.indexOf(ev), 1);
        this.circuit.setContact(k.index, state);
      });
      events.push(ev);
    };
    // The first touch happens now (a key held while powering on is closed at boot); the chatter follows.
    this.circuit.setContact(k.index, closed);
    if (this.bounceMs > 0) {
      // The contact chatters: an even number of toggles at random times, then it settles.
      const toggles = 2 * this.bounce.int(2, 4);
      const times: number[] = [];
      for (let i = 0; i < toggles; i++) times.push(this.bounce.range(0.05, 0.95) * this.bounceMs);
      times.sort((a, b) => a - b);
      times.forEach((t, i) => set(start + t, i % 2 === 0 ? !closed : closed));
      set(start + this.bounceMs, closed);
    }
    this.pending.set(k.index, events);
  }

  /** Whether the key is held down (its final state, bounce aside). */
  held(keyId: string): boolean {
    return this.target[this.key(keyId).index];
  }

  /** Whether the key's contact is closed right now (changes while it bounces). */
  closed(keyId: string): boolean {
    return this.circuit.contact(this.key(keyId).index);
  }

  private key(keyId: string): KeyInfo {
    const k = this.byId.get(keyId);
    if (!k) throw new Error(`unknown key "${keyId}" on ${this.profileId}; valid keys: ${this.keys.map((x) => x.id).join(", ")}`);
    return k;
  }
}
