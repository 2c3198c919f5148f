import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { SpanKind } from "@opentelemetry/api";
import { traceToExporter, type Tracing } from "@bayad/kit";
import { deleteJetStreamNamespace } from "@bayad/events/testing";
import { eventually, prerequisiteMet, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Traces end to end: a checkout created with a W3C `traceparent` yields one trace that runs from
 * the gateway's server span through the payments service's rpc span and its store calls, across
 * the outbox and the bus, into the records projection's consumer span; every span is in the
 * caller's trace, and the correlation id is on the request's spans. Spans go to an in-memory
 * exporter registered before the platform starts (its services on this thread). Runs on the
 * in-process transports and bus always, and over gRPC (HTTP/2) and NATS JetStream when NATS_URL
 * is set.
 */

const natsUrl = process.env.NATS_URL;
const natsReady = prerequisiteMet("the tracing tests on NATS JetStream", natsUrl ? undefined : "NATS_URL is not set (e.g. nats://127.0.0.1:4222)");

const exporter = new InMemorySpanExporter();
let tracing: Tracing;

beforeAll(() => {
  tracing = traceToExporter(exporter);
});

afterAll(async () => {
  await tracing.shutdown();
});

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

function checkoutBody() {
  return {
    referenceId: unique("order"),
    amount: { amountMinor: 1500_00, currency: "PHP" },
    successUrl: "https://shop.example.ph/ok",
    cancelUrl: "https://shop.example.ph/no",
  };
}

const traceOf = (span: ReadableSpan) => span.spanContext().traceId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const serviceOf = (span: ReadableSpan) => span.resource.attributes["service.name"];

/** Whether `span` descends from `ancestor` through the spans exported. */
function descendsFrom(span: ReadableSpan, ancestor: ReadableSpan, spans: ReadableSpan[]): boolean {
  const byId = new Map(spans.map((candidate) => [idOf(candidate), candidate]));
  let parentId = span.parentSpanContext?.spanId;
  for (let depth = 0; parentId !== undefined && depth < 50; depth++) {
    if (parentId === idOf(ancestor)) return true;
    parentId = byId.get(parentId)?.parentSpanContext?.spanId;
  }
  return false;
}

function traceSuite(name: string, env: () => Record<string, string>, cleanUp: () => Promise<void> = async () => {}) {
  describe(name, () => {
    let api: TestPlatform;

    beforeAll(async () => {
      api = await startTestPlatform(env());
    });

    afterAll(async () => {
      await api?.close();
      await cleanUp();
    });

    it("one checkout creation is one trace: the gateway, the payments service's rpc and store calls, and the records projection", async () => {
      const traceId = hex(16);
      const callerSpanId = hex(8);
      const correlationId = `trace-test-${randomUUID()}`;
      const created = await api.request("POST", "/api/v1/payments/checkouts", {
        body: checkoutBody(),
        headers: { traceparent: `00-${traceId}-${callerSpanId}-01`, "X-Correlation-Id": correlationId },
      });
      expect(created.status).toBe(201);
      expect(created.headers.get("x-correlation-id")).toBe(correlationId);
      const checkoutId = created.body.data.checkoutId as string;

      // The projection happens after the response: wait until the records consumer's span is exported.
      const spans = await eventually(async () => {
        const inTrace = exporter.getFinishedSpans().filter((span) => traceOf(span) === traceId);
        return inTrace.some((span) => span.kind === SpanKind.CONSUMER && serviceOf(span) === "records") ? inTrace : undefined;
      }, 20_000);

      const gateway = spans.find((span) => serviceOf(span) === "gateway" && span.kind === SpanKind.SERVER);
      expect(gateway).toBeDefined();
      expect(gateway!.name).toBe("createCheckout");
      expect(gateway!.parentSpanContext?.spanId).toBe(callerSpanId);
      expect(gateway!.attributes).toMatchObject({
        "http.request.method": "POST",
        "http.route": "/api/v1/payments/checkouts",
        "http.response.status_code": 201,
        "bayad.correlation_id": correlationId,
      });

      const rpc = spans.find((span) => serviceOf(span) === "payments" && span.kind === SpanKind.SERVER);
      expect(rpc).toBeDefined();
      expect(rpc!.name).toMatch(/^bayad\.payments\.v1\.PaymentsService\//);
      expect(rpc!.parentSpanContext?.spanId).toBe(idOf(gateway!));
      expect(rpc!.attributes["bayad.correlation_id"]).toBe(correlationId);

      const storeCalls = spans.filter((span) => serviceOf(span) === "payments" && span.kind === SpanKind.CLIENT && span.attributes["db.operation.name"]);
      expect(storeCalls.map((span) => span.name)).toContain("insertOne outbox");
      for (const call of storeCalls) expect(descendsFrom(call, rpc!, spans)).toBe(true);

      const projection = spans.find((span) => serviceOf(span) === "records" && span.kind === SpanKind.CONSUMER)!;
      expect(projection.name).toBe("process bayad.events.payments.checkout.created");
      expect(descendsFrom(projection, rpc!, spans)).toBe(true);
      expect(spans.some((span) => serviceOf(span) === "records" && span.attributes["db.collection.name"] === "payment_records" && descendsFrom(span, projection, spans))).toBe(true);

      // Nothing of this request went into another trace.
      const elsewhere = exporter.getFinishedSpans().filter((span) => traceOf(span) !== traceId && span.attributes["bayad.correlation_id"] === correlationId);
      expect(elsewhere).toEqual([]);
      expect(checkoutId).toMatch(/^chk_/);
    });

    it("a request without a traceparent starts a trace of its own", async () => {
      const correlationId = `trace-test-${randomUUID()}`;
      const created = await api.request("POST", "/api/v1/payments/checkouts", { body: checkoutBody(), headers: { "X-Correlation-Id": correlationId } });
      expect(created.status).toBe(201);

      const gateway = await eventually(async () =>
        exporter.getFinishedSpans().find((span) => serviceOf(span) === "gateway" && span.attributes["bayad.correlation_id"] === correlationId),
      );
      expect(gateway.parentSpanContext).toBeUndefined();
      expect(traceOf(gateway)).toMatch(/^[0-9a-f]{32}$/);
      const rpc = exporter.getFinishedSpans().find((span) => serviceOf(span) === "payments" && span.attributes["bayad.correlation_id"] === correlationId);
      expect(rpc && traceOf(rpc)).toBe(traceOf(gateway));
      expect(rpc?.parentSpanContext?.spanId).toBe(idOf(gateway));
    });

    it("a malformed traceparent is ignored: the request is served in a new trace", async () => {
      const correlationId = `trace-test-${randomUUID()}`;
      const created = await api.request("POST", "/api/v1/payments/checkouts", {
        body: checkoutBody(),
        headers: { traceparent: "00-not-a-trace-01", "X-Correlation-Id": correlationId },
      });
      expect(created.status).toBe(201);
      const gateway = await eventually(async () =>
        exporter.getFinishedSpans().find((span) => serviceOf(span) === "gateway" && span.attributes["bayad.correlation_id"] === correlationId),
      );
      expect(gateway.parentSpanContext).toBeUndefined();
    });
  });
}

traceSuite("traces on the in-process transports and bus", () => ({}));

if (natsReady) {
  const namespace = `tracing${hex(4)}`;
  traceSuite(
    "traces over gRPC (HTTP/2) and NATS JetStream",
    () => ({ NATS_URL: natsUrl!, EVENTS_NAMESPACE: namespace, PLATFORM_RPC: "http2" }),
    async () => {
      await deleteJetStreamNamespace({ url: natsUrl!, namespace });
    },
  );
}
