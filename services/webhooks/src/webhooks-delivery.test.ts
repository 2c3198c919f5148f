import { Code, ConnectError } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus, WebhookEndpointStatus } from "@bayad/proto";
import { fromConnectError } from "@bayad/kit";
import { as, newProject, PUBLIC_URL, quickEnv, startHarness, verified, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver, type WebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { messageOf, paidCheckoutEvent } from "./test-support/events.js";

const attemptsOf = async (harness: Harness, projectId: string, endpointId: string, eventId: string) =>
  (await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId, eventId }, as(projectId, "test", null))).deliveries;

/**
 * Events published on the bus reach the endpoints registered over gRPC: signed by the Standard
 * Webhooks scheme (checked with the standardwebhooks package, as a consumer would), retried on
 * WEBHOOK_RETRY_SCHEDULE, listed attempt by attempt, and redelivered on request.
 */
describe("webhook deliveries", () => {
  let harness: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());
  afterEach(() => receiver?.close());

  const newEndpoint = async (projectId: string, url: string, enabledEvents = ["checkout.paid"]) => {
    const created = await harness.client.createWebhookEndpoint({ url, enabledEvents, description: "orders service" }, as(projectId));
    return { endpoint: created.webhookEndpoint!, secret: created.secret };
  };

  it("delivers a paid checkout signed with the endpoint's secret, the event the API lists", async () => {
    receiver = await startWebhookReceiver();
    const project = newProject();
    const { endpoint, secret } = await newEndpoint(project, receiver.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({ url: receiver.url, enabledEvents: ["checkout.paid"], status: WebhookEndpointStatus.ENABLED });

    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    const [delivery] = await eventually(() => (receiver.received.length > 0 ? receiver.received : undefined));

    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["user-agent"]).toBe("Bayad-Webhooks/1");
    expect(delivery!.headers["webhook-id"]).toBe(event.eventId);
    const checkout = event.snapshot.value as { checkoutId: string };
    const body = verified(delivery!, secret);
    expect(body).toEqual({
      id: event.eventId,
      type: "checkout.paid",
      createdAt: timestampDate(event.occurredAt!).toISOString(),
      environment: "test",
      data: {
        checkoutId: checkout.checkoutId,
        referenceId: `order-${checkout.checkoutId}`,
        status: "paid",
        amount: { amountMinor: 1250_00, currency: "PHP" },
        checkoutUrl: `${PUBLIC_URL}/checkout/${checkout.checkoutId}?token=t0k3n`,
        aggregateVersion: 3,
        // The event's snapshot names neither (a provider that reported no fee, no method).
        paymentMethod: null,
        fee: null,
        netAmount: null,
      },
    });
    // A changed body does not verify.
    expect(() => verified({ ...delivery!, body: delivery!.body.replace("paid", "PAID") }, secret)).toThrow();

    // Listed and read back as delivered, byte for byte.
    const read = await harness.client.getEvent({ eventId: event.eventId }, as(project, "test", null));
    expect(JSON.parse(read.event!.dataJson)).toEqual(body.data);
    expect(JSON.stringify({ id: read.event!.eventId, type: read.event!.type, createdAt: timestampDate(read.event!.createdAt!).toISOString(), environment: read.event!.environment, data: JSON.parse(read.event!.dataJson) })).toBe(delivery!.body);
    const listed = await harness.client.listEvents({ type: "checkout.paid" }, as(project, "test", null));
    expect(listed.events.map((listedEvent) => listedEvent.eventId)).toEqual([event.eventId]);

    const [attempt] = await eventually(async () => {
      const attempts = await attemptsOf(harness, project, endpoint.webhookEndpointId, event.eventId);
      return attempts[0]?.status === WebhookDeliveryStatus.SUCCEEDED ? attempts : undefined;
    });
    expect(attempt).toMatchObject({ attempt: 1, responseStatusCode: 200, redelivery: false, error: "", eventType: "checkout.paid" });
    expect(attempt!.deliveryId).toMatch(/^whd_/);
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(0);
    expect(attempt!.attemptedAt).toBeDefined();
    expect(attempt!.nextAttemptAt).toBeUndefined();
  });

  it("tells an endpoint only of the types it subscribes to, and of every type with *", async () => {
    receiver = await startWebhookReceiver();
    const project = newProject();
    await newEndpoint(project, receiver.url, ["refund.succeeded"]);
    const everything = await startWebhookReceiver();
    try {
      await newEndpoint(project, everything.url, ["*"]);
      const event = paidCheckoutEvent(project);
      await harness.bus.publish(messageOf(event));
      await eventually(() => (everything.deliveriesOf(event.eventId).length > 0 ? true : undefined));
      expect(receiver.received).toEqual([]);
    } finally {
      await everything.close();
    }
  });

  it("retries a receiver that answers 500 twice, lists all three attempts, and redelivers with the same webhook-id", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(500, 500);
    const project = newProject();
    const { endpoint, secret } = await newEndpoint(project, receiver.url);
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));

    const deliveries = await eventually(() => (receiver.received.length >= 3 ? receiver.received : undefined));
    expect(deliveries.map((delivery) => delivery.status)).toEqual([500, 500, 200]);
    for (const delivery of deliveries) expect(verified(delivery, secret).id).toBe(event.eventId);

    const attempts = await eventually(async () => {
      const listed = await attemptsOf(harness, project, endpoint.webhookEndpointId, event.eventId);
      return listed.length === 3 && listed[0]!.status === WebhookDeliveryStatus.SUCCEEDED ? listed : undefined;
    });
    // Newest first.
    expect(attempts.map(({ attempt, status, responseStatusCode, error }) => ({ attempt, status, responseStatusCode, error }))).toEqual([
      { attempt: 3, status: WebhookDeliveryStatus.SUCCEEDED, responseStatusCode: 200, error: "" },
      { attempt: 2, status: WebhookDeliveryStatus.FAILED, responseStatusCode: 500, error: "HTTP 500" },
      { attempt: 1, status: WebhookDeliveryStatus.FAILED, responseStatusCode: 500, error: "HTTP 500" },
    ]);
    // A failed attempt says when the next one was due.
    expect(attempts[1]!.nextAttemptAt).toBeDefined();
    expect(timestampDate(attempts[1]!.nextAttemptAt!).getTime()).toBeGreaterThan(timestampDate(attempts[1]!.attemptedAt!).getTime());

    const redelivered = await harness.client.redeliverWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId, eventId: event.eventId }, as(project));
    expect(redelivered.delivery).toMatchObject({ attempt: 4, redelivery: true, eventId: event.eventId, status: WebhookDeliveryStatus.PENDING });
    const again = await eventually(() => (receiver.received.length === 4 ? receiver.received[3] : undefined));
    expect(again.headers["webhook-id"]).toBe(event.eventId);
    expect(verified(again, secret)).toEqual(verified(deliveries[2]!, secret));
  });

  it("answers a redelivery retried with its Idempotency-Key with the attempt it scheduled", async () => {
    receiver = await startWebhookReceiver();
    const project = newProject();
    const { endpoint } = await newEndpoint(project, receiver.url);
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    await eventually(() => (receiver.received.length === 1 ? true : undefined));

    const options = as(project, "test", "redeliver-key-0000000001");
    const first = await harness.client.redeliverWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId, eventId: event.eventId }, options);
    const second = await harness.client.redeliverWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId, eventId: event.eventId }, options);
    expect(second.delivery!.deliveryId).toBe(first.delivery!.deliveryId);
    await eventually(() => (receiver.received.length === 2 ? true : undefined));
    expect((await attemptsOf(harness, project, endpoint.webhookEndpointId, event.eventId)).map((attempt) => attempt.attempt)).toEqual([2, 1]);
  });

  it("signs with the new and the previous secret for a day after a rotation", async () => {
    receiver = await startWebhookReceiver();
    const project = newProject();
    const { endpoint, secret: first } = await newEndpoint(project, receiver.url);
    const rotated = await harness.client.rotateWebhookEndpointSecret({ webhookEndpointId: endpoint.webhookEndpointId }, as(project));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first);
    const overlapHours = (timestampDate(rotated.previousSecretExpiresAt!).getTime() - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);

    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    const [delivery] = await eventually(() => (receiver.received.length > 0 ? receiver.received : undefined));
    const signatures = String(delivery!.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith("v1,"))).toBe(true);
    expect(verified(delivery!, rotated.secret).id).toBe(event.eventId);
    expect(verified(delivery!, first).id).toBe(event.eventId);

    // A second rotation drops the first secret: at most two ever sign.
    const again = await harness.client.rotateWebhookEndpointSecret({ webhookEndpointId: endpoint.webhookEndpointId }, as(project));
    const next = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(next));
    const later = await eventually(() => receiver.deliveriesOf(next.eventId)[0]);
    expect(String(later.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(later, again.secret).id).toBe(next.eventId);
    expect(verified(later, rotated.secret).id).toBe(next.eventId);
    expect(() => verified(later, first)).toThrow();
  });

  it("sends a test event to the endpoint alone, whatever it subscribes to", async () => {
    receiver = await startWebhookReceiver();
    const project = newProject();
    const { endpoint, secret } = await newEndpoint(project, receiver.url, ["refund.failed"]);
    const sent = await harness.client.sendTestWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId }, as(project));
    expect(sent.event).toMatchObject({ type: "webhook.test", environment: "test" });
    expect(JSON.parse(sent.event!.dataJson)).toEqual({ webhookEndpointId: endpoint.webhookEndpointId });
    expect(sent.delivery).toMatchObject({ attempt: 1, status: WebhookDeliveryStatus.PENDING, eventId: sent.event!.eventId, eventType: "webhook.test" });
    const delivery = await eventually(() => receiver.received[0]);
    expect(verified(delivery, secret)).toMatchObject({ id: sent.event!.eventId, type: "webhook.test", data: { webhookEndpointId: endpoint.webhookEndpointId } });
  });

  it("disables an endpoint that answers 410 Gone, and sends a disabled endpoint nothing", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(410);
    const project = newProject();
    const { endpoint } = await newEndpoint(project, receiver.url);
    const gone = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(gone));

    const disabled = await eventually(async () => {
      const read = await harness.client.getWebhookEndpoint({ webhookEndpointId: endpoint.webhookEndpointId }, as(project, "test", null));
      return read.webhookEndpoint!.status === WebhookEndpointStatus.DISABLED ? read.webhookEndpoint! : undefined;
    });
    expect(disabled.disabledReason).toBe("gone");
    // No retry of a 410.
    const attempts = await attemptsOf(harness, project, endpoint.webhookEndpointId, gone.eventId);
    expect(attempts.map(({ attempt, status, responseStatusCode }) => ({ attempt, status, responseStatusCode }))).toEqual([
      { attempt: 1, status: WebhookDeliveryStatus.FAILED, responseStatusCode: 410 },
    ]);

    // Disabled: a new event schedules nothing for it, and neither redelivery nor a test is accepted.
    const later = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(later));
    await eventually(async () => ((await harness.client.listEvents({}, as(project, "test", null))).events.length === 2 ? true : undefined));
    expect(await attemptsOf(harness, project, endpoint.webhookEndpointId, later.eventId)).toEqual([]);
    for (const refused of [
      harness.client.redeliverWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId, eventId: gone.eventId }, as(project)),
      harness.client.sendTestWebhookEvent({ webhookEndpointId: endpoint.webhookEndpointId }, as(project)),
    ]) {
      const error = await refused.catch((thrown: unknown) => thrown);
      expect(fromConnectError(error).code).toBe("INVALID_STATE_TRANSITION");
    }
    expect(receiver.received).toHaveLength(1);

    // Enabled again by its owner, it is told of what comes next.
    const enabled = await harness.client.updateWebhookEndpoint(
      { webhookEndpointId: endpoint.webhookEndpointId, status: WebhookEndpointStatus.ENABLED },
      as(project),
    );
    expect(enabled.webhookEndpoint).toMatchObject({ status: WebhookEndpointStatus.ENABLED, disabledReason: "" });
    const next = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(next));
    await eventually(() => receiver.deliveriesOf(next.eventId)[0]);
  });

  it("answers NOT_FOUND for an unknown endpoint or event, and refuses a mutation without an Idempotency-Key", async () => {
    const project = newProject();
    const missing = await harness.client.getWebhookEndpoint({ webhookEndpointId: "we_missing" }, as(project, "test", null)).catch((e: unknown) => e);
    expect(fromConnectError(missing).code).toBe("RESOURCE_NOT_FOUND");
    const noEvent = await harness.client.getEvent({ eventId: "evt_missing" }, as(project, "test", null)).catch((e: unknown) => e);
    expect(fromConnectError(noEvent).code).toBe("RESOURCE_NOT_FOUND");
    const unkeyed = await harness.client
      .createWebhookEndpoint({ url: "https://hooks.example.ph/x", enabledEvents: ["*"] }, as(project, "test", null))
      .catch((e: unknown) => ConnectError.from(e));
    expect(unkeyed).toMatchObject({ code: Code.InvalidArgument });
    expect(fromConnectError(unkeyed).code).toBe("IDEMPOTENCY_KEY_REQUIRED");
  });
});

