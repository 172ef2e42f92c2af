/** Where npm start keeps the unit's Storage between runs when no --storage file is named. */
import { lstatSync, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where the unit's Storage lives between runs when --storage is not given: ~/.brainboard, or else a folder of
 * this user's own in the temporary directory (created 0700; used only when it is a real folder this user owns
 * that no one else can write, since a shared temporary directory lets others plant files and links there).
 * Null when neither will do.
 */
export function defaultStorageFile(profileId: string, home = homedir(), tmp = tmpdir()): string | null {
  const name = `storage-${profileId}.json`;
  try {
    mkdirSync(join(home, ".brainboard"), { recursive: true });
    return join(home, ".brainboard", name);
  } catch {
    // not writable: a private folder in the temporary directory
  }
  const uid = process.getuid?.() ?? -1;
  const dir = join(tmp, `brainboard-${uid >= 0 ? uid : "user"}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return null;
  }
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.isSymbolicLink() || (uid >= 0 && st.uid !== uid) || (st.mode & 0o077) !== 0) return null;
  } catch {
    return null;
  }
  return join(dir, name);
}
