import type { Context } from "koa";

/**
 * The headers of everything the sandbox serves to payers' browsers (hosted pages, QR images):
 * `policy` as the Content-Security-Policy (X-Frame-Options for browsers without
 * frame-ancestors); never cached, since each answer shows one payer's resource and its status
 * changes; no Referer, because the URL carries the page token, which is the capability to pay;
 * no content sniffing.
 */
export function setSandboxResponseHeaders(ctx: Pick<Context, "set">, policy: string): void {
  ctx.set("Content-Security-Policy", policy);
  ctx.set("X-Frame-Options", "DENY");
  ctx.set("Cache-Control", "no-store");
  ctx.set("Referrer-Policy", "no-referrer");
  ctx.set("X-Content-Type-Options", "nosniff");
}
