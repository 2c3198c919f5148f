import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatform, type RunningPlatform } from "../platform.js";
import { apiClientFor, eventually, expectError, testLogger, testPlatformEnv, unique } from "../test-support/harness.js";

/**
 * The platform as `npm start` runs it: the gateway on the main thread, every service (stores,
 * outbox relays, bus, records feed) on a worker thread, calls crossing on kit's port transport.
 * The other e2e suites run the services on the test's thread to look into their stores; this one
 * checks what the worker thread changes: calls, errors, events, metrics and stopping.
 */

/** Runs on the services' thread (through withServices): how many checkouts the payments store holds. */
const storeProbe = new URL("../test-support/services-thread-probe.mjs", import.meta.url).href;

let platform: RunningPlatform;
let api: ReturnType<typeof apiClientFor>;

beforeAll(async () => {
  platform = await startPlatform({ env: testPlatformEnv(), logger: testLogger() });
  api = apiClientFor(platform);
});

afterAll(async () => {
  await platform?.close();
});

const newCheckout = (referenceId = unique("order")) => ({
  referenceId,
  amount: { amountMinor: 2500_00, currency: "PHP" },
  successUrl: "https://shop.example.ph/ok",
  cancelUrl: "https://shop.example.ph/cancel",
});

describe("the platform with its services on a worker thread (npm start's layout)", () => {
  it("runs its services on the worker by default", () => {
    expect(platform.servicesThread).toBe("worker");
  });

  it("creates a checkout, reads it back and writes it to the payments store on the worker", async () => {
    const before = await platform.withServices<number>(storeProbe, "countCheckouts");
    const created = await api.request("POST", "/api/v1/payments/checkouts", { body: newCheckout() });
    expect(created.status).toBe(201);
    expect(created.body.data.status).toBe("pending");
    const read = await api.request("GET", `/api/v1/payments/checkouts/${created.body.data.checkoutId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
    expect(await platform.withServices<number>(storeProbe, "countCheckouts")).toBe(before + 1);
  });

  it("answers a service's refusals with their codes and details", async () => {
    expectError(await api.request("GET", "/api/v1/payments/checkouts/chk_unknown"), 404, "RESOURCE_NOT_FOUND");
    const referenceId = unique("order");
    expect((await api.request("POST", "/api/v1/payments/checkouts", { body: newCheckout(referenceId) })).status).toBe(201);
    const duplicate = await api.request("POST", "/api/v1/payments/checkouts", { body: newCheckout(referenceId) });
    expectError(duplicate, 409, "RESOURCE_ALREADY_EXISTS");
    expect(duplicate.body.error.details.join(" ")).toContain("referenceId");
  });

  it("replays an Idempotency-Key with the first answer", async () => {
    const key = unique("key");
    const body = newCheckout();
    const first = await api.request("POST", "/api/v1/payments/checkouts", { body, idempotencyKey: key });
    const replay = await api.request("POST", "/api/v1/payments/checkouts", { body, idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
  });

  it("projects the services' events into the records feed", async () => {
    const created = await api.request("POST", "/api/v1/payments/checkouts", { body: newCheckout() });
    const record = await eventually(async () => {
      const page = await api.request("GET", "/api/v1/payments/records?limit=200");
      return (page.body.data.records as Array<{ id: string; status: string }>).find((entry) => entry.id === created.body.data.checkoutId);
    }, 20_000);
    expect(record.status).toBe("pending");
  });

  it("is ready: the gateway's readiness reaches every service on the worker", async () => {
    const response = await fetch(`${platform.gatewayUrl}/readyz`);
    const body = (await response.json()) as { data: { checks: Record<string, string> } };
    expect(response.status).toBe(200);
    expect(body.data.checks).toEqual({ store: "ok", payments: "ok", billing: "ok", links: "ok", records: "ok", otp: "ok", webhooks: "ok" });
  });

  it("serves the services' metrics on the gateway's metrics listener beside the process's", async () => {
    const response = await fetch(platform.metricsUrl);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toMatch(/bayad_rpc_request_duration_seconds_count\{service="PaymentsService",procedure="CreateCheckout",code="ok"\} [1-9]\d*/);
    // The process metrics come from the main thread's registry only, never twice.
    expect(text.match(/^# TYPE bayad_process_cpu_seconds_total /gm)).toHaveLength(1);
  });
});

describe("stopping the platform with its services on a worker thread", () => {
  it("stops the services thread: nothing more runs there", async () => {
    const other = await startPlatform({ env: testPlatformEnv(), logger: testLogger() });
    const created = await apiClientFor(other).request("POST", "/api/v1/payments/checkouts", { body: newCheckout() });
    expect(created.status).toBe(201);
    await other.close();
    await expect(other.withServices(storeProbe, "countCheckouts")).rejects.toThrow(/not running/);
  });
});
