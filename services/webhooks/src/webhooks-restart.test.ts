import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus } from "@bayad/proto";
import { as, newProject, quickEnv, startHarness, verified, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver, type WebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { messageOf, paidCheckoutEvent } from "./test-support/events.js";

/** Delivery state lives in the store: a server stopped in the middle of retries leaves them to the next one. */
describe("webhooks across a restart", () => {
  const env = { ...quickEnv, WEBHOOK_RETRY_SCHEDULE: "0s,3s" };
  let harness: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    harness = await startHarness(env);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await harness.close();
  });

  it("loses no delivery when the server stops between attempts, nor an event published while it is down", async () => {
    receiver.answers.push(503);
    const project = newProject();
    const created = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["checkout.paid"] }, as(project));
    const endpointId = created.webhookEndpoint!.webhookEndpointId;
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));

    // The first attempt failed and the second is scheduled: stop.
    await eventually(async () => {
      const listed = (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, as(project, "test", null))).deliveries;
      return listed.length === 2 ? listed : undefined;
    });
    await harness.server.close();
    expect(receiver.received.map((delivery) => delivery.status)).toEqual([503]);
    // Published while no server consumes: the durable consumer keeps its position.
    const whileDown = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(whileDown));

    await harness.restart();
    const retried = await eventually(() => receiver.deliveriesOf(event.eventId)[1]);
    expect(retried.status).toBe(200);
    expect(verified(retried, created.secret)).toEqual(verified(receiver.deliveriesOf(event.eventId)[0]!, created.secret));
    await eventually(() => receiver.deliveriesOf(whileDown.eventId)[0]);

    const attempts = await eventually(async () => {
      const listed = (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId, eventId: event.eventId }, as(project, "test", null))).deliveries;
      return listed[0]?.status === WebhookDeliveryStatus.SUCCEEDED ? listed : undefined;
    });
    expect(attempts.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 2, status: WebhookDeliveryStatus.SUCCEEDED },
      { attempt: 1, status: WebhookDeliveryStatus.FAILED },
    ]);
    expect(receiver.deliveriesOf(event.eventId)).toHaveLength(2);
  });
});
