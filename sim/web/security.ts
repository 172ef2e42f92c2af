/**
 * Who the web server answers: requests whose Host names it (127.0.0.1, localhost, [::1], or an IP literal /
 * this machine's name when --host lets other machines in) at its own port, whose Origin, if any, is its own,
 * and, for /api/, that carry the per-run token (header, or ?token= for the event stream).
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { hostname as machineName } from "node:os";
import { TOKEN_HEADER } from "./types.ts";

/** Whether a request may name this server by `hostHeader` (a foreign name is DNS rebinding). */
export function hostAllowed(hostHeader: string | undefined, port: number, listenHost: string | undefined): boolean {
  if (!hostHeader) return false;
  let u: URL;
  try {
    u = new URL(`http://${hostHeader}`);
  } catch {
    return false;
  }
  if (u.username || u.password || u.pathname !== "/" || Number(u.port || 80) !== port) return false;
  const name = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (name === "localhost" || name === "127.0.0.1" || name === "::1") return true;
  // Listening beyond loopback (--host): other machines name it by address, or by this machine's name.
  const wide = !!listenHost && listenHost !== "127.0.0.1" && listenHost !== "localhost" && listenHost !== "::1";
  return wide && (isIP(name) !== 0 || name === machineName().toLowerCase());
}

/** Whether the request carries the per-run token (compared in constant time). */
export function tokenOk(req: IncomingMessage, url: URL, token: string): boolean {
  const given = String(req.headers[TOKEN_HEADER] ?? url.searchParams.get("token") ?? "");
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a request is refused (status and words), or null when it may be answered. */
export function refusal(
  req: IncomingMessage,
  url: URL,
  port: number,
  listenHost: string | undefined,
  token: string,
): [number, string] | null {
  if (!hostAllowed(req.headers.host, port, listenHost))
    return [403, `the Host header must name this server (127.0.0.1:${port} or localhost:${port})`];
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return [403, "requests from other origins are not served"];
  if (url.pathname.startsWith("/api/")) {
    if (req.headers["sec-fetch-site"] === "cross-site") return [403, "requests from other sites are not served"];
    if (!tokenOk(req, url, token))
      return [403, `a missing or wrong token: the page sends it (header ${TOKEN_HEADER}), from the HTML this server served`];
  }
  return null;
}
