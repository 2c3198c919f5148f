import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import {
  Code,
  ConnectError,
  createClient,
  createRouterTransport,
  type ConnectRouter,
  type Interceptor,
  type ServiceImpl,
  type Transport,
} from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema, HealthCheckResponse_ServingStatus, OtpService } from "@bayad/proto";
import { createDirectTransport } from "./direct-transport.js";
import { createPortTransport, servePortCalls, type ServePortCallsOptions } from "./port-transport.js";
import { AppError } from "./errors/app-error.js";
import { callerCallOptions, callerOf, callerValueOf, type CallerContext } from "./caller-context.js";
import { fromConnectError } from "./errors/connect-errors.js";
import { createLogger } from "./logger.js";
import { errorBoundary } from "./service-server.js";

const { SERVING, NOT_SERVING } = HealthCheckResponse_ServingStatus;

/** Every channel a test opened, closed after it so that no port keeps vitest running. */
const opened: Array<{ transport: { close(): void }; serving: MessagePort }> = [];

afterEach(() => {
  for (const { transport, serving } of opened.splice(0)) {
    transport.close();
    serving.close();
  }
});

/**
 * A real MessageChannel in this thread: port2 serves Health through kit's direct transport to
 * `implementation` (with `interceptors` on the server side), port1 carries the client's calls.
 */
function overPort(implementation: Partial<ServiceImpl<typeof Health>>, interceptors: Interceptor[] = [], options?: ServePortCallsOptions) {
  const routes = (router: ConnectRouter) => router.service(Health, implementation);
  const served = createDirectTransport({ routes, interceptors, streams: createRouterTransport(routes, { router: { interceptors } }) });
  return overPortTo(served, options);
}

/** The same channel with Health served by any transport (one that ignores deadlines, say). */
function overPortTo(served: Transport, options?: ServePortCallsOptions) {
  const { port1, port2 } = new MessageChannel();
  servePortCalls(port2, [{ service: Health, transport: served }], options);
  const transport = createPortTransport(port1);
  opened.push({ transport, serving: port2 });
  return { transport, serving: port2, calling: port1, client: createClient(Health, transport) };
}

/** A channel serving `options`, whose implementation records which calls it started (and runs `whileHandling`). */
function recordingStarts(options: ServePortCallsOptions, whileHandling: () => void = () => {}) {
  const started: string[] = [];
  const channel = overPort(
    {
      check(request) {
        started.push(request.service);
        whileHandling();
        return { status: SERVING };
      },
    },
    [],
    options,
  );
  return { ...channel, started };
}

/** What a call threw, as a ConnectError (fails the test if the call succeeded). */
async function failure(call: Promise<unknown>): Promise<ConnectError> {
  const thrown = await call.then(
    () => expect.fail("the call should have failed"),
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ConnectError);
  return thrown as ConnectError;
}

/** A handler that never answers, and a way to know it was reached. */
function neverAnswering() {
  let reached!: () => void;
  const entered = new Promise<void>((resolve) => (reached = resolve));
  const check: Partial<ServiceImpl<typeof Health>>["check"] = () => {
    reached();
    return new Promise(() => {});
  };
  return { check, entered };
}

