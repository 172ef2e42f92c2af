// The simulator page: draws the unit from /api/layout, paints it from the state the server streams
// (/api/events), and sends key presses and commands back (/api/command, /api/view). It keeps no
// state of the board or the view: every LED, switch and reading comes from the server.
// This module starts the page and follows the server; the others, by job: state.ts (what they share),
// unit.ts (drawing the unit), paint.ts (painting it), panel.ts (the words), input.ts (keys),
// controls.ts (the panel's buttons), link.ts (requests), sound.ts (the buzzer), api.ts (the token).

import { apiEvents, apiFetch, currentToken, token } from "./api.ts";
import type { SimLayout } from "../types.ts";
import { page } from "./state.ts";
import { showOffline } from "./link.ts";
import { audio } from "./sound.ts";
import { build, resize, stickyPadding } from "./unit.ts";
import { paint } from "./paint.ts";
import "./input.ts";
import "./controls.ts";

let layoutText = "";
/** Fetches the unit's layout and (re)draws the unit when it differs (the server may restart with another profile). */
async function loadLayout() {
  const text = await (await apiFetch("api/layout")).text();
  if (text === layoutText) return;
  layoutText = text;
  page.layout = JSON.parse(text) as SimLayout;
  build();
}

/** Brain Flip's pictures, once: each SVG becomes an image URL for the cards. */
async function loadPictures() {
  const list = (await (await apiFetch("api/pictures")).json()) as { id: number; name: string; svg: string }[];
  page.pictures = {};
  for (const p of list) page.pictures[p.id] = { name: p.name, url: URL.createObjectURL(new Blob([p.svg], { type: "image/svg+xml" })) };
  if (page.lastState) paint(page.lastState);
}

/** Polls the server while it is not reachable, this often. */
const RECONNECT_MS = 1000;

/**
 * Follows the server's event stream. When the stream closes (the simulator stopped), the page asks its own
 * origin for the page again until it answers: the same token opens the stream again; a new token (the
 * simulator restarted) reloads the page, which then carries it.
 */
function follow(): void {
  const events = apiEvents("api/events");
  events.addEventListener("open", () => loadLayout().catch(() => showOffline(true)));
  events.addEventListener("state", (e: MessageEvent<string>) => {
    showOffline(false);
    paint(JSON.parse(e.data));
  });
  events.addEventListener("tone", (e: MessageEvent<string>) => {
    const d = JSON.parse(e.data);
    audio.play(d.now, d.tones);
  });
  events.addEventListener("error", () => {
    showOffline(true);
    // The browser retries by itself while the server is merely away; a refusal (403: a new token) closes the stream.
    if (events.readyState === EventSource.CLOSED) void reconnect();
  });
}

async function reconnect(): Promise<void> {
  for (;;) {
    await new Promise((r) => setTimeout(r, RECONNECT_MS));
    const now = await currentToken();
    if (now === null) continue;
    // A new token, or a page that never drew the unit: load the page again.
    if (now !== token() || !layoutText) location.reload();
    else follow();
    return;
  }
}

window.addEventListener("resize", resize);
new ResizeObserver(stickyPadding).observe(document.querySelector(".now")!);

async function start() {
  await loadLayout();
  loadPictures().catch((e) => console.error(e));
  follow();
  document.addEventListener("pointerdown", () => audio.unlock(), { once: true });
}

start().catch((e) => {
  showOffline(true);
  console.error(e);
  void reconnect();
});
