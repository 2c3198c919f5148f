import { createCheckout, createWebhookEndpoint, deleteWebhookEndpoint, payCheckout } from "./api-client.js";
import { forkChild } from "./child-process.js";
import type { PairedBaselines } from "./paired-baselines.js";
import type { PlatformHandle } from "./platform-handle.js";
import { measureScenario, type Row } from "./row.js";
import type { LoadSettings } from "./run-autocannon.js";
import { checkoutBody, createCheckoutsWithDeliveries, freshValue } from "./scenarios.js";
import { probedEventType, tallyDeliveries, type DeliveryTally } from "./webhook-deliveries.js";
import type { ReceivedWebhook, WebhookReceiverReady } from "./webhook-receiver-process.js";

/** A probe (create a checkout, pay it) starts this often during the measured run… */
const probeIntervalMs = 50;
/** …unless this many are still waiting for the platform (a slow platform is probed less, not queued up). */
const maxProbesInFlight = 4;
/** How long deliveries may take to arrive after the load stops before the missing ones are counted. */
const deliveryWaitMs = 30_000;
const deliveryPollMs = 100;

/** Scenario 7: scenario 2's load with webhook deliveries timed beside it. */
export interface WebhookDeliveryResult extends DeliveryTally {
  /** Scenario 2's load as it ran with the probes and deliveries beside it. */
  row: Row;
  /** Checkouts the probes paid (their `checkout.paid` is what the receiver waits for). */
  paid: number;
  /** Probes that went wrong (a refused create or pay, a checkout not paid), by what happened. */
  probeProblems: Record<string, number>;
}

/**
 * Registers a webhook endpoint for `checkout.paid` pointing at a receiver in its own process,
 * then runs scenario 2's request at the same connections (warm-up, measured run) while, during
 * the measured run only, a probe every 50 ms creates a checkout and pays it through the sandbox's
 * test helper (scenario 2's checkouts only become `pending`, which is no public event). Once the
 * load stops, it waits until every paid checkout's delivery has arrived (or 30 s), verifies each
 * signature with `standardwebhooks`, and times each delivery from the event's `createdAt`.
 */
export async function webhookDeliveryUnderLoad(platform: PlatformHandle, load: LoadSettings, paired: PairedBaselines): Promise<WebhookDeliveryResult> {
  const receiver = await forkChild<WebhookReceiverReady>("webhook receiver", new URL("./webhook-receiver-process.js", import.meta.url));
  try {
    const endpoint = await createWebhookEndpoint(platform, receiver.ready.url, [probedEventType], freshValue("endpoint-key"));
    const probes = payingProbes(platform);
    const denominators = await paired.measureBefore("write");
    const row = await measureScenario(platform.gatewayUrl, createCheckoutsWithDeliveries(platform.testApiKey), load, platform.cpuMeter, () => probes.start());
    const { paid, problems } = await probes.stop();

    const deadline = Date.now() + deliveryWaitMs;
    let tally = tallyDeliveries(paid, await receiver.request<ReceivedWebhook[]>("deliveries"), endpoint.secret);
    while (tally.missing > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, deliveryPollMs));
      tally = tallyDeliveries(paid, await receiver.request<ReceivedWebhook[]>("deliveries"), endpoint.secret);
    }
    await deleteWebhookEndpoint(platform, endpoint.webhookEndpointId, freshValue("endpoint-delete-key"));
    const latency = tally.latencyMs;
    process.stdout.write(
      `    ${tally.delivered}/${paid.size} deliveries, p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms` +
        `${tally.missing > 0 ? `, ${tally.missing} missing` : ""}${tally.unverified > 0 ? `, ${tally.unverified} unverified` : ""}\n`,
    );
    return { ...tally, row: { ...row, ...denominators }, paid: paid.size, probeProblems: problems };
  } finally {
    await receiver.stop();
  }
}

interface Probes {
  start(): void;
  /** Stops starting probes and waits for those in flight. */
  stop(): Promise<{ paid: Set<string>; problems: Record<string, number> }>;
}

function payingProbes(platform: PlatformHandle): Probes {
  const paid = new Set<string>();
  const problems: Record<string, number> = {};
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  const probe = async () => {
    try {
      const checkoutId = await createCheckout(platform, JSON.parse(checkoutBody(freshValue("probe-order"))), freshValue("probe-key"));
      const status = await payCheckout(platform, checkoutId, freshValue("probe-pay-key"));
      if (status === "paid") paid.add(checkoutId);
      else problems[`paid checkout is ${status}`] = (problems[`paid checkout is ${status}`] ?? 0) + 1;
    } catch (error) {
      // The first line names the call and the answer (api-client's errors).
      const what = (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, 120);
      problems[what] = (problems[what] ?? 0) + 1;
    }
  };
  return {
    start() {
      timer = setInterval(() => {
        if (inFlight.size >= maxProbesInFlight) return;
        const running = probe().finally(() => inFlight.delete(running));
        inFlight.add(running);
      }, probeIntervalMs);
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { paid, problems };
    },
  };
}
