import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus, WebhookEndpointStatus } from "@bayad/proto";
import { createMetricsRegistry, type Registry } from "@bayad/kit";
import { as, newProject, quickEnv, startHarness, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver, type WebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { messageOf, paidCheckoutEvent } from "./test-support/events.js";

/** An endpoint whose every attempt fails for WEBHOOK_DISABLE_AFTER is disabled; operators see outcomes in the metrics. */
describe("a failing endpoint", () => {
  let harness: Harness;
  let receiver: WebhookReceiver;
  let metrics: Registry;

  beforeAll(async () => {
    metrics = createMetricsRegistry();
    harness = await startHarness({ ...quickEnv, WEBHOOK_RETRY_SCHEDULE: "0s,1s,1s,1s,1s", WEBHOOK_DISABLE_AFTER: "1s" }, { metrics });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
  });

  it("is disabled (reason failing) once its attempts have failed for WEBHOOK_DISABLE_AFTER, with no attempt after that", async () => {
    receiver.answers.push(500, 500);
    const project = newProject();
    const created = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["*"] }, as(project));
    const endpointId = created.webhookEndpoint!.webhookEndpointId;
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));

    const disabled = await eventually(async () => {
      const read = await harness.client.getWebhookEndpoint({ webhookEndpointId: endpointId }, as(project, "test", null));
      return read.webhookEndpoint!.status === WebhookEndpointStatus.DISABLED ? read.webhookEndpoint! : undefined;
    });
    expect(disabled.disabledReason).toBe("failing");
    const attempts = (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, as(project, "test", null))).deliveries;
    // The first failure started the clock; the next, a second later, found it run out.
    expect(attempts.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 2, status: WebhookDeliveryStatus.FAILED },
      { attempt: 1, status: WebhookDeliveryStatus.FAILED },
    ]);
    expect(attempts[0]!.nextAttemptAt).toBeUndefined();
    expect(receiver.received).toHaveLength(2);

    const text = await metrics.metrics();
    expect(text).toMatch(/^bayad_webhook_deliveries_total\{outcome="failed"\} 2$/m);
    expect(text).toMatch(/^bayad_webhook_delivery_duration_seconds_count 2$/m);
    expect(text).toMatch(/^bayad_webhook_oldest_pending_seconds 0$/m);
    expect(text).toMatch(/^bayad_consumer_pending_messages\{consumer="webhooks"\} 0$/m);
  });

  it("stays enabled when an attempt succeeds in time: a success stops the clock", async () => {
    const project = newProject();
    receiver.answers.splice(0, receiver.answers.length, 500);
    const created = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["*"] }, as(project));
    const endpointId = created.webhookEndpoint!.webhookEndpointId;
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    // 500 then 200: the second attempt, a second after the first, succeeds and the endpoint stays enabled.
    await eventually(async () => {
      const listed = (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, as(project, "test", null))).deliveries;
      return listed[0]?.status === WebhookDeliveryStatus.SUCCEEDED ? listed : undefined;
    });
    const read = await harness.client.getWebhookEndpoint({ webhookEndpointId: endpointId }, as(project, "test", null));
    expect(read.webhookEndpoint!.status).toBe(WebhookEndpointStatus.ENABLED);
    expect(await metrics.metrics()).toMatch(/^bayad_webhook_deliveries_total\{outcome="succeeded"\} 1$/m);
  });
});
