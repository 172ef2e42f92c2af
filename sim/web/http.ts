/** HTTP plumbing of the web server: listening, bounded request bodies, the page's static files. */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync, type BuildOptions } from "esbuild";

export const PAGE_DIR = fileURLToPath(new URL("./page/", import.meta.url));

export const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off("listening", onListening);
      reject(e);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

export class BodyTooLarge extends Error {}

/** The request's body as text, at most `limit` bytes (else BodyTooLarge). */
export function body(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.pause();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A file of the page; its HTML carries the per-run token. */
export function serveStatic(path: string, res: ServerResponse, token: string): void {
  if (path === "/app.js" || path === "/style.css") {
    res.writeHead(200, { "content-type": TYPES[extname(path)], "cache-control": "no-cache" });
    res.end(path === "/app.js" ? pageScript() : pageStyle());
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(path === "/" ? "/index.html" : path);
  } catch {
    decoded = "\0";
  }
  const rel = normalize(decoded).replace(/^([/\\])+/, "");
  const file = join(PAGE_DIR, rel);
  if (
    decoded.includes("\0") ||
    !file.startsWith(PAGE_DIR.endsWith(sep) ? PAGE_DIR : PAGE_DIR + sep) ||
    !existsSync(file) ||
    !statSync(file).isFile()
  ) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found\n");
    return;
  }
  const type = TYPES[extname(file)] ?? "application/octet-stream";
  if (extname(file) === ".ts") {
    // The page's sources are served compiled (pageScript), not as they are.
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found\n");
    return;
  }
  if (extname(file) === ".html") {
    // The page learns the per-run token from its own HTML: a page of another origin cannot read it.
    const html = readFileSync(file, "utf8").replace(/<head>/i, (h) => `${h}\n    <meta name="brainboard-token" content="${token}" />`);
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", "x-frame-options": "DENY" });
    res.end(html);
    return;
  }
  res.writeHead(200, { "content-type": type, "cache-control": "no-cache" });
  res.end(readFileSync(file));
}

const compiled = new Map<string, { at: number; code: string }>();

/** The latest change (ms) to a file of `dir` (and its subfolders) whose name ends with `ext`. */
function changedAt(dir: string, ext: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(ext))
      .map((f) => statSync(join(dir, f)).mtimeMs),
  );
}

/** `entry` of the page and what it imports, bundled by esbuild, again whenever a source file of its kind changed since. */
function bundled(entry: string, ext: string, options: BuildOptions): string {
  const at = changedAt(PAGE_DIR, ext);
  let out = compiled.get(entry);
  if (out?.at !== at) {
    const built = buildSync({ entryPoints: [join(PAGE_DIR, entry)], bundle: true, logLevel: "silent", ...options, write: false });
    out = { at, code: built.outputFiles[0].text };
    compiled.set(entry, out);
  }
  return out.code;
}

/** The page's script: sim/web/page/app.ts and the modules it imports, for the browser. */
export function pageScript(): string {
  return bundled("app.ts", ".ts", { format: "esm", target: "es2020", sourcemap: "inline" });
}

/** The page's style sheet: sim/web/page/style.css and the parts it imports (style/*.css), in one file. */
export function pageStyle(): string {
  return bundled("style.css", ".css", { target: "chrome100" });
}
