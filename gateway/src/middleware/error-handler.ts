import type { Middleware } from "koa";
import { AppError, appErrorOfStoreFault, type Logger } from "@bayad/kit";
import { errorEnvelope } from "../envelope.js";

/**
 * The one error middleware, mounted first: every throw becomes an error envelope. Catalogue
 * errors keep their status and code, a store fault is a 503 (appErrorOfStoreFault), and anything
 * else is a 500 whose cause goes to the log only.
 */
export function errorHandler(logger: Logger): Middleware {
  return async function errorHandler(ctx, next) {
    try {
      await next();
    } catch (thrown) {
      const error = thrown instanceof AppError ? thrown : (appErrorOfStoreFault(thrown) ?? new AppError("INTERNAL_ERROR", undefined, { cause: thrown }));
      if (error.httpStatus >= 500) {
        logger.error(
          { err: error.cause ?? error, correlationId: ctx.state.correlationId, method: ctx.method, path: ctx.path },
          error.message,
        );
      }
      ctx.status = error.httpStatus;
      for (const [name, value] of Object.entries<string>(error.headers ?? {})) ctx.set(name, value);
      ctx.body = errorEnvelope(error, (ctx.state.correlationId as string | undefined) ?? "");
    }
  };
}
