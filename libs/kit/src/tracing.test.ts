import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { activeSpan, inSpan, setupTracing, tracerOf, tracingEnabled, type Tracing } from "./tracing.js";

/** An OTLP/HTTP receiver: what was posted, by path. */
async function startReceiver() {
  const received: Array<{ path: string; body: string }> = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("setupTracing", () => {
  let tracing: Tracing | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it("is off without OTEL_EXPORTER_OTLP_ENDPOINT: no provider, the API's no-op tracer, nothing current", async () => {
    tracing = setupTracing("gateway", {});
    expect(tracing).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    await inSpan(tracerOf("gateway"), "unrecorded", {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(activeSpan()).toBeUndefined();
    });
  });

  it("exports by OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, each component under its own service.name", async () => {
    const receiver = await startReceiver();
    try {
      tracing = setupTracing("bayad", { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/` });
      expect(tracingEnabled()).toBe(true);
      await inSpan(tracerOf("payments"), "work of payments", {}, async () => {});
      await tracing!.shutdown();
      expect(receiver.received.map((post) => post.path)).toEqual(["/v1/traces"]);
      const body = receiver.received[0]!.body;
      expect(body).toContain("work of payments");
      expect(body).toContain('"stringValue":"payments"');
    } finally {
      await receiver.close();
    }
  });

  it("names every span OTEL_SERVICE_NAME when it is set", async () => {
    const receiver = await startReceiver();
    try {
      tracing = setupTracing("gateway", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "checkout-api" });
      await inSpan(tracerOf("gateway"), "named", {}, async () => {});
      await tracing!.shutdown();
      expect(receiver.received[0]!.body).toContain('"stringValue":"checkout-api"');
    } finally {
      await receiver.close();
    }
  });
});
