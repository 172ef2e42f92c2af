/**
 * The saved state's format, written out (one module: the firmware's store, the simulator and the tests
 * all decode with it). A save is one Storage file of text:
 *
 *   BB<SAVE_VERSION>|<sequence>|<Fletcher-16 of the JSON>|<JSON of ui/app.ts SavedState>
 *
 * The JSON's property names are SAVE_KEYS' short keys, not the source's names. The bundle does not
 * rename anything at run time: the build pins the property mangler to these keys
 * (firmware/tools/mangle.ts), so the firmware's objects already have them, and renaming a field in
 * the source keeps its key here. Only the Node side expands and shortens keys (expandKeys,
 * shortenKeys; tree-shaken out of the bundle). Pure: no Storage, no clock.
 */
export const SAVE_VERSION = 2;

/**
 * Every field of the saved state (SavedState, Settings, MatchState and FlipState and their parts) ->
 * its key in the JSON. A key equal to its name is a name the bundle keeps (short ones, and names that
 * Espruino's API also uses). These are the keys of format 1 as the first builds wrote them, kept by
 * format 2 (whose values of phase, kind and result are numbers); a field that changes meaning gets a
 * new key (and old saves a migration), never an old key.
 */
export const SAVE_KEYS: Record<string, string> = {
  // SavedState
  v: "v",
  screen: "s",
  settings: "p",
  match: "hn",
  flip: "qt",
  // Settings (codebreaker games, Brain Flip, the unit), an object by name (ui/settings.ts SETTINGS)
  preset: "n",
  harder: "d",
  mode: "rn",
  games: "f",
  brightness: "oe",
  sound: "ie",
  sleepMin: "Pt",
  lockConsole: "lockConsole",
  flipMode: "se",
  players: "c",
  flipGrid: "re",
  unitFlips: "w",
  // MatchState and its parts
  config: "r",
  scores: "l",
  maker: "Yt",
  game: "e",
  history: "Sn",
  wrongInfo: "m",
  over: "jt",
  winner: "O",
  secret: "secret",
  rows: "Wt",
  pending: "x",
  phase: "Kt",
  guess: "Jt",
  feedback: "Qt",
  exact: "o",
  near: "a",
  correct: "nt",
  rowsPlayed: "tt",
  solved: "tn",
  replayed: "Ce",
  gained: "ge",
  // FlipState and its parts
  grid: "h",
  round: "dn",
  rounds: "Ge",
  master: "G",
  pick: "Xt",
  turn: "M",
  asked: "Se",
  log: "log",
  barred: "Z",
  wrongCards: "$",
  result: "en",
  finder: "ee",
  player: "Ie",
  kind: "te",
  yes: "b",
  card: "rt",
};

/** A save's checksum: the CRC-32 of a string's 8-bit characters (E.CRC32 on the unit; sim/board/saves.ts on the Node side). */
export type Crc = (s: string) => number;

/** One save's text. */
export function encodeSlot(json: string, seq: number, crc: Crc): string {
  return "BB" + SAVE_VERSION + "|" + seq + "|" + crc(json) + "|" + json;
}

/** A decoded save: its sequence number and its data (short keys). */
export interface Slot {
  seq: number;
  data: unknown;
}

/** A save's text -> its sequence and data, or why it cannot be used ("unknown format BB7", "checksum mismatch", "unreadable"). */
export function decodeSlot(text: string, crc: Crc): Slot | string {
  const parts = text.split("|");
  const head = parts.length >= 4 ? parts[0] + "|" + parts[1] + "|" + parts[2] + "|" : "";
  const json = text.slice(head.length);
  const seq = parseInt(parts[1], 10);
  if (parts[0] !== "BB" + SAVE_VERSION) return "unknown format " + parts[0].slice(0, 8);
  if (!head || isNaN(seq) || parseInt(parts[2], 10) !== crc(json)) return "checksum mismatch";
  try {
    return { seq: seq, data: JSON.parse(json) };
  } catch {
    return "unreadable";
  }
}

function renameKeys(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const o = value as Record<string, unknown>;
  for (const k in o) out[Object.prototype.hasOwnProperty.call(names, k) ? names[k] : k] = renameKeys(o[k], names);
  return out;
}

let longNames: Record<string, string> | null = null;

/** Saved data (short keys) -> the source's names (Node side: the simulator and the tests). */
export function expandKeys(data: unknown): unknown {
  if (!longNames) {
    longNames = {};
    for (const name in SAVE_KEYS) longNames[SAVE_KEYS[name]] = name;
  }
  return renameKeys(data, longNames);
}

/** The source's names -> saved data (short keys), to craft saves in tests. */
export function shortenKeys(data: unknown): unknown {
  return renameKeys(data, SAVE_KEYS);
}
