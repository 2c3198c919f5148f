import type { Middleware } from "koa";
import { AppError } from "@bayad/kit";
import type { OperationSpec } from "../openapi/document.js";

/**
 * Mounted after the router: a path no operation has is a 404; a known path with another method
 * is a 405 with the Allow header.
 */
export function routeNotFound(operations: OperationSpec[]): Middleware {
  return async function routeNotFound(ctx, next) {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const allowed = [...new Set(operations.filter((spec) => spec.pattern.test(ctx.path)).map((spec) => spec.method))];
    if (allowed.length > 0) {
      throw new AppError("METHOD_NOT_ALLOWED", `${ctx.method} is not allowed here; use ${allowed.join(", ")}.`, {
        headers: { Allow: allowed.join(", ") },
      });
    }
    throw new AppError("ROUTE_NOT_FOUND", `No route ${ctx.method} ${ctx.path}.`);
  };
}
