/**
 * The Espruino modules the firmware requires, as runtime.ts installs them: `neopixel` (write to a
 * chain on a pin with SPI MOSI) and `Storage` (the board's flash, ESPRUINO.md 4.4 and 5.6). Each
 * call checks the interpreter is still alive and answers with values of the firmware's realm.
 */
import type { EspruinoRealm } from "./realm.ts";
import type { BoardBus } from "./runtime.ts";
import { parseJsonish, toJsonish } from "./jsonish.ts";
import { bytesFromString } from "../board/storage.ts";

/** What a module needs of the runtime: the board, the realm's constructors and its value helpers. */
export interface ApiKit {
  bus: BoardBus;
  C: EspruinoRealm["intrinsics"];
  /** Throws once the interpreter was reset (a call still running reaches nothing). */
  guard(): void;
  err(message: string): Error;
  obj(props: Record<string, unknown>): Record<string, unknown>;
  toArray(items: unknown[]): unknown[];
  pinName(v: unknown, fnName: string): string;
  bytesOf(data: unknown, what: string): Uint8Array;
}

export function neopixelModule(k: ApiKit): object {
  return k.obj({
    write: (pin: unknown, data: unknown) => {
      k.guard();
      const name = k.pinName(pin, "neopixel.write");
      if (!k.bus.board.neopixelPins.includes(name)) throw k.err("No suitable SPI device found for this pin");
      const bytes = k.bytesOf(data, "neopixel.write");
      if (bytes.length === 0 || bytes.length % 3 !== 0) throw k.err("Data length must be a multiple of 3 (RGB)");
      k.bus.neopixelWrite(name, bytes);
    },
  });
}

export function storageModule(k: ApiKit, flashStrings: Set<string>): object {
  const storage = k.bus.storage;
  const C = k.C;
  const readString = (name: unknown, offset?: unknown, length?: unknown) =>
    storage.readString(String(name), offset === undefined ? undefined : Number(offset), length === undefined ? undefined : Number(length));
  return k.obj({
    read: (name: unknown, offset?: unknown, length?: unknown) => {
      k.guard();
      const text = readString(name, offset, length);
      // (Short ones are left out: a short string in RAM with the same text would count as mapped too.)
      if (text && text.length > 64) flashStrings.add(text);
      return text;
    },
    readArrayBuffer: (name: unknown) => {
      k.guard();
      const bytes = storage.read(String(name));
      if (!bytes) return undefined;
      const u = new C.Uint8Array(bytes.length);
      u.set(bytes);
      return u.buffer;
    },
    readJSON: (name: unknown, noExceptions?: unknown) => {
      k.guard();
      const text = readString(name);
      if (text === undefined) return undefined;
      try {
        const v = parseJsonish(text);
        return v === undefined ? undefined : C.JSON.parse(JSON.stringify(v));
      } catch (e) {
        if (noExceptions) return undefined;
        throw k.err(`Storage.readJSON("${String(name)}"): ${(e as Error).message}`);
      }
    },
    write: (name: unknown, data: unknown, offset?: unknown, size?: unknown) => {
      k.guard();
      let bytes: Uint8Array;
      if (
        typeof data === "string" ||
        ArrayBuffer.isView(data) ||
        Array.isArray(data) ||
        Object.prototype.toString.call(data) === "[object ArrayBuffer]"
      )
        bytes = k.bytesOf(data, "Storage.write");
      else if (data && typeof data === "object") bytes = bytesFromString((C.JSON.stringify as (v: unknown) => string)(data));
      else bytes = bytesFromString(String(data));
      try {
        return storage.write(
          String(name),
          bytes,
          offset === undefined ? undefined : Number(offset),
          size === undefined ? undefined : Number(size),
        );
      } catch (e) {
        throw k.err((e as Error).message);
      }
    },
    writeJSON: (name: unknown, data: unknown) => {
      k.guard();
      return storage.write(String(name), bytesFromString(toJsonish(data)));
    },
    erase: (name: unknown) => {
      k.guard();
      storage.erase(String(name));
    },
    eraseAll: () => {
      k.guard();
      storage.eraseAll();
    },
    list: (pattern?: unknown) => {
      k.guard();
      const re = pattern as { test?: (s: string) => boolean } | undefined;
      const filter =
        re && typeof re.test === "function"
          ? (n: string) => re.test!(n)
          : typeof pattern === "string"
            ? (n: string) => n.includes(pattern)
            : undefined;
      return k.toArray(storage.list(filter));
    },
    getFree: () => storage.getFree(),
    compact: () => {
      k.guard();
      storage.compact();
    },
    getStats: () => k.obj({ ...storage.getStats() }),
    hash: (name: unknown) => {
      const s = readString(name) ?? "";
      let h = 0;
      for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
      return h >>> 0;
    },
  });
}

/** A value as an error message names it. */
export function describeValue(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || typeof v !== "object") return String(v);
  return Object.prototype.toString.call(v);
}
