import type { Middleware } from "koa";
import type { RequestValidator } from "../openapi/request-validator.js";

/** Checks path, query and body against the operation's OpenAPI schemas (400 naming each field). */
export function validateRequest(validator: RequestValidator): Middleware {
  return async function validateRequest(ctx, next) {
    // The router's captures are the path parameters still percent-encoded: the validator decodes
    // them, and the query string, strictly (the router and Koa's ctx.query guess at bad escapes).
    ctx.state.input = validator({
      pathSegments: (ctx as unknown as { captures?: string[] }).captures ?? [],
      querystring: ctx.querystring,
      body: ctx.state.body,
    });
    await next();
  };
}
