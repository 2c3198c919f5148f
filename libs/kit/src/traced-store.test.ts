import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createEmbeddedStore, DuplicateKeyError } from "@bayad/store";
import { traceStore } from "./traced-store.js";
import { inSpan, tracerOf, traceToExporter, type Tracing } from "./tracing.js";

const things = { name: "things" };

describe("traceStore with traces off", () => {
  it("is the store itself: a store call costs nothing for traces", async () => {
    const store = createEmbeddedStore();
    expect(traceStore(store, "payments")).toBe(store);
    await store.close();
  });
});

describe("traceStore with traces on", () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  beforeAll(() => {
    tracing = traceToExporter(exporter);
  });
  afterAll(() => tracing.shutdown());

  it("makes a client span per collection call and per transaction, under the current span, in the component's traces", async () => {
    const store = traceStore(createEmbeddedStore(), "payments");
    const parent = await inSpan(tracerOf("payments"), "rpc", {}, async (span) => {
      await store.transaction((session) => store.collection<{ _id: string }>(things).insertOne({ _id: "t1" }, { session }));
      await store.collection<{ _id: string }>(things).findOne({ _id: "t1" });
      return span;
    });
    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((span) => [span.name, span]));
    const transaction = byName.get("transaction")!;
    expect(transaction.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(byName.get("insertOne things")!.parentSpanContext?.spanId).toBe(transaction.spanContext().spanId);
    const find = byName.get("findOne things")!;
    expect(find.kind).toBe(SpanKind.CLIENT);
    expect(find.attributes).toMatchObject({ "db.operation.name": "findOne", "db.collection.name": "things" });
    expect(find.resource.attributes["service.name"]).toBe("payments");
    await store.close();
  });

  it("a call outside any trace (a relay's or a clock's poll) makes no span", async () => {
    exporter.reset();
    const store = traceStore(createEmbeddedStore(), "payments");
    await store.collection<{ _id: string }>(things).find({});
    await store.transaction(async () => undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
    await store.close();
  });

  it("a duplicate key is an answer, not a fault; the error still reaches the caller", async () => {
    exporter.reset();
    const store = traceStore(createEmbeddedStore(), "payments");
    const collection = store.collection<{ _id: string }>(things);
    await inSpan(tracerOf("payments"), "rpc", {}, async () => {
      await collection.insertOne({ _id: "t1" });
      await expect(collection.insertOne({ _id: "t1" })).rejects.toBeInstanceOf(DuplicateKeyError);
    });
    const inserts = exporter.getFinishedSpans().filter((span) => span.name === "insertOne things");
    expect(inserts.map((span) => span.status.code)).toEqual([SpanStatusCode.UNSET, SpanStatusCode.UNSET]);
    await store.close();
  });
});
