import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";

const acceptable = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request a correlation id (the caller's X-Correlation-Id when it is sensible, a new
 * one otherwise) and echoes it on every response, errors included.
 */
export function correlationId(): Middleware {
  return async function correlationId(ctx, next) {
    const offered = ctx.get("X-Correlation-Id");
    const id = acceptable.test(offered) ? offered : randomUUID();
    ctx.state.correlationId = id;
    ctx.set("X-Correlation-Id", id);
    await next();
  };
}
