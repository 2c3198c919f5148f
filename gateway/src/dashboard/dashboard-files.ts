import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type Router from "@koa/router";
import type { Context } from "koa";
import { contentSecurityPolicy } from "../html.js";
import { sessionPath } from "./session-routes.js";

/**
 * The dashboard's built files (gateway/dashboard's dist/, a dependency of the gateway), served at
 * /dashboard: hashed assets for a year, and index.html for every other path under /dashboard so
 * the app's own routes survive a reload or a shared link. Read once at start-up: a few hundred
 * kilobytes, kept in memory with their gzip.
 */

/** The app's scripts and styles are its own files: nothing inline runs, nothing loads from elsewhere. */
export const dashboardPolicy = contentSecurityPolicy({
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'"],
  "connect-src": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
});

interface ServedFile {
  type: string;
  plain: Buffer;
  gzipped: Buffer;
}

const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

function servedFile(path: string, type: string): ServedFile {
  const plain = readFileSync(path);
  return { type, plain, gzipped: gzipSync(plain) };
}

/** The built dashboard, or undefined when gateway/dashboard has not been built. */
export function loadDashboardFiles(distDir = defaultDistDir()): { index: ServedFile; assets: Map<string, ServedFile> } | undefined {
  const indexPath = join(distDir, "index.html");
  if (!existsSync(indexPath)) return undefined;
  const assets = new Map<string, ServedFile>();
  const assetsDir = join(distDir, "assets");
  for (const name of existsSync(assetsDir) ? readdirSync(assetsDir) : []) {
    const type = types[extname(name)];
    if (type) assets.set(name, servedFile(join(assetsDir, name), type));
  }
  return { index: servedFile(indexPath, "text/html; charset=utf-8"), assets };
}

function defaultDistDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@bayad/dashboard/package.json")), "dist");
}

function send(ctx: Context, file: ServedFile, cacheControl: string): void {
  ctx.set("Content-Security-Policy", dashboardPolicy);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Frame-Options", "DENY");
  ctx.set("Cache-Control", cacheControl);
  ctx.vary("Accept-Encoding");
  ctx.type = file.type;
  if (ctx.acceptsEncodings("gzip", "identity") === "gzip") {
    ctx.set("Content-Encoding", "gzip");
    ctx.body = file.gzipped;
  } else {
    ctx.body = file.plain;
  }
}

/** Where the session API lives: never answered with the app's page. */
const sessionApiPrefix = `${dirname(sessionPath)}/`;

/** GET /dashboard and everything under it except the session API. */
export function dashboardFileRoutes(files = loadDashboardFiles()) {
  return (router: Router) => {
    // The router also matches "/dashboard/" here (a trailing slash is allowed): only the bare path moves.
    router.get("/dashboard", async (ctx, next) => {
      if (ctx.path === "/dashboard") ctx.redirect("/dashboard/");
      else await next();
    });
    router.get("/dashboard/assets/:name", async (ctx, next) => {
      const file = files?.assets.get(ctx.params.name ?? "");
      if (file) send(ctx, file, "public, max-age=31536000, immutable");
      else await next();
    });
    router.get("/dashboard/{*page}", async (ctx, next) => {
      // The session API and missing assets fall through to the JSON 404.
      if (ctx.path.startsWith(sessionApiPrefix) || ctx.path.startsWith("/dashboard/assets/")) {
        await next();
        return;
      }
      if (!files) {
        ctx.status = 503;
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = "The dashboard has not been built: run `npm run build` (npm start does), then reload.";
        return;
      }
      send(ctx, files.index, "no-cache");
    });
  };
}
