import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { create } from "@bufbuild/protobuf";
import { CheckoutStatus, EventSchema, type Event } from "@bayad/proto";
import { createCursorCodec, createLogger, singleKeyRing } from "@bayad/kit";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createInProcessBus, type Consumption, type DeliveredMessage, type EventBus } from "@bayad/events";
import type { Collection, Store } from "@bayad/store";
import { countingStore, createTestStore, flakyStore } from "@bayad/store/testing";
import { startWebhooksConsumer, webhooksBatchHandler } from "./consumer.js";
import { createWebhookDeliveriesRepository, webhookDeliveriesCollection } from "./deliveries/webhook-deliveries-repository.js";
import type { WebhookDeliveryRecord } from "./deliveries/webhook-delivery.js";
import { createWebhookEndpointsRepository } from "./endpoints/webhook-endpoints-repository.js";
import { createWebhookEventsRepository, webhookEventsCollection } from "./events/webhook-events-repository.js";
import type { WebhookEventRecord } from "./events/webhook-event.js";
import { WEBHOOKS_CURSOR_PURPOSE } from "./paging/page.js";
import { eventOf, messageOf, paidCheckoutEvent } from "./test-support/events.js";
import { SECRETS_KEY } from "./test-support/harness.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

const logger = createLogger("webhooks-consumer-test", "silent");
const delivered = (event: Event, redelivered = false): DeliveredMessage => ({ ...messageOf(event), redelivered });

