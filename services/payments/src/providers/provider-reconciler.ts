import { AppError, Counter, metricOnce, type Logger, type Registry, type SealingKeys } from "@bayad/kit";
import type { Outbox } from "@bayad/events";
import { createLease, type Collection, type Filter, type Store } from "@bayad/store";
import {
  openProviderSecretKey,
  PaymongoRejectedError,
  sealProviderWebhookSecret,
  type PaymongoProvider,
  type XenditAccountSetup,
  type XenditProvider,
} from "@bayad/provider";
import type { CheckoutsDeps } from "../checkouts/checkouts.js";
import type { PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import type { RefundsDeps } from "../refunds/refunds.js";
import type { ProviderAccountSetup } from "../provider-accounts/account-setup.js";
import { isPaymongoAccount, type PaymongoAccountRecord } from "../provider-accounts/provider-account.js";
import type { ProviderAccountsRepository } from "../provider-accounts/provider-accounts-repository.js";
import { deferAccount, pauseForRefusedKey, resumeAccount } from "../provider-accounts/account-status.js";
import type { AccountProviders } from "./account-providers.js";
import { isKeyRefused, keyRefusalOf } from "./key-refusal.js";
import { dueForReconciliation, reconciliationOrder, scheduleNextRead, type Reconcilable } from "./reconcile-schedule.js";
import { settleCheckoutFromProvider, settlePaymentIntentFromProvider, settleRefundFromProvider, type Settled } from "./settle-from-provider.js";
import { settleXenditCheckout, settleXenditPaymentIntent, settleXenditRefund } from "./settle-from-xendit.js";

export interface ProviderReconcilerOptions {
  store: Store;
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  accounts: ProviderAccountsRepository;
  /** Where an account's pause and resumption are announced (provider_account.paused / .resumed). */
  outbox: Outbox;
  providers: AccountProviders;
  setup: ProviderAccountSetup;
  /** Tries a paused Xendit account's key again. */
  xenditSetup: XenditAccountSetup;
  secretsKey: SealingKeys | undefined;
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
  /** Paused accounts whose key worked again when tried. */
  accountsResumed: number;
  checkouts: number;
  paymentIntents: number;
  refunds: number;
  webhooksEnabled: number;
}

/** How a resource is read back and settled, by its account's provider. */
interface Readers {
  paymongo: (provider: PaymongoProvider) => Promise<Settled>;
  xendit: (provider: XenditProvider) => Promise<Settled>;
}

const LEASE = "provider-reconciler";
const BATCH = 50;

/**
 * PayMongo disables a webhook after repeated failed deliveries and does not replay what it
 * missed, and Xendit gives up on a callback after a day (or was never set up in its dashboard),
 * so webhooks alone cannot be trusted to settle a payment. Every round, the holder of the
 * `provider-reconciler` lease re-reads from the provider every non-final resource of a provider
 * account older than `afterMs` (pending checkouts, intents waiting for the payer, pending
 * refunds) and applies what the provider's resource verifiably says (settle-from-provider.ts and
 * settle-from-xendit.ts, the same verification a webhook's hint goes through); and it re-enables
 * every PayMongo account's webhook that PayMongo disabled (Xendit's callbacks are the merchant's
 * to set in Xendit's dashboard: nothing to re-enable through its API).
 *
 * Nothing stalls a round: each resource's read fails on its own and backs off on its own
 * (reconcile-schedule.ts); reads go longest-waiting first. A refused key (401) pauses the account
 * (account-status.ts: backoff, announced) and a Retry-After defers it; its resources are skipped
 * meanwhile, and a paused account's key is tried once per pause until it works or is replaced.
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
  const statusDeps = { store: options.store, repository: options.accounts, outbox: options.outbox, logger, now };
  const settleDeps = { checkouts: options.checkouts, paymentIntents: options.paymentIntents, refunds: options.refunds, logger };

  /**
   * Reads one resource back, on its own: whatever its read throws stays with it (its next read
   * backs off) and the round goes on with the others. A refused key pauses the whole account and
   * a Retry-After defers it: its other resources are then skipped (`skip`) for the rest of the round.
   */
  async function readOne<T extends Reconcilable>(
    kind: keyof ReconcileRound,
    collection: Collection<T>,
    record: T,
    skip: Set<string>,
    read: Readers,
  ): Promise<boolean> {
    const accountId = record.providerAccountId;
    if (accountId === undefined || skip.has(accountId)) return false;
    try {
      const settled = await readAt(accountId, read);
      if (settled === undefined) return false;
      if (settled !== "applied") await scheduleNextRead(collection, record, { ok: true }, now(), options.intervalMs);
      return settled === "applied";
    } catch (error) {
      if (await accountRefused(accountId, keyRefusalOf(error))) {
        skip.add(accountId);
        return false;
      }
      const reason = error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown";
      const next = await scheduleNextRead(collection, record, { ok: false, error: reason }, now(), options.intervalMs).catch(() => undefined);
      logger.warn({ kind, resourceId: record._id, providerAccountId: accountId, reason, failures: next?.failures, nextAt: next?.nextAt }, "provider read failed; this resource backs off");
      return false;
    }
  }

  /** Reads with the account's adapter, PayMongo's or Xendit's; undefined when the account is gone. */
  async function readAt(accountId: string, read: Readers): Promise<Settled | undefined> {
    const paymongo = await options.providers.paymongoOf(accountId);
    if (paymongo) return read.paymongo(paymongo.provider);
    const xendit = await options.providers.xenditOf(accountId);
    return xendit ? read.xendit(xendit.provider) : undefined;
  }

  /** True when the error is about the account rather than the resource (refused key, Retry-After), after recording that on the account. */
  async function accountRefused(accountId: string, error: unknown): Promise<boolean> {
    const retryAfter = error instanceof AppError && error.code === "PROVIDER_UNAVAILABLE" ? Number(error.headers?.["Retry-After"]) : NaN;
    const refused = isKeyRefused(error);
    if (!refused && !(Number.isFinite(retryAfter) && retryAfter > 0)) return false;
    const account = await options.accounts.findById(accountId);
    if (!account) return true;
    if (refused) await pauseForRefusedKey(statusDeps, account);
    else await deferAccount(statusDeps, account, new Date(now().getTime() + retryAfter * 1000));
    return true;
  }

  /** Accounts the round must not use: paused, or waiting out a provider's Retry-After. */
  async function unusableAccounts(): Promise<Set<string>> {
    return new Set((await options.accounts.findUnusable(now())).map((account) => account._id));
  }

  async function due<T extends Reconcilable>(collection: Collection<T>, filter: Filter, skip: Set<string>): Promise<T[]> {
    return collection.find({ ...filter, ...dueForReconciliation(now(), [...skip]) }, { sort: reconciliationOrder, limit: BATCH });
  }

  async function checkouts(before: Date, skip: Set<string>): Promise<number> {
    const collection = options.checkouts.repository.collection;
    let found = 0;
    for (const record of await due(collection, { status: "pending", createdAt: { $lt: before }, providerReference: { $exists: true } }, skip)) {
      const read = {
        paymongo: (provider: PaymongoProvider) => settleCheckoutFromProvider(settleDeps, provider, record, "reconciliation"),
        xendit: (provider: XenditProvider) => settleXenditCheckout(settleDeps, provider, record, "reconciliation"),
      };
      if (await readOne("checkouts", collection, record, skip, read)) found += 1;
    }
    return found;
  }

  async function paymentIntents(before: Date, skip: Set<string>): Promise<number> {
    const collection = options.paymentIntents.repository.collection;
    const filter = { status: { $in: ["processing", "awaiting_next_action"] }, createdAt: { $lt: before }, providerReference: { $exists: true } };
    let found = 0;
    for (const record of await due(collection, filter, skip)) {
      const read = {
        paymongo: (provider: PaymongoProvider) => settlePaymentIntentFromProvider(settleDeps, provider, record, "reconciliation"),
        xendit: (provider: XenditProvider) => settleXenditPaymentIntent(settleDeps, provider, record, "reconciliation"),
      };
      if (await readOne("paymentIntents", collection, record, skip, read)) found += 1;
    }
    return found;
  }

  async function refunds(before: Date, skip: Set<string>): Promise<number> {
    const collection = options.refunds.repository.collection;
    // Not acknowledged yet (no providerReference): the refund sweep asks (and finds it again) first.
    const filter = { status: "pending", createdAt: { $lt: before }, providerReference: { $exists: true } };
    let found = 0;
    for (const record of await due(collection, filter, skip)) {
      const read = {
        paymongo: (provider: PaymongoProvider) => settleRefundFromProvider(settleDeps, provider, record, "reconciliation"),
        xendit: (provider: XenditProvider) => settleXenditRefund(settleDeps, provider, record, "reconciliation"),
      };
      if (await readOne("refunds", collection, record, skip, read)) found += 1;
    }
    return found;
  }

  /**
   * Each paused account whose pause is over has its key tried once (PayMongo: a read of its
   * webhook, which every PayMongo account has; Xendit: its key check): working again → resumed;
   * refused again → paused longer.
   */
  async function keyChecks(): Promise<number> {
    if (options.secretsKey === undefined) return 0;
    let resumed = 0;
    for (const account of await options.accounts.findDueForKeyCheck(now(), BATCH)) {
      try {
        const secretKey = openProviderSecretKey(options.secretsKey, account._id, account.secretKey);
        if (isPaymongoAccount(account)) await options.setup.getWebhook(secretKey, account.webhook.webhookId);
        else await options.xenditSetup.checkKey(secretKey);
      } catch (error) {
        if (isKeyRefused(error)) {
          await pauseForRefusedKey(statusDeps, account);
          continue;
        }
        // Anything else (a 404 of the webhook included) says the key was accepted.
        if (!(error instanceof PaymongoRejectedError)) {
          logger.warn({ providerAccountId: account._id, reason: error instanceof AppError ? error.code : "unknown" }, "paused account's key check failed; tried again next round");
          continue;
        }
      }
      await resumeAccount(statusDeps, account);
      resumed += 1;
    }
    return resumed;
  }

  /** Each usable account's webhook, checked on its own: one account's failure never stops the others'. */
  async function webhooks(skip: Set<string>): Promise<number> {
    if (options.secretsKey === undefined) return 0;
    let enabled = 0;
    for (const account of await options.accounts.collection.find({}, { limit: 1_000 })) {
      // Xendit's callback URLs are set in its dashboard: there is nothing of theirs to check or enable.
      if (skip.has(account._id) || !isPaymongoAccount(account)) continue;
      try {
        if (await webhookOf(account, options.secretsKey)) enabled += 1;
      } catch (error) {
        if (await accountRefused(account._id, keyRefusalOf(error))) continue;
        logger.warn({ providerAccountId: account._id, reason: error instanceof AppError ? error.code : "unknown" }, "provider webhook check failed; next round tries again");
      }
    }
    return enabled;
  }

  /** Enables (or registers again) the account's webhook if the provider disabled (or lost) it; true when it did. */
  async function webhookOf(account: PaymongoAccountRecord, secretsKey: SealingKeys): Promise<boolean> {
    const secretKey = openProviderSecretKey(secretsKey, account._id, account.secretKey);
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
        { webhookId: fresh.webhookId, secret: sealProviderWebhookSecret(secretsKey, account._id, fresh.webhookSecret), status: fresh.status, url: account.webhook.url },
        now(),
      );
      reenabled?.inc();
      return true;
    }
    if (webhook.status === "enabled") {
      if (account.webhook.status !== "enabled") await options.accounts.setWebhookStatus(account._id, account.webhook.webhookId, "enabled", now());
      return false;
    }
    logger.warn({ providerAccountId: account._id, webhookId: account.webhook.webhookId, reason: webhook.disabledReason }, "provider webhook found disabled; enabling it again");
    await options.setup.enableWebhook(secretKey, account.webhook.webhookId);
    await options.accounts.setWebhookStatus(account._id, account.webhook.webhookId, "enabled", now());
    reenabled?.inc();
    return true;
  }

  /** Runs one part of a round; a failure is logged and the rest of the round goes on. */
  async function part(kind: keyof ReconcileRound, run: () => Promise<number>): Promise<number> {
    try {
      const found = await run();
      if (found > 0) {
        logger.info({ kind, found }, "provider reconciliation applied what no webhook had");
        if (kind !== "webhooksEnabled" && kind !== "accountsResumed") settled?.inc({ kind }, found);
      }
      return found;
    } catch (error) {
      logger.warn({ err: error, kind }, "provider reconciliation failed; next round tries again");
      return 0;
    }
  }

  async function round(): Promise<ReconcileRound> {
    const none = { checkouts: 0, paymentIntents: 0, refunds: 0, webhooksEnabled: 0, accountsResumed: 0 };
    if (!(await lease.acquire(options.holderId, now(), options.intervalMs * 2))) return none;
    const before = new Date(now().getTime() - options.afterMs);
    const accountsResumed = await part("accountsResumed", keyChecks);
    // One set for the round: an account paused or deferred by a read is skipped by every later part.
    const skip = await unusableAccounts();
    return {
      accountsResumed,
      checkouts: await part("checkouts", () => checkouts(before, skip)),
      paymentIntents: await part("paymentIntents", () => paymentIntents(before, skip)),
      refunds: await part("refunds", () => refunds(before, skip)),
      webhooksEnabled: await part("webhooksEnabled", () => webhooks(skip)),
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
