import { context, propagation, type Span } from "@opentelemetry/api";
import { ConnectError, createContextValues, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { create, isMessage, type DescMessage } from "@bufbuild/protobuf";
import { correlationIdOf } from "./caller-context.js";
import { asComponentWork, extractTraceContext, inSpan, SpanKind, tracerOf, tracingEnabled } from "./tracing.js";

/**
 * Traces across rpcs: the caller's client interceptor writes the current trace context into the
 * call's metadata (W3C `traceparent`, `tracestate`), and the service's server interceptor opens
 * the rpc's span under it. Over HTTP/2 the metadata are the request's headers; kit's direct and
 * port transports carry the same headers (the port transport as entries across the thread), so
 * one interceptor serves every transport (`withClientInterceptors` runs it for the in-process ones,
 * which have no interceptor option of their own).
 */

/** The client side: the current trace context into the request's metadata. */
export function traceContextInterceptor(): Interceptor {
  return (next) => (request) => {
    propagation.inject(context.active(), request.header, { set: (headers, key, value) => headers.set(key, value) });
    return next(request);
  };
}

/** gRPC status codes that are the server's fault (OpenTelemetry's rpc conventions); the others are answers. */
const serverFaults = new Set([2, 4, 12, 13, 14, 15]);

/**
 * The server side: one span per rpc (`<package.Service>/<Method>`), a child of the context the
 * call's metadata carry (a new trace when none), with the caller's correlation id. Outermost, so
 * its status is what the caller receives.
 */
export function rpcTracingInterceptor(component: string): Interceptor {
  const tracer = tracerOf(component);
  return (next) => (request) => {
    const service = request.service.typeName;
    // Readiness probes ask every few seconds: spans of them would bury the requests' traces.
    if (service === "grpc.health.v1.Health") return next(request);
    return inSpan(
      tracer,
      `${service}/${request.method.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "rpc.system": "grpc",
          "rpc.service": service,
          "rpc.method": request.method.name,
          "bayad.correlation_id": correlationIdOf(request.header),
        },
      },
      async (span: Span) => {
        try {
          const response = await next(request);
          span.setAttribute("rpc.grpc.status_code", 0);
          return response;
        } catch (error) {
          span.setAttribute("rpc.grpc.status_code", ConnectError.from(error).code);
          throw error;
        }
      },
      { parent: asComponentWork(extractTraceContext(request.header), component), isFault: (error) => serverFaults.has(ConnectError.from(error).code) },
    );
  };
}

/** A client's interceptors for traces: the context interceptor when traces are on, none otherwise. */
export function clientTracingInterceptors(): Interceptor[] {
  return tracingEnabled() ? [traceContextInterceptor()] : [];
}

type UnaryNext = (request: UnaryRequest) => Promise<UnaryResponse>;

/** A signal for requests whose caller gave none; never aborts, and is not passed on. */
const noSignal = new AbortController().signal;

/**
 * `transport` with client interceptors around its unary calls, for transports that take none
 * (kit's direct and port transports). Streaming calls pass through as they are.
 */
export function withClientInterceptors(transport: Transport, interceptors: Interceptor[]): Transport {
  if (interceptors.length === 0) return transport;
  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      const last: UnaryNext = (request) =>
        transport.unary<DescMessage, DescMessage>(
          request.method,
          request.signal === noSignal ? undefined : request.signal,
          timeoutMs,
          request.header,
          request.message,
          request.contextValues,
        );
      const run = interceptors.reduceRight<UnaryNext>((next, interceptor) => interceptor(next as never) as UnaryNext, last);
      const request: UnaryRequest = {
        stream: false,
        service: method.parent,
        method,
        requestMethod: "POST",
        url: `in-process:///${method.parent.typeName}/${method.name}`,
        signal: signal ?? noSignal,
        header: new Headers(header as ConstructorParameters<typeof Headers>[0]),
        contextValues: contextValues ?? createContextValues(),
        message: isMessage(input, method.input) ? input : create(method.input, input),
      };
      return run(request) as never;
    },
    stream: (method, signal, timeoutMs, header, input, contextValues) => transport.stream(method, signal, timeoutMs, header, input, contextValues),
  };
}
