import type Router from "@koa/router";
import type { Context } from "koa";
import type { Client } from "@connectrpc/connect";
import getRawBody from "raw-body";
import type { PaymentsService } from "@bayad/proto";
import { AppError, fromConnectError } from "@bayad/kit";
import { successEnvelope } from "../envelope.js";

/** PayMongo's events and Xendit's callbacks are a few kilobytes; anything far larger is not one. */
const BODY_LIMIT_BYTES = 1_048_576;

/** The body exactly as received (the payments service verifies and parses it), or the request's error. */
async function rawBodyOf(ctx: Context): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: BODY_LIMIT_BYTES, length: ctx.get("Content-Length") || undefined });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw new AppError("PAYLOAD_TOO_LARGE");
    throw new AppError("MALFORMED_REQUEST", "The webhook's body could not be read.");
  }
}

/**
 * `POST /provider-webhooks/paymongo/{providerAccountId}`: where PayMongo delivers a provider
 * account's events (the URL Bayad registered for it); `POST /provider-webhooks/xendit/{providerAccountId}`:
 * where Xendit delivers a Xendit account's callbacks (the URL the merchant set in Xendit's
 * dashboard), proven by their `x-callback-token`. No credential: the body's signature is the
 * proof, checked by the payments service over the exact bytes read here, so the body is passed on
 * as received (never parsed and re-serialised). 200 once the event is stored (or was already);
 * otherwise one 401 INVALID_CREDENTIALS, whatever was wrong (an unknown or malformed account id
 * too): the payments service judges, and logs and counts the reason.
 */
export function providerWebhookRoutes(payments: Client<typeof PaymentsService>) {
  return (router: Router) => {
    router.post("/provider-webhooks/paymongo/:providerAccountId", async (ctx) => {
      const providerAccountId = ctx.params.providerAccountId ?? "";
      const rawBody = await rawBodyOf(ctx);
      try {
        const answer = await payments.receiveProviderEvent({
          provider: "paymongo",
          providerAccountId,
          rawBody,
          signature: ctx.get("Paymongo-Signature"),
        });
        ctx.status = 200;
        ctx.body = successEnvelope({ received: true, eventId: answer.eventId, duplicate: answer.duplicate });
      } catch (error) {
        throw fromConnectError(error);
      }
    });

    // Xendit's static token is the only proof: every value of the header is passed on
    // (headersDistinct), so that a repeated header is refused rather than one of its values picked.
    router.post("/provider-webhooks/xendit/:providerAccountId", async (ctx) => {
      const providerAccountId = ctx.params.providerAccountId ?? "";
      const rawBody = await rawBodyOf(ctx);
      try {
        const answer = await payments.receiveProviderEvent({
          provider: "xendit",
          providerAccountId,
          rawBody,
          callbackTokens: ctx.req.headersDistinct["x-callback-token"] ?? [],
        });
        ctx.status = 200;
        ctx.body = successEnvelope({ received: true, eventId: answer.eventId, duplicate: answer.duplicate });
      } catch (error) {
        throw fromConnectError(error);
      }
    });
  };
}
