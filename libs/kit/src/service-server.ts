import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, createRouterTransport, type ConnectRouter, type Interceptor, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema, HealthCheckResponse_ServingStatus } from "@bayad/proto";
import { AppError } from "./errors/app-error.js";
import { toConnectError } from "./errors/connect-errors.js";
import { appErrorOfStoreFault } from "./errors/store-faults.js";
import type { Logger } from "./logger.js";
import { rpcMetricsInterceptor, type Registry } from "./metrics.js";
import { correlationIdOf } from "./caller-context.js";
import { pause } from "./pause.js";
import { createDirectTransport } from "./direct-transport.js";
import { rpcTracingInterceptor } from "./rpc-tracing.js";
import { tracingEnabled } from "./tracing.js";

export interface ServiceServerOptions {
  /** Fully-qualified proto service name, e.g. bayad.payments.v1.PaymentsService. */
  serviceName: string;
  routes: (router: ConnectRouter) => void;
  /** Whether the service can serve now (its store answers); drives grpc.health.v1. */
  isReady: () => Promise<boolean>;
  logger: Logger;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * What the service runs besides serving (its outbox relay, clocks, sweeps): stopped in order
   * once the server has drained its in-flight calls, so their last writes are still handled.
   */
  workers?: Array<{ stop(): Promise<void> }>;
  /** Where the rpc counts and latencies go (the process's registry); none when absent. */
  metrics?: Registry;
}

export interface RunningServer {
  /** http://host:port, for Connect/gRPC transports. */
  url: string;
  port: number;
  /**
   * The same service for a client in this process: its routes and interceptors called directly
   * (each side with its own copy of the messages; see createDirectTransport), without the
   * loopback socket and HTTP/2 framing. Refuses calls with UNAVAILABLE once the server closes.
   */
  transport: Transport;
  /** Stops accepting, lets in-flight calls finish, then resolves. */
  close(): Promise<void>;
}

/**
 * Converts what a handler throws into what crosses the wire: catalogue errors keep their code,
 * a store that is unreachable or cannot write is UNAVAILABLE (SERVICE_UNAVAILABLE or
 * STORE_UNAVAILABLE), and anything else becomes a bare INTERNAL with no text
 * from inside (it is logged here instead). Exported so that the transports' tests run behind the
 * boundary every service runs behind.
 */
export function errorBoundary(logger: Logger): Interceptor {
  return (next) => async (request) => {
    const started = Date.now();
    // Plain fields, not a child logger: most calls succeed and log nothing at the usual level.
    const fields = () => ({ procedure: request.method.name, correlationId: correlationIdOf(request.header) });
    const crossing = (thrown: unknown): ConnectError => {
      if (thrown instanceof AppError) {
        if (thrown.httpStatus >= 500) logger.error({ ...fields(), err: thrown.cause ?? thrown }, thrown.message);
        else logger.info({ ...fields(), code: thrown.code, ms: Date.now() - started }, "rpc refused");
        return toConnectError(thrown);
      }
      if (thrown instanceof ConnectError) return thrown;
      const storeFault = appErrorOfStoreFault(thrown);
      if (storeFault !== undefined) {
        logger.warn({ ...fields(), err: thrown }, storeFault.code === "STORE_UNAVAILABLE" ? "store not writable" : "store unavailable");
        return toConnectError(storeFault);
      }
      logger.error({ ...fields(), err: thrown }, "unhandled error in handler");
      return toConnectError(new AppError("INTERNAL_ERROR"));
    };
    let response;
    try {
      response = await next(request);
    } catch (thrown) {
      throw crossing(thrown);
    }
    if (logger.isLevelEnabled("debug")) logger.debug({ ...fields(), ms: Date.now() - started }, "rpc served");
    // A server stream's handler runs on as its messages are read: what it throws then crosses
    // the same boundary (the messages are passed on one at a time, so backpressure holds).
    if (response.stream) return { ...response, message: guarded(response.message, crossing) };
    return response;
  };
}

async function* guarded<T>(messages: AsyncIterable<T>, crossing: (thrown: unknown) => ConnectError): AsyncGenerator<T> {
  try {
    yield* messages;
  } catch (thrown) {
    throw crossing(thrown);
  }
}

function healthRoutes(options: ServiceServerOptions) {
  const statusOf = async (service: string) => {
    if (service !== "" && service !== options.serviceName) {
      throw new ConnectError(`unknown service ${service}`, Code.NotFound);
    }
    const ready = await options.isReady().catch(() => false);
    return create(HealthCheckResponseSchema, {
      status: ready ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING,
    });
  };
  return (router: ConnectRouter) =>
    router.service(Health, {
      check: (request) => statusOf(request.service),
      async *watch(request, context) {
        let last: HealthCheckResponse_ServingStatus | undefined;
        while (!context.signal.aborted) {
          const response = await statusOf(request.service);
          if (response.status !== last) {
            last = response.status;
            yield response;
          }
          await pause(1000, context.signal);
        }
      },
    });
}

/** The component a service belongs to, for its traces: `payments` of bayad.payments.v1.PaymentsService. */
function componentOf(serviceName: string): string {
  return serviceName.split(".")[1] ?? serviceName;
}

/** Serves one service (plus grpc.health.v1) over HTTP/2 cleartext: gRPC, gRPC-Web and Connect. */
export async function startServiceServer(options: ServiceServerOptions): Promise<RunningServer> {
  const routes = (router: ConnectRouter) => {
    options.routes(router);
    healthRoutes(options)(router);
  };
  const interceptors = [
    // With traces off no interceptor at all: the API's no-op would still cost a call's allocations.
    ...(tracingEnabled() ? [rpcTracingInterceptor(componentOf(options.serviceName))] : []),
    ...(options.metrics ? [rpcMetricsInterceptor(options.metrics, options.serviceName.split(".").at(-1) ?? options.serviceName)] : []),
    errorBoundary(options.logger),
  ];
  const handler = connectNodeAdapter({ routes, interceptors });
  const inProcess = inProcessCalls();
  const inProcessInterceptors = [inProcess.interceptor, ...interceptors];
  const transport = createDirectTransport({
    routes,
    interceptors: inProcessInterceptors,
    streams: createRouterTransport(routes, { router: { interceptors: inProcessInterceptors } }),
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    transport,
    async close() {
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Graceful: GOAWAY lets in-flight streams finish while refusing new ones.
          for (const session of sessions) session.close();
        }),
        inProcess.drain(),
      ]);
      for (const worker of options.workers ?? []) await worker.stop();
    },
  };
}

/** Tracks calls made through the in-process transport, so closing can refuse new ones and wait for the rest. */
function inProcessCalls() {
  let open = true;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const interceptor: Interceptor = (next) => async (request) => {
    if (!open) throw new ConnectError("the service is stopping", Code.Unavailable);
    inFlight++;
    try {
      return await next(request);
    } finally {
      if (--inFlight === 0) drained?.();
    }
  };
  return {
    interceptor,
    drain(): Promise<void> {
      open = false;
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        drained = resolve;
      });
    },
  };
}
