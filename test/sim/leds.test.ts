import { describe, expect, it } from "vitest";
import { ledSettleMs, segmentOffsets } from "../../hardware/profile.ts";
import { boot, r1With } from "./helpers.ts";

const NP = `var np = require("neopixel");`;
const LEDS_ON = `${NP} digitalWrite(B9, 1);`;

/** A board whose LED supply is on and settled, then `code` run at the console. */
function settled(code = "") {
  const board = boot(LEDS_ON);
  board.advance(ledSettleMs(board.profile));
  if (code) board.repl(code);
  return board;
}

describe("neopixel and the LED chain", () => {
  it("refuses a pin without SPI MOSI, as the STM32 build does", () => {
    const board = boot(NP);
    expect(() => board.repl("np.write(A0, [1, 2, 3])")).toThrow("No suitable SPI device found for this pin");
    expect(() => board.repl("np.write(B5, [1, 2, 3])")).not.toThrow();
  });

  it("refuses data that is empty or not a multiple of 3 bytes", () => {
    const board = boot(NP);
    expect(() => board.repl("np.write(B15, [])")).toThrow("Data length must be a multiple of 3 (RGB)");
    expect(() => board.repl("np.write(B15, new Uint8Array(4))")).toThrow("Data length must be a multiple of 3 (RGB)");
  });

  it("decodes the bytes as G, R, B per LED, along the chain's segments", () => {
    const board = settled();
    const seg = segmentOffsets(board.profile);
    board.repl(`var buf = new Uint8ClampedArray(${board.pixels().length * 3});
      function set(i, r, g, b) { buf[3 * i] = g; buf[3 * i + 1] = r; buf[3 * i + 2] = b; }
      set(0, 10, 20, 30); set(${seg.secret.start + 4}, 255, 0, 0); set(${seg.status.start + 1}, 0, 0, 7);
      np.write(B15, buf);`);
    expect(board.pixels("board")[0]).toEqual({ r: 10, g: 20, b: 30 });
    expect(board.pixels("secret")[4]).toEqual({ r: 255, g: 0, b: 0 });
    expect(board.colours("secret")).toEqual(["off", "off", "off", "off", "red"]);
    expect(board.pixels("status")).toEqual([
      { r: 0, g: 0, b: 0 },
      { r: 0, g: 0, b: 7 },
    ]);
  });

  it("keeps the colour of pixels beyond a short write, like real WS2812s", () => {
    const board = settled(`np.write(B15, [0, 50, 0, 0, 50, 0]); np.write(B15, [60, 0, 0]);`);
    expect(board.pixels().slice(0, 3)).toEqual([
      { r: 0, g: 60, b: 0 },
      { r: 50, g: 0, b: 0 },
      { r: 0, g: 0, b: 0 },
    ]);
  });

  it("counts writes, bytes and wire time (30 us per pixel)", () => {
    const board = settled(`np.write(B15, new Uint8Array(30)); np.write(B15, new Uint8Array(6));`);
    expect(board.ledStats).toEqual({ writes: 2, bytes: 36, wireUs: 360, lastWriteAt: ledSettleMs(board.profile), lost: 0 });
  });

  it("loses (and counts) data sent while the supply is still coming up, and takes it once settled", () => {
    const board = boot(`${LEDS_ON} np.write(B15, [0, 99, 0]);`);
    expect(board.ledsPowered).toBe(true);
    expect(board.pixels()[0]).toEqual({ r: 0, g: 0, b: 0 });
    expect(board.ledStats.lost).toBe(1);
    board.advance(ledSettleMs(board.profile) - 1);
    board.repl("np.write(B15, [0, 99, 0])");
    expect(board.pixels()[0]).toEqual({ r: 0, g: 0, b: 0 });
    board.advance(1);
    board.repl("np.write(B15, [0, 99, 0])");
    expect(board.pixels()[0]).toEqual({ r: 99, g: 0, b: 0 });
    expect(board.ledStats.lost).toBe(2);
  });

  it("shows nothing while the LED supply is off, and forgets every colour when it goes off", () => {
    const board = boot(NP);
    board.repl("np.write(B15, [0, 99, 0])");
    expect(board.ledsPowered).toBe(false);
    expect(board.pixels()[0]).toEqual({ r: 0, g: 0, b: 0 });
    board.repl("digitalWrite(B9, 1)");
    board.advance(ledSettleMs(board.profile));
    board.repl("np.write(B15, [0, 99, 0])");
    expect(board.pixels()[0]).toEqual({ r: 99, g: 0, b: 0 });
    board.repl("digitalWrite(B9, 0); digitalWrite(B9, 1)");
    expect(board.ledsPowered).toBe(true);
    expect(board.pixels()[0]).toEqual({ r: 0, g: 0, b: 0 });
  });

  it("keeps the LEDs supplied all the time on a build without a supply switch", () => {
    const profile = r1With((p) => delete p.leds.powerPin);
    const board = boot(`${NP} np.write(B15, [0, 5, 0]);`, { profile });
    expect(board.pixels()[0]).toEqual({ r: 5, g: 0, b: 0 });
  });

  it("goes dark when the board loses power", () => {
    const board = boot(`${LEDS_ON} np.write(B15, [1, 2, 3]);`);
    let events = 0;
    board.on("leds", () => events++);
    board.powerOff();
    expect(board.pixels()[0]).toEqual({ r: 0, g: 0, b: 0 });
    expect(events).toBe(1);
  });
});
