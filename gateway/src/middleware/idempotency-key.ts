import type { Middleware } from "koa";
import { AppError } from "@bayad/kit";

/** Every mutation names its Idempotency-Key: 16 to 255 characters. */
export function idempotencyKey(): Middleware {
  return async function idempotencyKey(ctx, next) {
    const key = ctx.get("Idempotency-Key");
    if (key === "") {
      throw new AppError("IDEMPOTENCY_KEY_REQUIRED", undefined, { details: ["Idempotency-Key: is required"] });
    }
    if (key.length < 16 || key.length > 255) {
      throw new AppError("IDEMPOTENCY_KEY_INVALID", undefined, {
        details: [`Idempotency-Key: must be 16 to 255 characters, got ${key.length}`],
      });
    }
    ctx.state.idempotencyKey = key;
    await next();
  };
}
