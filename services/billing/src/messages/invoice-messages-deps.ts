import { randomBase62, singleKeyRing, type SealingKeys } from "@bayad/kit";
import { createChannelSenders, createDevOutbox, type DevOutbox, type MessageSender, type ChannelName } from "@bayad/messaging";
import { publicUrlResolver, type PublicUrl } from "@bayad/public-resources";
import type { Store } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import type { BillingMessagesConfig } from "../config.js";
import { createBillingMessagesRepository } from "./billing-messages-repository.js";
import { createBillingSettingsRepository } from "./billing-settings.js";
import type { CustomerDirectory } from "./customers.js";
import type { InvoiceMessagesDeps } from "./invoice-messages.js";

const RETRY_MAX_DELAY_MS = 60 * 60 * 1000;

/** The invoice messages' deps with its senders, and the development outbox (test mode's sender) for the admin read. */
export interface InvoiceMessaging {
  deps: InvoiceMessagesDeps;
  devOutbox: DevOutbox;
  close(): Promise<void>;
}

/**
 * Wires the invoice messages to billing's store and repositories: live mode's senders as
 * configured, test mode's into the development outbox (sealed under `sealingKeys`: SECRETS_KEY,
 * else a key of this process's own, so that held messages do not outlive it).
 */
export function createInvoiceMessaging(options: {
  billing: Pick<BillingDeps, "store" | "invoices" | "subscriptions" | "logger" | "now">;
  config: BillingMessagesConfig;
  customers: CustomerDirectory;
  sealingKeys?: SealingKeys;
  /** The gateway's URL, when the platform hands it over (PUBLIC_URL unset). */
  platformUrl?: () => string | undefined;
  /** Tests replace live mode's senders. */
  liveSenders?: Record<ChannelName, MessageSender>;
}): InvoiceMessaging {
  const { billing, config } = options;
  const store: Store = billing.store;
  const sealingKeys = options.sealingKeys ?? singleKeyRing(randomBase62(43));
  const devOutbox = createDevOutbox(store, { secret: sealingKeys, now: billing.now });
  const channels = options.liveSenders ? undefined : createChannelSenders({ email: config.email, sms: config.sms, sealingKeys }, store, billing.now);
  const deps: InvoiceMessagesDeps = {
    invoices: billing.invoices,
    subscriptions: billing.subscriptions,
    messages: createBillingMessagesRepository(store),
    settings: createBillingSettingsRepository(store),
    customers: options.customers,
    publicUrl: publicUrlOf(config.publicUrl, options.platformUrl),
    senders: { live: options.liveSenders ?? channels!.byChannel, test: devOutbox },
    retry: { initialDelayMs: config.retryInitialMs, maxDelayMs: Math.max(config.retryInitialMs, RETRY_MAX_DELAY_MS), maxAttempts: config.maxAttempts },
    sendingLeaseMs: 2 * config.sendTimeoutMs,
    logger: billing.logger,
    now: billing.now,
  };
  return { deps, devOutbox, close: async () => channels?.close() };
}

/** Hosted-page paths made absolute with PUBLIC_URL, else the URL the platform hands over; left as paths while neither is known. */
function publicUrlOf(configured: string | undefined, platformUrl: (() => string | undefined) | undefined): PublicUrl {
  const base = () => configured ?? platformUrl?.();
  const absolute = publicUrlResolver(() => base()!);
  return (pathOrUrl) => (base() === undefined ? pathOrUrl : absolute(pathOrUrl));
}
