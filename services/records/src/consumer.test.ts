import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CheckoutStatus } from "@bayad/proto";
import { createLogger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { countingStore, createTestStore, flakyStore } from "@bayad/store/testing";
import { createInProcessBus, type Consumption, type EventBus } from "@bayad/events";
import { recordsBatchHandler, recordsMessageHandler, startRecordsConsumer } from "./consumer.js";
import { createPaymentRecordsRepository, type PaymentRecordsRepository } from "./records/payment-records-repository.js";
import { at, eventOf, messageOf, php } from "./test-support/events.js";

const logger = createLogger("records-test", "silent");
const checkoutEvent = (id: string, version: number, status: CheckoutStatus) =>
  eventOf(
    { case: "checkout", value: { checkoutId: id, referenceId: `order-${id}`, status, amount: php(500_00), createdAt: at(new Date("2026-01-01T00:00:00Z")) } },
    { resourceId: id, version },
  );

describe("records consumer", () => {
  let store: Store;
  let repository: PaymentRecordsRepository;

  beforeEach(async () => {
    store = createTestStore();
    repository = createPaymentRecordsRepository(store);
    await store.ensureIndexes();
  });

  describe("its handler", () => {
    it("resolves only after the record is written", async () => {
      const handle = recordsMessageHandler({ store, now: () => new Date(), logger });
      await handle({ ...messageOf(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)), redelivered: false });
      expect(await repository.findById("chk_1")).toMatchObject({ status: "pending" });
    });

    it("throws when the store fails, so the bus delivers the event again", async () => {
      const handle = recordsMessageHandler({ store: flakyStore(store, { remaining: 1 }), now: () => new Date(), logger });
      const message = { ...messageOf(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)), redelivered: false };

      await expect(handle(message)).rejects.toThrow(/injected/);
      await handle({ ...message, redelivered: true });
      expect(await repository.findById("chk_1")).toMatchObject({ status: "pending" });
    });

    it("acknowledges an undecodable payload without writing", async () => {
      const handle = recordsMessageHandler({ store, now: () => new Date(), logger });
      const logged = vi.spyOn(logger, "error");
      const poison = { subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: false };
      await expect(handle(poison)).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: "evt_poison" }), "undecodable event skipped");
      logged.mockRestore();
    });

    it("acknowledges a malformed event without writing", async () => {
      const handle = recordsMessageHandler({ store, now: () => new Date(), logger });
      const event = checkoutEvent("chk_bad", 1, CheckoutStatus.PAID);
      event.environment = "staging";
      const logged = vi.spyOn(logger, "error");
      await expect(handle({ ...messageOf(event), redelivered: false })).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: event.eventId }), "malformed event skipped");
      logged.mockRestore();
      expect(await repository.findById("chk_bad")).toBeNull();
    });

    it("acknowledges customer and plan events without writing", async () => {
      const handle = recordsMessageHandler({ store, now: () => new Date(), logger });
      await handle({ ...messageOf(eventOf({ case: "customer", value: { customerId: "cus_1" } }, { resourceId: "cus_1" })), redelivered: false });
      await handle({ ...messageOf(eventOf({ case: "plan", value: { planId: "plan_1" } }, { resourceId: "plan_1" })), redelivered: false });
      expect(await repository.findById("cus_1")).toBeNull();
      expect(await repository.findById("plan_1")).toBeNull();
    });
  });

  describe("its batch handler", () => {
    const delivered = (event: ReturnType<typeof checkoutEvent>, redelivered = false) => ({ ...messageOf(event), redelivered });

    it("projects a batch in one transaction, two versions of one record ending at the higher in either order", async () => {
      const counted = countingStore(store);
      const handle = recordsBatchHandler({ store: counted.store, now: () => new Date(), logger });
      await handle([
        delivered(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)),
        delivered(checkoutEvent("chk_1", 2, CheckoutStatus.PAID)),
        delivered(checkoutEvent("chk_2", 3, CheckoutStatus.PAID)),
        delivered(checkoutEvent("chk_2", 2, CheckoutStatus.PENDING)),
      ]);
      expect(counted.transactions()).toBe(1);
      expect(await repository.findById("chk_1")).toMatchObject({ status: "paid", aggregateVersion: 2 });
      expect(await repository.findById("chk_2")).toMatchObject({ status: "paid", aggregateVersion: 3 });
    });

    it("changes nothing when a batch is delivered again", async () => {
      const batch = [checkoutEvent("chk_1", 1, CheckoutStatus.PENDING), checkoutEvent("chk_1", 2, CheckoutStatus.PAID), checkoutEvent("chk_2", 1, CheckoutStatus.PENDING)];
      let clock = Date.parse("2026-02-01T00:00:00.000Z");
      // Every write sees a later time, so an unchanged updatedAt proves nothing was written.
      const handle = recordsBatchHandler({ store, now: () => new Date((clock += 1000)), logger });
      await handle(batch.map((event) => delivered(event)));
      const before = [await repository.findById("chk_1"), await repository.findById("chk_2")];

      await handle(batch.map((event) => delivered(event, true)));
      expect([await repository.findById("chk_1"), await repository.findById("chk_2")]).toEqual(before);
    });

    it("keeps nothing of a batch whose store write fails midway, and projects all of it when delivered again", async () => {
      const failures = { remaining: 1, after: 1 };
      const handle = recordsBatchHandler({ store: flakyStore(store, failures), now: () => new Date(), logger });
      const batch = [checkoutEvent("chk_1", 1, CheckoutStatus.PENDING), checkoutEvent("chk_2", 1, CheckoutStatus.PENDING)];

      await expect(handle(batch.map((event) => delivered(event)))).rejects.toThrow(/injected/);
      expect(failures).toEqual({ remaining: 0, after: 0 });
      expect(await repository.findById("chk_1")).toBeNull();

      await handle(batch.map((event) => delivered(event, true)));
      expect(await repository.findById("chk_1")).toMatchObject({ status: "pending" });
      expect(await repository.findById("chk_2")).toMatchObject({ status: "pending" });
    });

    it("skips a malformed event and an undecodable payload without failing the rest of the batch", async () => {
      const handle = recordsBatchHandler({ store, now: () => new Date(), logger });
      const malformed = checkoutEvent("chk_bad", 1, CheckoutStatus.PAID);
      malformed.environment = "staging";
      const logged = vi.spyOn(logger, "error");
      await handle([
        delivered(malformed),
        { subject: "bayad.events.x", eventId: "evt_poison", payload: new Uint8Array([0xff, 0xff, 0xff]), redelivered: false },
        delivered(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)),
      ]);
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: malformed.eventId }), "malformed event skipped");
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ eventId: "evt_poison" }), "undecodable event skipped");
      logged.mockRestore();
      expect(await repository.findById("chk_bad")).toBeNull();
      expect(await repository.findById("chk_1")).toMatchObject({ status: "pending" });
    });
  });

  describe("on a bus", () => {
    let bus: EventBus;
    let consumption: Consumption | undefined;
    beforeEach(() => {
      bus = createInProcessBus({ redeliveryDelayMs: 5, logger });
    });
    afterEach(async () => {
      await consumption?.stop();
      consumption = undefined;
      await bus.close();
    });

    it("projects what is published, past poison messages and a store failure", async () => {
      const failures = { remaining: 0 };
      consumption = await startRecordsConsumer({ bus, store: flakyStore(store, failures), logger });

      await bus.publish(messageOf(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)));
      await bus.publish({ subject: "bayad.events.garbage", eventId: "evt_garbage", payload: new Uint8Array([1, 2, 3, 4]) });
      await bus.publish(messageOf(checkoutEvent("chk_2", 1, CheckoutStatus.PENDING)));
      // The bus delivers in order: chk_2 projected means the poison message before it was acked.
      await vi.waitFor(async () => expect(await repository.findById("chk_2")).not.toBeNull());

      failures.remaining = 2;
      await bus.publish(messageOf(checkoutEvent("chk_1", 2, CheckoutStatus.PAID)));
      await bus.publish(messageOf(checkoutEvent("chk_3", 1, CheckoutStatus.PENDING)));
      await vi.waitFor(async () => expect(await repository.findById("chk_3")).not.toBeNull());

      expect(failures.remaining).toBe(0);
      expect(await repository.findById("chk_1")).toMatchObject({ status: "paid", aggregateVersion: 2 });
    });

    it("projects a backlog in one transaction per batch of up to batchSize events", async () => {
      for (let i = 1; i <= 5; i++) await bus.publish(messageOf(checkoutEvent(`chk_${i}`, 1, CheckoutStatus.PENDING)));
      const counted = countingStore(store);
      consumption = await startRecordsConsumer({ bus, store: counted.store, logger, batchSize: 2 });
      await vi.waitFor(async () => expect(await bus.pending("records")).toBe(0));
      expect(await repository.findById("chk_5")).toMatchObject({ status: "pending" });
      expect(counted.transactions()).toBe(3);
    });

    it("leaves a batch the store failed unacknowledged, and projects it once consuming again", async () => {
      await bus.close();
      bus = createInProcessBus({ redeliveryDelayMs: 60_000, logger });
      for (let i = 1; i <= 3; i++) await bus.publish(messageOf(checkoutEvent(`chk_${i}`, 1, CheckoutStatus.PENDING)));
      const failures = { remaining: 1, after: 2 };
      consumption = await startRecordsConsumer({ bus, store: flakyStore(store, failures), logger });
      await vi.waitFor(() => expect(failures.remaining).toBe(0));
      // The batch failed at its third write: nothing of it is stored, and the bus still holds all of it.
      expect(await bus.pending("records")).toBe(3);
      expect(await repository.findById("chk_1")).toBeNull();

      // The stop cuts the long redelivery pause short.
      await consumption.stop();
      consumption = await startRecordsConsumer({ bus, store, logger });
      await vi.waitFor(async () => expect(await bus.pending("records")).toBe(0));
      expect(await repository.findById("chk_3")).toMatchObject({ status: "pending" });
    });

    it("resumes where it stopped", async () => {
      consumption = await startRecordsConsumer({ bus, store, logger });
      await bus.publish(messageOf(checkoutEvent("chk_1", 1, CheckoutStatus.PENDING)));
      await vi.waitFor(async () => expect(await repository.findById("chk_1")).not.toBeNull());
      await consumption.stop();

      await bus.publish(messageOf(checkoutEvent("chk_1", 2, CheckoutStatus.PAID)));
      consumption = await startRecordsConsumer({ bus, store, logger });
      await vi.waitFor(async () => expect(await repository.findById("chk_1")).toMatchObject({ status: "paid" }));
    });
  });
});
