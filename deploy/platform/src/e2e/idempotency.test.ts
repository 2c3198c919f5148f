import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@bayad/kit";
import { readPaymentsConfig, startPaymentsServer } from "@bayad/payments-service";
import { eventually, newIdempotencyKey, startTestPlatform, type ApiResponse, type TestPlatform } from "../test-support/harness.js";

const customers = "/api/v1/payments/customers";

function customerBody(reference: string) {
  return { customerReference: reference, email: `${reference}@example.ph`, name: "Maria Santos" };
}

async function customersWithReference(platform: TestPlatform, reference: string): Promise<number> {
  return platform.platform.stores.payments.collection({ name: "customers" }).count({ customerReference: reference });
}

describe("idempotency", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api.close());

  it("replays the original status and body for a repeated Idempotency-Key", async () => {
    const key = newIdempotencyKey();
    const first = await api.request("POST", customers, { body: customerBody("replay-1"), idempotencyKey: key });
    const second = await api.request("POST", customers, { body: customerBody("replay-1"), idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await customersWithReference(api, "replay-1")).toBe(1);
  });

  it("keeps a completed record's response and drops its request, which only reconciliation needed", async () => {
    const key = newIdempotencyKey();
    await api.request("POST", customers, { body: customerBody("settled-1"), idempotencyKey: key });
    const record = await api.platform.stores.gateway
      .collection<{ _id: string; state: string; idempotencyKey: string }>({ name: "idempotency_records" })
      .findOne({ idempotencyKey: key });
    expect(record).toMatchObject({ state: "completed", response: expect.stringContaining("settled-1") });
    expect(record).not.toHaveProperty("request");
  });

  it("treats the same fields in another order as the same request", async () => {
    const key = newIdempotencyKey();
    await api.request("POST", customers, { rawBody: '{"customerReference":"order-1","email":"o@example.ph"}', idempotencyKey: key, headers: { "Content-Type": "application/json" } });
    const again = await api.request("POST", customers, { rawBody: '{"email":"o@example.ph","customerReference":"order-1"}', idempotencyKey: key, headers: { "Content-Type": "application/json" } });
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("replays an error outcome too, such as a 409 for a taken customerReference", async () => {
    await api.request("POST", customers, { body: customerBody("taken-1") });
    const key = newIdempotencyKey();
    const first = await api.request("POST", customers, { body: customerBody("taken-1"), idempotencyKey: key });
    const second = await api.request("POST", customers, { body: customerBody("taken-1"), idempotencyKey: key });
    expect(first.status).toBe(409);
    expect(first.body.error.code).toBe("RESOURCE_ALREADY_EXISTS");
    expect(second.body.error).toEqual(first.body.error);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    // meta describes this response: its correlation id is this request's, as in the header.
    expect(second.body.meta.correlationId).toBe(second.headers.get("X-Correlation-Id"));
    expect(second.body.meta.correlationId).not.toBe(first.body.meta.correlationId);
  });

  it("leaves the key unused when the service refuses the request as invalid, as when the gateway does", async () => {
    // The schema allows any reference; the service refuses one a QR Ph code cannot show.
    const qr = (referenceId: string) => ({ referenceId, amount: { amountMinor: 250_00, currency: "PHP" } });
    const key = newIdempotencyKey();
    const refused = await api.request("POST", "/api/v1/payments/intents/qrph", { body: qr("注文"), idempotencyKey: key });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    const corrected = await api.request("POST", "/api/v1/payments/intents/qrph", { body: qr("order-42"), idempotencyKey: key });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get("Idempotent-Replayed")).toBeNull();
    expect(corrected.body.data.referenceId).toBe("order-42");
  });

  it("answers 409 IDEMPOTENCY_KEY_PAYLOAD_MISMATCH when the key is reused with a different body", async () => {
    const key = newIdempotencyKey();
    await api.request("POST", customers, { body: customerBody("mismatch-1"), idempotencyKey: key });
    const reused = await api.request("POST", customers, { body: customerBody("mismatch-2"), idempotencyKey: key });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_PAYLOAD_MISMATCH");
    expect(await customersWithReference(api, "mismatch-2")).toBe(0);
  });

  it("scopes keys to the project and environment", async () => {
    const other = await api.newProject("Other");
    const key = newIdempotencyKey();
    const mine = await api.request("POST", customers, { body: customerBody("scoped-1"), idempotencyKey: key });
    const theirs = await api.request("POST", customers, { body: customerBody("scoped-1"), idempotencyKey: key, credential: other.testKey });
    const theirLive = await api.request("POST", customers, { body: customerBody("scoped-1"), idempotencyKey: key, credential: other.liveKey });
    expect([mine.status, theirs.status, theirLive.status]).toEqual([201, 201, 201]);
    expect(new Set([mine.body.data.customerId, theirs.body.data.customerId, theirLive.body.data.customerId]).size).toBe(3);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("creates exactly one customer from 50 concurrent requests with one key", async () => {
    const key = newIdempotencyKey();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => api.request("POST", customers, { body: customerBody("concurrent-1"), idempotencyKey: key })),
    );
    const created = responses.filter((r) => r.status === 201);
    const inProgress = responses.filter((r) => r.status === 409);
    expect(created.length + inProgress.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of inProgress) expect(response.body.error.code).toBe("IDEMPOTENCY_KEY_IN_PROGRESS");
    expect(new Set(created.map((r) => r.body.data.customerId)).size).toBe(1);
    expect(await customersWithReference(api, "concurrent-1")).toBe(1);
  });
});

