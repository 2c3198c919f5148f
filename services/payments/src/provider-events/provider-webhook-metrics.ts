import { Counter, metricOnce, type Registry } from "@bayad/kit";
import type { PaymongoSignatureRefusal, XenditCallbackTokenRefusal } from "@bayad/provider";

/**
 * Why a provider webhook delivery was refused: PayMongo's signature verdict or Xendit's callback
 * token verdict, an account Bayad does not know, or a verified event of the other mode than its account's.
 */
export type ProviderWebhookRefusal = PaymongoSignatureRefusal | XenditCallbackTokenRefusal | "unknown_account" | "event_mode_mismatch";

const refusals: readonly ProviderWebhookRefusal[] = [
  "missing_header",
  "malformed_header",
  "wrong_mode",
  "timestamp_too_old",
  "timestamp_in_future",
  "mismatch",
  "no_secret",
  "unknown_account",
  "event_mode_mismatch",
];

/** Xendit's reasons: its callbacks carry a static token, not a signature with a timestamp. */
const xenditRefusals: readonly ProviderWebhookRefusal[] = ["missing_header", "empty_header", "repeated_header", "mismatch", "no_secret", "unknown_account"];

export interface ProviderWebhookMetrics {
  refused(provider: string, reason: ProviderWebhookRefusal): void;
}

/**
 * `bayad_provider_webhook_refusals_total{provider, reason}`: the sender hears one generic 401
 * whatever was wrong, so this (with the log) is where the reason shows. A rise in `mismatch` or
 * `unknown_account` is someone probing; in `wrong_mode` or `timestamp_too_old`, a misconfigured
 * webhook or a skewed clock.
 */
export function registerProviderWebhookMetrics(registry: Registry | undefined): ProviderWebhookMetrics {
  if (!registry) return { refused: () => undefined };
  const counter = metricOnce(registry, "bayad_provider_webhook_refusals_total", () =>
    new Counter({
      name: "bayad_provider_webhook_refusals_total",
      help: "Provider webhook deliveries refused (answered 401), by provider and reason.",
      labelNames: ["provider", "reason"],
      registers: [registry],
    }),
  );
  // Every reason shows from the start, so a rate over them never lacks a series.
  for (const reason of refusals) counter.inc({ provider: "paymongo", reason }, 0);
  for (const reason of xenditRefusals) counter.inc({ provider: "xendit", reason }, 0);
  return { refused: (provider, reason) => counter.inc({ provider, reason }) };
}
