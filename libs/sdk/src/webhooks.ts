import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { BayadEvent } from "./resources/events.js";

export { WebhookVerificationError };

/** A request's headers as node:http (`request.headers`), Express or fetch (`Headers`) hands them over. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a delivery by the Standard Webhooks specification (the `standardwebhooks` package): one
 * of `webhook-signature`'s signatures must be the HMAC of `webhook-id.webhook-timestamp.body`
 * under `secret` (`whsec_…`), and `webhook-timestamp` within five minutes of now. Answers the
 * event, typed by its `type`; throws WebhookVerificationError otherwise (answer that with a 400).
 *
 * `body` must be the raw bytes (or their text) as received: a body parsed and serialised again
 * is not the body that was signed.
 */
export function verify(body: string | Uint8Array, headers: WebhookHeaders, secret: string): BayadEvent {
  const payload = typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return new Webhook(secret).verify(payload, signatureHeaders(headers)) as BayadEvent;
}

function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? "";
    // Header names are case-insensitive: node:http lowercases them, a hand-made object may not.
    const key = Object.keys(headers).find((each) => each.toLowerCase() === name);
    const value = key === undefined ? undefined : headers[key];
    return Array.isArray(value) ? value.join(" ") : (value ?? "");
  };
  return { "webhook-id": read("webhook-id"), "webhook-timestamp": read("webhook-timestamp"), "webhook-signature": read("webhook-signature") };
}

/** `webhooks.verify(body, headers, secret)`. */
export const webhooks = { verify };
