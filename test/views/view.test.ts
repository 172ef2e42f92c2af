import { describe, expect, it } from "vitest";
import { COLOUR_NAMES, PALETTE_RGB } from "../../firmware/ui/palette.ts";
import { gammaTable } from "../../firmware/device/gamma.ts";
import { listProfiles, loadProfile } from "../../hardware/profile.ts";
import { PITCH, unitGeometry } from "../../hardware/geometry.ts";
import { colourInitial, frameScale, screenRgb } from "../../sim/views/view.ts";
import type { Rgb } from "../../sim/board/board.ts";

const gamma = gammaTable();
/** What the firmware sends for palette colour `name` at brightness factor k. */
function duty(name: string, k: number): Rgb {
  const i = COLOUR_NAMES.indexOf(name);
  const [r, g, b] = [0, 1, 2].map((c) => Math.round(gamma[PALETTE_RGB[3 * i + c]] * k));
  return { r, g, b };
}

describe("the screen colour of an LED", () => {
  it("shows each palette colour as its perceived RGB, however dim the frame was sent", () => {
    for (const k of [1, 0.5, 0.25, 0.12]) {
      const names = COLOUR_NAMES.filter((n) => n !== "off");
      const frame = names.map((n) => duty(n, k));
      const scale = frameScale(frame);
      expect(scale).toBeCloseTo(k, 1);
      names.forEach((n, i) => {
        const want = PALETTE_RGB.slice(3 * COLOUR_NAMES.indexOf(n), 3 * COLOUR_NAMES.indexOf(n) + 3);
        const got = screenRgb(frame[i], scale);
        // Rounding of dim duty values costs a little precision, never the colour.
        got.forEach((v, c) => expect(Math.abs(v - want[c]), `${n} at k=${k}`).toBeLessThanOrEqual(k < 0.2 ? 40 : 16));
      });
    }
  });

  it("keeps a dark LED black and a dark frame at scale 1", () => {
    expect(frameScale([{ r: 0, g: 0, b: 0 }])).toBe(1);
    expect(screenRgb({ r: 0, g: 0, b: 0 }, 0.3)).toEqual([0, 0, 0]);
  });

  it("labels black pegs (violet on the LEDs) k and the other colours by their initial", () => {
    expect(["red", "green", "blue", "yellow", "white", "orange", "pink", "violet", "off"].map(colourInitial).join("")).toBe("rgbywopk.");
  });
});

describe("the unit's geometry, from the profile alone", () => {
  for (const id of listProfiles()) {
    const p = loadProfile(id);
    const geo = unitGeometry(p);
    describe(id, () => {
      it("places every LED of every segment once, each hole and key centre on the 10 mm grid", () => {
        for (const s of p.leds.segments) {
          if (s.name === "pad") continue; // under the pad keys
          const idx = geo.leds.filter((l) => l.segment === s.name).map((l) => l.index);
          expect(
            idx.sort((a, b) => a - b),
            s.name,
          ).toEqual([...Array(s.count).keys()]);
        }
        expect(geo.keys.filter((k) => k.padLed !== undefined).map((k) => k.padLed)).toEqual([...Array(36).keys()]);
        const onGrid = (v: number) => Math.abs(v / PITCH - Math.round(v / PITCH)) < 1e-9;
        for (const l of geo.leds) expect(onGrid(l.x) && onGrid(l.y), `${l.segment}[${l.index}]`).toBe(true);
        for (const k of geo.keys) expect(onGrid(k.x) && onGrid(k.y), k.id).toBe(true);
      });

      it("keeps holes apart and inside the enclosure", () => {
        const all = [...geo.leds.map((l) => ({ x: l.x, y: l.y, r: l.d / 2 })), ...geo.keys.map((k) => ({ x: k.x, y: k.y, r: k.size / 2 }))];
        for (let i = 0; i < all.length; i++) {
          const a = all[i];
          expect(a.x - a.r >= 0 && a.y - a.r >= 0 && a.x + a.r <= geo.width && a.y + a.r <= geo.height).toBe(true);
          for (let j = i + 1; j < all.length; j++) {
            const b = all[j];
            expect(Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)) >= a.r + b.r, `${i} ${j}`).toBe(true);
          }
        }
      });

      it("puts board row 1 nearest the codebreaker (the bottom) and each row's key pixels beside it", () => {
        const at = (seg: string, i: number) => geo.leds.find((l) => l.segment === seg && l.index === i)!;
        expect(at("board", 0).y).toBeGreaterThan(at("board", (p.rows - 1) * p.pegs).y);
        for (let r = 0; r < p.rows; r++) {
          const y = at("board", r * p.pegs).y;
          for (let i = 0; i < p.pegs; i++) {
            expect(at("board", r * p.pegs + i).y).toBe(y);
            expect(at("keys", r * p.pegs + i).y).toBe(y);
            expect(at("keys", r * p.pegs + i).x).toBeGreaterThan(at("board", r * p.pegs + p.pegs - 1).x);
          }
        }
      });

      it("puts the secret and the codemaker pad under the shield, and nothing else", () => {
        const under = (x: number, y: number) =>
          !!geo.shield && x > geo.shield.x && x < geo.shield.x + geo.shield.w && y > geo.shield.y && y < geo.shield.y + geo.shield.h;
        for (const l of geo.leds) expect(under(l.x, l.y), `${l.segment}[${l.index}]`).toBe(l.segment === "secret");
        for (const k of geo.keys) expect(under(k.x, k.y), k.id).toBe(k.padLed === undefined);
        expect(!!geo.shield).toBe(!!p.keymap.maker || p.leds.segments.some((s) => s.name === "secret"));
      });
    });
  }

  it("labels the R1 pad's controls and the codemaker's keys", () => {
    const geo = unitGeometry(loadProfile("r1-pico"));
    const key = (id: string) => geo.keys.find((k) => k.id === id)!;
    expect([key("p66").legend, key("p61").legend, key("p64").legend, key("p65").legend, key("p11").legend, key("p31").legend]).toEqual([
      "ok",
      "menu",
      "undo",
      "clear",
      "1",
      "slot 1",
    ]);
    expect([key("m11").legend, key("m11").sublegend, key("m31").legend, key("m34").legend]).toEqual(["1", "red", "exact", "ok"]);
    expect(key("p66").shortcuts).toContain("Enter");
  });
});
