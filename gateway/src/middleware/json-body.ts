import type { IncomingMessage } from "node:http";
import type { Middleware } from "koa";
import getRawBody from "raw-body";
import { AppError } from "@bayad/kit";

/**
 * How much of a body over the limit is still read, and thrown away, so that the connection can
 * carry the client's next request. A body larger than the limit by more than this is answered
 * with `Connection: close` instead: reading it all would let any client make the gateway receive
 * as much as it likes.
 */
export const discardedBodyBytes = 1_048_576;

// Fatal: a byte sequence that is not UTF-8 is refused, never replaced by U+FFFD and stored.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Reads a JSON request body into ctx.state.body: at most `limitBytes` (413), only
 * application/json in UTF-8 without a content coding (415), valid UTF-8 (400 VALIDATION_FAILED naming `body`) and well-formed
 * JSON (400 MALFORMED_JSON). An absent or empty body reads as undefined.
 */
export function jsonBody(limitBytes: number): Middleware {
  return async function jsonBody(ctx, next) {
    const declaredLength = Number(ctx.get("Content-Length") || "0");
    const chunked = ctx.get("Transfer-Encoding") !== "";
    if (declaredLength === 0 && !chunked) {
      ctx.state.body = undefined;
      await next();
      return;
    }
    if (declaredLength > limitBytes) {
      // Nothing read yet: the whole body is what is left.
      throw tooLarge(limitBytes, declaredLength <= limitBytes + discardedBodyBytes && (await discardRest(ctx.req)));
    }
    if (!ctx.is("application/json")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", undefined, {
        details: [`Content-Type: must be application/json, got ${ctx.get("Content-Type") || "none"}`],
      });
    }
    // Read as what it is not, a UTF-16 or gzipped body would be refused as malformed at best and
    // stored altered at worst: name the header that is not supported instead.
    const charset = ctx.request.charset;
    if (charset !== "" && charset.toLowerCase() !== "utf-8") {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", undefined, { details: [`Content-Type: charset must be utf-8, got ${charset}`] });
    }
    const encoding = ctx.get("Content-Encoding").trim().toLowerCase();
    if (encoding !== "" && encoding !== "identity") {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", undefined, {
        details: [`Content-Encoding: must be identity (bodies are not decompressed), got ${ctx.get("Content-Encoding")}`],
      });
    }
    let bytes: Buffer;
    try {
      bytes = await getRawBody(ctx.req, { limit: limitBytes });
    } catch (error) {
      // raw-body stops reading (and pauses the request) at the limit: what is left of the body
      // would otherwise stay unread in front of the connection's next request.
      if ((error as { type?: string }).type === "entity.too.large") throw tooLarge(limitBytes, await discardRest(ctx.req));
      throw new AppError("MALFORMED_JSON", "The request body could not be read.", { cause: error });
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch (error) {
      throw new AppError("VALIDATION_FAILED", undefined, { details: ["body: is not valid UTF-8"], cause: error });
    }
    if (text.trim() === "") {
      ctx.state.body = undefined;
      await next();
      return;
    }
    try {
      ctx.state.body = JSON.parse(text) as unknown;
    } catch (error) {
      throw new AppError("MALFORMED_JSON", undefined, { details: ["body: is not valid JSON"], cause: error });
    }
    await next();
  };
}

/**
 * The 413. `drained`: the rest of the body was read, so the connection can carry another
 * request; otherwise the response closes it, the only way left to keep the next request's bytes
 * apart from this body's.
 */
function tooLarge(limitBytes: number, drained: boolean): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `The request body must be at most ${limitBytes} bytes.`, {
    headers: drained ? undefined : { Connection: "close" },
  });
}

/**
 * Reads what is left of the request body and throws it away, up to `discardedBodyBytes`:
 * true when the body ended within that, false when it did not (or the client went away).
 */
function discardRest(request: IncomingMessage): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = (drained: boolean) => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("close", onClose);
      if (!drained) request.pause();
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > discardedBodyBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(request.complete);
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("close", onClose);
    request.resume();
  });
}
