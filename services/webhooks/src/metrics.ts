import { Counter, Gauge, Histogram, metricOnce, type Registry } from "@bayad/kit";

export type DeliveryOutcome = "succeeded" | "failed";

/** What the dispatcher reports of each attempt it made. */
export interface DeliveryMetrics {
  attempted(outcome: DeliveryOutcome, durationMs: number | undefined): void;
}

/** Delivery latencies, from a quick 2xx to WEBHOOK_TIMEOUT's longest values. */
const deliveryBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120];

/** Per gauge: each running server's measure of its oldest due attempt (several share one registry in tests). */
const oldestSources = new WeakMap<Gauge, Set<() => Promise<number>>>();

/**
 * The webhooks metrics: attempts by outcome, their latency, and the age of the oldest attempt
 * that is due but not made (measured when Prometheus scrapes); a growing age means deliveries
 * fall behind. `stop` detaches this server's measure.
 */
export function registerWebhooksMetrics(
  registry: Registry | undefined,
  oldestDueAgeSeconds: () => Promise<number>,
): DeliveryMetrics & { stop(): void } {
  if (!registry) return { attempted: () => undefined, stop: () => undefined };
  const attempts = metricOnce(registry, "bayad_webhook_deliveries_total", () =>
    new Counter({
      name: "bayad_webhook_deliveries_total",
      help: "Webhook delivery attempts made, by outcome (succeeded: a 2xx in time).",
      labelNames: ["outcome"],
      registers: [registry],
    }),
  );
  const duration = metricOnce(registry, "bayad_webhook_delivery_duration_seconds", () =>
    new Histogram({
      name: "bayad_webhook_delivery_duration_seconds",
      help: "Time from starting a webhook delivery attempt to the receiver's answer or the failure.",
      buckets: deliveryBuckets,
      registers: [registry],
    }),
  );
  const oldest = metricOnce(registry, "bayad_webhook_oldest_pending_seconds", () => {
    const sources = new Set<() => Promise<number>>();
    const gauge: Gauge = new Gauge({
      name: "bayad_webhook_oldest_pending_seconds",
      help: "Age of the oldest webhook delivery attempt that is due and not yet made (0 when none).",
      registers: [registry],
      async collect() {
        const ages = await Promise.all([...sources].map((source) => source().catch(() => 0)));
        gauge.set(Math.max(0, ...ages));
      },
    });
    oldestSources.set(gauge, sources);
    return gauge;
  });
  // Both outcomes show from the start, so a rate over them never lacks a series.
  attempts.inc({ outcome: "succeeded" }, 0);
  attempts.inc({ outcome: "failed" }, 0);
  oldestSources.get(oldest)?.add(oldestDueAgeSeconds);
  return {
    attempted(outcome, durationMs) {
      attempts.inc({ outcome });
      if (durationMs !== undefined) duration.observe(durationMs / 1000);
    },
    stop: () => void oldestSources.get(oldest)?.delete(oldestDueAgeSeconds),
  };
}
