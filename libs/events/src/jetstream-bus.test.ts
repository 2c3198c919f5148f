import { randomBytes } from "node:crypto";
import { connect, nanos, StorageType, type JetStreamManager, type NatsConnection } from "nats";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeliveredMessage, EventBus } from "./bus.js";
import { BusUnavailableError } from "./bus-unavailable-error.js";
import { connectJetStreamBus, type JetStreamBusOptions } from "./jetstream-bus.js";
import { jetStreamNames } from "./jetstream-definitions.js";
import { deleteJetStreamNamespace } from "./testing/jetstream-namespace.js";
import { startOutboxRelay } from "./outbox-relay.js";
import { eventually } from "./test-support/eventually.js";
import { collect, recordingLogger, unpublishedIds, writeOutboxRecords } from "./test-support/outbox-fixture.js";
import { startTcpProxy, type TcpProxy } from "./testing/tcp-proxy.js";
import { createTestStore } from "@bayad/store/testing";

const url = process.env.NATS_URL;
const inCi = Boolean(process.env.CI) && process.env.CI !== "false";
if (!url && !inCi) console.info("JetStream bus tests skipped: set NATS_URL (e.g. nats://127.0.0.1:4222) to run them");
// CI always has NATS: there a missing NATS_URL is a failure, never a silent skip.
if (!url && inCi) {
  it("connectJetStreamBus runs in CI", () => {
    throw new Error("NATS_URL is not set: CI must run the JetStream tests");
  });
}

function message(eventId: string, subject = "bayad.events.test.thing.created") {
  return { subject, eventId, payload: new TextEncoder().encode(`payload of ${eventId}`) };
}

