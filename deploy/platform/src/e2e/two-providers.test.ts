import { describe, expect, it } from "vitest";
import { eventually, newIdempotencyKey, unique } from "../test-support/harness.js";
import { twoProvidersSuite } from "../test-support/two-providers.js";

const returnUrl = "https://shop.example.ph/orders/return";

/**
 * Provider-neutral for real, end to end against both simulators: a project holding a live PayMongo
 * account and a live Xendit account takes payments at either as its routing says, hears Xendit's
 * callbacks only as hints, and fails over to Xendit when PayMongo refuses before making anything,
 * never when PayMongo may have made the payment.
 */
describe("two providers: routing and failover between PayMongo and Xendit", () => {
  const suite = twoProvidersSuite({ project: "Two-provider shop", env: { PROVIDER_TIMEOUT_MS: "10000" } });
  const { live } = suite;

  const checkoutBody = (amountMinor = 250_00) => ({
    referenceId: unique("order"),
    amount: { amountMinor, currency: "PHP" },
    successUrl: "https://shop.example.ph/paid",
    cancelUrl: "https://shop.example.ph/cart",
  });

  const xenditSessionsOf = (checkoutId: string) => suite.xendit.objects("session").filter((session) => session.reference_id === checkoutId);
  const paymongoSessionsOf = (checkoutId: string) =>
    (suite.paymongo.objects("checkout_session") as Array<{ attributes: { metadata?: Record<string, string> } }>).filter(
      (session) => session.attributes.metadata?.bayad_resource_id === checkoutId,
    );

  /**
   * The checkout a create answered, once the provider's part is settled: 201 at once; 202 when the
   * platform waited longer than PROVIDER_TIMEOUT_MS (the checkout then opens by itself); 409 until
   * reconciled (the same request again, with its key, answers once it is).
   */
  async function settledCheckout(first: Awaited<ReturnType<typeof live>>, body: unknown, key: string) {
    expect([201, 202, 409], JSON.stringify(first.body)).toContain(first.status);
    const settled = await eventually(async () => {
      if (first.status === 202) {
        const read = await live("GET", `/api/v1/payments/checkouts/${first.body.data.resourceId as string}`);
        return read.body.data.status === "pending" ? read : undefined;
      }
      const answer = first.status === 201 ? first : await live("POST", "/api/v1/payments/checkouts", body, key);
      return answer.status === 201 ? answer : undefined;
    }, 20_000);
    return settled.body.data as { checkoutId: string; provider: string; providerAccountId: string };
  }

  async function status(path: string): Promise<string> {
    return (await live("GET", path)).body.data.status as string;
  }

  it("takes a checkout and an e-wallet intent on Xendit, learns of their payment from its callbacks, and refunds at Xendit", async () => {
    await suite.route(["xendit", 100], ["paymongo", 0]);

    const checkout = await live("POST", "/api/v1/payments/checkouts", checkoutBody());
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    expect(checkout.body.data).toMatchObject({ status: "pending", providerAccountId: suite.accounts.xendit.providerAccountId, provider: "xendit" });
    const checkoutId = checkout.body.data.checkoutId as string;
    const [session] = xenditSessionsOf(checkoutId);
    expect(session?.payment_session_id).toMatch(/^ps-/);
    expect(new URL(checkout.body.data.checkoutUrl as string).origin).toBe(new URL(suite.xendit.url).origin);
    suite.xendit.paySession(session!.payment_session_id as string, "GCASH");
    await eventually(async () => ((await status(`/api/v1/payments/checkouts/${checkoutId}`)) === "paid" ? true : undefined));

    const intent = await live("POST", "/api/v1/payments/intents", {
      referenceId: unique("wallet"),
      amount: { amountMinor: 480_50, currency: "PHP" },
      paymentMethod: { type: "gcash" },
      returnUrl,
    });
    expect(intent.status, JSON.stringify(intent.body)).toBe(201);
    expect(intent.body.data).toMatchObject({ status: "requires_action", providerAccountId: suite.accounts.xendit.providerAccountId });
    const intentId = intent.body.data.paymentIntentId as string;
    const request = suite.xendit.objects("payment_request").find((made) => made.reference_id === intentId);
    expect(request).toMatchObject({ channel_code: "GCASH", request_amount: 480.5, currency: "PHP" });
    suite.xendit.payPaymentRequest(request!.payment_request_id as string);
    await eventually(async () => ((await status(`/api/v1/payments/intents/${intentId}`)) === "succeeded" ? true : undefined));

    const refund = await live("POST", "/api/v1/payments/refunds", { paymentId: intentId, amount: { amountMinor: 100_00, currency: "PHP" }, reason: "requested_by_customer" });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const refundId = refund.body.data.refundId as string;
    const atXendit = suite.xendit.objects("refund").find((made) => made.payment_request_id === request!.payment_request_id);
    expect(atXendit).toMatchObject({ amount: 100, currency: "PHP" });
    suite.xendit.settleRefund(atXendit!.id as string, "SUCCEEDED");
    await eventually(async () => ((await status(`/api/v1/payments/refunds/${refundId}`)) === "succeeded" ? true : undefined));

    // The records feed names the account that took each payment.
    const feed = await live("GET", "/api/v1/payments/records?limit=200");
    const records = feed.body.data.records as Array<{ id: string; providerAccountId?: string }>;
    expect(records.find((record) => record.id === checkoutId)?.providerAccountId).toBe(suite.accounts.xendit.providerAccountId);
  });

  it("refuses a callback with a wrong token, and does not believe a well-tokened callback Xendit's own resource contradicts", async () => {
    await suite.route(["xendit", 100], ["paymongo", 0]);
    const checkout = await live("POST", "/api/v1/payments/checkouts", checkoutBody());
    const checkoutId = checkout.body.data.checkoutId as string;
    const [session] = xenditSessionsOf(checkoutId);
    const completed = {
      event: "payment_session.completed",
      business_id: "biz-forged",
      created: new Date().toISOString(),
      data: { ...session, status: "COMPLETED", payment_request_id: "pr-forged0000000000000000000", payment_id: "py-forged0000000000000000000" },
    };
    const post = (token: string) =>
      fetch(suite.accounts.xendit.callbackUrl, { method: "POST", headers: { "content-type": "application/json", "x-callback-token": token }, body: JSON.stringify(completed) });

    const wrong = await post("not-the-account-token-at-all");
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("INVALID_CREDENTIALS");

    // Right token (whoever holds it can send anything): stored, then read back from Xendit, where the session is still ACTIVE.
    const forged = await post(suite.accounts.xendit.callbackToken);
    expect(forged.status).toBe(200);
    const { eventId } = ((await forged.json()) as { data: { eventId: string } }).data;
    const events = suite.api.platform.stores.payments.collection<{ _id: string; eventId: string; state: string }>({ name: "provider_events" });
    const applied = await eventually(async () => {
      const event = await events.findOne({ eventId, providerAccountId: suite.accounts.xendit.providerAccountId });
      return event && event.state !== "received" ? event.state : undefined;
    });
    expect(applied).toBe("rejected");
    expect(await status(`/api/v1/payments/checkouts/${checkoutId}`)).toBe("pending");
  });

  it("splits a thousand checkouts by the routes' weights", async () => {
    await suite.route(["paymongo", 70], ["xendit", 30]);
    const taken = { paymongo: 0, xendit: 0 };
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => live("POST", "/api/v1/payments/checkouts", checkoutBody(100_00 + batch))));
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        taken[answer.body.data.provider as "paymongo" | "xendit"] += 1;
      }
    }
    // 70 % of 1,000 is 700 with a standard deviation of ~14.5: within ±60 (about four of them) unless the split is wrong.
    expect(taken.paymongo + taken.xendit).toBe(1000);
    expect(taken.paymongo).toBeGreaterThanOrEqual(640);
    expect(taken.paymongo).toBeLessThanOrEqual(760);
  });

  it("serves the same request at Xendit when PayMongo answers 503 before making anything", async () => {
    await suite.route(["paymongo", 100], ["xendit", 0]);
    // Every attempt of PayMongo's client (it sends a keyed create four times) answered 503: nothing made.
    suite.paymongo.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: 503, times: 4 });
    const key = newIdempotencyKey();
    const body = checkoutBody();
    const checkout = await settledCheckout(await live("POST", "/api/v1/payments/checkouts", body, key), body, key);
    suite.paymongo.clearFaults();
    const { checkoutId } = checkout;
    expect(checkout.provider).toBe("xendit");
    expect(xenditSessionsOf(checkoutId)).toHaveLength(1);
    expect(paymongoSessionsOf(checkoutId)).toHaveLength(0);
    // The same key again answers the same checkout, at the same account: one chain, one payment.
    const again = await live("POST", "/api/v1/payments/checkouts", body, key);
    // (A replay of the first answer: 201 with the checkout, or 202 naming it.)
    expect([201, 202]).toContain(again.status);
    expect(again.body.data.checkoutId ?? again.body.data.resourceId).toBe(checkoutId);
    expect(xenditSessionsOf(checkoutId)).toHaveLength(1);
  });

  it("never makes a second payment anywhere when PayMongo's create happened but its answer was lost", async () => {
    await suite.route(["paymongo", 100], ["xendit", 0]);
    suite.paymongo.injectFault({ method: "POST", path: "/v1/checkout_sessions", status: "timeout", afterProcessing: true, times: 1 });
    const key = newIdempotencyKey();
    const body = checkoutBody();
    // PayMongo silent: whatever the first answer, the checkout settles at PayMongo.
    const settled = await settledCheckout(await live("POST", "/api/v1/payments/checkouts", body, key), body, key);
    const { checkoutId } = settled;
    expect(settled.provider).toBe("paymongo");
    expect(paymongoSessionsOf(checkoutId)).toHaveLength(1);
    expect(xenditSessionsOf(checkoutId)).toHaveLength(0);
  });
});
