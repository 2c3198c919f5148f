import { AppError, type Logger, type SealingKeys } from "@bayad/kit";
import {
  openProviderCallbackToken,
  openProviderWebhookSecret,
  parsePaymongoEvent,
  parseXenditEvent,
  verifyPaymongoSignature,
  verifyXenditCallbackToken,
} from "@bayad/provider";
import type { AccountProviders } from "../providers/account-providers.js";
import type { ProviderEventsRepository } from "./provider-events-repository.js";
import type { ProviderWebhookMetrics, ProviderWebhookRefusal } from "./provider-webhook-metrics.js";

export interface ReceiveDeps {
  accounts: AccountProviders;
  events: ProviderEventsRepository;
  /** The SECRETS_KEYS ring: opens the account's webhook secret. */
  secretsKey: SealingKeys | undefined;
  logger: Logger;
  metrics: ProviderWebhookMetrics;
  now: () => Date;
  /** Called once a new event is stored, to apply it without waiting for the applier's next round. */
  received: () => void;
}

export interface ProviderDelivery {
  provider: string;
  providerAccountId: string;
  rawBody: Uint8Array;
  /** PayMongo: its Paymongo-Signature header. */
  signature: string;
  /** Xendit: every x-callback-token value the request carried (none, one, or a refused repeat). */
  callbackTokens?: readonly string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Enough of a sender's account id to find it in the log, not a place to store a payload. */
const LOGGED_ID_LENGTH = 80;

/**
 * Takes one webhook delivery: the account's webhook secret must verify the signature over the
 * exact bytes received, and the event's mode must be the account's; it is then stored once (a
 * redelivery answers as the first did) and applied afterwards, so the provider gets its 2xx
 * quickly whatever applying costs.
 *
 * Every refusal, an unknown account included, is the same 401 with one message and no details:
 * a prober learns nothing about what to fix or which accounts exist. The reason goes to the log
 * and to `bayad_provider_webhook_refusals_total`, never the secret or the signature.
 */
export async function receiveProviderEvent(deps: ReceiveDeps, delivery: ProviderDelivery): Promise<{ eventId: string; duplicate: boolean }> {
  if (delivery.provider !== "paymongo" && delivery.provider !== "xendit") throw new AppError("RESOURCE_NOT_FOUND", "No such provider webhook.");
  // Before the account is looked up: a 503 only for known accounts would tell which ones exist.
  if (deps.secretsKey === undefined) throw new AppError("SERVICE_UNAVAILABLE", "SECRETS_KEY is not set: provider webhooks cannot be verified.");
  const refuse = (reason: ProviderWebhookRefusal): AppError => {
    deps.metrics.refused(delivery.provider, reason);
    deps.logger.warn({ provider: delivery.provider, providerAccountId: delivery.providerAccountId.slice(0, LOGGED_ID_LENGTH), reason }, "provider webhook refused");
    return new AppError("INVALID_CREDENTIALS", "The signature could not be verified.");
  };
  if (delivery.provider === "xendit") return receiveXenditCallback(deps, delivery, deps.secretsKey, refuse);
  const found = await deps.accounts.paymongoOf(delivery.providerAccountId);
  if (!found) throw refuse("unknown_account");
  const { account } = found;
  const livemode = account.environment === "live";
  const verdict = verifyPaymongoSignature({
    header: delivery.signature || undefined,
    rawBody: Buffer.from(delivery.rawBody.buffer, delivery.rawBody.byteOffset, delivery.rawBody.byteLength),
    secret: openProviderWebhookSecret(deps.secretsKey, account._id, account.webhook.secret),
    livemode,
  });
  if (!verdict.valid) throw refuse(verdict.reason);
  let body: string;
  let event: ReturnType<typeof parsePaymongoEvent>;
  try {
    body = utf8.decode(delivery.rawBody);
    event = parsePaymongoEvent(body);
  } catch {
    throw new AppError("VALIDATION_FAILED", "The webhook's body is not a PayMongo event.", { details: ["body: not a PayMongo event"] });
  }
  // Signed for this account yet of the other mode: not an event this account may take.
  if (event.livemode !== livemode) throw refuse("event_mode_mismatch");
  const stored = await deps.events.insert(
    { providerAccountId: account._id, eventId: event.id, type: event.type, livemode, body },
    deps.now(),
  );
  deps.logger.info({ providerAccountId: account._id, eventId: event.id, type: event.type, duplicate: !stored }, "provider webhook received");
  if (stored) deps.received();
  return { eventId: event.id, duplicate: !stored };
}

/**
 * Takes one Xendit callback: its `x-callback-token` must be the account's verification token
 * (compared in constant time; a missing, empty or repeated header refused, xendit-callback-token.ts),
 * with the same single 401 as PayMongo's refusals. Xendit's callbacks carry no event id: deliveries
 * of one callback are told apart by the event and its resource's id (the hint's deliveryKey), so a
 * redelivery is stored once. What the body claims is never believed: apply-xendit-event.ts reads
 * the resource back.
 */
async function receiveXenditCallback(
  deps: ReceiveDeps,
  delivery: ProviderDelivery,
  secretsKey: SealingKeys,
  refuse: (reason: ProviderWebhookRefusal) => AppError,
): Promise<{ eventId: string; duplicate: boolean }> {
  const found = await deps.accounts.xenditOf(delivery.providerAccountId);
  if (!found) throw refuse("unknown_account");
  const { account } = found;
  const verdict = verifyXenditCallbackToken({
    header: delivery.callbackTokens ?? [],
    token: openProviderCallbackToken(secretsKey, account._id, account.callback.token),
  });
  if (!verdict.valid) throw refuse(verdict.reason);
  let body: string;
  let hint: ReturnType<typeof parseXenditEvent>;
  try {
    body = utf8.decode(delivery.rawBody);
    hint = parseXenditEvent(body);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("VALIDATION_FAILED", "The body is not a Xendit callback.", { details: ["body: not UTF-8 text"] });
  }
  const stored = await deps.events.insert(
    { providerAccountId: account._id, provider: "xendit", eventId: hint.deliveryKey, type: hint.event, livemode: account.environment === "live", body },
    deps.now(),
  );
  deps.logger.info({ providerAccountId: account._id, eventId: hint.deliveryKey, type: hint.event, duplicate: !stored }, "provider webhook received");
  if (stored) deps.received();
  return { eventId: hint.deliveryKey, duplicate: !stored };
}
