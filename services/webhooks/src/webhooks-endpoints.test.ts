import { ConnectError, Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookDeliveryStatus, WebhookEndpointStatus } from "@bayad/proto";
import { fromConnectError } from "@bayad/kit";
import { webhookEventTypes } from "@bayad/public-resources";
import { as, newProject, startHarness, type Harness } from "./test-support/harness.js";
import { startWebhookReceiver } from "./testing/webhook-receiver.js";
import { eventually } from "./test-support/eventually.js";
import { eventOf, messageOf, paidCheckoutEvent } from "./test-support/events.js";

/** The error a call answered with (code "resolved" when it did not fail). */
const codeOf = (promise: Promise<unknown>): Promise<{ code: string; details?: string[] }> =>
  promise.then(
    () => ({ code: "resolved" }),
    (thrown: unknown) => fromConnectError(thrown),
  );

/** Endpoints as their owner manages them over gRPC, and what another project (or environment) can see of them. */
describe("webhook endpoints", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(() => harness.close());

  it("creates, reads, lists, updates and deletes an endpoint; the secret is shown only at create", async () => {
    const project = newProject();
    const created = await harness.client.createWebhookEndpoint(
      { url: "https://hooks.example.ph/bayad", enabledEvents: ["checkout.paid", "refund.succeeded"], description: "orders", metadata: { team: "payments" } },
      as(project),
    );
    const endpoint = created.webhookEndpoint!;
    expect(endpoint.webhookEndpointId).toMatch(/^we_[A-Za-z0-9]{24}$/);
    expect(endpoint).toMatchObject({ status: WebhookEndpointStatus.ENABLED, description: "orders", metadata: { team: "payments" }, disabledReason: "" });

    const read = await harness.client.getWebhookEndpoint({ webhookEndpointId: endpoint.webhookEndpointId }, as(project, "test", null));
    expect(read.webhookEndpoint).toEqual(endpoint);
    expect(JSON.stringify(read, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value))).not.toContain("whsec_");

    const updated = await harness.client.updateWebhookEndpoint(
      { webhookEndpointId: endpoint.webhookEndpointId, url: "https://hooks.example.ph/v2", enabledEvents: { types: ["*"] }, description: "" },
      as(project),
    );
    expect(updated.webhookEndpoint).toMatchObject({ url: "https://hooks.example.ph/v2", enabledEvents: ["*"], description: "", metadata: { team: "payments" } });

    const listed = await harness.client.listWebhookEndpoints({}, as(project, "test", null));
    expect(listed.webhookEndpoints).toEqual([updated.webhookEndpoint]);
    expect(listed.nextCursor).toBe("");

    const deleted = await harness.client.deleteWebhookEndpoint({ webhookEndpointId: endpoint.webhookEndpointId }, as(project));
    expect(deleted.webhookEndpoint!.webhookEndpointId).toBe(endpoint.webhookEndpointId);
    expect((await codeOf(harness.client.getWebhookEndpoint({ webhookEndpointId: endpoint.webhookEndpointId }, as(project, "test", null)))).code).toBe(
      "RESOURCE_NOT_FOUND",
    );
    expect((await harness.client.listWebhookEndpoints({}, as(project, "test", null))).webhookEndpoints).toEqual([]);
  });

  it("answers a create retried with its Idempotency-Key with the same endpoint and secret", async () => {
    const project = newProject();
    const options = as(project, "test", "create-key-00000000001");
    const request = { url: "https://hooks.example.ph/once", enabledEvents: ["invoice.paid"] };
    const first = await harness.client.createWebhookEndpoint(request, options);
    const second = await harness.client.createWebhookEndpoint(request, options);
    expect(second).toEqual(first);
    expect((await harness.client.listWebhookEndpoints({}, as(project, "test", null))).webhookEndpoints).toHaveLength(1);
  });

  it("pages endpoints newest first with an opaque cursor bound to the listing", async () => {
    const project = newProject();
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      const created = await harness.client.createWebhookEndpoint({ url: `https://hooks.example.ph/${index}`, enabledEvents: ["*"] }, as(project));
      ids.push(created.webhookEndpoint!.webhookEndpointId);
    }
    const seen: string[] = [];
    let cursor = "";
    do {
      const page = await harness.client.listWebhookEndpoints({ limit: 2, cursor }, as(project, "test", null));
      expect(page.webhookEndpoints.length).toBeLessThanOrEqual(2);
      seen.push(...page.webhookEndpoints.map((endpoint) => endpoint.webhookEndpointId));
      cursor = page.nextCursor;
    } while (cursor !== "");
    expect(seen).toEqual([...ids].reverse());

    const { nextCursor } = await harness.client.listWebhookEndpoints({ limit: 1 }, as(project, "test", null));
    // Another project cannot continue this listing, nor can a changed cursor be read.
    const foreign = await codeOf(harness.client.listWebhookEndpoints({ limit: 1, cursor: nextCursor }, as(newProject(), "test", null)));
    expect(foreign).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^cursor: /)] });
    const altered = `${nextCursor.slice(0, -1)}${nextCursor.endsWith("A") ? "B" : "A"}`;
    expect((await codeOf(harness.client.listWebhookEndpoints({ cursor: altered }, as(project, "test", null)))).code).toBe("VALIDATION_FAILED");
    expect(await codeOf(harness.client.listWebhookEndpoints({ limit: 101 }, as(project, "test", null)))).toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["limit: must be from 1 to 100"],
    });
  });

  it("refuses bad input with VALIDATION_FAILED naming each field, writing nothing", async () => {
    const project = newProject();
    const refused = await codeOf(
      harness.client.createWebhookEndpoint(
        { url: "ftp://hooks.example.ph/x", enabledEvents: ["checkout.paid", "checkout.opened"], description: "x".repeat(501), metadata: { ["k".repeat(41)]: "v" } },
        as(project),
      ),
    );
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED" });
    expect((refused as { details: string[] }).details.map((detail) => detail.split(":")[0])).toEqual(["url", "enabledEvents", "description", "metadata"]);

    const cases: Array<[string[], RegExp]> = [
      [[], /^enabledEvents: /],
      [["*", "checkout.paid"], /^enabledEvents: "\*" must be the only element/],
      [["checkout.paid", "checkout.paid"], /^enabledEvents: must not repeat/],
      [["webhook.test"], /^enabledEvents: "webhook.test" is not an event type/],
    ];
    for (const [enabledEvents, detail] of cases) {
      const error = await codeOf(harness.client.createWebhookEndpoint({ url: "https://hooks.example.ph/x", enabledEvents }, as(project)));
      expect(error).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(detail)] });
    }
    for (const url of ["not a url", "https://user:pass@hooks.example.ph/x", `https://hooks.example.ph/${"a".repeat(2048)}`]) {
      const error = await codeOf(harness.client.createWebhookEndpoint({ url, enabledEvents: ["*"] }, as(project)));
      expect(error).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^url: /)] });
    }
    // Every public type at once is fine.
    await harness.client.createWebhookEndpoint({ url: "https://hooks.example.ph/all", enabledEvents: [...webhookEventTypes] }, as(project));

    const { webhookEndpoints } = await harness.client.listWebhookEndpoints({}, as(project, "test", null));
    expect(webhookEndpoints).toHaveLength(1);
    const empty = await codeOf(harness.client.updateWebhookEndpoint({ webhookEndpointId: webhookEndpoints[0]!.webhookEndpointId }, as(project)));
    expect(empty).toMatchObject({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/at least one/)] });
  });

  it("keeps each project's and environment's endpoints, events and deliveries to itself", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const theirs = newProject();
      const ours = newProject();
      const created = await harness.client.createWebhookEndpoint({ url: receiver.url, enabledEvents: ["*"] }, as(theirs));
      const endpointId = created.webhookEndpoint!.webhookEndpointId;
      const event = paidCheckoutEvent(theirs);
      await harness.bus.publish(messageOf(event));
      await eventually(() => receiver.deliveriesOf(event.eventId)[0]);

      for (const [project, environment] of [
        [ours, "test"],
        [theirs, "live"],
      ] as const) {
        const read = as(project, environment, null);
        const write = as(project, environment);
        for (const attempt of [
          harness.client.getWebhookEndpoint({ webhookEndpointId: endpointId }, read),
          harness.client.getEvent({ eventId: event.eventId }, read),
          harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, read),
          harness.client.updateWebhookEndpoint({ webhookEndpointId: endpointId, description: "mine now" }, write),
          harness.client.rotateWebhookEndpointSecret({ webhookEndpointId: endpointId }, write),
          harness.client.sendTestWebhookEvent({ webhookEndpointId: endpointId }, write),
          harness.client.redeliverWebhookEvent({ webhookEndpointId: endpointId, eventId: event.eventId }, write),
          harness.client.deleteWebhookEndpoint({ webhookEndpointId: endpointId }, write),
        ]) {
          expect((await codeOf(attempt)).code).toBe("RESOURCE_NOT_FOUND");
        }
        expect((await harness.client.listWebhookEndpoints({}, read)).webhookEndpoints).toEqual([]);
        expect((await harness.client.listEvents({}, read)).events).toEqual([]);
      }

      // An event of ours never reaches their endpoint, and their listing does not show it.
      const mine = paidCheckoutEvent(ours);
      await harness.bus.publish(messageOf(mine));
      await eventually(async () => ((await harness.client.listEvents({}, as(ours, "test", null))).events.length === 1 ? true : undefined));
      const theirAttempts = await harness.client.listWebhookDeliveries({ webhookEndpointId: endpointId }, as(theirs, "test", null));
      expect(theirAttempts.deliveries.map((attempt) => attempt.eventId)).toEqual([event.eventId]);
      expect(theirAttempts.deliveries[0]!.status).toBe(WebhookDeliveryStatus.SUCCEEDED);
      expect(receiver.deliveriesOf(mine.eventId)).toEqual([]);
      // Their own view is intact.
      expect((await harness.client.getWebhookEndpoint({ webhookEndpointId: endpointId }, as(theirs, "test", null))).webhookEndpoint!.description).toBe("");
    } finally {
      await receiver.close();
    }
  });

  it("lists events newest first, by type and creation range, and refuses an unknown type", async () => {
    const project = newProject();
    const events = [paidCheckoutEvent(project), paidCheckoutEvent(project), paidCheckoutEvent(project)];
    for (const event of events) await harness.bus.publish(messageOf(event));
    await eventually(async () => ((await harness.client.listEvents({}, as(project, "test", null))).events.length === 3 ? true : undefined));

    const first = await harness.client.listEvents({ limit: 2 }, as(project, "test", null));
    const second = await harness.client.listEvents({ limit: 2, cursor: first.nextCursor }, as(project, "test", null));
    expect(second.nextCursor).toBe("");
    const ids = [...first.events, ...second.events].map((event) => event.eventId);
    expect(new Set(ids)).toEqual(new Set(events.map((event) => event.eventId)));
    const times = [...first.events, ...second.events].map((event) => Number(event.createdAt!.seconds) * 1e9 + event.createdAt!.nanos);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const oldest = events[0]!.occurredAt!;
    const range = await harness.client.listEvents({ type: "checkout.paid", createdAfter: oldest, createdBefore: { seconds: oldest.seconds, nanos: oldest.nanos + 1 } }, as(project, "test", null));
    expect(range.events.map((event) => event.eventId)).toContain(events[0]!.eventId);
    expect((await harness.client.listEvents({ type: "refund.failed" }, as(project, "test", null))).events).toEqual([]);
    expect(await codeOf(harness.client.listEvents({ type: "checkout.opened" }, as(project, "test", null)))).toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["type: must be an event type"],
    });
    // A cursor of the unfiltered listing does not continue a filtered one.
    expect((await codeOf(harness.client.listEvents({ type: "checkout.paid", cursor: first.nextCursor }, as(project, "test", null)))).code).toBe("VALIDATION_FAILED");
  });

  it("lists the events about one resource (resourceId), bound into the cursor", async () => {
    const project = newProject();
    const [paid, other] = [paidCheckoutEvent(project), paidCheckoutEvent(project)];
    const again = eventOf("payments.checkout.paid", paid.snapshot as never, { resourceId: paid.resourceId, projectId: project });
    for (const event of [paid, other, again]) await harness.bus.publish(messageOf(event));
    const read = as(project, "test", null);
    await eventually(async () => ((await harness.client.listEvents({}, read)).events.length === 3 ? true : undefined));

    const first = await harness.client.listEvents({ resourceId: paid.resourceId, limit: 1 }, read);
    const second = await harness.client.listEvents({ resourceId: paid.resourceId, limit: 1, cursor: first.nextCursor }, read);
    expect(second.nextCursor).toBe("");
    expect(new Set([...first.events, ...second.events].map((event) => event.eventId))).toEqual(new Set([paid.eventId, again.eventId]));
    expect((await harness.client.listEvents({ resourceId: other.resourceId }, read)).events.map((event) => event.eventId)).toEqual([other.eventId]);
    expect((await harness.client.listEvents({ resourceId: paid.resourceId }, as(project, "live", null))).events).toEqual([]);

    for (const cursor of [{ resourceId: other.resourceId }, { resourceId: "" }]) {
      expect((await codeOf(harness.client.listEvents({ ...cursor, cursor: first.nextCursor }, read))).details).toEqual([expect.stringMatching(/^cursor: /)]);
    }
    expect(await codeOf(harness.client.listEvents({ resourceId: "x".repeat(256) }, read))).toMatchObject({
      code: "VALIDATION_FAILED",
      details: ["resourceId: must be at most 255 characters"],
    });
  });

  it("refuses a call without caller context", async () => {
    const thrown = await harness.client.listWebhookEndpoints({}).catch((error: unknown) => ConnectError.from(error));
    expect(thrown).toMatchObject({ code: Code.Unauthenticated });
  });
});
