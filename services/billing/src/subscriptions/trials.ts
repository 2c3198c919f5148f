import type { Session } from "@bayad/store";
import type { BillingDeps } from "../billing-deps.js";
import { transactionRetryingConflicts } from "../transactions.js";
import type { SubscriptionRecord } from "./subscription.js";
import { changeSubscription } from "./subscription-writes.js";

/** How long before trialEnd `subscription.trial_will_end` is announced. */
export const TRIAL_WILL_END_NOTICE_MS = 3 * 24 * 60 * 60 * 1000;

/** When a trial started at `start` and ending at `trialEnd` announces its end: 3 days before it, or at once when shorter. */
export function trialWillEndAt(start: Date, trialEnd: Date): Date {
  return new Date(Math.max(start.getTime(), trialEnd.getTime() - TRIAL_WILL_END_NOTICE_MS));
}

/** Writes `subscription.trial_will_end` inside `session`, clearing what makes it due: at most once per subscription. */
export function announceTrialWillEnd(deps: BillingDeps, session: Session, subscription: SubscriptionRecord): Promise<SubscriptionRecord> {
  return changeSubscription(deps, session, subscription, "trial_will_end", { trialWillEndAt: null });
}

/**
 * The billing clock's announcements: every trial whose `subscription.trial_will_end` is due by
 * `now` and that has not ended yet announces it, once. Each is decided again from the
 * subscription as read in its own transaction and written over that version (with the due time
 * cleared), so a rerun, a second clock or a restart never announces one twice. A trial the clock
 * reaches only after it ended (the clock was down) is not announced late: closing it starts
 * billing, and clears the due time. Returns how many it announced.
 */
export async function announceDueTrials(deps: BillingDeps, now: Date, limit: number): Promise<number> {
  let announced = 0;
  for (const due of await deps.subscriptions.findTrialWillEndDue(now, limit)) {
    try {
      const done = await transactionRetryingConflicts(deps.store, async (session) => {
        const current = await deps.subscriptions.findByIdUnscoped(due._id, session);
        if (!current || current.status !== "trialing" || !current.trialWillEndAt || current.trialWillEndAt.getTime() > now.getTime()) return false;
        if (!current.trialEnd || current.trialEnd.getTime() <= now.getTime()) return false;
        await announceTrialWillEnd(deps, session, current);
        return true;
      });
      if (done) announced += 1;
    } catch (error) {
      deps.logger.error({ err: error, subscriptionId: due._id }, "trial_will_end not announced");
    }
  }
  return announced;
}
