import { createHash } from "node:crypto";

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A URL a page may link to: only http and https (a `javascript:` or `data:` URL in an href runs
 * or renders in the page's origin even when escaped). Anything else becomes "#".
 */
export function linkableUrl(url: string): string {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:" ? url : "#";
  } catch {
    return "#";
  }
}

/** The CSP source that allows exactly one inline <style> element, by the hash of its text. */
export function styleHash(css: string): string {
  return `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
}

/** A Content-Security-Policy header value from its directives. */
export function contentSecurityPolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}
