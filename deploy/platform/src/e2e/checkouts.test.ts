import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newIdempotencyKey, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { expectMovesPublished, withEventCapture } from "../test-support/event-capture.js";

const checkouts = "/api/v1/payments/checkouts";

function checkoutBody(amountMinor = 150_00, extra: Record<string, unknown> = {}) {
  return {
    referenceId: unique("order"),
    amount: { amountMinor, currency: "PHP" },
    successUrl: "https://shop.example.ph/thanks",
    cancelUrl: "https://shop.example.ph/cart",
    ...extra,
  };
}

describe("checkouts", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform({
      PROVIDER_TIMEOUT_MS: "150",
      SANDBOX_DELAY_MS: "500",
      SANDBOX_SILENCE_MS: "400",
      PAYMENTS_RECONCILE_INTERVAL_MS: "100",
    });
  });
  afterAll(() => api.close());

  async function createPending(amountMinor?: number, extra?: Record<string, unknown>) {
    const created = await api.request("POST", checkouts, { body: checkoutBody(amountMinor, extra) });
    expect(created.status).toBe(201);
    return created.body.data;
  }

  describe("createCheckout", () => {
    it("answers 201 with a pending checkout and a payment page URL", async () => {
      const body = checkoutBody();
      const created = await api.request("POST", checkouts, { body });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        referenceId: body.referenceId,
        status: "pending",
        amount: { amountMinor: 150_00, currency: "PHP" },
        aggregateVersion: 2,
      });
      expect(created.body.data.checkoutId).toMatch(/^chk_[A-Za-z0-9_]+$/);
      expect(created.body.data.checkoutUrl).toMatch(new RegExp(`^${api.platform.gatewayUrl}/sandbox/checkouts/`));
    });

    it("refuses a second checkout with the same referenceId", async () => {
      const body = checkoutBody();
      await api.request("POST", checkouts, { body });
      const again = await api.request("POST", checkouts, { body });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("RESOURCE_ALREADY_EXISTS");
      expect(again.body.error.details).toEqual([expect.stringMatching(/^referenceId:/)]);
    });

    it("refuses live mode while no live provider is configured, writing nothing", async () => {
      const project = await api.newProject();
      const body = checkoutBody();
      const live = await api.request("POST", checkouts, { body, credential: project.liveKey });
      expect(live.status).toBe(409);
      expect(live.body.error.code).toBe("PROVIDER_NOT_CONFIGURED");
      expect(await api.platform.stores.payments.collection({ name: "checkouts" }).count({ referenceId: body.referenceId })).toBe(0);
    });
  });

  describe("reading", () => {
    it("reads a checkout by id and by referenceId", async () => {
      const checkout = await createPending();
      const byId = await api.request("GET", `${checkouts}/${checkout.checkoutId}`);
      const byReference = await api.request("GET", `${checkouts}/by-reference/${encodeURIComponent(checkout.referenceId)}`);
      expect(byId.body.data).toEqual(checkout);
      expect(byReference.body.data).toEqual(checkout);
    });

    it("answers 404 for an unknown id, an unknown reference, and another project's checkout", async () => {
      const checkout = await createPending();
      const other = await api.newProject();
      for (const path of [
        `${checkouts}/chk_unknown`,
        `${checkouts}/by-reference/no-such-order`,
      ]) {
        const response = await api.request("GET", path);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe("RESOURCE_NOT_FOUND");
      }
      const foreign = await api.request("GET", `${checkouts}/${checkout.checkoutId}`, { credential: other.testKey });
      expect(foreign.status).toBe(404);
    });
  });

  describe("state machine", () => {
    it("cancels a pending checkout, and refuses to cancel it twice", async () => {
      const checkout = await createPending();
      const cancelled = await api.request("POST", `${checkouts}/${checkout.checkoutId}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: "cancelled", aggregateVersion: 3 });
      const again = await api.request("POST", `${checkouts}/${checkout.checkoutId}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("INVALID_STATE_TRANSITION");
    });

    it("pays a checkout through the test helper, after which it cannot be cancelled", async () => {
      const checkout = await createPending();
      const paid = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`);
      expect(paid.status).toBe(200);
      expect(paid.body.data.status).toBe("paid");
      const cancel = await api.request("POST", `${checkouts}/${checkout.checkoutId}/cancel`);
      expect(cancel.status).toBe(409);
      expect(cancel.body.error.code).toBe("INVALID_STATE_TRANSITION");
    });

    it("fails and expires checkouts through the test helpers", async () => {
      const failed = await createPending();
      expect((await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${failed.checkoutId}/fail`)).body.data.status).toBe("failed");
      const expired = await createPending();
      expect((await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${expired.checkoutId}/expire`)).body.data.status).toBe("expired");
      const late = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${expired.checkoutId}/pay`);
      expect(late.status).toBe(409);
    });

    it("refuses the test helpers with live credentials and without an Idempotency-Key", async () => {
      const checkout = await createPending();
      const project = await api.newProject();
      const live = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`, { credential: project.liveKey });
      expect(live.status).toBe(403);
      expect(live.body.error.code).toBe("TEST_MODE_ONLY");
      const keyless = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`, { idempotencyKey: null });
      expect(keyless.status).toBe(400);
      expect(keyless.body.error.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
    });

    it("publishes every move through the outbox with a growing aggregateVersion and its snapshot", async () => {
      await withEventCapture(api.platform.bus, async (captured) => {
        const checkout = await createPending();
        await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`);
        const last = await expectMovesPublished(captured, checkout.checkoutId, [
          ["bayad.events.payments.checkout.created", 1],
          ["bayad.events.payments.checkout.pending", 2],
          ["bayad.events.payments.checkout.paid", 3],
        ]);
        expect(last.snapshot.case === "checkout" && last.snapshot.value.checkoutId).toBe(checkout.checkoutId);
      });
    });
  });

  describe("sandbox scenarios", () => {
    it("decline: paying a 1002-centavo checkout fails it", async () => {
      const checkout = await createPending(1002);
      const paid = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`);
      expect(paid.body.data.status).toBe("failed");
    });

    it("decline by metadata: bayad_sandbox_scenario=decline", async () => {
      const checkout = await createPending(5000, { metadata: { bayad_sandbox_scenario: "decline" } });
      const paid = await api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkout.checkoutId}/pay`);
      expect(paid.body.data.status).toBe("failed");
    });

    it("delay: answers 202 with a PendingResource, and the checkout becomes pending by itself", async () => {
      const key = newIdempotencyKey();
      const body = checkoutBody(1408);
      const accepted = await api.request("POST", checkouts, { body, idempotencyKey: key });
      expect(accepted.status).toBe(202);
      expect(accepted.body.data.status).toBe("pending");
      const checkoutId = accepted.body.data.resourceId as string;
      expect(checkoutId).toMatch(/^chk_/);

      const replay = await api.request("POST", checkouts, { body, idempotencyKey: key });
      expect(replay.status).toBe(202);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");

      const ready = await eventually(async () => {
        const read = await api.request("GET", `${checkouts}/${checkoutId}`);
        return read.body.data.status === "pending" && read.body.data.checkoutUrl ? read : undefined;
      });
      expect(ready.body.data.aggregateVersion).toBe(2);
    });

    it("silence: 409 PAYMENT_OUTCOME_UNKNOWN until reconciled, then the one checkout, pending", async () => {
      const key = newIdempotencyKey();
      const body = checkoutBody(1504);
      const first = await api.request("POST", checkouts, { body, idempotencyKey: key });
      expect(first.status).toBe(409);
      expect(first.body.error.code).toBe("PAYMENT_OUTCOME_UNKNOWN");

      const settled = await eventually(async () => {
        const retry = await api.request("POST", checkouts, { body, idempotencyKey: key });
        if (retry.status === 409) {
          expect(["PAYMENT_OUTCOME_UNKNOWN", "IDEMPOTENCY_KEY_IN_PROGRESS"]).toContain(retry.body.error.code);
          return undefined;
        }
        return retry;
      });
      expect(settled.status).toBe(201);
      expect(settled.body.data.status).toBe("pending");
      expect(await api.platform.stores.payments.collection({ name: "checkouts" }).count({ referenceId: body.referenceId })).toBe(1);
    });

    it("silence: reconciled by the service even if the client never retries", async () => {
      const body = checkoutBody(1504);
      const first = await api.request("POST", checkouts, { body });
      expect(first.body.error.code).toBe("PAYMENT_OUTCOME_UNKNOWN");
      await eventually(async () => {
        const read = await api.request("GET", `${checkouts}/by-reference/${body.referenceId}`);
        return read.status === 200 && read.body.data.status === "pending" ? true : undefined;
      });
    });
  });

  describe("hosted payment page", () => {
    it("shows the amount and pays the checkout", async () => {
      const checkout = await createPending(1234_56);
      const pageResponse = await fetch(checkout.checkoutUrl);
      expect(pageResponse.status).toBe(200);
      const html = await pageResponse.text();
      expect(html).toContain("₱1,234.56");
      const action = /action="([^"]+\/pay\?token=[^"]+)"/.exec(html)?.[1]?.replaceAll("&#38;", "&");
      expect(action).toBeDefined();
      const result = await fetch(new URL(action!, api.platform.gatewayUrl), { method: "POST" });
      expect(await result.text()).toContain("Payment successful");
      expect((await api.request("GET", `${checkouts}/${checkout.checkoutId}`)).body.data.status).toBe("paid");
    });

    it("does not open with a wrong token", async () => {
      const checkout = await createPending();
      const url = new URL(checkout.checkoutUrl);
      url.searchParams.set("token", "x".repeat(32));
      expect((await fetch(url)).status).toBe(404);
      const pay = await fetch(new URL(`${url.pathname}/pay?token=${"x".repeat(32)}`, api.platform.gatewayUrl), { method: "POST" });
      expect(pay.status).toBe(404);
      expect((await api.request("GET", `${checkouts}/${checkout.checkoutId}`)).body.data.status).toBe("pending");
    });
  });
});
