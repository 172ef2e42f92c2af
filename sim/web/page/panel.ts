/** The page's words: the status line, the passing alert and the live region, the latest row, the numbers panel, the watcher's lines. */
import type { UnitStatus } from "../../views/status.ts";
import type { WatchStatus } from "../../play/watch.ts";
import { $, ledEls, page, setText } from "./state.ts";

/** What the live region said last. */
let lastSaid = "";

/** The status line (what the unit shows, what to do next), the passing alert, and the numbers panel. */
export function paintStatus(st: UnitStatus, watching: WatchStatus | null): void {
  // While the unit plays both sides the status line speaks to the person watching, not to a player.
  setText(
    $("status"),
    watching?.running ? `Watching the unit play: ${watching.line}. Press Stop (or any key of the unit) to take over.` : st.line,
  );
  // Refusals and each row's answer are said through a live region, once each.
  const alert = $("alert");
  alert.hidden = !st.alert;
  const why = page.idlePress && performance.now() - page.idlePress.at < 1500 && st.alert ? ` (${page.idlePress.about})` : "";
  setText(alert, `${st.alert ?? ""}${why}`);
  const said = st.alert ? alert.textContent : st.lastRow || "";
  if (said && said !== lastSaid) setText($("announce"), said);
  lastSaid = said;
  paintLastRow(st.lastRow);
  setText($("game"), st.game || "No game yet.");
  const list = <T>(el: HTMLElement, rows: T[], item: (row: T) => HTMLElement[]) => {
    const text = JSON.stringify(rows);
    if (el.dataset.text === text) return;
    el.dataset.text = text;
    el.replaceChildren(...rows.flatMap(item));
  };
  const pair = (term: string, value: string) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    return [dt, dd];
  };
  // "1 point", "1 hole": the unit is named in the plural.
  list($("scores"), st.scores, (sc) => pair(sc.name, `${sc.value} ${sc.value === 1 ? sc.unit.replace(/s$/, "") : sc.unit}`));
  list($("facts"), st.facts, (f) => pair(f.label, f.value));
  list($("history"), st.history, (h) => {
    const li = document.createElement("li");
    li.textContent = h;
    return [li];
  });
  $("history-title").hidden = st.history.length === 0;
}

/**
 * The latest row played, in words ("row 3: 2 exact, 1 near") and as small pegs copied from the board: on a
 * phone it stays in view with the status line while the player keys on the pad, a screen below the board.
 */
function paintLastRow(words: string | undefined): void {
  const el = $<HTMLElement>("last-row");
  const n = words ? Number(/^row (\d+)/.exec(words)?.[1]) : 0;
  el.hidden = !words;
  if (!words) return;
  setText(el.querySelector(".last-row-words"), words);
  const pegs = el.querySelector<HTMLElement>(".last-row-pegs")!;
  const g = page.layout.geometry;
  // The row's holes and key LEDs as the board shows them (a board of fewer rows than the game's: words only).
  const holes =
    n >= 1 && n <= g.rows
      ? [...(ledEls.board || []).slice((n - 1) * g.pegs, n * g.pegs), null, ...(ledEls.keys || []).slice((n - 1) * g.pegs, n * g.pegs)]
      : [];
  const shown = holes.filter((h) => !h || !h.classList.contains("unused"));
  while (pegs.children.length > shown.length) pegs.lastElementChild!.remove();
  while (pegs.children.length < shown.length) pegs.append(document.createElement("i"));
  shown.forEach((hole, i) => {
    const peg = pegs.children[i] as HTMLElement;
    peg.className = hole
      ? `mini${hole.classList.contains("hole-keypeg") ? " mini-key" : ""}${hole.classList.contains("lit") ? " lit" : ""}`
      : "gap";
    peg.style.cssText = hole ? (hole.style.cssText.match(/--(c|ring):[^;]*;/g)?.join("") ?? "") : "";
  });
}

/** Watching the unit play: the buttons, the latest line, the recent ones (newest last). */
export function paintWatch(w: WatchStatus | null): void {
  $("watch").disabled = !!(w && w.running);
  $("watch").textContent = w && !w.running ? "Watch again" : "Watch the unit play";
  $("watch-stop").disabled = !(w && w.running);
  if (!w) return;
  const status = $("watch-status");
  status.textContent = (w.running ? "▶ " : "■ ") + w.line;
  status.classList.toggle("running", w.running);
  const log = $("watch-log");
  log.hidden = w.log.length === 0;
  const text = w.log.join("\n");
  if (log.dataset.text === text) return;
  log.dataset.text = text;
  log.replaceChildren(
    ...w.log.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }),
  );
  log.scrollTop = log.scrollHeight;
}