/** The consumer's handler on its own: what it writes for a batch of messages, and what it acknowledges. */
describe("webhooks consumer", () => {
  let store: Store;
  let deps: WebhooksDeps;
  let attempts: Collection<WebhookDeliveryRecord>;
  let events: Collection<WebhookEventRecord>;
  let scheduled: number;

  /** The consumer's dependencies over `on` (the test's store, or a wrapper of it). */
  const depsOn = (on: Store): WebhooksDeps => ({
    store: on,
    endpoints: createWebhookEndpointsRepository(on),
    events: createWebhookEventsRepository(on),
    deliveries: createWebhookDeliveriesRepository(on),
    keys: createIdempotencyKeys(on, { windowMs: 60_000 }),
    cursors: createCursorCodec(SECRETS_KEY, WEBHOOKS_CURSOR_PURPOSE),
    config: { secretsKey: singleKeyRing(SECRETS_KEY), allowPrivateTargets: false, eventRetentionMs: 86_400_000, retryScheduleMs: [0, 1_000] },
    publicUrl: (path) => `https://pay.example.ph${path}`,
    now: () => new Date(),
    resolveHost: async () => [],
    scheduled: () => void scheduled++,
  });

  beforeEach(async () => {
    store = createTestStore();
    scheduled = 0;
    deps = depsOn(store);
    attempts = store.collection<WebhookDeliveryRecord>(webhookDeliveriesCollection);
    events = store.collection<WebhookEventRecord>(webhookEventsCollection);
    await store.ensureIndexes();
    await store.transaction(async (session) => {
      const base = { projectId: "prj_1", environment: "test" as const, description: "", metadata: [], secrets: [], createdAt: new Date(), updatedAt: new Date() };
      await deps.endpoints.insert({ ...base, _id: "we_paid", url: "https://a.example.ph", enabledEvents: ["checkout.paid"], status: "enabled" }, session);
      await deps.endpoints.insert({ ...base, _id: "we_all", url: "https://b.example.ph", enabledEvents: ["*"], status: "enabled" }, session);
      await deps.endpoints.insert({ ...base, _id: "we_refunds", url: "https://c.example.ph", enabledEvents: ["refund.failed"], status: "enabled" }, session);
      await deps.endpoints.insert({ ...base, _id: "we_off", url: "https://d.example.ph", enabledEvents: ["*"], status: "disabled" }, session);
      await deps.endpoints.insert({ ...base, _id: "we_live", environment: "live", url: "https://e.example.ph", enabledEvents: ["*"], status: "enabled" }, session);
    });
  });
  afterEach(() => store.close());

  it("stores the event and schedules a first attempt for each enabled endpoint of its project and environment that subscribes to it, once", async () => {
    const handle = webhooksBatchHandler(deps, logger);
    const event = paidCheckoutEvent("prj_1");
    await handle([delivered(event)]);
    await handle([delivered(event, true)]);

    const written = await attempts.find({}, { sort: { webhookEndpointId: 1 } });
    expect(written.map(({ webhookEndpointId, attempt, status, eventId }) => ({ webhookEndpointId, attempt, status, eventId }))).toEqual([
      { webhookEndpointId: "we_all", attempt: 1, status: "pending", eventId: event.eventId },
      { webhookEndpointId: "we_paid", attempt: 1, status: "pending", eventId: event.eventId },
    ]);
    expect(await deps.events.findById({ projectId: "prj_1", environment: "test" }, event.eventId)).toMatchObject({ type: "checkout.paid" });
    expect(scheduled).toBe(1);
  });

  it("acknowledges without writing what consumers are not told of, and what cannot be read", async () => {
    const handle = webhooksBatchHandler(deps, logger);
    const opened = eventOf("payments.checkout.pending", { case: "checkout", value: { checkoutId: "chk_1", status: CheckoutStatus.PENDING } }, { resourceId: "chk_1", projectId: "prj_1" });
    await handle([delivered(opened)]);
    const logged = vi.spyOn(logger, "error");
    await handle([{ subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: false }]);
    const unscoped = create(EventSchema, { ...paidCheckoutEvent("prj_1"), projectId: "" });
    await handle([delivered(unscoped)]);
    // Once per run of the transaction (the store here reruns each): a log line is no effect to undo.
    const skipped = new Set(logged.mock.calls.map(([fields]) => (fields as { eventId?: string }).eventId));
    expect(skipped).toEqual(new Set(["evt_poison", unscoped.eventId]));
    logged.mockRestore();
    expect(await attempts.count({})).toBe(0);
    expect(scheduled).toBe(0);
  });

  it("throws when the store fails, so the bus delivers the event again, and writes it whole when it does", async () => {
    const event = paidCheckoutEvent("prj_1");
    const failing = { ...deps, store: { ...store, transaction: () => Promise.reject(new Error("injected store failure")) } };
    await expect(webhooksBatchHandler(failing, logger)([delivered(event)])).rejects.toThrow(/injected/);
    expect(await attempts.count({})).toBe(0);
    await webhooksBatchHandler(deps, logger)([delivered(event, true)]);
    expect(await attempts.count({})).toBe(2);
  });

  describe("a batch", () => {
    it("records every event of the batch and its first attempts in one transaction, and tells the dispatcher once", async () => {
      const counted = countingStore(store);
      const paid = [paidCheckoutEvent("prj_1"), paidCheckoutEvent("prj_1"), paidCheckoutEvent("prj_1")];
      const opened = eventOf("payments.checkout.pending", { case: "checkout", value: { checkoutId: "chk_1", status: CheckoutStatus.PENDING } }, { resourceId: "chk_1", projectId: "prj_1" });
      const malformed = create(EventSchema, { ...paidCheckoutEvent("prj_1"), projectId: "" });
      const logged = vi.spyOn(logger, "error");
      await webhooksBatchHandler(depsOn(counted.store), logger)([
        delivered(paid[0]!),
        delivered(opened),
        delivered(malformed),
        { subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: false },
        delivered(paid[1]!),
        // The same event twice in one batch: the transaction's read sees its own insert.
        delivered(paid[1]!, true),
        delivered(paid[2]!),
      ]);
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: malformed.eventId }), "malformed event skipped");
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: "evt_poison" }), "undecodable event skipped");
      logged.mockRestore();

      expect(counted.transactions()).toBe(1);
      expect((await events.find({}, { sort: { _id: 1 } })).map((record) => record._id)).toEqual(paid.map((event) => event.eventId).sort());
      for (const event of paid) {
        expect((await attempts.find({ eventId: event.eventId }, { sort: { webhookEndpointId: 1 } })).map((attempt) => attempt.webhookEndpointId)).toEqual(["we_all", "we_paid"]);
      }
      expect(await attempts.count({})).toBe(6);
      expect(scheduled).toBe(1);
    });

    it("tells the dispatcher only of a batch that scheduled an attempt", async () => {
      await webhooksBatchHandler(deps, logger)([delivered(paidCheckoutEvent("prj_nobody")), delivered(paidCheckoutEvent("prj_1", "live"))]);
      expect(await events.count({})).toBe(2);
      // we_live takes every live event of prj_1: one attempt, so one nudge.
      expect(await attempts.count({})).toBe(1);
      expect(scheduled).toBe(1);
      await webhooksBatchHandler(deps, logger)([delivered(paidCheckoutEvent("prj_nobody"))]);
      expect(scheduled).toBe(1);
    });

    it("changes nothing and schedules nothing twice when the batch is delivered again", async () => {
      const batch = [paidCheckoutEvent("prj_1"), paidCheckoutEvent("prj_1"), paidCheckoutEvent("prj_1", "live")];
      let clock = Date.parse("2026-02-01T00:00:00.000Z");
      // Every write sees a later time, so unchanged records prove nothing was written again.
      const handle = webhooksBatchHandler({ ...deps, now: () => new Date((clock += 1000)) }, logger);
      await handle(batch.map((event) => delivered(event)));
      const before = { events: await events.find({}, { sort: { _id: 1 } }), attempts: await attempts.find({}, { sort: { _id: 1 } }) };
      expect(before.attempts).toHaveLength(5);
      expect(scheduled).toBe(1);

      await handle(batch.map((event) => delivered(event, true)));
      // A regrouped redelivery: part of the batch again, with a new event.
      const late = paidCheckoutEvent("prj_1");
      await handle([delivered(batch[1]!, true), delivered(late)]);
      expect(await events.find({ _id: { $ne: late.eventId } }, { sort: { _id: 1 } })).toEqual(before.events);
      expect(await attempts.find({ eventId: { $ne: late.eventId } }, { sort: { _id: 1 } })).toEqual(before.attempts);
      expect(await attempts.count({ eventId: late.eventId })).toBe(2);
      expect(scheduled).toBe(2);
    });

    it("keeps nothing of a batch whose store write fails midway, tells nothing, and records all of it when delivered again", async () => {
      // Each paid event of prj_1 is three writes (the event, two attempts): the fourth write is the second event's.
      const failures = { remaining: 1, after: 3 };
      const batch = [paidCheckoutEvent("prj_1"), paidCheckoutEvent("prj_1")];
      await expect(webhooksBatchHandler(depsOn(flakyStore(store, failures)), logger)(batch.map((event) => delivered(event)))).rejects.toThrow(/injected/);
      expect(failures).toEqual({ remaining: 0, after: 0 });
      expect(await events.count({})).toBe(0);
      expect(await attempts.count({})).toBe(0);
      expect(scheduled).toBe(0);

      await webhooksBatchHandler(deps, logger)(batch.map((event) => delivered(event, true)));
      expect(await events.count({})).toBe(2);
      expect(await attempts.count({})).toBe(4);
      expect(scheduled).toBe(1);
    });
  });

  describe("on a bus", () => {
    let bus: EventBus;
    let consumption: Consumption | undefined;
    beforeEach(() => {
      bus = createInProcessBus({ redeliveryDelayMs: 60_000, logger });
    });
    afterEach(async () => {
      await consumption?.stop();
      consumption = undefined;
      await bus.close();
    });

    it("records a backlog in one transaction per batch of up to batchSize events", async () => {
      for (let i = 0; i < 5; i++) await bus.publish(messageOf(paidCheckoutEvent("prj_1")));
      const counted = countingStore(store);
      consumption = await startWebhooksConsumer({ bus, deps: depsOn(counted.store), logger, batchSize: 2 });
      await vi.waitFor(async () => expect(await bus.pending("webhooks")).toBe(0));
      expect(await events.count({})).toBe(5);
      expect(await attempts.count({})).toBe(10);
      expect(counted.transactions()).toBe(3);
      expect(scheduled).toBe(3);
    });

    it("leaves a batch the store failed unacknowledged, and records it once consuming again", async () => {
      for (let i = 0; i < 3; i++) await bus.publish(messageOf(paidCheckoutEvent("prj_1")));
      const failures = { remaining: 1, after: 4 };
      consumption = await startWebhooksConsumer({ bus, deps: depsOn(flakyStore(store, failures)), logger });
      await vi.waitFor(() => expect(failures.remaining).toBe(0));
      // The batch failed at the second event's first attempt: nothing of it is stored, and the bus still holds all of it.
      expect(await bus.pending("webhooks")).toBe(3);
      expect(await events.count({})).toBe(0);
      expect(scheduled).toBe(0);

      // The stop cuts the long redelivery pause short.
      await consumption.stop();
      consumption = await startWebhooksConsumer({ bus, deps, logger });
      await vi.waitFor(async () => expect(await bus.pending("webhooks")).toBe(0));
      expect(await events.count({})).toBe(3);
      expect(await attempts.count({})).toBe(6);
      expect(scheduled).toBe(1);
    });
  });
});
