import { describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, createContextValues, createRouterTransport, type ConnectRouter, type Interceptor, type ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema, HealthCheckResponse_ServingStatus } from "@bayad/proto";
import { createDirectTransport, messagesCopiedByCaller } from "./direct-transport.js";
import { AppError } from "./errors/app-error.js";
import { fromConnectError } from "./errors/connect-errors.js";
import { createLogger } from "./logger.js";
import { errorBoundary } from "./service-server.js";

const { SERVING, NOT_SERVING } = HealthCheckResponse_ServingStatus;

/** A Health client over a direct transport to `implementation`, with `interceptors` on the server side. */
function healthClient(implementation: Partial<ServiceImpl<typeof Health>>, interceptors: Interceptor[] = []) {
  const routes = (router: ConnectRouter) => router.service(Health, implementation);
  return createClient(Health, createDirectTransport({ routes, interceptors, streams: createRouterTransport(routes, { router: { interceptors } }) }));
}

describe("createDirectTransport", () => {
  it("calls the implementation with the request's fields and headers and returns its answer", async () => {
    const seen: Array<{ service: string; header: string | null }> = [];
    const client = healthClient({
      check(request, context) {
        seen.push({ service: request.service, header: context.requestHeader.get("bayad-project-id") });
        return { status: request.service === "payments" ? SERVING : NOT_SERVING };
      },
    });
    const answer = await client.check({ service: "payments" }, { headers: { "bayad-project-id": "prj_1" } });
    expect(answer.status).toBe(SERVING);
    expect(seen).toEqual([{ service: "payments", header: "prj_1" }]);
  });

  it("gives each side its own copy of the messages", async () => {
    const kept = create(HealthCheckResponseSchema, { status: SERVING });
    const client = healthClient({ check: () => kept });
    const answer = await client.check({ service: "" });
    answer.status = NOT_SERVING;
    expect(kept.status).toBe(SERVING);
  });

  it("copies neither message for a caller that copies them itself (messagesCopiedByCaller)", async () => {
    const kept = create(HealthCheckResponseSchema, { status: SERVING });
    const client = healthClient({ check: () => kept });
    const answer = await client.check({ service: "" }, { contextValues: createContextValues().set(messagesCopiedByCaller, true) });
    expect(answer).toBe(kept);
  });

  it("runs the server interceptors around the call, first one outermost", async () => {
    const order: string[] = [];
    const tag =
      (name: string): Interceptor =>
      (next) =>
      async (request) => {
        order.push(`${name} in`);
        const response = await next(request);
        order.push(`${name} out`);
        return response;
      };
    const client = healthClient(
      {
        check() {
          order.push("handler");
          return { status: SERVING };
        },
      },
      [tag("outer"), tag("inner")],
    );
    await client.check({ service: "" });
    expect(order).toEqual(["outer in", "inner in", "handler", "inner out", "outer out"]);
  });

  it("delivers a catalogue error with its code and details, as a remote caller decodes it", async () => {
    const client = healthClient(
      {
        check() {
          throw new AppError("VALIDATION_FAILED", "bad service", { details: ["service: unknown"], cause: new Error("inside") });
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    const thrown = await client.check({ service: "x" }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ConnectError);
    expect((thrown as ConnectError).code).toBe(Code.InvalidArgument);
    expect((thrown as ConnectError).cause).toBeUndefined();
    const error = fromConnectError(thrown);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe("bad service");
    expect(error.details).toEqual(["service: unknown"]);
  });

  it("maps what a server stream throws after its first messages as it maps a unary call's error", async () => {
    const client = healthClient(
      {
        async *watch() {
          yield create(HealthCheckResponseSchema, { status: SERVING });
          await Promise.resolve();
          throw new AppError("VALIDATION_FAILED", "bad watch", { details: ["service: unknown"] });
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    const received: HealthCheckResponse_ServingStatus[] = [];
    const thrown = await (async () => {
      for await (const response of client.watch({ service: "" })) received.push(response.status);
    })().catch((error: unknown) => error);
    expect(received).toEqual([SERVING]);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    expect(fromConnectError(thrown).details).toEqual(["service: unknown"]);

    const leaky = healthClient(
      {
        async *watch() {
          yield create(HealthCheckResponseSchema, { status: SERVING });
          throw new Error("secret internals");
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    const internal = await (async () => {
      for await (const response of leaky.watch({ service: "" })) void response;
    })().then(
      () => new ConnectError("the stream ended without an error"),
      (error: unknown) => ConnectError.from(error),
    );
    expect(internal.code).toBe(Code.Internal);
    expect(internal.rawMessage).not.toContain("secret");
  });

  it("ends a call that outlives its deadline with DEADLINE_EXCEEDED and aborts the handler's signal", async () => {
    let handlerSignal: AbortSignal | undefined;
    const client = healthClient({
      check(_request, context) {
        handlerSignal = context.signal;
        return new Promise(() => {});
      },
    });
    const thrown = await client.check({ service: "" }, { timeoutMs: 20 }).catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.DeadlineExceeded);
    expect(handlerSignal?.aborted).toBe(true);
  });

  it("tells the handler how long its caller still waits, also past an interceptor that passes on a copy of the request", async () => {
    const seen: Array<{ left: number | undefined; project: string | null; signal: boolean }> = [];
    const check: Partial<ServiceImpl<typeof Health>>["check"] = (_request, context) => {
      seen.push({ left: context.timeoutMs(), project: context.requestHeader.get("bayad-project-id"), signal: context.signal instanceof AbortSignal });
      return { status: SERVING };
    };
    const copying: Interceptor = (next) => (request) => (request.stream ? next(request) : next({ ...request, message: request.message }));
    const options = { timeoutMs: 5_000, headers: { "bayad-project-id": "prj_1" } };
    await healthClient({ check }).check({ service: "" }, options);
    await healthClient({ check }, [copying]).check({ service: "" }, options);
    await healthClient({ check }).check({ service: "" });
    expect(seen).toHaveLength(3);
    for (const call of seen.slice(0, 2)) {
      expect(call.left).toBeGreaterThan(0);
      expect(call.left).toBeLessThanOrEqual(5_000);
      expect(call).toMatchObject({ project: "prj_1", signal: true });
    }
    expect(seen[2]).toEqual({ left: undefined, project: null, signal: true });
  });

  it("ends a call its caller cancels with CANCELED", async () => {
    const caller = new AbortController();
    const client = healthClient({ check: () => new Promise(() => {}) });
    const call = client.check({ service: "" }, { signal: caller.signal }).catch((error: unknown) => error);
    caller.abort();
    expect(ConnectError.from(await call).code).toBe(Code.Canceled);
  });

  it("answers UNIMPLEMENTED for a method the service does not implement", async () => {
    const client = healthClient({});
    const thrown = await client.check({ service: "" }).catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.Unimplemented);
  });

  it("calls a server stream's handler directly, one message per read, with its context", async () => {
    let produced = 0;
    let header: string | null = null;
    const routes = (router: ConnectRouter) =>
      router.service(Health, {
        async *watch(_request, context) {
          header = context.requestHeader.get("bayad-project-id");
          for (let n = 0; n < 100; n++) {
            produced += 1;
            yield { status: n % 2 === 0 ? NOT_SERVING : SERVING };
          }
        },
      });
    // A streams transport that fails: server streams must not reach it.
    const refusing = createRouterTransport(() => {});
    const client = createClient(Health, createDirectTransport({ routes, interceptors: [], streams: refusing }));
    const statuses: HealthCheckResponse_ServingStatus[] = [];
    for await (const response of client.watch({ service: "" }, { headers: { "bayad-project-id": "prj_1" } })) {
      statuses.push(response.status);
      // Read one, produced at most one ahead: the handler runs only as its messages are read.
      expect(produced).toBeLessThanOrEqual(statuses.length + 1);
      if (statuses.length === 3) break;
    }
    expect(statuses).toEqual([NOT_SERVING, SERVING, NOT_SERVING]);
    expect(header).toBe("prj_1");
  });

  it("ends a server stream at its deadline with DEADLINE_EXCEEDED, never as if it were complete", async () => {
    let signal: AbortSignal | undefined;
    const client = healthClient({
      async *watch(_request, context) {
        signal = context.signal;
        // A handler that stops quietly when aborted (as the records export's walk does).
        while (!context.signal.aborted) {
          yield { status: SERVING };
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      },
    });
    const thrown = await (async () => {
      for await (const response of client.watch({ service: "" }, { timeoutMs: 40 })) void response;
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.DeadlineExceeded);
    expect(signal?.aborted).toBe(true);
  });

  it("ends a server stream the caller cancels with CANCELED and aborts the handler's signal", async () => {
    let signal: AbortSignal | undefined;
    const client = healthClient({
      async *watch(_request, context) {
        signal = context.signal;
        for (;;) yield { status: SERVING };
      },
    });
    const controller = new AbortController();
    const thrown = await (async () => {
      let read = 0;
      for await (const response of client.watch({ service: "" }, { signal: controller.signal })) {
        void response;
        if (++read === 5) controller.abort();
      }
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.Canceled);
    expect(signal?.aborted).toBe(true);
  });

  it("refuses a server stream whose handler throws before its first message, through the interceptors", async () => {
    const client = healthClient(
      {
        watch() {
          throw new AppError("VALIDATION_FAILED", "bad watch", { details: ["service: unknown"] });
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    const thrown = await (async () => {
      for await (const response of client.watch({ service: "x" })) void response;
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    expect(fromConnectError(thrown).details).toEqual(["service: unknown"]);
  });
});