describe("a due attempt of an endpoint disabled meanwhile", () => {
  let harness: Harness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    harness = await startHarness({ ...quickEnv, WEBHOOK_RETRY_SCHEDULE: "0s,3s" });
  });
  afterAll(async () => {
    await receiver?.close();
    await harness.close();
  });

  it("is recorded failed without being sent", async () => {
    receiver = await startWebhookReceiver();
    receiver.answers.push(503);
    const project = newProject();
    const created = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["*"] }, as(project));
    const endpoint = created.webhookEndpoint!;
    const event = paidCheckoutEvent(project);
    await harness.bus.publish(messageOf(event));
    // The first attempt failed and the second is scheduled (3 s later): disable the endpoint before it is due.
    await eventually(async () => ((await attemptsOf(harness, project, endpoint.webhookEndpointId, event.eventId)).length === 2 ? true : undefined));
    await harness.client.updateWebhookEndpoint({ webhookEndpointId: endpoint.webhookEndpointId, status: WebhookEndpointStatus.DISABLED }, as(project));
    const [second] = await eventually(async () => {
      const attempts = await attemptsOf(harness, project, endpoint.webhookEndpointId, event.eventId);
      return attempts[0]?.status === WebhookDeliveryStatus.FAILED ? attempts : undefined;
    });
    expect(second).toMatchObject({ attempt: 2, error: "endpoint disabled" });
    expect(second!.responseStatusCode).toBeUndefined();
    expect(receiver.received).toHaveLength(1);
  });

});
