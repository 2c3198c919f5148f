import { MessageChannel } from "node:worker_threads";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClient, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { SpanKind } from "@opentelemetry/api";
import { OtpService } from "@bayad/proto";
import { AppError } from "./errors/app-error.js";
import { callerCallOptions } from "./caller-context.js";
import { createLogger } from "./logger.js";
import { createPortTransport, servePortCalls } from "./port-transport.js";
import { clientTracingInterceptors, withClientInterceptors } from "./rpc-tracing.js";
import { startServiceServer, type RunningServer } from "./service-server.js";
import { activeSpan, inSpan, tracerOf, traceToExporter, type Tracing } from "./tracing.js";

/**
 * A trace carried over each transport a service is called by: gRPC over HTTP/2, kit's direct
 * transport (in this thread) and its port transport (across a MessagePort). The caller's span is
 * the parent of the service's rpc span, the handler runs with that span current, and the
 * correlation id is on it.
 */

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let server: RunningServer;
/** The span current while the handler ran, by otp id asked for. */
const seenInHandler = new Map<string, string | undefined>();

beforeAll(async () => {
  tracing = traceToExporter(exporter);
  server = await startServiceServer({
    serviceName: OtpService.typeName,
    routes: (router) =>
      router.service(OtpService, {
        getOtpStatus(request) {
          seenInHandler.set(request.otpId, activeSpan()?.spanContext().spanId);
          if (request.otpId === "otp_missing") throw new AppError("RESOURCE_NOT_FOUND");
          return { otpId: request.otpId };
        },
      }),
    isReady: async () => true,
    logger: createLogger("test", "silent"),
  });
});

afterAll(async () => {
  await server?.close();
  await tracing?.shutdown();
});

beforeEach(() => exporter.reset());

const caller = { projectId: "prj_trace", environment: "test" as const, correlationId: "corr-trace-1" };

function transports(): Array<[string, () => Transport & { close?(): void }]> {
  return [
    ["gRPC over HTTP/2", () => createGrpcTransport({ baseUrl: server.url, interceptors: clientTracingInterceptors() })],
    ["the direct transport", () => withClientInterceptors(server.transport, clientTracingInterceptors())],
    [
      "the port transport",
      () => {
        const { port1, port2 } = new MessageChannel();
        servePortCalls(port2, [{ service: OtpService, transport: server.transport }]);
        const port = createPortTransport(port1);
        return Object.assign(withClientInterceptors(port, clientTracingInterceptors()), { close: () => (port.close(), port2.close()) });
      },
    ],
  ];
}

function rpcSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
}

describe.each(transports())("over %s", (_name, makeTransport) => {
  it("the service's rpc span is a child of the caller's span, in its trace, with the correlation id", async () => {
    const transport = makeTransport();
    try {
      const client = createClient(OtpService, transport);
      const otpId = `otp_${Math.random().toString(36).slice(2)}`;
      const callerSpan = await inSpan(tracerOf("gateway"), "caller", {}, async (span) => {
        await client.getOtpStatus({ otpId }, callerCallOptions(caller, 5_000));
        return span;
      });
      const [rpc] = rpcSpans();
      expect(rpc).toBeDefined();
      expect(rpc!.name).toBe("bayad.otp.v1.OtpService/GetOtpStatus");
      expect(rpc!.spanContext().traceId).toBe(callerSpan.spanContext().traceId);
      expect(rpc!.parentSpanContext?.spanId).toBe(callerSpan.spanContext().spanId);
      expect(rpc!.resource.attributes["service.name"]).toBe("otp");
      expect(rpc!.attributes).toMatchObject({ "bayad.correlation_id": "corr-trace-1", "rpc.method": "GetOtpStatus", "rpc.grpc.status_code": 0 });
      expect(seenInHandler.get(otpId)).toBe(rpc!.spanContext().spanId);
    } finally {
      transport.close?.();
    }
  });

  it("a refusal is the span's status code, not a fault of the service", async () => {
    const transport = makeTransport();
    try {
      const client = createClient(OtpService, transport);
      await expect(client.getOtpStatus({ otpId: "otp_missing" }, callerCallOptions(caller, 5_000))).rejects.toThrow();
      const [rpc] = rpcSpans();
      expect(rpc!.attributes["rpc.grpc.status_code"]).toBe(5);
      expect(rpc!.status.code).not.toBe(2);
    } finally {
      transport.close?.();
    }
  });

  it("a call made outside any span starts a trace of its own", async () => {
    const transport = makeTransport();
    try {
      await createClient(OtpService, transport).getOtpStatus({ otpId: "otp_alone" }, callerCallOptions(caller, 5_000));
      const [rpc] = rpcSpans();
      expect(rpc!.parentSpanContext).toBeUndefined();
    } finally {
      transport.close?.();
    }
  });
});
