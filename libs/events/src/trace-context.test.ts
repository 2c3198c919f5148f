import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { CustomerSchema } from "@bayad/proto";
import type { Store } from "@bayad/store";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { SpanKind } from "@opentelemetry/api";
import { inSpan, tracerOf, traceToExporter, type Tracing } from "@bayad/kit";
import type { DeliveredMessage, EventBus } from "./bus.js";
import { createInProcessBus } from "./in-process-bus.js";
import { connectJetStreamBus } from "./jetstream-bus.js";
import { traceMessages } from "./message-span.js";
import { createOutbox } from "./outbox.js";
import { startOutboxRelay } from "./outbox-relay.js";
import { eventually } from "./test-support/eventually.js";
import { outboxOf, recordingLogger } from "./test-support/outbox-fixture.js";
import { deleteJetStreamNamespace } from "./testing/jetstream-namespace.js";
import { createTestStore } from "@bayad/store/testing";

/**
 * The trace context of a change travels with its event: the outbox record keeps the traceparent
 * of the transaction that wrote it, the relay publishes it as the message's headers, both buses
 * deliver them, and a consumer's span (traceMessages) is a child of that context.
 */

const url = process.env.NATS_URL;
const caller = { projectId: "prj_trace", environment: "test" as const };

/** Writes one customer.created event through the outbox, in a transaction, as a service does. */
async function appendEvent(store: Store) {
  const outbox = createOutbox(store, "payments");
  return store.transaction((session) =>
    outbox.append(
      {
        name: "customer.created",
        caller,
        resourceId: "cus_trace",
        aggregateVersion: 1,
        snapshot: { case: "customer", value: create(CustomerSchema, { customerId: "cus_trace" }) },
      },
      session,
    ),
  );
}

/** Relays the outbox to `bus` and collects what a traced consumer receives. */
async function relayAndConsume(store: Store, bus: EventBus) {
  const seen: DeliveredMessage[] = [];
  const consumption = await bus.consume("records", traceMessages("records", "records", async (message) => void seen.push(message)));
  const relay = startOutboxRelay({ store, bus, logger: recordingLogger(), intervalMs: 10 });
  await relay.flush();
  await eventually(() => expect(seen).toHaveLength(1));
  await relay.stop();
  await consumption.stop();
  return seen[0]!;
}

describe("with traces off", () => {
  let store: Store;
  afterEach(() => store.close());

  it("the outbox keeps no trace context and messages carry no headers", async () => {
    store = createTestStore();
    const event = await appendEvent(store);
    expect((await outboxOf(store).findOne({ _id: event.eventId }))!.traceContext).toBeUndefined();
    const bus = createInProcessBus();
    const delivered = await relayAndConsume(store, bus);
    expect(delivered.headers).toBeUndefined();
    await bus.close();
  });
});

describe("with traces on", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let store: Store;

  beforeAll(() => {
    tracing = traceToExporter(exporter);
  });
  afterAll(() => tracing.shutdown());
  afterEach(async () => {
    exporter.reset();
    await store.close();
  });

  /** Writes the event inside a span of the payments service; resolves with that span's ids. */
  async function appendInSpan() {
    return inSpan(tracerOf("payments"), "writer", {}, async (span) => {
      const event = await appendEvent(store);
      return { event, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    });
  }

  function consumerSpan(eventId: string) {
    return exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER && span.attributes["messaging.message.id"] === eventId);
  }

  it("the outbox record keeps the writer's traceparent", async () => {
    store = createTestStore();
    const { event, traceId, spanId } = await appendInSpan();
    const record = await outboxOf(store).findOne({ _id: event.eventId });
    expect(record!.traceContext).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it("the in-process bus hands the headers to the consumer, whose span is the writer's child", async () => {
    store = createTestStore();
    const { event, traceId, spanId } = await appendInSpan();
    const bus = createInProcessBus();
    const delivered = await relayAndConsume(store, bus);
    await bus.close();
    expect(delivered.headers).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
    const span = consumerSpan(event.eventId);
    expect(span).toBeDefined();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe(spanId);
    expect(span!.resource.attributes["service.name"]).toBe("records");
    expect(span!.name).toBe("process bayad.events.payments.customer.created");
  });

  it("a message without headers is consumed in a trace of its own", async () => {
    store = createTestStore();
    const bus = createInProcessBus();
    const seen: DeliveredMessage[] = [];
    const consumption = await bus.consume("records", traceMessages("records", "records", async (message) => void seen.push(message)));
    await bus.publish({ subject: "bayad.events.test.thing.created", eventId: "evt_plain", payload: new Uint8Array([1]) });
    await eventually(() => expect(seen).toHaveLength(1));
    await consumption.stop();
    await bus.close();
    expect(seen[0]!.headers).toBeUndefined();
    expect(consumerSpan("evt_plain")!.parentSpanContext).toBeUndefined();
  });

  describe.skipIf(!url)("on NATS JetStream (needs NATS_URL, e.g. nats://127.0.0.1:4222)", () => {
    const namespace = `t${randomBytes(4).toString("hex")}_trace`;
    afterAll(() => deleteJetStreamNamespace({ url: url!, namespace }));

    it("the relay publishes the trace context as message headers, and the consumer's span is the writer's child", async () => {
      store = createTestStore();
      const { event, traceId, spanId } = await appendInSpan();
      const bus = await connectJetStreamBus({ url: url!, namespace, logger: recordingLogger() });
      try {
        const delivered = await relayAndConsume(store, bus);
        // Its own headers only: JetStream's Nats-Msg-Id is the eventId, not a header of the event.
        expect(delivered.headers).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
        expect(delivered.eventId).toBe(event.eventId);
        const span = consumerSpan(event.eventId);
        expect(span!.spanContext().traceId).toBe(traceId);
        expect(span!.parentSpanContext?.spanId).toBe(spanId);
      } finally {
        await bus.close();
      }
    });
  });
});
