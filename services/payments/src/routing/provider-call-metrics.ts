import { AppError, Counter, Histogram, metricOnce, type Registry } from "@bayad/kit";
import { ProviderNoAnswerError } from "@bayad/provider";

/** How a create at a provider account ended: made, did nothing, no answer, refused. */
export type ProviderCallOutcome = "succeeded" | "unavailable" | "no_answer" | "refused";

export interface ProviderCallMetrics {
  called(labels: { provider: string; providerAccountId: string }, outcome: ProviderCallOutcome, seconds: number): void;
  failedOver(fromProviderAccountId: string, toProviderAccountId: string): void;
}

export function outcomeOf(error: unknown): ProviderCallOutcome {
  if (error instanceof ProviderNoAnswerError) return "no_answer";
  if (error instanceof AppError && error.code === "PROVIDER_UNAVAILABLE") return "unavailable";
  return "refused";
}

/**
 * Per provider account: `bayad_provider_calls_total{provider, provider_account_id, outcome}`,
 * `bayad_provider_call_duration_seconds{provider, provider_account_id}` (the creates routing sends
 * to it), and `bayad_provider_failovers_total{from_provider_account_id, to_provider_account_id}`.
 */
export function registerProviderCallMetrics(registry: Registry | undefined): ProviderCallMetrics {
  if (!registry) return { called: () => undefined, failedOver: () => undefined };
  const calls = metricOnce(registry, "bayad_provider_calls_total", () =>
    new Counter({
      name: "bayad_provider_calls_total",
      help: "Creates asked of provider accounts, by provider, account and outcome (succeeded, unavailable, no_answer, refused).",
      labelNames: ["provider", "provider_account_id", "outcome"],
      registers: [registry],
    }),
  );
  const duration = metricOnce(registry, "bayad_provider_call_duration_seconds", () =>
    new Histogram({
      name: "bayad_provider_call_duration_seconds",
      help: "How long provider accounts took to answer the creates routing sent them.",
      labelNames: ["provider", "provider_account_id"],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
  );
  const failovers = metricOnce(registry, "bayad_provider_failovers_total", () =>
    new Counter({
      name: "bayad_provider_failovers_total",
      help: "Creates moved from one provider account to the next because the first made nothing.",
      labelNames: ["from_provider_account_id", "to_provider_account_id"],
      registers: [registry],
    }),
  );
  return {
    called({ provider, providerAccountId }, outcome, seconds) {
      calls.inc({ provider, provider_account_id: providerAccountId, outcome });
      duration.observe({ provider, provider_account_id: providerAccountId }, seconds);
    },
    failedOver: (from, to) => failovers.inc({ from_provider_account_id: from, to_provider_account_id: to }),
  };
}
