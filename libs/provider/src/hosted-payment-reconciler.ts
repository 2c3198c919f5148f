import { AppError, Counter, doublingDelay, metricOnce, type Logger, type Registry } from "@bayad/kit";
import { PaymongoKeyRefusedError } from "./paymongo/paymongo-errors.js";
import type { HostedPaymentState } from "./port.js";
import type { ProviderAccounts } from "./providers.js";
import { XenditKeyRefusedError } from "./xendit/xendit-errors.js";

/** A payment link or an invoice made at a provider account and not paid yet, as its service keeps it. */
export interface UnsettledHostedPayment {
  /** The Bayad id (`link_…`, `inv_…`). */
  id: string;
  providerAccountId: string;
  /** The provider's hosted payment (a `link_…` at PayMongo, an invoice's 24 hex digits at Xendit). */
  providerReference: string;
}

/** The provider's payment of a hosted payment found paid: what refunds need (its id, method and time), and its fee. */
export interface HostedPaymentSettlement {
  id: string;
  method?: string;
  /** The method in Bayad's names. */
  paymentMethod?: string;
  /** What the provider kept, in centavos; absent: not reported. */
  fee?: number;
  paidAt?: Date;
}

export interface HostedPaymentReconcilerOptions {
  /** What is reconciled: the `kind` label of `bayad_provider_reconciled_total`, and the logs'. */
  kind: "payment_link" | "invoice";
  /** The service's lease (its store's `leases`): only its holder runs a round, so replicas do not all ask the provider. */
  lease: { acquire(holder: string, now: Date, leaseMs: number): Promise<boolean> };
  holderId: string;
  /**
   * The service's unpaid resources of provider accounts made before `before`, ordered by id,
   * after `afterId` when given, at most `limit`. Rounds walk through them page by page and start
   * over at the end, so links left unpaid for months do not keep newer ones from being read.
   */
  unsettled(before: Date, afterId: string | undefined, limit: number): Promise<UnsettledHostedPayment[]>;
  /**
   * Marks the resource paid as its sandbox pay path does (idempotent); true when it moved now.
   * `payment`: the provider's payment (its id, method and time, which refunds need), when the
   * provider names it; `providerPaymentId` is its id, or "" when it names none.
   */
  settle(resource: UnsettledHostedPayment, providerPaymentId: string, payment?: HostedPaymentSettlement): Promise<boolean>;
  /** The adapters of the provider accounts by id (undefined once the account is removed); each reads its hosted payments back (hostedPaymentState). */
  accounts: Pick<ProviderAccounts, "forAccount">;
  /** PROVIDER_RECONCILE_AFTER. */
  afterMs: number;
  /** PROVIDER_RECONCILE_INTERVAL (also the lease's length, twice over). */
  intervalMs: number;
  logger: Logger;
  metrics?: Registry;
  now: () => Date;
  /** Resources read per round (default 50). */
  batch?: number;
  /** More work for the lease holder after each round (billing: closing the hosted payments of voided invoices at their provider); its count is logged. */
  alsoEachRound?: () => Promise<number>;
}

/** A paid hosted payment's payment, as `settle` takes it: undefined when the provider names none. */
export function hostedPaymentSettlement(state: HostedPaymentState): HostedPaymentSettlement | undefined {
  const { providerPaymentId: id, method, paymentMethod, fee, paidAt } = state;
  if (id === undefined) return undefined;
  return {
    id,
    ...(method !== undefined ? { method } : {}),
    ...(paymentMethod !== undefined ? { paymentMethod } : {}),
    ...(fee !== undefined ? { fee } : {}),
    ...(paidAt !== undefined ? { paidAt } : {}),
  };
}

const MAX_RESOURCE_WAIT_MS = 3_600_000;

