/**
 * The simulator's server with the unit on the real Espruino interpreter (`npm start -- --engine espruino`):
 * keys in through POST /api/command as the page sends them, the LEDs and the status line read back from
 * /api/state, in real time; the server's guards hold as on the virtual board (token, Host, the secret under
 * the closed shield, caps); a watch plays; closing the server stops the interpreter. Loopback only.
 */
import { afterEach, describe, expect, it } from "vitest";
import { request } from "node:http";
import { startSimulator, type EspruinoSimulator, type SimState } from "../../sim/web/server.ts";
import { ESPRUINO_MISSING } from "./engines.ts";
import { firmwareBundle } from "../device/helpers.ts";

let sims: EspruinoSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function start(): Promise<EspruinoSimulator> {
  const sim = await startSimulator({ engine: "espruino", firmware: firmwareBundle(), port: 0, seed: 3, log: () => {} });
  sims.push(sim);
  return sim;
}

interface Answer {
  status: number;
  text: string;
}

function call(sim: EspruinoSimulator, path: string, opts: { body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: sim.port,
        method: opts.body === undefined ? "GET" : "POST",
        path,
        headers: { ...(opts.headers ?? sim.headers), "content-type": "text/plain" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

async function state(sim: EspruinoSimulator): Promise<SimState> {
  const a = await call(sim, "/api/state");
  expect(a.status).toBe(200);
  return JSON.parse(a.text) as SimState;
}

async function command(sim: EspruinoSimulator, text: string): Promise<{ status: number; ok: boolean; error?: string }> {
  const a = await call(sim, "/api/command", { body: text });
  return { status: a.status, ...(JSON.parse(a.text) as { ok: boolean; error?: string }) };
}

const names = (s: SimState, segment: string) => s.segments[segment].map((p) => p.name);

describe.skipIf(!!ESPRUINO_MISSING)(
  ESPRUINO_MISSING ? `the server on the real interpreter (skipped: ${ESPRUINO_MISSING})` : "the server on the real interpreter",
  () => {
    it("plays keys sent as the page sends them and reports the LEDs and the status line, with the secret kept under the shield", async () => {
      const sim = await start();
      let s = await state(sim);
      expect(s.engine).toBe("espruino");
      expect(s.on).toBe(true);
      expect(s.status.line).toMatch(/^Menu: Brainiac, normal/);

      // The guards of the virtual board's server hold here too.
      expect((await call(sim, "/api/state", { headers: {} })).status).toBe(403);
      expect((await call(sim, "/api/state", { headers: { ...sim.headers, host: `evil.example:${sim.port}` } })).status).toBe(403);
      const long = await command(sim, "wait 25s");
      expect(long.status).toBe(400);
      expect(long.error).toMatch(/25 s of real time; the cap is 20 s at a time/);

      expect(await command(sim, "tap ok\nwait 300")).toMatchObject({ status: 200, ok: true });
      s = await state(sim);
      expect(s.status.line).toMatch(/^Player 1 \(red\) makes the code/);

      // The secret keyed behind the closed shield: the state shows it off and hides the maker's keys; expect may not peek.
      expect(await command(sim, "tap maker.red maker.green maker.blue maker.yellow\nwait 100")).toMatchObject({ ok: true });
      s = await state(sim);
      expect(names(s, "secret").every((c) => c === "off")).toBe(true);
      const peek = await command(sim, "expect secret red");
      expect(peek.status).toBe(400);
      expect(peek.error).toMatch(/under the codemaker's shield/);
      await call(sim, "/api/view", { body: JSON.stringify({ shield: true }) });
      s = await state(sim);
      // (The cursor blinks on the last hole.)
      expect(names(s, "secret").slice(0, 3)).toEqual(["red", "green", "blue"]);
      expect(["yellow", "off"]).toContain(names(s, "secret")[3]);
      await call(sim, "/api/view", { body: JSON.stringify({ shield: false }) });

      // The codebreaker's first guess: red red green green against red green blue yellow, one exact and one near.
      expect(await command(sim, "tap maker.ok\nwait 200\ntap red red green green ok\nwait 300")).toMatchObject({ ok: true });
      s = await state(sim);
      expect(names(s, "board").slice(0, 4)).toEqual(["red", "red", "green", "green"]);
      expect(names(s, "keys").slice(0, 5)).toEqual(["violet", "white", "off", "off", "off"]);
      expect(s.status.line).toMatch(/row 2/);
      expect(s.errors).toEqual([]);

      // A key while the unit is off: refused with the engine's words, nothing of the machine's inside.
      expect(await command(sim, "power off")).toMatchObject({ ok: true });
      const off = await command(sim, "tap ok");
      expect(off.status).toBe(503);
      expect(off.error).toMatch(/the unit is off/);
      expect(off.error).not.toMatch(/\n\s+at |\.ts:\d+|\/(home|work|tmp)\//);
      // Power back: the match resumes from the unit's Storage (the status reads the mirrored save).
      expect(await command(sim, "power on\nwait 500")).toMatchObject({ ok: true });
      s = await state(sim);
      expect(names(s, "board").slice(0, 4)).toEqual(["red", "red", "green", "green"]);
      expect(s.status.line).toMatch(/row 2/);

      await sim.close();
      expect(sim.board.isOn).toBe(false);
    }, 180_000);

    it("watches the unit play in real time, and stops when asked", async () => {
      const sim = await start();
      const body = JSON.stringify({ action: "start", preset: "brainiac", games: 1, pressMs: 150, rowPauseMs: 100, gamePauseMs: 300 });
      const started = await call(sim, "/api/watch", { body });
      expect(started.status).toBe(200);
      let s = await state(sim);
      for (let i = 0; i < 600 && !s.watch?.log.some((l) => /row 1: the unit guesses .* → \d exact, \d near/.test(l)); i++) {
        await sim.advance(100);
        s = await state(sim);
      }
      expect(s.watch?.log.join("\n")).toMatch(/game 1, row 1: the unit guesses .* → \d exact, \d near/);
      expect(s.watch?.running).toBe(true);
      expect((await call(sim, "/api/watch", { body: JSON.stringify({ action: "stop" }) })).status).toBe(200);
      s = await state(sim);
      expect(s.watch?.running).toBe(false);
      expect(s.errors).toEqual([]);
    }, 180_000);
  },
);
