import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type Router from "@koa/router";
import type { Context } from "koa";
import { contentSecurityPolicy, escapeHtml } from "../html.js";
import type { OpenApiDocument } from "./document.js";

/**
 * Scalar's API reference, from its package's own browser bundle, which the build copies into
 * dist/docs-assets (scripts/copy-docs-bundle.mjs): the page fetches nothing from another origin
 * and works on a closed network. The path is the same from src/openapi (tests) and dist/openapi.
 */
const assetsDir = new URL("../../dist/docs-assets/", import.meta.url);
const bundleFile = new URL("scalar-api-reference.js", assetsDir);
const bundleVersion = (JSON.parse(readFileSync(new URL("scalar-api-reference.json", assetsDir), "utf8")) as { version: string }).version;

/** The bundle's URL names its version, so browsers may keep it for a year: an upgrade changes the URL. */
export const docsBundlePath = `/docs/assets/scalar-api-reference-${bundleVersion}.js`;

/**
 * What the renderer may do: run the gateway's own scripts (none inline), set the inline styles
 * its components use, load images from itself or data: URLs, and fetch from the gateway alone
 * (/openapi.json, and "Test Request" calls, whose server is this gateway).
 */
const docsPolicy = contentSecurityPolicy({
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
  "frame-ancestors": ["'none'"],
});

/**
 * The renderer's configuration, read by the bundle from the `data-configuration` attribute: no
 * fonts, links or features that reach Scalar's own servers, and the gateway itself as the one
 * server (the document's `{base_url}` default would point a browser at localhost:8080).
 */
const scalarConfiguration = {
  url: "/openapi.json",
  servers: [{ url: "/", description: "This gateway" }],
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  telemetry: false,
  agent: { disabled: true },
};

/** The /docs page: the bundle pointed at /openapi.json, with nothing inline to run. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const info = doc.info as { title?: string; version: string };
  const title = escapeHtml(`${info.title ?? "API"} ${info.version}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body>
<noscript><p>${title}: this reference needs JavaScript. The contract itself is at <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<script id="api-reference" data-url="/openapi.json" data-configuration="${escapeHtml(JSON.stringify(scalarConfiguration))}"></script>
<script src="${docsBundlePath}"></script>
</body>
</html>`;
}

/** The bundle as read once, and gzipped once, on its first request (most gateways never serve it). */
let bundle: Promise<{ plain: Buffer; gzipped: Buffer }> | undefined;
const loadBundle = () =>
  (bundle ??= readFile(bundleFile).then(async (plain) => ({ plain, gzipped: await promisify(gzip)(plain) })));

const setDocsHeaders = (ctx: Pick<Context, "set">) => {
  ctx.set("Content-Security-Policy", docsPolicy);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Referrer-Policy", "no-referrer");
};

/** GET /docs and the renderer's bundle. */
export function docsRoutes(doc: OpenApiDocument) {
  // The document never changes while running: render the page once, not per request.
  const page = renderDocsPage(doc);
  return (router: Router) => {
    router.get("/docs", (ctx) => {
      setDocsHeaders(ctx);
      ctx.set("Cache-Control", "no-cache");
      ctx.type = "html";
      ctx.body = page;
    });
    router.get(docsBundlePath, async (ctx) => {
      const { plain, gzipped } = await loadBundle();
      setDocsHeaders(ctx);
      ctx.set("Cache-Control", "public, max-age=31536000, immutable");
      ctx.vary("Accept-Encoding");
      ctx.type = "text/javascript; charset=utf-8";
      if (ctx.acceptsEncodings("gzip", "identity") === "gzip") {
        ctx.set("Content-Encoding", "gzip");
        ctx.body = gzipped;
      } else {
        ctx.body = plain;
      }
    });
  };
}
