import { startPaymongoSimulator, type PaymongoSimulator, type PaymongoSimulatorOptions } from "../index.js";
import { apiClient, type ApiClient } from "./api-client.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

export const ALL_EVENTS = [
  "checkout_session.payment.paid",
  "payment.paid",
  "payment.failed",
  "payment.refunded",
  "payment.refund.updated",
  "link.payment.paid",
  "qrph.expired",
];

export interface Fixture {
  sim: PaymongoSimulator;
  api: ApiClient;
  receiver: WebhookReceiver;
  webhook: { id: string; attributes: { secret_key: string; status: string } };
  close(): Promise<void>;
}

/** A simulator with short retries, an account, and a webhook of that account pointing at a receiver. */
export async function simulatorWithWebhook(
  options: PaymongoSimulatorOptions = {},
  { events = ALL_EVENTS, mode = "test" as "test" | "live" } = {},
): Promise<Fixture> {
  const sim = await startPaymongoSimulator({ retrySchedule: [20, 20], deliveryTimeoutMs: 1000, ...options });
  const receiver = await startWebhookReceiver();
  const api = apiClient(sim.url, mode === "live" ? `sk_live_${"L".repeat(24)}` : undefined);
  const webhook = await api.create("/v1/webhooks", { url: receiver.url, events });
  return {
    sim,
    api,
    receiver,
    webhook,
    async close() {
      await sim.close();
      await receiver.close();
    },
  };
}
