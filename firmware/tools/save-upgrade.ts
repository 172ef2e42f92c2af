/**
 * Saves of older formats, on the Node side (the simulator's views, the tests and `npm run flash`): the unit
 * reads only the current format (firmware/save-format.ts); this reads format 1 too and brings it
 * up to date, so a game saved by an older firmware can be carried across a firmware update.
 */
import { decodeSlot, encodeSlot, expandKeys, SAVE_KEYS, SAVE_VERSION, type Crc, type Slot } from "../save-format.ts";
import { PHASE_NAMES, type MatchState } from "../core/types.ts";
import {
  checkFlipState,
  flipHoldsSecret,
  FLIP_KIND_NAMES,
  FLIP_PHASE_NAMES,
  FLIP_RESULT_NAMES,
  type FlipState,
} from "../core/brainflip.ts";
import { checkMatchState, matchHoldsSecret } from "../core/match.ts";
import { GAME_NAMES } from "../ui/games.ts";
import type { SettingName } from "../ui/settings.ts";

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
 * why it cannot be used. Format 1 (Fletcher-16, phases, kinds and results by name) is checked and brought up to date;
 * so are format 2's settings as a list (as the firmwares between commits 049b5df and the named settings wrote them,
 * under the same BB2 header; before and since, they are an object by name).
 */
export function decodeAnySlot(text: string, crc: Crc): Slot | string {
  if (!text.startsWith("BB1|")) {
    const slot = decodeSlot(text, crc);
    if (typeof slot !== "string") settingsByName(slot.data);
    return slot;
  }
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

/** Format 1's data (short keys) in format 2: phases, kinds and results as numbers, version 2. Names it does not know stay as they are (the unit then refuses them). */
export function migrateFormat1(data: unknown): unknown {
  const K = SAVE_KEYS;
  const obj = (x: unknown) => (x && typeof x === "object" ? (x as Record<string, unknown>) : null);
  const number = (names: string[], v: unknown) => (typeof v === "string" && names.includes(v) ? names.indexOf(v) : v);
  const d = obj(data);
  if (!d) return data;
  if (d.v === 1) d.v = 2;
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

/** The settings' order in format 2's list (fixed: the list form is no longer written). */
const SETTINGS_LIST_ORDER: SettingName[] = [
  "preset",
  "harder",
  "mode",
  "games",
  "brightness",
  "sound",
  "sleepMin",
  "lockConsole",
  "flipMode",
  "players",
  "flipGrid",
  "unitFlips",
];

/** Settings as a list (format 2 as some firmwares wrote it) -> an object under their keys, as the unit reads them. */
function settingsByName(data: unknown): void {
  const d = data && typeof data === "object" ? (data as Record<string, unknown>) : null;
  const settings = d?.[SAVE_KEYS.settings];
  if (!d || !Array.isArray(settings) || settings.length !== SETTINGS_LIST_ORDER.length) return;
  const byKey: Record<string, unknown> = {};
  SETTINGS_LIST_ORDER.forEach((name, i) => (byKey[SAVE_KEYS[name]] = settings[i]));
  d[SAVE_KEYS.settings] = byKey;
}

/** A save of any format as the current format writes it (the flash tool carries a game across a format change with it). */
export function upgradeSlot(text: string, crc: Crc): string | null {
  const slot = decodeAnySlot(text, crc);
  return typeof slot === "string" ? null : encodeSlot(JSON.stringify(slot.data), slot.seq, crc);
}

/** The unit's save slots (firmware/device/store.ts): the files a re-flash carries across. */
export const SAVE_SLOT_NAMES = ["bb.s0", "bb.s1"];

/** A save slot found before a re-flash that is carried across it: its text in the current format, same name and sequence. */
export interface KeptSlot {
  name: string;
  seq: number;
  /** The slot's text as the current format writes it (upgraded when it was older). */
  text: string;
  /** The format it was found in (1 or SAVE_VERSION). */
  format: number;
  /** Whether its text changed to be read by the current firmware (format 1, or format 2's settings as a list). */
  upgraded: boolean;
  /** What it holds, for people: "Brainiac match, game 2 of 4". */
  what: string;
  /** Whether the unit locks its console when it resumes this copy (a two-player game holding a secret, the lock on). */
  locksConsole: boolean;
}

/** A save slot that is not carried, and why ("checksum mismatch", "unknown format BB7"). */
export interface DroppedSlot {
  name: string;
  problem: string;
}

/**
 * A slot's text found on a board before a re-flash -> what is carried across (any format the unit has written, brought
 * up to the current one, under the same name and sequence), or why it cannot be. Whether the unit then takes it (its
 * game-state checks) is the unit's to say, at its next start.
 */
export function keepSlot(name: string, text: string, crc: Crc): KeptSlot | DroppedSlot {
  const slot = decodeAnySlot(text, crc);
  if (typeof slot === "string") return { name, problem: slot };
  // Carried as it is when the unit reads it as it is; else as the current format writes it.
  const plain = decodeSlot(text, crc);
  const same = typeof plain !== "string" && JSON.stringify(plain.data) === JSON.stringify(slot.data);
  return {
    name,
    seq: slot.seq,
    text: same ? text : encodeSlot(JSON.stringify(slot.data), slot.seq, crc),
    format: text.startsWith("BB1|") ? 1 : SAVE_VERSION,
    upgraded: !same,
    what: describeSave(slot.data),
    locksConsole: saveLocksConsole(slot.data),
  };
}

export function isKept(s: KeptSlot | DroppedSlot): s is KeptSlot {
  return "text" in s;
}

type Loose = Record<string, unknown> | null;
const loose = (x: unknown): Loose => (x && typeof x === "object" ? (x as Record<string, unknown>) : null);

/** What a save (current format, short keys) holds, in a few words: "Brainiac match, game 2 of 4", "Brain Flip, round 3". */
export function describeSave(data: unknown): string {
  const s = loose(expandKeys(data));
  const match = loose(s?.match);
  const flip = loose(s?.flip);
  const settings = loose(s?.settings);
  if (match && !(flip && settings?.preset === "brainflip")) {
    const config = loose(match.config);
    const preset = String(config?.preset);
    const title = (GAME_NAMES[preset] ?? preset) + (config?.harder ? "+" : "");
    const played = Array.isArray(match.history) ? match.history.length : 0;
    if (match.over) return `${title} match, over`;
    return preset === "race" ? `${title} match, game ${played + 1}` : `${title} match, game ${played + 1} of ${String(config?.games)}`;
  }
  if (flip) return flip.over ? "Brain Flip, over" : `Brain Flip, round ${String(flip.rounds)}`;
  return "settings, no game in progress";
}

/**
 * Whether the unit locks its console as it resumes this save (ui/app.ts consoleLockWanted): the lock setting on, and a
 * two-player codebreaker game holding its secret (codebreaker.ts holdsSecret) or a Brain Flip round being asked
 * (flip.ts holdsSecret). A flash that carries it must read back what it wrote before the unit starts.
 */
export function saveLocksConsole(data: unknown): boolean {
  const s = loose(expandKeys(data));
  if (loose(s?.settings)?.lockConsole !== true) return false;
  // Each game's state as the unit takes it (its check), then the unit's own rule (core).
  const match = s?.match;
  const flip = s?.flip;
  return (
    (!checkMatchState(match) && matchHoldsSecret(match as MatchState)) || (!checkFlipState(flip) && flipHoldsSecret(flip as FlipState))
  );
}
