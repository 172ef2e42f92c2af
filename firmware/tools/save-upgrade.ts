/**
 * Saves of older formats, on the Node side (the simulator's views, the tests and `npm run flash`): the unit
 * reads only the current format (firmware/device/save-format.ts); this reads format 1 too and brings it
 * up to date, so a game saved by an older firmware can be carried across a firmware update.
 */
import { decodeSlot, encodeSlot, SAVE_KEYS, type Crc, type Slot } from "../device/save-format.ts";
import { PHASE_NAMES } from "../core/types.ts";
import { FLIP_KIND_NAMES, FLIP_PHASE_NAMES, FLIP_RESULT_NAMES } from "../core/brainflip.ts";
import { SETTING_NAMES } from "../ui/menu.ts";

/** Fletcher-16 over the 8-bit characters: format 1's checksum. */
export function fletcher16(s: string): number {
  let a = 0;
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    a = (a + (s.charCodeAt(i) & 255)) % 255;
    b = (b + a) % 255;
  }
  return (b << 8) | a;
}

/**
 * A save's text in any format the unit has written -> its sequence and data in the current format (short keys), or
 * why it cannot be used. Format 1 (Fletcher-16, phases, kinds and results by name) is checked and brought up to date.
 */
export function decodeAnySlot(text: string, crc: Crc): Slot | string {
  if (!text.startsWith("BB1|")) return decodeSlot(text, crc);
  const parts = text.split("|");
  const head = parts.slice(0, 3).join("|") + "|";
  const json = text.slice(head.length);
  if (parts.length < 4 || isNaN(parseInt(parts[1], 10)) || parseInt(parts[2], 10) !== fletcher16(json)) return "checksum mismatch";
  try {
    return { seq: parseInt(parts[1], 10), data: migrateFormat1(JSON.parse(json)) };
  } catch {
    return "unreadable";
  }
}

/** Format 1's data (short keys) in format 2: settings as a list, phases, kinds and results as numbers, version 2. Names it does not know stay as they are (the unit then refuses them). */
export function migrateFormat1(data: unknown): unknown {
  const K = SAVE_KEYS;
  const obj = (x: unknown) => (x && typeof x === "object" ? (x as Record<string, unknown>) : null);
  const number = (names: string[], v: unknown) => (typeof v === "string" && names.includes(v) ? names.indexOf(v) : v);
  const d = obj(data);
  if (!d) return data;
  if (d.v === 1) d.v = 2;
  // Settings: an object under format 1's keys, a list by index (ui/menu.ts S_*) in format 2.
  const settings = obj(d[K.settings]);
  if (settings && !Array.isArray(settings)) d[K.settings] = SETTING_NAMES.map((name) => settings[K[name]]);
  const game = obj(obj(d[K.match])?.[K.game]);
  if (game) game[K.phase] = number(PHASE_NAMES, game[K.phase]);
  const round = obj(obj(d[K.flip])?.[K.round]);
  if (round) {
    round[K.phase] = number(FLIP_PHASE_NAMES, round[K.phase]);
    round[K.result] = number(FLIP_RESULT_NAMES, round[K.result]);
    const log = round[K.log];
    if (Array.isArray(log))
      for (let i = 0; i < log.length; i++) {
        const entry = obj(log[i]);
        if (entry) entry[K.kind] = number(FLIP_KIND_NAMES, entry[K.kind]);
      }
  }
  return d;
}

/** A save of any format as the current format writes it (the flash tool carries a game across a format change with it). */
export function upgradeSlot(text: string, crc: Crc): string | null {
  const slot = decodeAnySlot(text, crc);
  return typeof slot === "string" ? null : encodeSlot(JSON.stringify(slot.data), slot.seq, crc);
}
