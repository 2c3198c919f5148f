import { count, mark, ms } from "./report-format.js";
import { deliveryCheck } from "./targets.js";
import type { WebhookDeliveryResult } from "./webhook-scenario.js";

/** Scenario 7's deliveries: how many, how many missing or unverified, and their latency. */
export function deliverySection(delivery: WebhookDeliveryResult): string[] {
  const latency = delivery.latencyMs;
  const problems = Object.entries(delivery.probeProblems).map(([what, times]) => `${what} ×${count(times)}`);
  return [
    "## Webhook delivery under scenario 2's load (scenario 7)",
    "",
    "During scenario 7's measured run, a probe every 50 ms (at most 4 at once) creates a checkout and pays it through the sandbox's test helper; " +
      "the platform delivers each `checkout.paid` to a receiver on loopback, in its own process. Latency: from the event's `createdAt` (the state change, stamped by the platform, ms) " +
      "to the moment the receiver had the whole delivery; each signature verified with `standardwebhooks`.",
    "",
    `- Checkouts paid by the probes: ${count(delivery.paid)}${problems.length > 0 ? `; probes that went wrong: ${problems.join(", ")}` : ""}`,
    `- Deliveries: ${count(delivery.delivered)} arrived signed, ${count(delivery.missing)} missing, ${count(delivery.unverified)} failed verification, ${count(delivery.duplicates)} duplicates, ${count(delivery.unexpected)} about other resources`,
    `- Latency: p50 ${ms(latency.p50)} ms, p99 ${ms(latency.p99)} ms, max ${ms(latency.max)} ms → ${mark(deliveryCheck(delivery))}`,
    "",
  ];
}
