import { Counter, metricOnce, type Logger, type Registry } from "@bayad/kit";
import { createLease, type Store } from "@bayad/store";
import { applyProviderCheckoutOutcome, type CheckoutsDeps } from "../checkouts/checkouts.js";
import { applyProviderPaymentIntentOutcome, type PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import { applyProviderRefundOutcome, type RefundsDeps } from "../refunds/refunds.js";
import type { ProviderAccountSetup } from "../provider-accounts/account-setup.js";
import type { ProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { openSecretKey, sealWebhookSecret } from "../provider-accounts/provider-secrets.js";
import { PaymongoRejectedError } from "@bayad/provider";
import type { AccountProviders } from "./account-providers.js";

export interface ProviderReconcilerOptions {
  store: Store;
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  accounts: ProviderAccountsRepository;
  providers: AccountProviders;
  setup: ProviderAccountSetup;
  secretsKey: string | undefined;
  /** PROVIDER_RECONCILE_AFTER: how old a non-final resource must be before the provider is asked about it. */
  afterMs: number;
  /** PROVIDER_RECONCILE_INTERVAL: how often a round runs (also the lease's length). */
  intervalMs: number;
  holderId: string;
  logger: Logger;
  metrics?: Registry;
  now: () => Date;
}

export interface ProviderReconciler {
  /** One round, if this replica holds the lease: what it found, by kind. */
  tick(): Promise<ReconcileRound>;
  stop(): Promise<void>;
}

export interface ReconcileRound {
  checkouts: number;
  paymentIntents: number;
  refunds: number;
  webhooksEnabled: number;
}

const LEASE = "provider-reconciler";
const BATCH = 50;

/**
 * PayMongo disables a webhook after repeated failed deliveries and does not replay what it
 * missed, so webhooks alone cannot be trusted to settle a payment. Every round, the holder of the
 * `provider-reconciler` lease re-reads from the provider every non-final resource of a provider
 * account older than `afterMs` (pending checkouts, intents waiting for the payer, pending
 * refunds) and applies what it finds, exactly as the webhook would have; and it re-enables every
 * account's webhook that the provider disabled.
 */
export function startProviderReconciler(options: ProviderReconcilerOptions): ProviderReconciler {
  const { logger, now } = options;
  const lease = createLease(options.store, LEASE);
  // Shared with the links and billing services' reconcilers when they run in one process (told apart by kind).
  const settled = options.metrics
    ? metricOnce(options.metrics, "bayad_provider_reconciled_total", () =>
        new Counter({
          name: "bayad_provider_reconciled_total",
          help: "Resources the provider reconciler found settled at the provider (no webhook had told), by kind.",
          labelNames: ["kind"],
          registers: [options.metrics!],
        }),
      )
    : undefined;
  const reenabled = options.metrics
    ? new Counter({
        name: "bayad_provider_webhooks_reenabled_total",
        help: "Provider webhooks the reconciler found disabled (enabled again) or missing (registered again) at the provider.",
        registers: [options.metrics],
      })
    : undefined;
  let last: Promise<unknown> = Promise.resolve();

  async function checkouts(before: Date): Promise<number> {
    const stale = (await options.checkouts.repository.findStale("pending", before, BATCH)).filter((record) => record.providerAccountId && record.providerReference);
    let found = 0;
    for (const record of stale) {
      const provider = (await options.providers.paymongoOf(record.providerAccountId!))?.provider;
      if (!provider) continue;
      const session = await provider.retrieveCheckoutSessionById(record.providerReference!);
      const paid = session.payments.find((payment) => payment.status === "paid");
      const outcome = paid ? { status: "paid" as const, providerPaymentId: paid.id, method: paid.method, paidAt: paid.paidAt } : session.status === "expired" ? { status: "expired" as const } : undefined;
      if (outcome && (await applyProviderCheckoutOutcome(options.checkouts, record.providerAccountId!, record._id, outcome))) found += 1;
    }
    return found;
  }

  async function paymentIntents(before: Date): Promise<number> {
    const waiting = await options.paymentIntents.repository.collection.find(
      { status: { $in: ["processing", "awaiting_next_action"] }, createdAt: { $lt: before }, providerAccountId: { $exists: true } },
      { limit: BATCH },
    );
    let found = 0;
    for (const record of waiting) {
      if (!record.providerReference) continue;
      const provider = (await options.providers.paymongoOf(record.providerAccountId!))?.provider;
      if (!provider) continue;
      const intent = await provider.retrievePaymentIntentById(record.providerReference);
      const paid = intent.payments.find((payment) => payment.status === "paid");
      const outcome =
        intent.status === "succeeded" && paid
          ? { status: "succeeded" as const, providerPaymentId: paid.id, method: paid.method, paidAt: paid.paidAt }
          : record.status === "processing" && intent.status === "awaiting_payment_method" && intent.lastPaymentError
            ? { status: "failed" as const }
            : undefined;
      if (outcome && (await applyProviderPaymentIntentOutcome(options.paymentIntents, record.providerAccountId!, record.providerReference, outcome))) found += 1;
    }
    return found;
  }

  async function refunds(before: Date): Promise<number> {
    const pending = await options.refunds.repository.findPendingAtProviders(before, BATCH);
    let found = 0;
    for (const record of pending) {
      if (!record.providerReference) continue; // not acknowledged yet: the refund sweep asks (and finds it again) first
      const provider = (await options.providers.paymongoOf(record.providerAccountId!))?.provider;
      if (!provider) continue;
      const refund = await provider.retrieveRefundById(record.providerReference);
      if (refund.status !== "succeeded" && refund.status !== "failed") continue;
      if (await applyProviderRefundOutcome(options.refunds, record.providerAccountId!, record._id, { status: refund.status, providerReference: refund.id })) found += 1;
    }
    return found;
  }

  async function webhooks(): Promise<number> {
    if (options.secretsKey === undefined) return 0;
    let enabled = 0;
    for (const account of await options.accounts.collection.find({}, { limit: 1_000 })) {
      const secretKey = openSecretKey(account, options.secretsKey);
      const webhook = await options.setup.getWebhook(secretKey, account.webhook.webhookId).catch((error: unknown) => {
        if (error instanceof PaymongoRejectedError && error.providerStatus === 404) return undefined;
        throw error;
      });
      if (webhook === undefined) {
        // PayMongo no longer has the webhook: register one again at the same URL, and keep its secret.
        logger.warn({ providerAccountId: account._id, webhookId: account.webhook.webhookId }, "provider webhook missing at the provider; registering it again");
        const fresh = await options.setup.registerWebhook(secretKey, account.webhook.url);
        await options.accounts.replaceWebhook(
          account._id,
          account.webhook.webhookId,
          { webhookId: fresh.webhookId, secret: sealWebhookSecret(options.secretsKey, account._id, fresh.webhookSecret), status: fresh.status, url: account.webhook.url },
          now(),
        );
        reenabled?.inc();
        enabled += 1;
        continue;
      }
      if (webhook.status === "enabled") {
        if (account.webhook.status !== "enabled") await options.accounts.setWebhookStatus(account._id, account.webhook.webhookId, "enabled", now());
        continue;
      }
      logger.warn({ providerAccountId: account._id, webhookId: account.webhook.webhookId, reason: webhook.disabledReason }, "provider webhook found disabled; enabling it again");
      await options.setup.enableWebhook(secretKey, account.webhook.webhookId);
      await options.accounts.setWebhookStatus(account._id, account.webhook.webhookId, "enabled", now());
      reenabled?.inc();
      enabled += 1;
    }
    return enabled;
  }

  /** Runs one part of a round; a failure is logged and the rest of the round goes on. */
  async function part(kind: keyof ReconcileRound, run: () => Promise<number>): Promise<number> {
    try {
      const found = await run();
      if (found > 0) {
        logger.info({ kind, found }, "provider reconciliation applied what no webhook had");
        if (kind !== "webhooksEnabled") settled?.inc({ kind }, found);
      }
      return found;
    } catch (error) {
      logger.warn({ err: error, kind }, "provider reconciliation failed; next round tries again");
      return 0;
    }
  }

  async function round(): Promise<ReconcileRound> {
    const none = { checkouts: 0, paymentIntents: 0, refunds: 0, webhooksEnabled: 0 };
    if (!(await lease.acquire(options.holderId, now(), options.intervalMs * 2))) return none;
    const before = new Date(now().getTime() - options.afterMs);
    return {
      checkouts: await part("checkouts", () => checkouts(before)),
      paymentIntents: await part("paymentIntents", () => paymentIntents(before)),
      refunds: await part("refunds", () => refunds(before)),
      webhooksEnabled: await part("webhooksEnabled", webhooks),
    };
  }

  function tick(): Promise<ReconcileRound> {
    const next = last.catch(() => undefined).then(round);
    last = next;
    return next;
  }

  const timer = setInterval(() => void tick().catch((error: unknown) => logger.error({ err: error }, "provider reconciler failed")), options.intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await last.catch(() => undefined);
    },
  };
}