export interface HostedPaymentReconciler {
  /** One round, if this replica holds the lease: how many resources it found paid. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

/** A provider's key refusal (a 401), which sets its whole account aside. */
const isKeyRefusal = (error: unknown) => error instanceof PaymongoKeyRefusedError || error instanceof XenditKeyRefusedError;

/**
 * A provider reports a hosted payment's payment (PayMongo `link.payment.paid`, Xendit an
 * invoice's callback) to the webhook of the payments service, which cannot move links or
 * invoices: they are other services' collections. So the links and billing services each run
 * this lease-held poller: every `intervalMs`, the holder reads from the provider its unpaid links
 * (or invoices) of provider accounts older than `afterMs` (hostedPaymentState), and marks paid
 * those the provider says were paid, as the sandbox's pay path would. An open or expired one is
 * left as it is.
 *
 * A read that fails never holds the others up: each resource is read on its own, the page moves on
 * whatever happens, and a resource whose read failed waits (doubling from one interval to an hour)
 * before it is read again. A refused key (401, PayMongo's or Xendit's) sets the whole account
 * aside (one minute, doubling, at most six hours: PayMongo blocks a key retried after repeated
 * 401s) and a Retry-After until then. These waits are the lease holder's memory: the payments service owns the account's stored
 * status, and a new holder starting afresh costs at most one read per resource or account.
 */
export function startHostedPaymentReconciler(options: HostedPaymentReconcilerOptions): HostedPaymentReconciler {
  const { logger, now, kind } = options;
  const batch = options.batch ?? 50;
  // The payments service's counter, shared when the services run in one process (told apart by kind).
  const reconciled = options.metrics
    ? metricOnce(options.metrics, "bayad_provider_reconciled_total", () =>
        new Counter({
          name: "bayad_provider_reconciled_total",
          help: "Resources the provider reconciler found settled at the provider (no webhook had told), by kind.",
          labelNames: ["kind"],
          registers: [options.metrics!],
        }),
      )
    : undefined;
  let cursor: string | undefined;
  let last: Promise<unknown> = Promise.resolve();
  /** Waits by resource id and by `account:<id>`: failures in a row, and when to read again. */
  const waits = new Map<string, { failures: number; nextAt: number }>();
  const waiting = (key: string, at: number) => (waits.get(key)?.nextAt ?? 0) > at;
  const wait = (key: string, at: number, firstMs: number, maxMs: number, untilMs?: number) => {
    const failures = (waits.get(key)?.failures ?? 0) + 1;
    const nextAt = untilMs ?? at + doublingDelay({ initialDelayMs: firstMs, maxDelayMs: maxMs }, failures);
    waits.set(key, { failures, nextAt });
    return { failures, nextAt: new Date(nextAt) };
  };

  async function reconcileOne(resource: UnsettledHostedPayment): Promise<boolean> {
    const provider = await options.accounts.forAccount(resource.providerAccountId);
    if (!provider) return false; // the account was removed: its links cannot be read any more
    if (!provider.hostedPaymentState) throw new Error(`the ${provider.name} adapter cannot read a hosted payment back`);
    const state = await provider.hostedPaymentState(resource.providerReference);
    if (state.status !== "paid") return false;
    return options.settle(resource, state.providerPaymentId ?? "", hostedPaymentSettlement(state));
  }

  async function round(): Promise<number> {
    if (!(await options.lease.acquire(options.holderId, now(), options.intervalMs * 2))) return 0;
    const before = new Date(now().getTime() - options.afterMs);
    const page = await options.unsettled(before, cursor, batch);
    cursor = page.length < batch ? undefined : page.at(-1)?.id;
    let found = 0;
    const at = now().getTime();
    // Waits long over are forgotten (their resources were settled or removed meanwhile).
    for (const [key, value] of waits) if (value.nextAt < at - MAX_RESOURCE_WAIT_MS) waits.delete(key);
    for (const resource of page) {
      const accountKey = `account:${resource.providerAccountId}`;
      if (waiting(accountKey, at) || waiting(resource.id, at)) continue;
      try {
        if (await reconcileOne(resource)) found += 1;
        waits.delete(resource.id);
        waits.delete(accountKey);
      } catch (error) {
        const log = { kind, resourceId: resource.id, providerAccountId: resource.providerAccountId, reason: error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown" };
        const retryAfter = error instanceof AppError ? Number(error.headers?.["Retry-After"]) : NaN;
        if (isKeyRefusal(error)) {
          logger.warn({ ...log, ...wait(accountKey, at, 60_000, 6 * 3_600_000) }, "provider refused the account's key: its resources wait");
        } else if (Number.isFinite(retryAfter) && retryAfter > 0) {
          logger.warn({ ...log, ...wait(accountKey, at, 0, 0, at + retryAfter * 1000) }, "provider asked to wait: the account's resources wait");
        } else {
          logger.warn({ ...log, ...wait(resource.id, at, Math.max(options.intervalMs, 1_000), MAX_RESOURCE_WAIT_MS) }, "provider reconciliation could not read or settle a resource; it waits before the next try");
        }
      }
    }
    if (found > 0) {
      logger.info({ kind, found }, "provider reconciliation found resources paid at the provider");
      reconciled?.inc({ kind }, found);
    }
    if (options.alsoEachRound) {
      try {
        const done = await options.alsoEachRound();
        if (done > 0) logger.info({ kind, done }, "provider reconciliation's further work done");
      } catch (error) {
        logger.warn({ err: error, kind }, "provider reconciliation's further work failed; next round tries again");
      }
    }
    return found;
  }

  function tick(): Promise<number> {
    const next = last.catch(() => undefined).then(round);
    last = next;
    return next;
  }

  const timer = setInterval(() => void tick().catch((error: unknown) => logger.warn({ err: error, kind }, "provider reconciliation round failed; next round tries again")), options.intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      clearInterval(timer);
      await last.catch(() => undefined);
    },
  };
}
