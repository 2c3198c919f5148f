import { Webhook } from "standardwebhooks";
import { latencyPercentiles, type LatencySummary } from "./latency.js";
import type { ReceivedWebhook } from "./webhook-receiver-process.js";

/** The event type the delivery scenario's probes cause: a checkout paid through the sandbox. */
export const probedEventType = "checkout.paid";

/** What arrived at the receiver, judged against the checkouts the probes paid. */
export interface DeliveryTally {
  /** Probed checkouts whose signed `checkout.paid` arrived (once each, however often it came). */
  delivered: number;
  /** Probed checkouts whose event never arrived. */
  missing: number;
  /** Requests whose signature did not verify under the endpoint's secret (or had none). */
  unverified: number;
  /** Further arrivals of an event already counted (delivery is at least once). */
  duplicates: number;
  /** Verified events about anything the probes did not pay. */
  unexpected: number;
  /**
   * From each event's `createdAt` (the state change, as the platform stamps it) to the first
   * arrival of its delivery, in milliseconds.
   */
  latencyMs: LatencySummary;
}

interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { checkoutId?: unknown };
}

/**
 * Tallies `received` (in arrival order) for the checkouts in `paid`, verifying each request's
 * signature with the `standardwebhooks` package as a consumer would, under `secret`.
 */
export function tallyDeliveries(paid: ReadonlySet<string>, received: readonly ReceivedWebhook[], secret: string): DeliveryTally {
  const verifier = new Webhook(secret);
  const firstArrival = new Map<string, number>();
  const seenEvents = new Set<string>();
  let unverified = 0;
  let duplicates = 0;
  let unexpected = 0;
  for (const delivery of received) {
    let event: DeliveredEvent;
    try {
      event = verifier.verify(delivery.body, {
        "webhook-id": delivery.webhookId,
        "webhook-timestamp": delivery.webhookTimestamp,
        "webhook-signature": delivery.webhookSignature,
      }) as DeliveredEvent;
    } catch {
      unverified += 1;
      continue;
    }
    const checkoutId = typeof event.data?.checkoutId === "string" ? event.data.checkoutId : undefined;
    if (event.type !== probedEventType || checkoutId === undefined || !paid.has(checkoutId)) {
      unexpected += 1;
      continue;
    }
    if (seenEvents.has(event.id) || firstArrival.has(checkoutId)) {
      duplicates += 1;
      continue;
    }
    seenEvents.add(event.id);
    firstArrival.set(checkoutId, delivery.receivedAt - Date.parse(event.createdAt));
  }
  return {
    delivered: firstArrival.size,
    missing: paid.size - firstArrival.size,
    unverified,
    duplicates,
    unexpected,
    latencyMs: latencyPercentiles([...firstArrival.values()]),
  };
}
