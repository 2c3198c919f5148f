import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type TextMapGetter,
  type Tracer,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import type { Env } from "./config.js";

/**
 * Traces, with OpenTelemetry: one setup per process (and per worker thread: the API's globals are
 * a thread's own), called before anything that traces is built.
 *
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: then no
 * tracer provider is registered, the API's no-op tracer is what the gateway's and the services'
 * spans run on, nothing is propagated, and what would trace every store call is not even
 * installed (`tracingEnabled()` is false when the store, the transports and the gateway's app are
 * built), so the hot path allocates nothing for traces.
 *
 * Each component names itself: its spans come from a tracer provider whose resource's
 * `service.name` is the component's (gateway, payments, records, …), or OTEL_SERVICE_NAME when that
 * is set. In the one-process platform several components share the process, each still named.
 */

export interface Tracing {
  /** Sends what is still buffered and stops; spans made afterwards go nowhere. */
  shutdown(): Promise<void>;
}

/** The traces' state of this thread (on globalThis: every copy of this module sees the same). */
interface TracingState {
  processor: SpanProcessor;
  serviceName: string | undefined;
  providers: Map<string, BasicTracerProvider>;
}

const stateKey = Symbol.for("bayad.tracing");
type WithState = typeof globalThis & { [stateKey]?: TracingState };

function state(): TracingState | undefined {
  return (globalThis as WithState)[stateKey];
}

/** Whether spans are recorded and exported in this thread (a tracer provider is registered). */
export function tracingEnabled(): boolean {
  return state() !== undefined;
}

/**
 * Sets up traces from the environment, once per process or thread, for `component` (its
 * `service.name` unless OTEL_SERVICE_NAME says otherwise). Exports by OTLP/HTTP (JSON) to
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT's /v1/traces (the exporter
 * reads the other OTEL_EXPORTER_OTLP_* variables, such as _HEADERS, itself); without either, does
 * nothing and returns undefined.
 */
export function setupTracing(component: string, env: Env = process.env): Tracing | undefined {
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (env.OTEL_EXPORTER_OTLP_ENDPOINT && `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`);
  if (!url) return undefined;
  return register(new BatchSpanProcessor(new OTLPTraceExporter({ url })), env.OTEL_SERVICE_NAME || undefined, component);
}

/**
 * Tests: every span of this thread goes to `exporter` as it ends (an InMemorySpanExporter, say),
 * whatever the environment says. Call it before starting what is traced; `shutdown` turns traces
 * off again.
 */
export function traceToExporter(exporter: SpanExporter, options: { serviceName?: string } = {}): Tracing {
  return register(new SimpleSpanProcessor(exporter), options.serviceName, undefined);
}

function register(processor: SpanProcessor, serviceName: string | undefined, component: string | undefined): Tracing {
  if (state() !== undefined) throw new Error("traces are set up already in this thread");
  const current: TracingState = { processor, serviceName, providers: new Map() };
  (globalThis as WithState)[stateKey] = current;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // Libraries that trace through the global provider (none of ours) get the process's name.
  trace.setGlobalTracerProvider(providerOf(current, component ?? "bayad"));
  return {
    async shutdown() {
      if (state() !== current) return;
      await processor.forceFlush().catch(() => undefined);
      await processor.shutdown().catch(() => undefined);
      delete (globalThis as WithState)[stateKey];
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

function providerOf(current: TracingState, component: string): BasicTracerProvider {
  let provider = current.providers.get(component);
  if (!provider) {
    const resource = resourceFromAttributes({ "service.name": current.serviceName ?? component, "service.namespace": "bayad" });
    // One processor for all: each provider ending a span hands it over; the processor is shut down once, by `shutdown`.
    provider = new BasicTracerProvider({ resource, spanProcessors: [current.processor] });
    current.providers.set(component, provider);
  }
  return provider;
}

/** The tracer of a component (its spans carry its name), the API's no-op one when traces are off. */
export function tracerOf(component: string): Tracer {
  const current = state();
  return current ? providerOf(current, component).getTracer(`bayad.${component}`) : trace.getTracer(`bayad.${component}`);
}

/** Which component's work the current context is (set where a component's request or message span starts). */
const componentKey = createContextKey("bayad.component");

/** `parent` marked as `component`'s work: spans of shared code under it (provider calls) go to its traces. */
export function asComponentWork(parent: Context, component: string): Context {
  return parent.setValue(componentKey, component);
}

/** The tracer of the component whose work is current (see asComponentWork), else of `fallback`. */
export function currentTracer(fallback: string): Tracer {
  const component = context.active().getValue(componentKey);
  return tracerOf(typeof component === "string" ? component : fallback);
}

/** The current span, if any (none when traces are off). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}

const headersGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

/**
 * The trace context a carrier holds (W3C `traceparent` and `tracestate`): request headers, gRPC
 * metadata, a message's headers. The root context when it holds none, or traces are off.
 */
export function extractTraceContext(carrier: Headers | Record<string, string | string[] | undefined> | undefined): Context {
  if (carrier === undefined) return ROOT_CONTEXT;
  return carrier instanceof Headers ? propagation.extract(ROOT_CONTEXT, carrier, headersGetter) : propagation.extract(ROOT_CONTEXT, carrier);
}

/** The current trace context as W3C headers (`traceparent`, maybe `tracestate`); undefined when traces are off or no span is current. */
export function traceHeaders(from: Context = context.active()): Record<string, string> | undefined {
  if (!tracingEnabled()) return undefined;
  const headers: Record<string, string> = {};
  propagation.inject(from, headers);
  return headers.traceparent === undefined ? undefined : headers;
}

/**
 * Runs `work` in a new span, current for what `work` awaits, under `parent` (the current context
 * by default). The span ends when `work` settles; what it throws is recorded and marks the span
 * an error unless `isFault` says the error is an expected answer.
 */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
  settings: { parent?: Context; isFault?: (error: unknown) => boolean } = {},
): Promise<T> {
  return tracer.startActiveSpan(name, options, settings.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      if (settings.isFault?.(error) ?? true) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind, SpanStatusCode, type Span, type Context as TraceContext } from "@opentelemetry/api";
