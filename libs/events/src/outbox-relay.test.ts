import { create, fromBinary } from "@bufbuild/protobuf";
import { CustomerSchema, EventSchema } from "@bayad/proto";
import type { Store } from "@bayad/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BusMessage, EventBus } from "./bus.js";
import { createInProcessBus } from "./in-process-bus.js";
import { createOutbox } from "./outbox.js";
import { startOutboxRelay, type OutboxRelay } from "./outbox-relay.js";
import { eventually } from "./test-support/eventually.js";
import { flakyBus } from "./test-support/flaky-bus.js";
import {
  collect,
  outboxOf,
  recordingLogger,
  unpublishedIds,
  writeOutboxRecords,
} from "./test-support/outbox-fixture.js";
import { createTestStore } from "@bayad/store/testing";

/** A bus whose publishes wait until the test lets them through, one by one. */
function gatedBus(inner: EventBus) {
  const waiting: Array<{ message: BusMessage; release: () => void }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const bus: EventBus = {
    async publish(message) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise<void>((release) => waiting.push({ message, release }));
        await inner.publish(message);
      } finally {
        inFlight--;
      }
    },
    consume: (name, handler) => inner.consume(name, handler),
    consumeBatches: (name, handler, options) => inner.consumeBatches(name, handler, options),
    pending: (name) => inner.pending(name),
    isConnected: () => inner.isConnected(),
    close: () => inner.close(),
  };
  return { bus, waiting, maxInFlight: () => maxInFlight };
}