describe.skipIf(!url)("connectJetStreamBus (needs NATS_URL, e.g. nats://127.0.0.1:4222)", { timeout: 60_000 }, () => {
  // Every test gets its own namespace (stream and subjects) under this file's random prefix, so
  // runs sharing the server never see each other's events; all are deleted afterwards.
  const filePrefix = `t${randomBytes(4).toString("hex")}`;
  const namespaces: string[] = [];
  const buses: EventBus[] = [];
  const proxies: TcpProxy[] = [];
  const logger = recordingLogger();
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let namespace: string;

  function newNamespace(): string {
    namespace = `${filePrefix}_${namespaces.length}`;
    namespaces.push(namespace);
    return namespace;
  }

  async function openBus(options: Partial<JetStreamBusOptions> = {}): Promise<EventBus> {
    const bus = await connectJetStreamBus({
      url: url!,
      namespace,
      logger,
      redeliveryDelayMs: 50,
      reconnectTimeWaitMs: 100,
      ...options,
    });
    buses.push(bus);
    return bus;
  }

  const streamInfo = () => jsm.streams.info(jetStreamNames(namespace).stream);
  /** Messages the server has sent the durable that are not acknowledged yet. */
  const deliveredUnacknowledged = async (durableName: string) =>
    (await jsm.consumers.info(jetStreamNames(namespace).stream, durableName)).num_ack_pending;

  beforeAll(async () => {
    nc = await connect({ servers: url });
    jsm = await nc.jetstreamManager();
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    newNamespace();
  });
  afterAll(async () => {
    for (const ns of namespaces) await deleteJetStreamNamespace({ url: url!, namespace: ns });
    await nc?.close();
  });
  newNamespace();

  it("declares the stream idempotently and brings it to the declared settings", async () => {
    const first = await openBus();
    await first.publish(message("evt_1"));
    const second = await openBus();
    await second.publish(message("evt_2"));
    let info = await streamInfo();
    expect(info.config.subjects).toEqual([`${namespace}.bayad.events.>`]);
    expect(info.config.storage).toBe(StorageType.File);
    expect(info.config.duplicate_window).toBe(nanos(120_000));
    expect(info.state.messages).toBe(2);

    const reconfigured = await openBus({ duplicateWindowMs: 60_000 });
    await reconfigured.publish(message("evt_3"));
    info = await streamInfo();
    expect(info.config.duplicate_window).toBe(nanos(60_000));
    expect(info.state.messages).toBe(3);
  });

  it("stores one message for two publishes of one eventId", async () => {
    const bus = await openBus();
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_1"));
    expect((await streamInfo()).state.messages).toBe(1);
  });

  it("delivers the un-prefixed subject, the eventId and the payload", async () => {
    const bus = await openBus();
    const consumer = await collect(bus, "records");
    await bus.publish(message("evt_1", "bayad.events.payments.customer.created"));
    await eventually(() => expect(consumer.seen).toHaveLength(1));
    expect(consumer.seen[0]).toEqual({ ...message("evt_1", "bayad.events.payments.customer.created"), redelivered: false });
  });

  it("resumes a durable consumer with what was published while it was stopped", async () => {
    const bus = await openBus();
    await bus.publish(message("evt_before"));
    const first = await collect(bus, "records");
    await eventually(() => expect(first.ids()).toEqual(["evt_before"]));
    await first.stop();

    await bus.publish(message("evt_while_stopped_1"));
    await bus.publish(message("evt_while_stopped_2"));
    // Another process, even: the position lives on the server.
    const other = await openBus();
    const second = await collect(other, "records");
    await eventually(() => expect(second.ids()).toEqual(["evt_while_stopped_1", "evt_while_stopped_2"]));
    expect(first.ids()).toEqual(["evt_before"]);
  });

  it("gives each durable every message", async () => {
    const bus = await openBus();
    const records = await collect(bus, "records");
    const audit = await collect(bus, "audit");
    await bus.publish(message("evt_1"));
    await bus.publish(message("evt_2"));
    await eventually(() => expect(records.ids()).toEqual(["evt_1", "evt_2"]));
    await eventually(() => expect(audit.ids()).toEqual(["evt_1", "evt_2"]));
  });

  it("redelivers a message whose handler threw", async () => {
    const bus = await openBus();
    const deliveries: DeliveredMessage[] = [];
    await bus.consume("records", async (m) => {
      deliveries.push(m);
      if (deliveries.length === 1) throw new Error("store down");
    });
    await bus.publish(message("evt_1"));
    await eventually(() => expect(deliveries.map((m) => [m.eventId, m.redelivered])).toEqual([["evt_1", false], ["evt_1", true]]));
  });

  it("hands the messages that arrived while a batch was handled over as the next batch, and a later message alone", async () => {
    const bus = await openBus();
    const batches: string[][] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await bus.consumeBatches(
      "records",
      async (messages) => {
        batches.push(messages.map((m) => m.eventId));
        if (batches.length === 1) await released;
      },
      { maxMessages: 64 },
    );
    await bus.publish(message("evt_1"));
    await eventually(() => expect(batches).toEqual([["evt_1"]]));
    for (const id of ["evt_2", "evt_3", "evt_4"]) await bus.publish(message(id));
    // All four are out to the consumer (evt_1 still in its handler): the three wait, ready, behind it.
    await eventually(async () => expect(await deliveredUnacknowledged("records")).toBe(4));
    release();
    await eventually(() => expect(batches).toEqual([["evt_1"], ["evt_2", "evt_3", "evt_4"]]));
    await bus.publish(message("evt_5"));
    await eventually(() => expect(batches).toEqual([["evt_1"], ["evt_2", "evt_3", "evt_4"], ["evt_5"]]));
  });

  it("bounds a batch by maxMessages", async () => {
    const bus = await openBus();
    for (const id of ["evt_1", "evt_2", "evt_3"]) await bus.publish(message(id));
    const batches: string[][] = [];
    await bus.consumeBatches("records", async (messages) => void batches.push(messages.map((m) => m.eventId)), { maxMessages: 2 });
    await eventually(() => expect(batches.flat()).toEqual(["evt_1", "evt_2", "evt_3"]));
    expect(batches.every((batch) => batch.length <= 2)).toBe(true);
  });

  it("redelivers every message of a batch whose handler threw, and acknowledges none of them before", async () => {
    const bus = await openBus();
    for (const id of ["evt_1", "evt_2", "evt_3"]) await bus.publish(message(id));
    const deliveries: DeliveredMessage[][] = [];
    let unacknowledgedAtFirstSuccess: number | undefined;
    // However the three arrive in batches, a batch holding a first delivery fails: had the bus
    // acknowledged any message of a failed batch, that message would never come back redelivered.
    await bus.consumeBatches(
      "records",
      async (messages) => {
        deliveries.push([...messages]);
        if (messages.some((m) => !m.redelivered)) throw new Error("store down");
        unacknowledgedAtFirstSuccess ??= await bus.pending("records");
      },
      { maxMessages: 64 },
    );
    const redelivered = () => deliveries.flat().filter((m) => m.redelivered).map((m) => m.eventId);
    await eventually(() => expect(new Set(redelivered())).toEqual(new Set(["evt_1", "evt_2", "evt_3"])));
    expect(deliveries[0]!.every((m) => !m.redelivered)).toBe(true);
    await eventually(() => expect(unacknowledgedAtFirstSuccess).toBe(3));
    await eventually(async () => expect(await bus.pending("records")).toBe(0));
  });

  it("declares the stream and the consumer again when they vanish (a NATS that lost its storage)", async () => {
    const bus = await openBus();
    const consumer = await collect(bus, "records");
    await bus.publish(message("evt_1"));
    await eventually(() => expect(consumer.ids()).toEqual(["evt_1"]));

    await jsm.streams.delete(jetStreamNames(namespace).stream);
    await bus.publish(message("evt_2"));
    expect((await streamInfo()).state.messages).toBe(1);
    await eventually(() => expect(consumer.ids()).toEqual(["evt_1", "evt_2"]));
  });

  it("fails publishes while NATS is unreachable at start, and succeeds once it is up", async () => {
    const proxy = await startTcpProxy(url!);
    proxies.push(proxy);
    await proxy.cut();
    const bus = await openBus({ url: proxy.url, publishTimeoutMs: 200 });
    expect(bus.isConnected()).toBe(false);
    await expect(bus.publish(message("evt_1"))).rejects.toBeInstanceOf(BusUnavailableError);

    await proxy.restore();
    await eventually(() => bus.isConnected());
    await bus.publish(message("evt_1"));
    expect((await streamInfo()).state.messages).toBe(1);
  });

  it("closes without waiting for a NATS that never came up", async () => {
    const proxy = await startTcpProxy(url!);
    proxies.push(proxy);
    await proxy.cut();
    const bus = await connectJetStreamBus({ url: proxy.url, namespace, logger, reconnectTimeWaitMs: 100 });
    await bus.consume("records", async () => {});
    await bus.close();
    expect(bus.isConnected()).toBe(false);
  });

  it("relays an outbox written during a NATS outage exactly once when NATS is back", async () => {
    const proxy = await startTcpProxy(url!);
    proxies.push(proxy);
    const bus = await openBus({ url: proxy.url, publishTimeoutMs: 500 });
    const store = createTestStore();
    const consumer = await collect(bus, "records");
    const relay = startOutboxRelay({ store, bus, logger, intervalMs: 10, maxBackoffMs: 200 });
    try {
      await writeOutboxRecords(store, ["evt_0"]);
      await eventually(() => expect(consumer.ids()).toEqual(["evt_0"]));

      await proxy.cut();
      await eventually(() => !bus.isConnected());
      const warnsBefore = logger.lines.filter((l) => l.message.startsWith("outbox relay cannot publish")).length;
      // Writes are unaffected: the outbox is in the store, not on the bus.
      await writeOutboxRecords(store, ["evt_1", "evt_2", "evt_3"]);
      await eventually(
        () => logger.lines.filter((l) => l.message.startsWith("outbox relay cannot publish")).length > warnsBefore,
      );
      expect(await unpublishedIds(store)).toEqual(["evt_1", "evt_2", "evt_3"]);

      await proxy.restore();
      await eventually(async () => expect(await unpublishedIds(store)).toEqual([]));
      await eventually(() => expect(consumer.ids()).toEqual(["evt_0", "evt_1", "evt_2", "evt_3"]));
      // A last event behind them: any late duplicate of the others would arrive before it.
      await writeOutboxRecords(store, ["evt_4"]);
      await eventually(() => expect(consumer.ids().at(-1)).toBe("evt_4"));
      expect(consumer.ids()).toEqual(["evt_0", "evt_1", "evt_2", "evt_3", "evt_4"]);
      expect((await streamInfo()).state.messages).toBe(5);
    } finally {
      await relay.stop();
      await store.close();
    }
  });
});