describe("idempotency across a crash between the service's write and the gateway's record", () => {
  let api: TestPlatform;
  let crashNext = false;

  beforeAll(async () => {
    api = await startTestPlatform(
      { IDEMPOTENCY_LEASE_MS: "300" },
      {
        afterOutcome: () => {
          if (!crashNext) return;
          crashNext = false;
          throw new Error("injected crash: the gateway died before recording the response");
        },
      },
    );
  });
  afterAll(() => api.close());

  const stillUnresolved = (response: ApiResponse) =>
    response.status === 409 &&
    ["IDEMPOTENCY_KEY_IN_PROGRESS", "PAYMENT_OUTCOME_UNKNOWN"].includes(response.body.error.code);

  it("never yields a second customer on retry, and the retry gets the first customer once reconciled", async () => {
    const key = newIdempotencyKey();
    crashNext = true;
    const crashed = await api.request("POST", customers, { body: customerBody("crash-1"), idempotencyKey: key });
    expect(crashed.status).toBe(500);
    expect(crashed.body.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(crashed.body)).not.toContain("injected crash");
    // The service did write the customer before the "crash".
    expect(await customersWithReference(api, "crash-1")).toBe(1);

    const seen: string[] = [];
    const settled = await eventually(async () => {
      const retry = await api.request("POST", customers, { body: customerBody("crash-1"), idempotencyKey: key });
      if (stillUnresolved(retry)) {
        seen.push(retry.body.error.code);
        return undefined;
      }
      return retry;
    });
    expect(settled.status).toBe(201);
    expect(settled.body.data.customerReference).toBe("crash-1");
    expect(await customersWithReference(api, "crash-1")).toBe(1);
    const stored = await api.platform.stores.payments.collection<{ _id: string }>({ name: "customers" }).findOne({ customerReference: "crash-1" });
    expect(settled.body.data.customerId).toBe(stored?._id);
  });

  it("reconciles by itself, without any retry from the client", async () => {
    const key = newIdempotencyKey();
    crashNext = true;
    const crashed = await api.request("POST", customers, { body: customerBody("crash-2"), idempotencyKey: key });
    expect(crashed.status).toBe(500);
    const records = api.platform.stores.gateway.collection<{ _id: string; state: string; idempotencyKey: string }>({ name: "idempotency_records" });
    await eventually(async () => ((await records.findOne({ idempotencyKey: key }))?.state === "completed" ? true : undefined));
    const retry = await api.request("POST", customers, { body: customerBody("crash-2"), idempotencyKey: key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await customersWithReference(api, "crash-2")).toBe(1);
  });

  it("releases the key when reconciliation finds the request invalid: nothing was done with it", async () => {
    const qr = (referenceId: string) => ({ referenceId, amount: { amountMinor: 250_00, currency: "PHP" } });
    const key = newIdempotencyKey();
    crashNext = true;
    const crashed = await api.request("POST", "/api/v1/payments/intents/qrph", { body: qr("注文"), idempotencyKey: key });
    expect(crashed.status).toBe(500);
    const records = api.platform.stores.gateway.collection<{ _id: string; idempotencyKey: string }>({ name: "idempotency_records" });
    await eventually(async () => ((await records.findOne({ idempotencyKey: key })) === null ? true : undefined));
    const corrected = await api.request("POST", "/api/v1/payments/intents/qrph", { body: qr("order-43"), idempotencyKey: key });
    expect(corrected.status).toBe(201);
    expect(corrected.body.data.referenceId).toBe("order-43");
  });
});

describe("idempotency when the payments service is unreachable", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    // Over HTTP/2, so a stopped service is one the gateway cannot reach, as when deployed.
    api = await startTestPlatform({ RPC_TIMEOUT_MS: "1000", PLATFORM_RPC: "http2" });
  });
  afterAll(() => api.close());

  it("answers 409 PAYMENT_OUTCOME_UNKNOWN, then replays the result once the service is back", async () => {
    const { platform } = api;
    const port = platform.services.payments.port;
    await platform.services.payments.close();

    const key = newIdempotencyKey();
    const during = await api.request("POST", customers, { body: customerBody("outage-1"), idempotencyKey: key });
    expect(during.status).toBe(409);
    expect(during.body.error.code).toBe("PAYMENT_OUTCOME_UNKNOWN");
    const retryDuring = await api.request("POST", customers, { body: customerBody("outage-1"), idempotencyKey: key });
    expect(retryDuring.status).toBe(409);
    expect(retryDuring.body.error.code).toBe("PAYMENT_OUTCOME_UNKNOWN");

    const restarted = await startPaymentsServer({ store: platform.stores.payments, config: readPaymentsConfig({}), logger: createLogger("test", "silent"), port });
    try {
      const settled = await eventually(async () => {
        const retry = await api.request("POST", customers, { body: customerBody("outage-1"), idempotencyKey: key });
        return retry.status === 201 ? retry : undefined;
      });
      expect(settled.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await customersWithReference(api, "outage-1")).toBe(1);
    } finally {
      await restarted.close();
    }
  });
});
