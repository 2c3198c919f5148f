import { escapeHtml } from "../html.js";
import type { OpenApiDocument, OpenApiOperation } from "./document.js";

/** Any value of the document as escaped text (absent values as nothing). */
const escape = (value: unknown): string => escapeHtml(String(value ?? ""));

/**
 * A readable page of the contract, rendered on the server from the same document that drives
 * validation (no external scripts: it must work on a closed network).
 */
export function renderDocsPage(doc: OpenApiDocument): string {
  const info = doc.info as { title?: string; version: string; description?: string };
  const sections: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const operation = value as OpenApiOperation & { summary?: string; description?: string };
      if (!operation || typeof operation !== "object" || !("operationId" in operation)) continue;
      const statuses = Object.keys(operation.responses).join(", ");
      sections.push(`<section id="${escape(operation.operationId)}">
  <h3><code>${escape(method.toUpperCase())} ${escape(path)}</code> — ${escape(operation.operationId)}</h3>
  ${operation.summary ? `<p><strong>${escape(operation.summary)}</strong></p>` : ""}
  ${operation.description ? `<pre class="description">${escape(operation.description)}</pre>` : ""}
  <p>Scopes: ${escape((operation["x-scopes"] ?? []).join(", ") || "none")} · Responses: ${escape(statuses)}</p>
</section>`);
    }
  }
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escape(info.title ?? "API")} ${escape(info.version)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}section{border-top:1px solid #ddd}</style></head>
<body>
<h1>${escape(info.title ?? "API")} <small>${escape(info.version)}</small></h1>
<p>The machine-readable contract is at <a href="/openapi.json">/openapi.json</a>.</p>
<pre class="description">${escape(info.description ?? "")}</pre>
${sections.join("\n")}
</body>
</html>`;
}
