import type { Middleware } from "koa";
import getRawBody from "raw-body";
import { AppError } from "@bayad/kit";

/**
 * Reads a JSON request body into ctx.state.body: at most `limitBytes` (413), only
 * application/json (415), and well-formed (400). An absent or empty body reads as undefined.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async function jsonBody(ctx, next) {
    const declaredLength = Number(ctx.get("Content-Length") || "0");
    const chunked = ctx.get("Transfer-Encoding") !== "";
    if (declaredLength === 0 && !chunked) {
      ctx.state.body = undefined;
      return next();
    }
    if (declaredLength > limitBytes) throw tooLarge(limitBytes);
    if (!ctx.is("application/json")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", undefined, {
        details: [`Content-Type: must be application/json, got ${ctx.get("Content-Type") || "none"}`],
      });
    }
    let text: string;
    try {
      text = await getRawBody(ctx.req, { limit: limitBytes, encoding: "utf8" });
    } catch (error) {
      if ((error as { type?: string }).type === "entity.too.large") throw tooLarge(limitBytes);
      throw new AppError("MALFORMED_JSON", "The request body could not be read.", { cause: error });
    }
    if (text.trim() === "") {
      ctx.state.body = undefined;
      return next();
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch (error) {
      throw new AppError("MALFORMED_JSON", undefined, { details: ["body: is not valid JSON"], cause: error });
    }
    return next();
  };
}

function tooLarge(limitBytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body must be at most ${limitBytes} bytes.`);
}
