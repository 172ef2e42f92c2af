/**
 * Plays an upload stream (what npm run flash sends, or its dry run's upload.js) as the board would: its Storage writes
 * against an in-memory Storage, with Espruino's write(name, data, offset, size) semantics (the first call sizes the
 * file), and, given a simulator Storage, against that too, in the same order.
 */
import { runInNewContext } from "node:vm";
import { crc32 } from "node:zlib";
import type { VirtualStorage } from "../../sim/board/storage.ts";

/**
 * Plays what the board would do with an upload: runs its Storage writes against an in-memory Storage (Espruino's
 * write(name, data, offset, size) semantics: the first call sizes the file) and returns the files (in the order they
 * were created) and load() calls ("" for a plain load()). With `storage`, the writes also go there, in the same order.
 */
export function replayUpload(stream: string, storage?: VirtualStorage): { files: Map<string, Buffer>; loaded: string[] } {
  const files = new Map<string, Buffer>();
  const loaded: string[] = [];
  const Storage = {
    read: (name: string) => files.get(name)?.toString("latin1"),
    write(name: string, data: string | Uint8Array, offset = 0, size?: number) {
      const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : Buffer.from(Array.from(data));
      if (offset === 0) files.set(name, Buffer.alloc(size ?? bytes.length, 0xff));
      bytes.copy(files.get(name)!, offset);
      return storage ? storage.write(name, new Uint8Array(bytes), offset, size) : true;
    },
  };
  // Echo-off (0x10) and Ctrl-C are REPL line controls; ESC LF is the CLI's newline-without-execute.
  const code = stream.replace(/\x1b\n/g, "\n").replace(/[\x03\x10]/g, "");
  runInNewContext(code, {
    require: (m: string) => {
      if (m !== "Storage") throw new Error(`unexpected module ${m}`);
      return Storage;
    },
    load: (f?: string) => loaded.push(f ?? ""),
    // The upload starts the firmware only when .bootcde reads back whole (E.CRC32 of what Storage holds).
    E: { CRC32: (d: string) => crc32(Buffer.from(d ?? "", "latin1")) >>> 0 },
    // Binary files (the solver tables) come as base64 chunks, decoded on the board as 8-bit strings.
    atob: (b64: string) => Buffer.from(b64, "base64").toString("latin1"),
    reset: () => {},
    print: () => {},
  });
  return { files, loaded };
}
