import { AppError, type Logger } from "@bayad/kit";
import type { CheckoutsDeps } from "../checkouts/checkouts.js";
import type { PaymentIntentsDeps } from "../payment-intents/payment-intents.js";
import type { RefundsDeps } from "../refunds/refunds.js";
import { isUsable, pauseForRefusedKey, type AccountStatusDeps } from "../provider-accounts/account-status.js";
import type { ProviderAccountRecord } from "../provider-accounts/provider-account.js";
import type { AccountProviders } from "../providers/account-providers.js";
import { isKeyRefused } from "../providers/key-refusal.js";
import type { Settled } from "../providers/settle-from-provider.js";
import type { ProviderEventRecord } from "./provider-events-repository.js";

export interface ApplyDeps {
  checkouts: CheckoutsDeps;
  paymentIntents: PaymentIntentsDeps;
  refunds: RefundsDeps;
  providers: AccountProviders;
  /** Where a refused key pauses its account. */
  accountStatus: AccountStatusDeps;
  logger: Logger;
}

/** What applying an event came to; "rejected": the provider's own resource does not say what the event did, so nothing changed. */
export type AppliedAs = "applied" | "ignored" | "rejected";

export const asApplied = (settled: Settled): AppliedAs => (settled === "applied" ? "applied" : settled === "unknown" ? "ignored" : "rejected");

/** Reads Bayad's resource `resourceId` back at the provider (unless its account is paused) and says what that came to. */
export type Read<P> = (resourceId: string, settle: (provider: P) => Promise<Settled>) => Promise<AppliedAs>;

/**
 * How an event's hint is followed, whichever the provider: nothing is read while the account is
 * paused or waiting (the applier tries again later); a read that shows nothing final is logged
 * ("rejected"); a refused key (401) pauses the account. Shared by PayMongo's events and Xendit's
 * callbacks (apply-xendit-event.ts).
 */
export function readerOf<P>(deps: ApplyDeps, account: ProviderAccountRecord, provider: P, record: ProviderEventRecord, type: string): Read<P> {
  return async (resourceId, settle) => {
    if (!isUsable(account, deps.accountStatus.now())) {
      throw new AppError("PROVIDER_UNAVAILABLE", "The provider account is paused or waiting; the event is applied once it is usable again.");
    }
    try {
      const settled = await settle(provider);
      if (settled === "open") {
        // The event said something happened; the provider's resource shows nothing final. (A disagreement is logged where it is found.)
        deps.logger.warn({ providerAccountId: account._id, eventId: record.eventId, type, resourceId }, "provider event not confirmed by the provider's resource: nothing changed");
      }
      return asApplied(settled);
    } catch (error) {
      if (isKeyRefused(error)) await pauseForRefusedKey(deps.accountStatus, account);
      throw error;
    }
  };
}

