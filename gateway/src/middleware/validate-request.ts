import type { Middleware } from "koa";
import type { RequestValidator } from "../openapi/request-validator.js";

/** Checks path, query and body against the operation's OpenAPI schemas (400 naming each field). */
export function validateRequest(validator: RequestValidator): Middleware {
  return async function validateRequest(ctx, next) {
    // No copies here: the validator copies params and query once, since validation writes to them.
    ctx.state.input = validator({
      params: (ctx as unknown as { params?: Record<string, string> }).params ?? {},
      query: ctx.query,
      body: ctx.state.body,
    });
    await next();
  };
}
