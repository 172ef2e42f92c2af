/** The page's requests to the server: key presses and script lines, the view's switches, and what it shows when they fail. */
import type { ViewSwitches } from "../types.ts";
import { apiFetch } from "./api.ts";
import { $ } from "./state.ts";
import { audio } from "./sound.ts";

let queue: Promise<unknown> = Promise.resolve();
/** Sends script lines to the board, one request after another (a release never overtakes its press). */
export function command(text: string): Promise<unknown> {
  queue = queue
    .then(() => apiFetch("api/command", { method: "POST", headers: { "content-type": "text/plain" }, body: text }))
    .then(async (res) => {
      if (!res.ok) toast((await res.json()).error || `${text}: HTTP ${res.status}`);
    })
    .catch(() => showOffline(true));
  return queue;
}

export function setView(change: Partial<ViewSwitches>): void {
  apiFetch("api/view", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(change) }).catch(() =>
    showOffline(true),
  );
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
export function toast(message: string): void {
  const el = $("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 5000);
}

/** The server is gone (or back): the page says so, greys the unit out and stops its clock. */
export function showOffline(on: boolean): void {
  const was = document.body.classList.contains("offline");
  $("offline").hidden = !on;
  document.body.classList.toggle("offline", on);
  if (on && !was) {
    $("status").textContent =
      "The unit is not reachable: the simulator has stopped. Start it again (npm start); this page reconnects by itself.";
    $("alert").hidden = true;
    $("clock").textContent = "not reachable · the clock has stopped";
    audio.silence();
  }
}
