import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bannerOf, temporaryPlatforms } from "../test-support/platform-process.js";
import { eventually, newIdempotencyKey, unique } from "../test-support/harness.js";

/**
 * `npm start` with OTEL_EXPORTER_OTLP_ENDPOINT: the gateway's thread and the services' worker
 * thread each export their spans by OTLP/HTTP, so one checkout's trace arrives at the collector
 * from the gateway, the payments service (called across the threads) and the records projection,
 * each under its own service.name. A local HTTP server stands in for the collector.
 */

interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
}

/** What an OTLP/HTTP JSON export request holds, flattened to spans with their service. */
function spansOf(body: string): ExportedSpan[] {
  const request = JSON.parse(body) as {
    resourceSpans: Array<{
      resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
      scopeSpans: Array<{ spans: Array<{ name: string; traceId: string; spanId: string; parentSpanId?: string }> }>;
    }>;
  };
  return request.resourceSpans.flatMap((resourceSpans) => {
    const service = resourceSpans.resource.attributes.find((attribute) => attribute.key === "service.name")?.value.stringValue ?? "";
    return resourceSpans.scopeSpans.flatMap((scope) =>
      scope.spans.map((span) => ({ service, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId ?? "" })),
    );
  });
}

describe("npm start exporting traces by OTLP/HTTP", () => {
  const platforms = temporaryPlatforms("bayad-traces-");
  const exported: ExportedSpan[] = [];
  const paths = new Set<string>();
  let collector: http.Server;
  let collectorUrl: string;

  beforeAll(async () => {
    collector = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        paths.add(request.url ?? "");
        exported.push(...spansOf(Buffer.concat(chunks).toString()));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  it("one checkout's trace arrives from the gateway, the payments service on the services thread and the records projection", async () => {
    const platform = platforms.launch({
      DATA_DIR: join(platforms.parent(), "data"),
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      // The batch's default pause is 5 s: shorter, so the test waits less.
      OTEL_BSP_SCHEDULE_DELAY: "100",
      RATE_LIMIT_CREDENTIAL_WRITES: "1000",
    });
    const banner = await bannerOf(platform);
    const traceId = randomBytes(16).toString("hex");
    const response = await fetch(`${banner.gatewayUrl}/api/v1/payments/checkouts`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${banner.testApiKey}`,
        "Idempotency-Key": newIdempotencyKey(),
        "Content-Type": "application/json",
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
      body: JSON.stringify({
        referenceId: unique("order"),
        amount: { amountMinor: 250_00, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      }),
    });
    expect(response.status).toBe(201);

    // Each thread exports its own batches, in no set order: wait for the three parts of the trace.
    const spans = await eventually(async () => {
      const inTrace = exported.filter((span) => span.traceId === traceId);
      const arrived = [
        inTrace.some((span) => span.service === "records" && span.name.startsWith("process ")),
        inTrace.some((span) => span.service === "gateway" && span.name === "createCheckout"),
        inTrace.some((span) => span.service === "payments" && span.name === "bayad.payments.v1.PaymentsService/CreateCheckout"),
      ];
      return arrived.every(Boolean) ? inTrace : undefined;
    }, 20_000);
    expect(paths).toEqual(new Set(["/v1/traces"]));
    const gateway = spans.find((span) => span.service === "gateway" && span.name === "createCheckout");
    const rpc = spans.find((span) => span.service === "payments" && span.name === "bayad.payments.v1.PaymentsService/CreateCheckout");
    expect(gateway).toBeDefined();
    expect(rpc?.parentSpanId).toBe(gateway!.spanId);
    expect(spans.some((span) => span.service === "payments" && span.name === "insertOne outbox")).toBe(true);
  });
});
