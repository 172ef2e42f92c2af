/**
 * The page's client for the simulator's API: every request carries the server's per-run token, read from
 * the HTML the server served (a page of another origin cannot read it); the event stream, which cannot send
 * headers, carries it as ?token=.
 */
const TOKEN_HEADER = "x-brainboard-token";

/** The token of the page as loaded. */
export const token = (): string => document.querySelector('meta[name="brainboard-token"]')?.getAttribute("content") ?? "";

/** fetch() on the API with the token. */
export function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(TOKEN_HEADER, token());
  return fetch(path, { ...init, headers });
}

/** The API's event stream, with the token. */
export function apiEvents(path: string): EventSource {
  return new EventSource(`${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token())}`);
}

/**
 * The token the server now hands out, read from a fresh copy of the page's own HTML (same origin, so no
 * other page can do this): after the simulator restarts it differs from the one this page was loaded with.
 */
export async function currentToken(): Promise<string | null> {
  try {
    const res = await fetch(location.pathname || "/", { cache: "no-store" });
    if (!res.ok) return null;
    const html = await res.text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    return doc.querySelector('meta[name="brainboard-token"]')?.getAttribute("content") ?? null;
  } catch {
    return null;
  }
}
