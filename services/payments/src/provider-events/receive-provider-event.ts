import { AppError, type Logger, type SealingKeys } from "@bayad/kit";
import { openProviderWebhookSecret, parsePaymongoEvent, verifyPaymongoSignature } from "@bayad/provider";
import type { AccountProviders } from "../providers/account-providers.js";
import type { ProviderEventsRepository } from "./provider-events-repository.js";

export interface ReceiveDeps {
  accounts: AccountProviders;
  events: ProviderEventsRepository;
  /** The SECRETS_KEYS ring: opens the account's webhook secret. */
  secretsKey: SealingKeys | undefined;
  logger: Logger;
  now: () => Date;
  /** Called once a new event is stored, to apply it without waiting for the applier's next round. */
  received: () => void;
}

export interface ProviderDelivery {
  provider: string;
  providerAccountId: string;
  rawBody: Uint8Array;
  signature: string;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Takes one webhook delivery: the account's webhook secret must verify the signature over the
 * exact bytes received (else 401 and nothing is stored), the event's mode must be the account's,
 * and the event is stored once (a redelivery answers as the first did). It is applied afterwards,
 * so the provider gets its 2xx quickly whatever applying costs.
 */
export async function receiveProviderEvent(deps: ReceiveDeps, delivery: ProviderDelivery): Promise<{ eventId: string; duplicate: boolean }> {
  const notFound = new AppError("RESOURCE_NOT_FOUND", "No such provider webhook.");
  if (delivery.provider !== "paymongo") throw notFound;
  const found = await deps.accounts.paymongoOf(delivery.providerAccountId);
  if (!found) throw notFound;
  if (deps.secretsKey === undefined) throw new AppError("SERVICE_UNAVAILABLE", "SECRETS_KEY is not set: provider webhooks cannot be verified.");
  const { account } = found;
  const livemode = account.environment === "live";
  const verdict = verifyPaymongoSignature({
    header: delivery.signature || undefined,
    rawBody: Buffer.from(delivery.rawBody.buffer, delivery.rawBody.byteOffset, delivery.rawBody.byteLength),
    secret: openProviderWebhookSecret(deps.secretsKey, account._id, account.webhook.secret),
    livemode,
  });
  if (!verdict.valid) {
    deps.logger.warn({ providerAccountId: account._id, reason: verdict.reason }, "provider webhook refused: signature");
    throw new AppError("INVALID_CREDENTIALS", "The webhook's signature does not verify.", { details: [`Paymongo-Signature: ${verdict.reason}`] });
  }
  let body: string;
  let event: ReturnType<typeof parsePaymongoEvent>;
  try {
    body = utf8.decode(delivery.rawBody);
    event = parsePaymongoEvent(body);
  } catch {
    throw new AppError("VALIDATION_FAILED", "The webhook's body is not a PayMongo event.", { details: ["body: not a PayMongo event"] });
  }
  if (event.livemode !== livemode) {
    throw new AppError("VALIDATION_FAILED", `A ${event.livemode ? "live" : "test"} event reached a ${account.environment} account.`, {
      details: ["body: data.attributes.livemode does not match the account's environment"],
    });
  }
  const stored = await deps.events.insert(
    { providerAccountId: account._id, eventId: event.id, type: event.type, livemode, body },
    deps.now(),
  );
  deps.logger.info({ providerAccountId: account._id, eventId: event.id, type: event.type, duplicate: !stored }, "provider webhook received");
  if (stored) deps.received();
  return { eventId: event.id, duplicate: !stored };
}
