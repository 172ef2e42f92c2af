/**
 * The USB console's lock (Espruino's password): while locked, the console asks for a password no one
 * knows, so the Storage (and a secret in it) cannot be read over USB. The ui says when (Screen.locksConsole).
 */
let locked = false;

/** Locks or unlocks the console; does nothing when it already is as wanted. */
export function lockConsole(want: boolean): void {
  if (want === locked) return;
  locked = want;
  if (want) {
    let pw = "";
    for (let i = 0; i < 20; i++) pw += String.fromCharCode(65 + ((E.hwRand() >>> 0) % 26));
    E.setPassword(pw);
    E.lockConsole();
  } else E.setPassword();
}
