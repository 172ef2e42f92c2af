/**
 * Friendly names for the unit's keys, and the keyboard shortcuts of the simulator page. One table,
 * derived from the profile: grid aliases from keymap.grid and the play screen's grid positions
 * (firmware/ui/layout.ts), codemaker aliases from keymap.maker. Scripts, the command line, the page
 * and the README all use these.
 *
 *   ok menu undo clear            the play screen's controls on the 6x6 pad
 *   red green ... black           the colour keys (PEG_NAMES order)
 *   blank  slot1..slotN           the blank key and one slot key per hole
 *   maker.red ... maker.black     the codemaker pad's colour keys
 *   maker.blank / maker.exact / maker.yes, maker.near / maker.no, maker.undo, maker.ok
 */
import { keyList, type KeyInfo, type Profile } from "./profile.ts";
import { G_BLANK, G_CLEAR, G_COLOUR, G_MENU, G_OK, G_SLOT, G_UNDO } from "../firmware/ui/layout.ts";
import { PEG_NAMES } from "../firmware/ui/palette.ts";

/** A friendly name for a key: `alias` means key `id`. */
export interface KeyAlias {
  alias: string;
  id: string;
  /** What the key does on the play screen, for legends and docs. */
  about: string;
}

/** Every alias of the profile's keys, in a stable order (grid first, then the codemaker pad). */
export function keyAliases(profile: Profile): KeyAlias[] {
  const grid = profile.keymap.grid;
  const out: KeyAlias[] = [];
  const add = (alias: string, id: string | undefined, about: string) => {
    if (id) out.push({ alias, id, about });
  };
  add("ok", grid[G_OK], "OK: submit the row, start the match");
  add("menu", grid[G_MENU], "menu");
  add("undo", grid[G_UNDO], "undo the last peg");
  add("clear", grid[G_CLEAR], "clear the row");
  PEG_NAMES.forEach((name, i) => add(name, grid[G_COLOUR + i], `colour ${i + 1} (${name})`));
  add("blank", grid[G_BLANK], "blank peg");
  for (let i = 0; i < profile.pegs; i++) add(`slot${i + 1}`, grid[G_SLOT + i], `select hole ${i + 1}`);
  const mk = profile.keymap.maker;
  if (mk) {
    PEG_NAMES.forEach((name, i) => add(`maker.${name}`, mk.colours[i], `codemaker: colour ${i + 1} (${name})`));
    add("maker.blank", mk.blank, "codemaker: blank peg");
    add("maker.exact", mk.exact, "codemaker: one exact (black or red)");
    add("maker.yes", mk.yes, "codemaker: yes");
    add("maker.near", mk.near, "codemaker: one near (white)");
    add("maker.no", mk.no, "codemaker: no");
    add("maker.undo", mk.undo, "codemaker: undo");
    add("maker.ok", mk.ok, "codemaker: OK");
  }
  return out;
}

/** The key id an alias or key id names on this profile, or undefined. Case-insensitive. `keys`: keyList's, when worked out already. */
export function resolveKey(profile: Profile, name: string, keys: KeyInfo[] = keyList(profile)): string | undefined {
  const n = name.toLowerCase();
  const direct = keys.find((k) => k.id.toLowerCase() === n);
  if (direct) return direct.id;
  return keyAliases(profile).find((a) => a.alias === n)?.id;
}

/** The key ids as ranges per matrix, for messages: "p11..p66, m11..m34". */
export function keyRanges(profile: Profile, keys: KeyInfo[] = keyList(profile)): string {
  const byMatrix = new Map<string, KeyInfo[]>();
  for (const k of keys) {
    if (!byMatrix.has(k.matrix)) byMatrix.set(k.matrix, []);
    byMatrix.get(k.matrix)!.push(k);
  }
  return [...byMatrix.values()].map((ks) => (ks.length === 1 ? ks[0].id : `${ks[0].id}..${ks[ks.length - 1].id}`)).join(", ");
}

/** The aliases, compactly, for messages: "ok, menu, undo, clear, red..black, blank, slot1..slot5, maker.red..maker.black, ...". */
export function aliasSummary(profile: Profile): string {
  const names = new Set(keyAliases(profile).map((a) => a.alias));
  const parts = ["ok", "menu", "undo", "clear"].filter((n) => names.has(n));
  if (names.has("red")) parts.push(`red..${PEG_NAMES[PEG_NAMES.length - 1]}`);
  if (names.has("blank")) parts.push("blank");
  parts.push(`slot1..slot${profile.pegs}`);
  if (names.has("maker.red")) parts.push("maker.red..maker.black", "maker.blank/exact/yes", "maker.near/no", "maker.undo", "maker.ok");
  return parts.join(", ");
}

/**
 * A keyboard shortcut of the page. `combo` is what the page computes from a KeyboardEvent:
 * "Shift+" when shift is held, then the digit or lower-case letter of `event.code`
 * (Digit1 -> "1", KeyQ -> "q"), or else `event.key` ("Enter", "Backspace", "Escape").
 */
export interface Shortcut {
  combo: string;
  id: string;
  alias: string;
}

/** The page's keyboard shortcuts for this profile. */
export function keyboardShortcuts(profile: Profile): Shortcut[] {
  const aliases = new Map(keyAliases(profile).map((a) => [a.alias, a.id]));
  const out: Shortcut[] = [];
  const add = (combo: string, alias: string) => {
    const id = aliases.get(alias);
    if (id) out.push({ combo, id, alias });
  };
  PEG_NAMES.forEach((name, i) => add(String(i + 1), name));
  add("9", "blank");
  add("0", "blank");
  const slotKeys = ["q", "w", "e", "r", "t", "y"];
  for (let i = 0; i < profile.pegs && i < slotKeys.length; i++) add(slotKeys[i], `slot${i + 1}`);
  add("Enter", "ok");
  add("Backspace", "undo");
  add("Escape", "clear");
  add("Delete", "clear");
  add("m", "menu");
  const makerRow = ["a", "s", "d", "f", "g", "h", "j", "k"];
  PEG_NAMES.forEach((name, i) => {
    add(makerRow[i], `maker.${name}`);
    add(`Shift+${i + 1}`, `maker.${name}`);
  });
  add("z", "maker.blank");
  add("Shift+9", "maker.blank");
  add("Shift+0", "maker.blank");
  add("x", "maker.near");
  add("c", "maker.undo");
  add("Shift+Backspace", "maker.undo");
  add("v", "maker.ok");
  add("Shift+Enter", "maker.ok");
  return out;
}
