import { describe, expect, it } from "vitest";
import { createClient, createRouterTransport, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@bayad/proto";
import { callerCallOptions, callerOf, mutatingCallerOf, type CallerContext } from "./caller-context.js";
import { createDirectTransport } from "./direct-transport.js";

/** A Health service whose check reports who called it, reachable through `transport`. */
function reportingCallers(transportFor: (routes: (router: ConnectRouter) => void) => Transport) {
  const seen: CallerContext[] = [];
  const routes = (router: ConnectRouter) =>
    router.service(Health, {
      check(_request, context) {
        seen.push(callerOf(context));
        return { status: HealthCheckResponse_ServingStatus.SERVING };
      },
    });
  return { client: createClient(Health, transportFor(routes)), seen };
}

const caller: CallerContext = {
  projectId: "prj_1",
  environment: "live",
  correlationId: "corr-1",
  idempotencyKey: "key-0000000001",
  // When the gateway recorded the key: the services' windows run from it.
  idempotencyKeyCreatedAt: 1_893_456_000_123,
};

describe("callerCallOptions and callerOf", () => {
  it("hand a service in this process the caller the gateway established", async () => {
    const { client, seen } = reportingCallers((routes) => createDirectTransport({ routes, interceptors: [], streams: createRouterTransport(routes) }));
    await client.check({ service: "" }, callerCallOptions(caller, 1_000));
    expect(seen).toEqual([caller]);
  });

  it("hand a service across a transport the caller as metadata, since context values stay with the client", async () => {
    const { client, seen } = reportingCallers((routes) => createRouterTransport(routes));
    await client.check({ service: "" }, callerCallOptions(caller, 1_000));
    expect(seen).toEqual([caller]);
    await client.check({ service: "" }, callerCallOptions({ projectId: "prj_2", environment: "test", correlationId: "corr-2" }, 1_000));
    expect(seen[1]).toEqual({ projectId: "prj_2", environment: "test", correlationId: "corr-2", idempotencyKey: undefined });
  });

  it("refuse a call without a caller, and a mutation without its Idempotency-Key", async () => {
    const routes = (router: ConnectRouter) =>
      router.service(Health, {
        check(request, context) {
          if (request.service === "mutation") mutatingCallerOf(context);
          else callerOf(context);
          return { status: HealthCheckResponse_ServingStatus.SERVING };
        },
      });
    const client = createClient(Health, createDirectTransport({ routes, interceptors: [], streams: createRouterTransport(routes) }));
    await expect(client.check({ service: "" })).rejects.toThrow(/caller context/);
    const { idempotencyKey: _omitted, ...withoutKey } = caller;
    await expect(client.check({ service: "mutation" }, callerCallOptions(withoutKey, 1_000))).rejects.toThrow(/Idempotency/i);
  });
});