describe("createPortTransport with servePortCalls", () => {
  it("calls the implementation with the request's fields and headers and returns its answer", async () => {
    const seen: Array<{ service: string; header: string | null }> = [];
    const { client } = overPort({
      check(request, context) {
        seen.push({ service: request.service, header: context.requestHeader.get("bayad-project-id") });
        return { status: request.service === "payments" ? SERVING : NOT_SERVING };
      },
    });
    const answer = await client.check({ service: "payments" }, { headers: { "bayad-project-id": "prj_1" } });
    expect(answer.status).toBe(SERVING);
    expect(answer.$typeName).toBe(HealthCheckResponseSchema.typeName);
    expect((await client.check({ service: "billing" })).status).toBe(NOT_SERVING);
    expect(seen).toEqual([
      { service: "payments", header: "prj_1" },
      { service: "billing", header: null },
    ]);
  });

  it("passes headers given as a Headers object or as pairs", async () => {
    const seen: Array<string | null> = [];
    const { client } = overPort({
      check(_request, context) {
        seen.push(context.requestHeader.get("bayad-project-id"));
        return { status: SERVING };
      },
    });
    await client.check({ service: "" }, { headers: new Headers({ "Bayad-Project-Id": "prj_2" }) });
    await client.check({ service: "" }, { headers: [["bayad-project-id", "prj_3"]] });
    expect(seen).toEqual(["prj_2", "prj_3"]);
  });

  it("carries the caller of callerCallOptions to the service as a context value, not only as metadata", async () => {
    const seen: Array<{ value: CallerContext | undefined; caller: CallerContext }> = [];
    const { client } = overPort({
      check(_request, context) {
        seen.push({ value: callerValueOf(context.values), caller: callerOf(context) });
        return { status: SERVING };
      },
    });
    const caller: CallerContext = { projectId: "prj_1", environment: "test", correlationId: "corr_1", idempotencyKey: "key-0000000000000001" };
    await client.check({ service: "" }, callerCallOptions(caller, 1000));
    await client.check({ service: "" }, { headers: { "bayad-project-id": "prj_2", "bayad-environment": "live" } });
    expect(seen).toEqual([
      { value: caller, caller },
      { value: undefined, caller: { projectId: "prj_2", environment: "live", correlationId: "", idempotencyKey: undefined } },
    ]);
  });

  it("hands the service's response header and trailer to onHeader and onTrailer", async () => {
    const { client } = overPort({
      check(_request, context) {
        context.responseHeader.set("bayad-served-by", "payments");
        context.responseTrailer.set("bayad-rows", "3");
        return { status: SERVING };
      },
    });
    const got: Record<string, string | null> = {};
    await client.check(
      { service: "" },
      {
        onHeader: (header) => (got.header = header.get("bayad-served-by")),
        onTrailer: (trailer) => (got.trailer = trailer.get("bayad-rows")),
      },
    );
    expect(got).toEqual({ header: "payments", trailer: "3" });
  });

  it("gives the caller its own answer and the implementation its own request", async () => {
    const kept = create(HealthCheckResponseSchema, { status: SERVING });
    const received: Array<{ service: string }> = [];
    const { client } = overPort({
      check(request) {
        received.push(request);
        return kept;
      },
    });
    const request = { service: "payments" };
    const answer = await client.check(request);
    expect(answer).not.toBe(kept);
    answer.status = NOT_SERVING;
    expect(kept.status).toBe(SERVING);
    request.service = "changed";
    expect(received[0]?.service).toBe("payments");
  });

  it("matches each answer to its own call when calls end out of order", async () => {
    const waiting = new Map<string, () => void>();
    const { client } = overPort({
      check(request) {
        return new Promise((resolve) => waiting.set(request.service, () => resolve({ status: request.service === "first" ? SERVING : NOT_SERVING })));
      },
    });
    const first = client.check({ service: "first" });
    const second = client.check({ service: "second" });
    await expect.poll(() => waiting.size).toBe(2);
    waiting.get("second")?.();
    waiting.get("first")?.();
    expect((await first).status).toBe(SERVING);
    expect((await second).status).toBe(NOT_SERVING);
  });

  it("delivers a catalogue error with its code, message and details, as a remote caller decodes it", async () => {
    const { client } = overPort(
      {
        check() {
          throw new AppError("VALIDATION_FAILED", "bad service", { details: ["service: unknown"], cause: new Error("inside") });
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    const thrown = await failure(client.check({ service: "x" }));
    expect(thrown.code).toBe(Code.InvalidArgument);
    expect(thrown.rawMessage).toBe("bad service");
    expect(thrown.cause).toBeUndefined();
    const error = fromConnectError(thrown);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe("bad service");
    expect(error.details).toEqual(["service: unknown"]);
  });

  it("delivers an error's metadata", async () => {
    const { client } = overPort({
      check() {
        throw new ConnectError("slow down", Code.ResourceExhausted, { "retry-after": "3", "bayad-trace": "t_1" });
      },
    });
    const thrown = await failure(client.check({ service: "" }));
    expect(thrown.code).toBe(Code.ResourceExhausted);
    expect(thrown.rawMessage).toBe("slow down");
    expect(thrown.metadata.get("retry-after")).toBe("3");
    expect(thrown.metadata.get("bayad-trace")).toBe("t_1");
  });

  it("serves a Connect router transport, which takes whole milliseconds only, within a deadline", async () => {
    const served = createRouterTransport((router) => router.service(Health, { check: () => ({ status: SERVING }) }));
    const { client } = overPortTo(served);
    expect((await client.check({ service: "" }, { timeoutMs: 2_000 })).status).toBe(SERVING);
  });

  it("ends a call that outlives its deadline with DEADLINE_EXCEEDED", async () => {
    const { check, entered } = neverAnswering();
    const { client } = overPort({ check });
    const thrown = await failure(client.check({ service: "" }, { timeoutMs: 50 }));
    expect(thrown.code).toBe(Code.DeadlineExceeded);
    await entered;
  });

  it("enforces the deadline on the caller's side even when the other side never answers", async () => {
    const silent: Transport = {
      unary: () => new Promise(() => {}),
      stream: () => new Promise(() => {}),
    };
    const { client } = overPortTo(silent);
    const thrown = await failure(client.check({ service: "" }, { timeoutMs: 50 }));
    expect(thrown.code).toBe(Code.DeadlineExceeded);
  });

  it("drops an answer that comes after the deadline and keeps serving later calls", async () => {
    let late: (() => void) | undefined;
    let calls = 0;
    const silent: Transport = {
      unary: (method) => {
        calls += 1;
        if (calls === 1) {
          return new Promise((resolve) => {
            late = () =>
              resolve({
                stream: false,
                service: Health,
                method,
                header: new Headers(),
                trailer: new Headers(),
                message: create(HealthCheckResponseSchema, { status: NOT_SERVING }) as never,
              });
          });
        }
        return Promise.resolve({
          stream: false,
          service: Health,
          method,
          header: new Headers(),
          trailer: new Headers(),
          message: create(HealthCheckResponseSchema, { status: SERVING }) as never,
        });
      },
      stream: () => new Promise(() => {}),
    };
    const { client } = overPortTo(silent);
    expect((await failure(client.check({ service: "" }, { timeoutMs: 50 }))).code).toBe(Code.DeadlineExceeded);
    late?.();
    expect((await client.check({ service: "" })).status).toBe(SERVING);
  });

  it("ends a call its caller cancels with CANCELED", async () => {
    const { check, entered } = neverAnswering();
    const { client } = overPort({ check });
    const caller = new AbortController();
    const call = failure(client.check({ service: "" }, { signal: caller.signal }));
    await entered;
    caller.abort();
    expect((await call).code).toBe(Code.Canceled);
  });

  it("fails a call whose signal is already aborted with CANCELED, without reaching the implementation", async () => {
    let reached = false;
    const { client } = overPort({
      check() {
        reached = true;
        return { status: SERVING };
      },
    });
    const caller = new AbortController();
    caller.abort();
    expect((await failure(client.check({ service: "" }, { signal: caller.signal }))).code).toBe(Code.Canceled);
    expect((await client.check({ service: "" })).status).toBe(SERVING);
    expect(reached).toBe(true);
  });

  it.each([
    ["the transport is closed", (channel: ReturnType<typeof overPort>) => channel.transport.close()],
    ["the other side's port closes", (channel: ReturnType<typeof overPort>) => channel.serving.close()],
  ])("fails pending and new calls with UNAVAILABLE once %s", async (_when, close) => {
    const { check, entered } = neverAnswering();
    const channel = overPort({ check });
    const pending = failure(channel.client.check({ service: "" }));
    await entered;
    close(channel);
    expect((await pending).code).toBe(Code.Unavailable);
    expect((await failure(channel.client.check({ service: "" }))).code).toBe(Code.Unavailable);
  });

  it("answers UNIMPLEMENTED for a service that is not served on the other side", async () => {
    const { transport } = overPort({ check: () => ({ status: SERVING }) });
    const otp = createClient(OtpService, transport);
    const thrown = await failure(otp.getOtpStatus({}));
    expect(thrown.code).toBe(Code.Unimplemented);
  });

  it("answers UNIMPLEMENTED for a method the served service does not implement", async () => {
    const { client } = overPort({});
    expect((await failure(client.check({ service: "" }))).code).toBe(Code.Unimplemented);
  });

  it("starts a few calls per turn and posts their answers before starting more", async () => {
    const { client, calling, started } = recordingStarts({ callsPerTurn: 2 });
    // The answers arrive on the caller's port in batches, one per turn of the serving side.
    const batches: number[] = [];
    calling.on("message", (answers: unknown[]) => batches.push(answers.length));
    const answers = await Promise.all(["a", "b", "c", "d", "e"].map((service) => client.check({ service })));
    expect(answers.map((answer) => answer.status)).toEqual([SERVING, SERVING, SERVING, SERVING, SERVING]);
    expect(started).toEqual(["a", "b", "c", "d", "e"]);
    expect(batches).toEqual([2, 2, 1]);
  });

  it("counts the wait for a turn against a call's deadline, and never starts a call whose deadline passed", async () => {
    // Each call holds the thread well past the next call's deadline, as a long turn would.
    const { client, started } = recordingStarts({ callsPerTurn: 1 }, () => {
      const until = performance.now() + 50;
      while (performance.now() < until);
    });
    const first = client.check({ service: "first" });
    const late = failure(client.check({ service: "late" }, { timeoutMs: 10 }));
    expect((await first).status).toBe(SERVING);
    expect((await late).code).toBe(Code.DeadlineExceeded);
    expect(started).toEqual(["first"]);
  });

  it("never starts a call canceled while it waited for its turn", async () => {
    const { client, started } = recordingStarts({ callsPerTurn: 1 });
    const caller = new AbortController();
    const first = client.check({ service: "first" });
    const waiting = failure(client.check({ service: "waiting" }, { signal: caller.signal }));
    const last = client.check({ service: "last" });
    // Posted in the same batch as the three calls: the second has not started when it arrives.
    caller.abort();
    expect((await waiting).code).toBe(Code.Canceled);
    expect((await first).status).toBe(SERVING);
    expect((await last).status).toBe(SERVING);
    expect(started).toEqual(["first", "last"]);
  });

  it("passes a cancel on: the implementation's signal aborts", async () => {
    let reached!: (signal: AbortSignal) => void;
    const entered = new Promise<AbortSignal>((resolve) => (reached = resolve));
    const { client } = overPort({
      check(_request, context) {
        reached(context.signal);
        return new Promise(() => {});
      },
    });
    const caller = new AbortController();
    const call = failure(client.check({ service: "" }, { signal: caller.signal }));
    const handlerSignal = await entered;
    caller.abort();
    expect((await call).code).toBe(Code.Canceled);
    await expect.poll(() => handlerSignal.aborted).toBe(true);
  });

  it("gives each response its own header and trailer, with what the implementation set", async () => {
    const { transport } = overPort({
      check(_request, context) {
        context.responseHeader.set("x-served-by", "health");
        return { status: SERVING };
      },
    });
    const first = await transport.unary(Health.method.check, undefined, undefined, undefined, { service: "" });
    expect(first.header.get("x-served-by")).toBe("health");
    first.header.set("x-leak", "1");
    first.trailer.set("x-leak", "1");
    const second = await transport.unary(Health.method.check, undefined, undefined, undefined, { service: "" });
    expect(second.header.get("x-leak")).toBeNull();
    expect(second.trailer.get("x-leak")).toBeNull();
  });

  it("fails a call INTERNAL when its answer cannot cross the port, and keeps serving", async () => {
    let broken = true;
    const served: Transport = {
      unary: async (method) => ({
        stream: false,
        service: Health,
        method,
        header: new Headers(),
        trailer: new Headers(),
        message: (broken
          ? { $typeName: "grpc.health.v1.HealthCheckResponse", status: SERVING, callback: () => 1 }
          : create(HealthCheckResponseSchema, { status: SERVING })) as never,
      }),
      stream: () => Promise.reject(new Error("not used")),
    };
    const { client } = overPortTo(served);
    expect((await failure(client.check({ service: "" }))).code).toBe(Code.Internal);
    broken = false;
    expect((await client.check({ service: "" })).status).toBe(SERVING);
  });

  it("fails a call INTERNAL when its request cannot cross the port", async () => {
    const { transport } = overPort({ check: () => ({ status: SERVING }) });
    const request = { ...create(Health.method.check.input, { service: "" }), callback: () => 1 };
    const thrown = await failure(transport.unary(Health.method.check, undefined, undefined, undefined, request as never));
    expect(thrown.code).toBe(Code.Internal);
  });
});

describe("server streams over a MessagePort", () => {
  /** A Watch (behind the services' error boundary) that yields `count` answers, recording how many it has produced and its call's signal. */
  function counting(count: number, failAt?: number) {
    const seen: { produced: number; signal?: AbortSignal } = { produced: 0 };
    const channel = overPort(
      {
        async *watch(_request, context) {
          seen.signal = context.signal;
          for (let n = 0; n < count; n++) {
            if (n === failAt) throw new AppError("VALIDATION_FAILED", "stream broke", { details: ["service: broke here"] });
            seen.produced += 1;
            yield create(HealthCheckResponseSchema, { status: n % 2 === 0 ? SERVING : NOT_SERVING });
          }
        },
      },
      [errorBoundary(createLogger("test", "silent"))],
    );
    return { ...channel, seen };
  }

  /** Turns of the event loop in which either side could run ahead if it were going to. */
  const someTurns = async () => {
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it("yields every message in order, then ends", async () => {
    const { client } = counting(25);
    const statuses: number[] = [];
    for await (const answer of client.watch({ service: "records" })) statuses.push(answer.status);
    expect(statuses).toEqual(Array.from({ length: 25 }, (_, n) => (n % 2 === 0 ? SERVING : NOT_SERVING)));
  });

  it("reads the service only as fast as the reader takes messages", async () => {
    const { client, seen } = counting(1_000);
    const messages = client.watch({ service: "records" })[Symbol.asyncIterator]();
    await messages.next();
    // Give the serving side every chance to run ahead: it may not pass the window.
    await someTurns();
    expect(seen.produced).toBeLessThanOrEqual(4);
    await messages.next();
    await someTurns();
    expect(seen.produced).toBeLessThanOrEqual(5);
    await messages.return?.(undefined);
  });

  it("stops the service's stream when the caller cancels it midway", async () => {
    const { client, seen } = counting(1_000);
    // Connect's clients never return() a stream's iterator: a caller stops one with its signal.
    const controller = new AbortController();
    const thrown = await (async () => {
      for await (const answer of client.watch({ service: "records" }, { signal: controller.signal })) {
        if (answer.status === NOT_SERVING) controller.abort();
      }
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.Canceled);
    await expect.poll(() => seen.signal?.aborted).toBe(true);
    const produced = seen.produced;
    await someTurns();
    expect(seen.produced).toBe(produced);
    expect(produced).toBeLessThan(10);
  });

  it("carries an error raised midway with its code and details, after the messages before it", async () => {
    const { client } = counting(10, 3);
    const statuses: number[] = [];
    const thrown = await (async () => {
      for await (const answer of client.watch({ service: "records" })) statuses.push(answer.status);
    })().catch((error: unknown) => error);
    expect(statuses).toHaveLength(3);
    expect(ConnectError.from(thrown).code).toBe(Code.InvalidArgument);
    expect(fromConnectError(thrown).details).toEqual(["service: broke here"]);
  });

  it("cancels the service's stream at the caller's deadline", async () => {
    const { client, seen } = counting(1_000_000);
    const thrown = await (async () => {
      for await (const answer of client.watch({ service: "records" }, { timeoutMs: 50 })) {
        void answer;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })().catch((error: unknown) => error);
    expect(ConnectError.from(thrown).code).toBe(Code.DeadlineExceeded);
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it("fails UNAVAILABLE once the other side's port closes", async () => {
    const { client, serving } = counting(1_000_000);
    const messages = client.watch({ service: "records" })[Symbol.asyncIterator]();
    await messages.next();
    serving.close();
    await expect(
      (async () => {
        for (;;) if ((await messages.next()).done) return;
      })(),
    ).rejects.toMatchObject({ code: Code.Unavailable });
  });
});
