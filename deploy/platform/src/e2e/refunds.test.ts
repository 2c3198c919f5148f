import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

const refunds = "/api/v1/payments/refunds";

describe("refunds", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api.close());

  async function paidCheckout(amountMinor = 100_00, credential?: string) {
    const created = await api.request("POST", "/api/v1/payments/checkouts", {
      credential,
      body: {
        referenceId: unique("refund-order"),
        amount: { amountMinor, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
    });
    const checkoutId = created.body.data.checkoutId as string;
    const paid = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`, { credential });
    expect(paid.body.data.status).toBe("paid");
    return checkoutId;
  }

  const refund = (paymentId: string, amountMinor: number, options: { credential?: string; idempotencyKey?: string } = {}) =>
    api.request("POST", refunds, { body: { paymentId, amount: { amountMinor, currency: "PHP" }, reason: "customer request" }, ...options });

  it("refunds part of a paid checkout, pending until the provider reports, then succeeded", async () => {
    const checkoutId = await paidCheckout();
    const created = await refund(checkoutId, 40_00);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ paymentId: checkoutId, status: "pending", amount: { amountMinor: 40_00, currency: "PHP" } });
    expect(created.body.data.refundId).toMatch(/^ref_[A-Za-z0-9_]+$/);

    const read = await api.request("GET", `${refunds}/${created.body.data.refundId}`);
    expect(read.body.data).toEqual(created.body.data);
    const done = await api.request("POST", `/api/v1/payments/test-helpers/refunds/${created.body.data.refundId}/succeed`);
    expect(done.body.data.status).toBe("succeeded");
    const again = await api.request("POST", `/api/v1/payments/test-helpers/refunds/${created.body.data.refundId}/fail`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("INVALID_STATE_TRANSITION");
  });

  it("refunds a succeeded payment intent", async () => {
    const intent = await api.request("POST", "/api/v1/payments/intents", {
      body: { referenceId: unique("refund-intent"), amount: { amountMinor: 50_00, currency: "PHP" } },
    });
    const id = intent.body.data.paymentIntentId as string;
    await api.request("POST", `/api/v1/payments/intents/${id}/confirm`);
    await api.request("POST", `/api/v1/payments/test-helpers/intents/${id}/succeed`);
    const created = await refund(id, 50_00);
    expect(created.status).toBe(201);
    expect(created.body.data.paymentId).toBe(id);
  });

  it("refuses more than what is left to refund, naming the amount", async () => {
    const checkoutId = await paidCheckout(100_00);
    expect((await refund(checkoutId, 70_00)).status).toBe(201);
    const over = await refund(checkoutId, 30_01);
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
    expect(over.body.error.details).toEqual([expect.stringMatching(/^amount\.amountMinor:.*3000/)]);
    expect((await refund(checkoutId, 30_00)).status).toBe(201);
  });

  it("gives a failed refund's amount back", async () => {
    const checkoutId = await paidCheckout(100_00);
    const first = await refund(checkoutId, 100_00);
    expect((await refund(checkoutId, 1)).body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
    await api.request("POST", `/api/v1/payments/test-helpers/refunds/${first.body.data.refundId}/fail`);
    expect((await refund(checkoutId, 100_00)).status).toBe(201);
  });

  it("never lets concurrent refunds exceed the amount paid", async () => {
    const checkoutId = await paidCheckout(100_00);
    const responses = await Promise.all(Array.from({ length: 20 }, () => refund(checkoutId, 30_00)));
    const created = responses.filter((r) => r.status === 201);
    const refused = responses.filter((r) => r.status === 409);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const response of refused) expect(response.body.error.code).toBe("REFUND_EXCEEDS_REFUNDABLE");
    const stored = await api.platform.stores.payments
      .collection<{ _id: string; amountMinor: number }>({ name: "refunds" })
      .find({ paymentId: checkoutId });
    // Exactly the three refunds that were accepted, and nothing of those refused.
    expect(stored).toHaveLength(3);
    expect(stored.reduce((sum, r) => sum + r.amountMinor, 0)).toBe(3 * 30_00);
  });

  it("refuses an unpaid payment (409), an unknown one and another project's (404)", async () => {
    const pending = await api.request("POST", "/api/v1/payments/checkouts", {
      body: {
        referenceId: unique("unpaid"),
        amount: { amountMinor: 10_00, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      },
    });
    const unpaid = await refund(pending.body.data.checkoutId, 1_00);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error.code).toBe("INVALID_STATE_TRANSITION");

    expect((await refund("chk_doesnotexist", 1_00)).status).toBe(404);
    const other = await api.newProject();
    const theirs = await paidCheckout(10_00, other.testKey);
    const foreign = await refund(theirs, 1_00);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("RESOURCE_NOT_FOUND");
  });

  it("replays a refund for a repeated Idempotency-Key instead of refunding twice", async () => {
    const checkoutId = await paidCheckout(100_00);
    const key = newIdempotencyKey();
    const first = await refund(checkoutId, 60_00, { idempotencyKey: key });
    const second = await refund(checkoutId, 60_00, { idempotencyKey: key });
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(second.body.data.refundId).toBe(first.body.data.refundId);
    expect((await refund(checkoutId, 40_00)).status).toBe(201);
  });

  it("rejects a paymentId that is neither a checkout nor a payment intent, naming it", async () => {
    const response = await refund("cus_abc", 1_00);
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([expect.stringMatching(/^paymentId:/)]);
  });

  describe("scopes of service tokens", () => {
    it("creates with payments:refunds:write or payments:write, and not with read scopes", async () => {
      const projectId = api.platform.projectId;
      const checkoutId = await paidCheckout(100_00);
      const refundsWrite = await api.serviceToken(projectId, ["payments:refunds:write"]);
      const broadWrite = await api.serviceToken(projectId, ["payments:write"]);
      const readOnly = await api.serviceToken(projectId, ["payments:read", "payments:refunds:read"]);
      expect((await refund(checkoutId, 10_00, { credential: refundsWrite })).status).toBe(201);
      expect((await refund(checkoutId, 10_00, { credential: broadWrite })).status).toBe(201);
      const refused = await refund(checkoutId, 10_00, { credential: readOnly });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("INSUFFICIENT_SCOPE");
    });

    it("reads with payments:refunds:read only", async () => {
      const projectId = api.platform.projectId;
      const created = await refund(await paidCheckout(), 10_00);
      const path = `${refunds}/${created.body.data.refundId}`;
      const reader = await api.serviceToken(projectId, ["payments:refunds:read"]);
      const broad = await api.serviceToken(projectId, ["payments:read", "payments:write"]);
      expect((await api.request("GET", path, { credential: reader })).status).toBe(200);
      const refused = await api.request("GET", path, { credential: broad });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("INSUFFICIENT_SCOPE");
    });
  });
});
