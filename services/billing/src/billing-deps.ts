import { createOutbox, type Outbox } from "@bayad/events";
import { createIdempotencyKeys, defaultIdempotencyWindowSeconds, type IdempotencyKeys } from "@bayad/idempotency";
import type { Logger } from "@bayad/kit";
import type { PaymentProviders } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createInvoicesRepository, type InvoicesRepository } from "./invoices/invoices-repository.js";
import { createBillingSettingsRepository, type BillingSettingsRepository } from "./messages/billing-settings.js";
import { createPlansRepository, type PlansRepository } from "./plans/plans-repository.js";
import { createSubscriptionsRepository, type SubscriptionsRepository } from "./subscriptions/subscriptions-repository.js";

/**
 * What the billing domain functions need. One set for every resource: billing a period changes a
 * subscription and its invoices together, so they share the store, outbox and clock.
 */
export interface BillingDeps {
  store: Store;
  plans: PlansRepository;
  subscriptions: SubscriptionsRepository;
  invoices: InvoicesRepository;
  /** Per project: how invoices reach customers, and the dunning schedule. */
  settings: BillingSettingsRepository;
  outbox: Outbox;
  providers: PaymentProviders;
  logger: Logger;
  /** The clock that dates changes and starts periods; tests move it instead of waiting. */
  now: () => Date;
  /** What each Idempotency-Key did, for its window. */
  keys: IdempotencyKeys;
}

export interface BillingDepsOptions {
  store: Store;
  providers: PaymentProviders;
  logger: Logger;
  now?: () => Date;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS; the gateway's 24 hours by default. */
  idempotencyWindowMs?: number;
}

/** Wires the billing repositories and the `billing` outbox to a store. */
export function createBillingDeps(options: BillingDepsOptions): BillingDeps {
  const { store } = options;
  return {
    store,
    plans: createPlansRepository(store),
    subscriptions: createSubscriptionsRepository(store),
    invoices: createInvoicesRepository(store),
    settings: createBillingSettingsRepository(store),
    outbox: createOutbox(store, "billing"),
    providers: options.providers,
    logger: options.logger,
    now: options.now ?? (() => new Date()),
    keys: createIdempotencyKeys(store, {
      windowMs: options.idempotencyWindowMs ?? defaultIdempotencyWindowSeconds.payment * 1000,
      now: options.now,
    }),
  };
}
