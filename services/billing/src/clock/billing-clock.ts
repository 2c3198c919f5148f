import type { BillingDeps } from "../billing-deps.js";
import { finalizeBilledInvoice, finalizeDrafts } from "../invoices/invoices.js";
import { closePeriod, endsHere } from "../subscriptions/close-period.js";
import type { SubscriptionRecord } from "../subscriptions/subscription.js";
import { announceDueTrials } from "../subscriptions/trials.js";
import { createLease } from "@bayad/store";
import type { CallerContext } from "@bayad/kit";
import { runDunning, type DunningDeps, type DunningRun } from "../dunning/dunning.js";
import type { InvoiceMessagesDeps } from "../messages/invoice-messages.js";
import { sweepInvoiceMessages } from "../messages/invoice-messages-sweep.js";

export interface BillingClockOptions {
  deps: BillingDeps;
  /** How often the clock ticks by itself. */
  intervalMs: number;
  /** How long a holder's lease lasts without renewal (a crashed holder's lapses after this). */
  leaseMs: number;
  /** Who this clock is when it holds the lease: unique per process. */
  holderId: string;
  /** What time the clock bills up to; defaults to deps.now. */
  now?: () => Date;
  /** Subscriptions (and leftover drafts, and invoices due a dunning step) handled per batch. */
  batchSize?: number;
  /**
   * Sends the dunning steps' reminders, and the invoices and receipts whose event was never
   * handled; absent, steps are still taken and announced.
   */
  messaging?: InvoiceMessagesDeps;
}

export interface BillingClock {
  /** One round: returns how many periods it closed (0 when another clock holds the lease). */
  tick(): Promise<number>;
  /** Stops ticking; once a round in progress has finished, gives the lease up. */
  stop(): Promise<void>;
}

const BILLING_CLOCK_LEASE = "billing-clock";

/** A cancelled subscription has no period left; an unpaid one bills no new period (only a scheduled end closes it). */
const periodsCanClose = (subscription: SubscriptionRecord) =>
  subscription.status !== "cancelled" && (subscription.status !== "unpaid" || endsHere(subscription));

/**
 * Closes every period of `subscription` that had ended by `now`, one at a time, each closing at
 * its scheduled end and the next starting there (so a clock that was down catches up, billing
 * each missed period once). Returns how many periods this call closed.
 */
export async function closeDuePeriods(deps: BillingDeps, subscription: SubscriptionRecord, now: Date): Promise<number> {
  let current = subscription;
  let closed = 0;
  while (periodsCanClose(current) && current.currentPeriodEnd.getTime() <= now.getTime()) {
    const result = await closePeriod(deps, current, current.currentPeriodEnd);
    if (result.closed) closed += 1;
    if (result.billed) await finalizeBilledInvoice(deps, result.billed);
    current = result.subscription;
  }
  return closed;
}

/** What a run of the billing clock did. */
export interface ClockRun extends DunningRun {
  at: Date;
  periodsClosed: number;
}

/**
 * Test helper: does for `scope`'s subscriptions (a project's test mode) what the billing clock
 * does at `at` (now when absent; it may be later, so that test mode can move time on): closes
 * every period ended by then, each at its end, then takes the dunning steps due by then. Running
 * it again at the same time does nothing more: no period is billed twice, no step taken twice.
 */
export async function runBillingClock(
  deps: DunningDeps,
  scope: Pick<CallerContext, "projectId" | "environment">,
  at: Date | undefined,
): Promise<ClockRun> {
  const until = at ?? deps.billing.now();
  let periodsClosed = 0;
  const seen: string[] = [];
  for (;;) {
    const due = await deps.billing.subscriptions.findDue(until, 100, seen, scope);
    for (const subscription of due) {
      seen.push(subscription._id);
      periodsClosed += await closeDuePeriods(deps.billing, subscription, until);
    }
    if (due.length < 100) break;
  }
  const dunning = await runDunning(deps, until, { scope });
  return { at: until, periodsClosed, ...dunning };
}

/**
 * The billing clock: every `intervalMs`, the one clock holding the lease closes the periods that
 * have ended (a trial's end included), announces trials ending within 3 days, finalizes drafts
 * left behind, takes the dunning steps that are due (dunning/) and catches up the invoice messages
 * whose event was never handled (messages/invoice-messages-sweep.ts). Every replica runs one; the
 * lease keeps them from
 * duplicating work, but correctness does not rest on it: each close is guarded by versions and
 * by one invoice per (subscription, period), so two clocks that both think they hold the lease
 * still bill each period once.
 */
export function startBillingClock(options: BillingClockOptions): BillingClock {
  const { deps, holderId, leaseMs } = options;
  const now = options.now ?? deps.now;
  const batchSize = options.batchSize ?? 100;
  const lease = createLease(deps.store, BILLING_CLOCK_LEASE);
  let stopped = false;
  let last: Promise<unknown> = Promise.resolve();
  let inFlight = 0;

  async function round(): Promise<number> {
    if (stopped) return 0;
    const until = now();
    if (!(await lease.acquire(holderId, until, leaseMs))) return 0;
    await finalizeDrafts(deps, batchSize);
    // Before closing periods: a trial due for both (the clock was down) ends unannounced.
    await announceDueTrials(deps, until, batchSize);
    let closed = 0;
    // A subscription that failed to close is left for the next round, not retried in this one.
    const failed: string[] = [];
    while (!stopped) {
      const due = await deps.subscriptions.findDue(until, batchSize, failed);
      for (const subscription of due) {
        if (stopped) break;
        try {
          closed += await closeDuePeriods(deps, subscription, until);
        } catch (error) {
          failed.push(subscription._id);
          deps.logger.error({ err: error, subscriptionId: subscription._id }, "billing period not closed");
        }
      }
      if (due.length < batchSize) break;
      // Renewed between batches so a long catch-up keeps it; losing it hands the rest over.
      if (!(await lease.acquire(holderId, now(), leaseMs))) return closed;
    }
    // Then the dunning steps due by the same time, periods closed first (an invoice whose period
    // just closed is past due when its reminder says so).
    if (!stopped) {
      await runDunning({ billing: deps, messaging: options.messaging }, until, {
        batchSize,
        keepLease: () => lease.acquire(holderId, now(), leaseMs),
      });
    }
    // Last, the invoices and receipts whose event was never handled (the process stopped between
    // the event and its handling): sent now, once, through the claims the consumer makes.
    if (!stopped && options.messaging) {
      await sweepInvoiceMessages(options.messaging, until, { batchSize, keepLease: () => lease.acquire(holderId, now(), leaseMs) });
    }
    return closed;
  }

  function tick(): Promise<number> {
    // Rounds of one clock never overlap: each waits for the one before.
    const next = last.catch(() => undefined).then(round);
    last = next;
    inFlight += 1;
    return next.finally(() => {
      inFlight -= 1;
    });
  }

  const timer = setInterval(() => {
    if (inFlight > 0) return;
    tick().catch((error: unknown) => deps.logger.error({ err: error }, "billing clock round failed"));
  }, options.intervalMs);
  // The clock alone never keeps the process alive.
  timer.unref();

  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await last.catch(() => undefined);
      await lease.release(holderId).catch((error: unknown) => deps.logger.warn({ err: error }, "billing clock lease not released"));
    },
  };
}