describe("startOutboxRelay", () => {
  let store: Store;
  let inner: EventBus;
  let relay: OutboxRelay | undefined;
  const logger = recordingLogger();

  beforeEach(() => {
    store = createTestStore();
    inner = createInProcessBus();
    logger.lines.length = 0;
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await inner.close();
    await store.close();
  });

  it("publishes pending records oldest first and marks each published", async () => {
    const consumer = await collect(inner, "records");
    await writeOutboxRecords(store, ["evt_c"], 3000);
    await writeOutboxRecords(store, ["evt_a"], 1000);
    await writeOutboxRecords(store, ["evt_b"], 2000);
    relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 5 });
    await eventually(() => expect(consumer.ids()).toEqual(["evt_a", "evt_b", "evt_c"]));
    expect(consumer.payloads()).toEqual(["evt_a", "evt_b", "evt_c"]);
    await eventually(async () => expect(await unpublishedIds(store)).toEqual([]));
  });

  it("publishes a resource's events of one millisecond in version order, whatever their ids", async () => {
    const consumer = await collect(inner, "records");
    const occurredAt = new Date();
    for (const [eventId, aggregateVersion] of [["evt_a", 3], ["evt_c", 1], ["evt_b", 2]] as const) {
      await outboxOf(store).insertOne({
        _id: eventId,
        subject: "bayad.events.test.thing.moved",
        projectId: "prj_test",
        environment: "test",
        resourceId: "thing_1",
        aggregateVersion,
        occurredAt,
        payload: Buffer.from(eventId).toString("base64"),
      });
    }
    relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 5 });
    await eventually(() => expect(consumer.ids()).toEqual(["evt_c", "evt_b", "evt_a"]));
  });

  it("publishes the protobuf Event that the outbox stored", async () => {
    const consumer = await collect(inner, "records");
    const outbox = createOutbox(store, "payments");
    const event = await store.transaction((session) =>
      outbox.append(
        {
          name: "customer.created",
          caller: { projectId: "prj_1", environment: "test" },
          resourceId: "cus_1",
          aggregateVersion: 1,
          snapshot: { case: "customer", value: create(CustomerSchema, { customerId: "cus_1", name: "Ana" }) },
        },
        session,
      ),
    );
    relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 5 });
    await eventually(() => expect(consumer.seen).toHaveLength(1));
    const [delivered] = consumer.seen;
    expect(delivered!.eventId).toBe(event.eventId);
    expect(delivered!.subject).toBe("bayad.events.payments.customer.created");
    expect(fromBinary(EventSchema, delivered!.payload)).toEqual(event);
  });

  it("deletes a record once the bus has it, so the outbox holds only what is still to be published", async () => {
    await writeOutboxRecords(store, ["evt_1", "evt_2"]);
    const consumer = await collect(inner, "after-delete");
    relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 5 });
    await eventually(() => expect(consumer.ids()).toEqual(["evt_1", "evt_2"]));
    await eventually(async () => expect(await outboxOf(store).count({})).toBe(0));
    await consumer.stop();
  });

  it("marks nothing published before the bus acknowledged it, and deletes a round's acknowledged events together", async () => {
    const gate = gatedBus(inner);
    await writeOutboxRecords(store, ["evt_1", "evt_2"]);
    relay = startOutboxRelay({ store, bus: gate.bus, logger, intervalMs: 5 });
    // The round's events go out together, in order.
    await eventually(() => expect(gate.waiting.map((held) => held.message.eventId)).toEqual(["evt_1", "evt_2"]));
    gate.waiting[1]!.release();
    // evt_2 is acknowledged, but the round has not settled: nothing is deleted yet.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await unpublishedIds(store)).toEqual(["evt_1", "evt_2"]);
    gate.waiting[0]!.release();
    await eventually(async () => expect(await unpublishedIds(store)).toEqual([]));
  });

  it("deletes a round's published events in one write", async () => {
    await writeOutboxRecords(store, ["evt_1", "evt_2", "evt_3"]);
    const deletes: unknown[] = [];
    const counted: Store = Object.create(store, {
      collection: {
        value: (def: Parameters<Store["collection"]>[0]) => {
          const collection = store.collection(def);
          return Object.create(collection, {
            deleteOne: { value: (...args: Parameters<typeof collection.deleteOne>) => (deletes.push(args[0]), collection.deleteOne(...args)) },
            deleteMany: { value: (...args: Parameters<typeof collection.deleteMany>) => (deletes.push(args[0]), collection.deleteMany(...args)) },
          });
        },
      },
    });
    const consumer = await collect(inner, "one-delete");
    relay = startOutboxRelay({ store: counted, bus: inner, logger, intervalMs: 60_000 });
    expect(await relay.flush()).toBe(3);
    expect(consumer.ids()).toEqual(["evt_1", "evt_2", "evt_3"]);
    expect(deletes).toEqual([{ _id: { $in: ["evt_1", "evt_2", "evt_3"] } }]);
    await consumer.stop();
  });

  it("retries through failed publishes until each event is published exactly once, in order", async () => {
    const consumer = await collect(inner, "records");
    const bus = flakyBus(inner);
    bus.failNext(5);
    const ids = Array.from({ length: 12 }, (_, i) => `evt_${String(i).padStart(2, "0")}`);
    await writeOutboxRecords(store, ids);
    relay = startOutboxRelay({ store, bus, logger, intervalMs: 1, maxBackoffMs: 20, batchSize: 5 });
    await eventually(async () => expect(await unpublishedIds(store)).toEqual([]));
    await eventually(() => expect(consumer.ids()).toEqual(ids));
    expect(bus.refused).toBe(5);

    const warns = logger.lines.filter((l) => l.level === "warn");
    const infos = logger.lines.filter((l) => l.level === "info");
    expect(warns).toHaveLength(1);
    expect(infos).toHaveLength(1);
    // Payloads never reach the logs.
    expect(JSON.stringify(logger.lines)).not.toContain(Buffer.from("evt_00").toString("base64"));
  });

  it("keeps writes and the outbox intact while every publish fails", async () => {
    const bus = flakyBus(inner);
    bus.failNext(Number.MAX_SAFE_INTEGER);
    relay = startOutboxRelay({ store, bus, logger, intervalMs: 1, maxBackoffMs: 10 });
    await writeOutboxRecords(store, ["evt_1", "evt_2"]);
    await eventually(() => bus.refused >= 3);
    await writeOutboxRecords(store, ["evt_3"]);
    expect(await unpublishedIds(store)).toEqual(["evt_1", "evt_2", "evt_3"]);
    expect(logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("backs off while publishing fails: pauses that double, jittered, up to maxBackoffMs, then the interval again", async () => {
    // The relay's timer, held by the test: each round runs when the test says, and the delay the
    // relay asked for is recorded instead of waited out.
    const timers: Array<{ run: () => void; delayMs: number }> = [];
    const setTimer = (run: () => void, delayMs: number) => {
      timers.push({ run, delayMs });
      return () => undefined;
    };
    const bus = flakyBus(inner);
    bus.failNext(Number.MAX_SAFE_INTEGER);
    await writeOutboxRecords(store, ["evt_1"]);
    relay = startOutboxRelay({ store, bus, logger, intervalMs: 100, maxBackoffMs: 5_000, setTimer });
    for (let round = 1; round <= 12; round++) {
      timers[round - 1]!.run();
      await eventually(() => timers.length === round + 1);
    }
    const [first, ...backoffs] = timers.map((timer) => timer.delayMs);
    expect(first).toBe(100);
    // After the n-th failed round: between half and all of min(5000, 200·2^(n−1)).
    backoffs.forEach((delay, i) => {
      const ceiling = Math.min(5_000, 200 * 2 ** i);
      expect(delay, `after failure ${i + 1}`).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay, `after failure ${i + 1}`).toBeLessThanOrEqual(ceiling);
    });
    expect(backoffs[5]! - backoffs[0]!).toBeGreaterThan(0);
    expect(Math.max(...backoffs)).toBeLessThanOrEqual(5_000);

    bus.failNext(0);
    timers.at(-1)!.run();
    await eventually(() => timers.length === 14);
    expect(timers.at(-1)!.delayMs).toBe(100);
    expect(await unpublishedIds(store)).toEqual([]);
  });

  describe("flush", () => {
    it("publishes everything pending, in several rounds, and says how many", async () => {
      const consumer = await collect(inner, "records");
      const ids = Array.from({ length: 7 }, (_, i) => `evt_${i}`);
      await writeOutboxRecords(store, ids);
      relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 60_000, batchSize: 3 });
      expect(await relay.flush()).toBe(7);
      expect(await unpublishedIds(store)).toEqual([]);
      await eventually(() => expect(consumer.ids()).toEqual(ids));
      expect(await relay.flush()).toBe(0);
    });

    it("throws when a publish fails, leaving pending what the bus refused", async () => {
      const bus = flakyBus(inner);
      await writeOutboxRecords(store, ["evt_1", "evt_2"]);
      relay = startOutboxRelay({ store, bus, logger, intervalMs: 60_000 });
      bus.failNext(1);
      await expect(relay.flush()).rejects.toThrow(/simulated bus outage/);
      expect(await unpublishedIds(store)).toEqual(["evt_1"]);
      expect(await relay.flush()).toBe(1);
    });

    it("works after stop(), for the last flush of a graceful shutdown", async () => {
      await writeOutboxRecords(store, ["evt_1"]);
      relay = startOutboxRelay({ store, bus: inner, logger, intervalMs: 60_000 });
      await relay.stop();
      expect(await relay.flush()).toBe(1);
    });
  });

  it("never runs two rounds at once, whoever asks for them", async () => {
    const gate = gatedBus(inner);
    const consumer = await collect(inner, "records");
    await writeOutboxRecords(store, ["evt_1", "evt_2", "evt_3"]);
    relay = startOutboxRelay({ store, bus: gate.bus, logger, intervalMs: 1 });
    const flushes = [relay.flush(), relay.flush()];
    await eventually(() => gate.waiting.length === 3);
    // A second round would publish the same events again while the first holds them.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gate.waiting).toHaveLength(3);
    for (const held of gate.waiting) held.release();
    await Promise.all(flushes);
    expect(gate.maxInFlight()).toBe(3);
    await eventually(() => expect(consumer.ids()).toEqual(["evt_1", "evt_2", "evt_3"]));
    expect(gate.waiting).toHaveLength(3);
  });

  it("waits in stop() for the round in progress", async () => {
    const gate = gatedBus(inner);
    await writeOutboxRecords(store, ["evt_1"]);
    relay = startOutboxRelay({ store, bus: gate.bus, logger, intervalMs: 1 });
    await eventually(() => gate.waiting.length === 1);
    let stopped = false;
    const stopping = relay.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    gate.waiting[0]!.release();
    await stopping;
    expect(await unpublishedIds(store)).toEqual([]);
    expect(await outboxOf(store).findOne({ _id: "evt_1" })).toBeNull();
  });
});
