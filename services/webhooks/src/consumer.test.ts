import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { create } from "@bufbuild/protobuf";
import { CheckoutStatus, EventSchema } from "@bayad/proto";
import { createCursorCodec, createLogger, singleKeyRing } from "@bayad/kit";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createEmbeddedStore, type Collection, type Store } from "@bayad/store";
import { webhooksMessageHandler } from "./consumer.js";
import { createWebhookDeliveriesRepository, webhookDeliveriesCollection } from "./deliveries/webhook-deliveries-repository.js";
import type { WebhookDeliveryRecord } from "./deliveries/webhook-delivery.js";
import { createWebhookEndpointsRepository } from "./endpoints/webhook-endpoints-repository.js";
import { createWebhookEventsRepository } from "./events/webhook-events-repository.js";
import { WEBHOOKS_CURSOR_PURPOSE } from "./paging/page.js";
import { eventOf, messageOf, paidCheckoutEvent } from "./test-support/events.js";
import { SECRETS_KEY } from "./test-support/harness.js";
import type { WebhooksDeps } from "./webhooks-deps.js";

const logger = createLogger("webhooks-consumer-test", "silent");

/** The consumer's handler on its own: what it writes for a message, and what it acknowledges. */
describe("webhooks consumer", () => {
  let store: Store;
  let deps: WebhooksDeps;
  let attempts: Collection<WebhookDeliveryRecord>;
  let scheduled: number;

  beforeEach(async () => {
    store = createEmbeddedStore();
    scheduled = 0;
    deps = {
      store,
      endpoints: createWebhookEndpointsRepository(store),
      events: createWebhookEventsRepository(store),
      deliveries: createWebhookDeliveriesRepository(store),
      keys: createIdempotencyKeys(store, { windowMs: 60_000 }),
      cursors: createCursorCodec(SECRETS_KEY, WEBHOOKS_CURSOR_PURPOSE),
      config: { secretsKey: singleKeyRing(SECRETS_KEY), allowPrivateTargets: false, eventRetentionMs: 86_400_000, retryScheduleMs: [0, 1_000] },
      publicUrl: (path) => `https://pay.example.ph${path}`,
      now: () => new Date(),
      resolveHost: async () => [],
      scheduled: () => void scheduled++,
    };
    attempts = store.collection<WebhookDeliveryRecord>(webhookDeliveriesCollection);
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
    const handle = webhooksMessageHandler(deps, logger);
    const event = paidCheckoutEvent("prj_1");
    await handle({ ...messageOf(event), redelivered: false });
    await handle({ ...messageOf(event), redelivered: true });

    const written = await attempts.find({}, { sort: { webhookEndpointId: 1 } });
    expect(written.map(({ webhookEndpointId, attempt, status, eventId }) => ({ webhookEndpointId, attempt, status, eventId }))).toEqual([
      { webhookEndpointId: "we_all", attempt: 1, status: "pending", eventId: event.eventId },
      { webhookEndpointId: "we_paid", attempt: 1, status: "pending", eventId: event.eventId },
    ]);
    expect(await deps.events.findById({ projectId: "prj_1", environment: "test" }, event.eventId)).toMatchObject({ type: "checkout.paid" });
    expect(scheduled).toBe(1);
  });

  it("acknowledges without writing what consumers are not told of, and what cannot be read", async () => {
    const handle = webhooksMessageHandler(deps, logger);
    const opened = eventOf("payments.checkout.pending", { case: "checkout", value: { checkoutId: "chk_1", status: CheckoutStatus.PENDING } }, { resourceId: "chk_1", projectId: "prj_1" });
    await handle({ ...messageOf(opened), redelivered: false });
    const logged = vi.spyOn(logger, "error");
    await handle({ subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: false });
    const unscoped = create(EventSchema, { ...paidCheckoutEvent("prj_1"), projectId: "" });
    await handle({ ...messageOf(unscoped), redelivered: false });
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
    expect(await attempts.count({})).toBe(0);
  });

  it("throws when the store fails, so the bus delivers the event again, and writes it whole when it does", async () => {
    const event = paidCheckoutEvent("prj_1");
    const failing = { ...deps, store: { ...store, transaction: () => Promise.reject(new Error("injected store failure")) } };
    await expect(webhooksMessageHandler(failing, logger)({ ...messageOf(event), redelivered: false })).rejects.toThrow(/injected/);
    expect(await attempts.count({})).toBe(0);
    await webhooksMessageHandler(deps, logger)({ ...messageOf(event), redelivered: true });
    expect(await attempts.count({})).toBe(2);
  });
});
