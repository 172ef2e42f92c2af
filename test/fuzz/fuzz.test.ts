/**
 * A short run of the fuzzer (test/fuzz/fuzzer.ts) as part of npm test: random keys, waits and power cuts
 * through every mode on the built bundle, with the invariants of issue 7 checked after every event.
 * Long runs: npm run fuzz -- --events 1000000.
 */
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { runFuzzInChildren } from "./fuzzer.ts";

const SEED = 20261121;
const EVENTS = 4000;

describe("the fuzzer, a short run", () => {
  it(`${EVENTS} random events from seed ${SEED} break no invariant`, async () => {
    const stats = await runFuzzInChildren(
      { seed: SEED, events: EVENTS, boardEvents: EVENTS / 2, firmwarePath: DEFAULT_OUT, profile: "r1-pico", fast: true },
      { jobs: Math.min(2, availableParallelism()), hangMs: 30000 },
    );
    expect(stats.events).toBe(EVENTS);
    // It went everywhere it should: menus, every game, power cuts (some mid-write), finished games.
    expect(stats.byKind.tap).toBeGreaterThan(EVENTS / 3);
    for (const kind of ["press", "release", "hold", "chord", "burst", "wait", "cut"]) expect(stats.byKind[kind], kind).toBeGreaterThan(0);
    for (const game of ["brainiac", "travel", "race", "brainflip"])
      expect(
        Object.keys(stats.reached).some((r) => r.startsWith(game)),
        game,
      ).toBe(true);
    expect(stats.powerCutsMidWrite).toBeGreaterThan(0);
    expect(stats.gamesFinished).toBeGreaterThan(0);
    expect(stats.differentialChecks).toBeGreaterThan(0);
    expect(stats.resumesChecked).toBeGreaterThan(0);
  }, 60000);
});
