import type { Session, Store } from "@bayad/store";
import type { ClaimedAttempt, WebhookDeliveriesRepository } from "../deliveries/webhook-deliveries-repository.js";
import type { WebhookDeliveryRecord } from "../deliveries/webhook-delivery.js";
import type { WebhookEndpointsRepository } from "../endpoints/webhook-endpoints-repository.js";
import type { DisabledReason } from "../endpoints/webhook-endpoint.js";

/** What one attempt came to. */
export type AttemptResult =
  /** Not sent: the endpoint was deleted or disabled, or the event is gone. Final; the endpoint is left as it is. */
  | { kind: "skipped"; error: string }
  /** The receiver answered (a 2xx is success). */
  | { kind: "answered"; statusCode: number; durationMs: number }
  /** No answer: a timeout, a refused address, no connection, or the delivery could not be signed. */
  | { kind: "failed"; error: string; durationMs?: number };

export interface OutcomeDeps {
  store: Store;
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  /** WEBHOOK_RETRY_SCHEDULE: the delay before each automatic attempt. */
  retryScheduleMs: number[];
  disableAfterMs: number;
  /** How long a finished attempt is kept. */
  retentionMs: number;
  now: () => Date;
}

export interface RecordedOutcome {
  status: "succeeded" | "failed";
  /** When the next attempt is due, if one was scheduled. */
  nextAttemptAt?: Date;
  /** Set when this attempt made Bayad disable the endpoint. */
  disabled?: DisabledReason;
}

/** The claim ran out and another dispatcher holds the attempt now: this outcome is not recorded. */
class LostClaim extends Error {}

const isSuccess = (result: AttemptResult) => result.kind === "answered" && result.statusCode >= 200 && result.statusCode < 300;

/** How often the next attempt number is taken again after losing it to a concurrent redelivery. */
const ATTEMPT_NUMBER_RACES = 5;

/**
 * Records what a claimed attempt did, in one transaction that holds only while the claim is
 * still this dispatcher's: the attempt finished, and what follows for the endpoint. A 2xx clears
 * the endpoint's failing clock. A 410 disables it (reason gone), with no further attempts. Any
 * other failure starts the clock if it was not running, disables the endpoint (reason failing)
 * once it has run WEBHOOK_DISABLE_AFTER, and otherwise schedules the next automatic attempt while
 * the schedule has one (never after a redelivery, which is one attempt). Null when the claim was lost.
 */
export async function recordOutcome(deps: OutcomeDeps, claimed: ClaimedAttempt, result: AttemptResult): Promise<RecordedOutcome | null> {
  for (let race = 1; ; race++) {
    try {
      return await deps.store.transaction((session) => writeOutcome(deps, claimed, result, session));
    } catch (error) {
      if (error instanceof LostClaim) return null;
      if (!deps.deliveries.isAttemptTaken(error) || race >= ATTEMPT_NUMBER_RACES) throw error;
    }
  }
}

async function writeOutcome(
  deps: OutcomeDeps,
  claimed: ClaimedAttempt,
  result: AttemptResult,
  session: Session,
): Promise<RecordedOutcome> {
  const now = deps.now();
  const succeeded = isSuccess(result);
  const outcome: RecordedOutcome = { status: succeeded ? "succeeded" : "failed" };
  const set: Partial<WebhookDeliveryRecord> = {
    status: outcome.status,
    attemptedAt: now,
    expiresAt: new Date(now.getTime() + deps.retentionMs),
    ...(result.kind === "answered" ? { responseStatusCode: result.statusCode, durationMs: result.durationMs } : {}),
    ...(result.kind === "failed" && result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
    ...(result.kind === "answered" && !succeeded ? { error: `HTTP ${result.statusCode}` } : {}),
    ...(result.kind !== "answered" ? { error: result.error } : {}),
  };
  const endpointId = claimed.webhookEndpointId;
  const endpoint = result.kind === "skipped" ? null : await deps.endpoints.findForDelivery(endpointId, session);
  if (endpoint && succeeded) {
    if (endpoint.failingSince) await deps.endpoints.updateForDelivery(endpointId, {}, { $unset: { failingSince: true } }, session);
  } else if (endpoint) {
    const disable = async (reason: DisabledReason) => {
      const done = await deps.endpoints.updateForDelivery(
        endpointId,
        { status: "enabled" },
        { $set: { status: "disabled", disabledReason: reason, updatedAt: now }, $unset: { failingSince: true } },
        session,
      );
      if (done) outcome.disabled = reason;
    };
    const failingSince = endpoint.failingSince ?? now;
    if (result.kind === "answered" && result.statusCode === 410) {
      await disable("gone");
    } else if (now.getTime() - failingSince.getTime() >= deps.disableAfterMs) {
      await disable("failing");
    } else {
      if (!endpoint.failingSince) await deps.endpoints.updateForDelivery(endpointId, {}, { $set: { failingSince: now } }, session);
      if (!claimed.redelivery && endpoint.status === "enabled") {
        // The n-th automatic attempt just failed: the schedule's n-th delay (0-based) comes before the next.
        const made = await deps.deliveries.automaticAttempts(endpointId, claimed.eventId, session);
        const delay = deps.retryScheduleMs[made];
        if (delay !== undefined) {
          const nextAttemptAt = new Date(now.getTime() + delay);
          await deps.deliveries.schedule(
            {
              webhookEndpointId: endpointId,
              eventId: claimed.eventId,
              eventType: claimed.eventType,
              projectId: claimed.projectId,
              environment: claimed.environment,
              attempt: (await deps.deliveries.highestAttempt(endpointId, claimed.eventId, session)) + 1,
              redelivery: false,
              scheduledAt: nextAttemptAt,
            },
            now,
            session,
          );
          set.nextAttemptAt = nextAttemptAt;
          outcome.nextAttemptAt = nextAttemptAt;
        }
      }
    }
  }
  // Last, and conditional on the claim: if it was lost, throwing undoes everything above.
  if (!(await deps.deliveries.finish(claimed, set, session))) throw new LostClaim();
  return outcome;
}
