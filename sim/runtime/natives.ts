/**
 * E's natives that need nothing of the interpreter's state (the analog reference, hardware noise,
 * the temperature, the whole-array helpers and CRC32), and the bytes of a value the firmware passes
 * as data (a string of 8-bit chars, an array, a typed array, an ArrayBuffer or a DataView).
 */
import { crc32 } from "node:zlib";
import { bytesFromString } from "../board/storage.ts";
import { describeValue, type ApiKit } from "./modules.ts";
import type { FirmwareFn } from "./timers.ts";

export function eNatives(k: ApiKit): Record<string, FirmwareFn> {
  return {
    getAnalogVRef: () => {
      k.guard();
      if (k.bus.board.analogVRef) return 3.3;
      // As Espruino's ESP32 port does (targets/esp32/jshardware.c): an error on the console, and NaN.
      k.bus.log("ERROR: getAnalogVRef is not implemented on ESP32");
      return NaN;
    },
    hwRand: () => k.bus.noise.nextUint32() | 0,
    getTemperature: () => 27,
    // Natives over whole arrays (the firmware's per-LED work): a lookup through `map`, a sum.
    mapInPlace: (from: unknown, to: unknown, map: unknown) => {
      k.guard();
      const f = from as ArrayLike<number>;
      const t = to as Record<number, number> & { length: number };
      const m = map as ArrayLike<number>;
      const n = Math.min(f.length, t.length);
      for (let i = 0; i < n; i++) t[i] = m[f[i]] ?? 0;
    },
    sum: (data: unknown) => {
      k.guard();
      const d = data as ArrayLike<number>;
      let s = 0;
      for (let i = 0; i < d.length; i++) s += d[i];
      return s;
    },
    // E.CRC32(data): the standard CRC-32 of a string's 8-bit chars or an array's bytes (the flash tool verifies with it).
    CRC32: (data: unknown) => {
      k.guard();
      if (typeof data === "string") return crc32(bytesFromString(data));
      if (data && typeof (data as ArrayLike<number>).length === "number") return crc32(Uint8Array.from(data as ArrayLike<number>));
      throw k.err(`E.CRC32: expected a string or an array, got ${describeValue(data)}`);
    },
  };
}

/** The bytes of data the firmware passed; anything else is an error naming `what`. */
export function bytesOf(data: unknown, what: string, err: (message: string) => Error): Uint8Array {
  if (typeof data === "string") return bytesFromString(data);
  if (ArrayBuffer.isView(data)) {
    if (data instanceof DataView || Object.prototype.toString.call(data) === "[object DataView]")
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    return byteLoop(data as unknown as ArrayLike<unknown>);
  }
  if (Object.prototype.toString.call(data) === "[object ArrayBuffer]") return new Uint8Array(data as ArrayBuffer).slice();
  if (Array.isArray(data)) return byteLoop(data);
  throw err(`${what}: expected a string, an array or a typed array, got ${describeValue(data)}`);
}

/** Bytes of an array-like of the realm, by index (never through the realm's own iterator or callbacks). */
function byteLoop(data: ArrayLike<unknown>): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < out.length; i++) out[i] = Number(data[i]) & 255;
  return out;
}
