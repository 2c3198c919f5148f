import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Trials and plan changes over real HTTP, through the gateway to the billing service: a trial
 * bills nothing until it ends, a short trial's `subscription.trial_will_end` reaches a consumer's
 * webhook, and a mid-period upgrade invoices the amounts worked out by hand below, exactly as its
 * preview answered.
 */

const plans = "/api/v1/payments/plans";
const subscriptions = "/api/v1/payments/subscriptions";
const helpers = "/api/v1/payments/test-helpers";
const DAY_MS = 24 * 60 * 60 * 1000;

let api: TestPlatform;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startTestPlatform({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

async function createPlan(body: Record<string, unknown>, credential?: string) {
  const created = await api.request("POST", plans, { body: { interval: "monthly", ...body }, credential });
  expect(created.status).toBe(201);
  return created.body.data as Record<string, any> & { planId: string };
}

async function subscribe(priceId: string, extra: Record<string, unknown> = {}, credential?: string) {
  const customer = await api.request("POST", "/api/v1/payments/customers", {
    body: { customerReference: unique("member"), email: "member@example.ph" },
    credential,
  });
  expect(customer.status).toBe(201);
  const created = await api.request("POST", subscriptions, {
    body: { customerId: customer.body.data.customerId, referenceId: unique("membership"), priceId, ...extra },
    credential,
  });
  expect(created.status).toBe(201);
  return created.body.data as Record<string, any> & { subscriptionId: string };
}

const invoicesOf = async (subscriptionId: string) =>
  (await api.request("GET", `${subscriptions}/${subscriptionId}/invoices`)).body.data as Array<Record<string, any>>;
const readSubscription = async (subscriptionId: string) => (await api.request("GET", `${subscriptions}/${subscriptionId}`)).body.data as Record<string, any>;

describe("trials", () => {
  it("a 14-day trial bills nothing until it ends; advanced past trialEnd, the first invoice is issued", async () => {
    const basic = await createPlan({ name: "Basic with a trial", amount: 499_00, trialDays: 14 });
    expect(basic.trialDays).toBe(14);
    const before = Date.now();
    const subscription = await subscribe(basic.planId);
    expect(subscription).toMatchObject({ status: "trialing", priceId: basic.planId, cancelAtPeriodEnd: false });
    const trialEnd = Date.parse(subscription.trialEnd);
    expect(trialEnd - before).toBeGreaterThanOrEqual(14 * DAY_MS);
    expect(trialEnd - Date.now()).toBeLessThanOrEqual(14 * DAY_MS);
    expect(subscription.currentPeriodEnd).toBe(subscription.trialEnd);
    expect(await invoicesOf(subscription.subscriptionId)).toEqual([]);

    // The test helper lets the trial pass now: the first period starts and is billed.
    const advanced = await api.request("POST", `${helpers}/subscriptions/${subscription.subscriptionId}/advance`);
    expect(advanced.status).toBe(200);
    expect(advanced.body.data).toMatchObject({ status: "pending", trialEnd: subscription.trialEnd });
    const invoices = await invoicesOf(subscription.subscriptionId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: "open",
      amount: { amountMinor: 499_00, currency: "PHP" },
      periodStart: advanced.body.data.currentPeriodStart,
      lines: [{ kind: "charge", amountMinor: 499_00, description: "Basic with a trial, period 1" }],
    });
  });

  it("a subscription overrides the plan's trial; cancelling during it ends it at once with no invoice", async () => {
    const basic = await createPlan({ name: "Basic", amount: 499_00 });
    const subscription = await subscribe(basic.planId, { trialDays: 30 });
    expect(subscription.status).toBe("trialing");
    const cancelled = await api.request("POST", `${subscriptions}/${subscription.subscriptionId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(await invoicesOf(subscription.subscriptionId)).toEqual([]);
    const tooLong = await api.request("POST", subscriptions, { body: { customerId: "cus_abc", referenceId: unique("sub"), priceId: basic.planId, trialDays: 731 } });
    expectError(tooLong, 400, "VALIDATION_FAILED");
    expect(tooLong.body.error.details).toEqual([expect.stringContaining("trialDays")]);
  });

  it("delivers subscription.trial_will_end to a consumer's webhook (a 3-day trial announces it when created)", async () => {
    const project = await api.newProject();
    const endpoint = await api.request("POST", "/api/v1/webhook-endpoints", {
      credential: project.testKey,
      body: { url: receiver.url, enabledEvents: ["subscription.trial_will_end"] },
    });
    expect(endpoint.status).toBe(201);
    const plan = await createPlan({ name: "Short trial", amount: 499_00, trialDays: 3 }, project.testKey);
    const subscription = await subscribe(plan.planId, {}, project.testKey);
    const delivered = await eventually(async () => {
      const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body) as { type: string; data: Record<string, unknown> });
      return bodies.find((body) => body.type === "subscription.trial_will_end" && body.data.subscriptionId === subscription.subscriptionId);
    }, 20_000);
    expect(delivered.data).toMatchObject({ status: "trialing", trialEnd: subscription.trialEnd });
  });
});

describe("changing plans", () => {
  it("a mid-period upgrade invoices the hand-computed proration, exactly as previewed", async () => {
    const basic = await createPlan({ name: "Basic", amount: 499_00 });
    const gold = await createPlan({ name: "Gold", amount: 999_00 });
    const subscription = await subscribe(basic.planId);
    const id = subscription.subscriptionId;
    const [first] = await invoicesOf(id);
    expect((await api.request("POST", `${helpers}/invoices/${first!.invoiceId}/pay`)).status).toBe(200);

    // The platform's clock cannot be moved, so the period is: as if 13 of its 28 days had passed
    // at P (a whole second just before now), 15 days remaining. Only the current period is moved.
    const P = Math.floor(Date.now() / 1000) * 1000 - 1000;
    await api.platform.stores.billing.collection({ name: "subscriptions" }).updateOne(
      { _id: id },
      { $set: { currentPeriodStart: new Date(P - 13 * DAY_MS), currentPeriodEnd: new Date(P + 15 * DAY_MS) } },
    );
    const body = { priceId: gold.planId, prorate: "now", prorationDate: new Date(P).toISOString() };

    // By hand: the period lasts 28 d = 2,419,200 s; 15 d = 1,296,000 s remain (15/28 of it).
    //   credit: 49,900 × 1,296,000 / 2,419,200 = 748,500 / 28 = 26,732.142… → −26,732 centavos
    //   charge: 99,900 × 1,296,000 / 2,419,200 = 1,498,500 / 28 = 53,517.857… → 53,518 centavos
    //   invoice: −26,732 + 53,518 = 26,786 centavos (₱267.86)
    const preview = await api.request("POST", `${subscriptions}/${id}/change-plan/preview`, { body });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({
      subscriptionId: id,
      priceId: gold.planId,
      prorate: "now",
      effectiveAt: body.prorationDate,
      prorationDate: body.prorationDate,
      lines: [
        { kind: "proration", amountMinor: -26_732, description: "Unused time on Basic (1296000 of 2419200 s)" },
        { kind: "proration", amountMinor: 53_518, description: "Remaining time on Gold (1296000 of 2419200 s)" },
      ],
      total: 26_786,
      amountDue: 26_786,
      creditCarried: 0,
    });
    // The preview changed nothing.
    expect((await readSubscription(id)).priceId).toBe(basic.planId);
    expect(await invoicesOf(id)).toHaveLength(1);

    const changed = await api.request("POST", `${subscriptions}/${id}/change-plan`, { body, idempotencyKey: `change-plan-${id}` });
    expect(changed.status).toBe(200);
    expect(changed.body.data.subscription).toMatchObject({ subscriptionId: id, priceId: gold.planId, status: "active" });
    const invoice = changed.body.data.invoice as Record<string, any>;
    expect(invoice).toMatchObject({
      status: "open",
      amount: { amountMinor: preview.body.data.amountDue, currency: "PHP" },
      lines: preview.body.data.lines,
      periodStart: body.prorationDate,
      periodEnd: new Date(P + 15 * DAY_MS).toISOString(),
    });
    expect((await fetch(invoice.hostedInvoiceUrl)).status).toBe(200);
    expect((await invoicesOf(id)).map((listed) => [listed.status, listed.amount.amountMinor])).toEqual([
      ["paid", 499_00],
      ["open", 26_786],
    ]);

    // A retry answers the same; the plan it has now is refused, writing nothing.
    const again = await api.request("POST", `${subscriptions}/${id}/change-plan`, { body, idempotencyKey: `change-plan-${id}` });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.invoice.invoiceId).toBe(invoice.invoiceId);
    const same = await api.request("POST", `${subscriptions}/${id}/change-plan`, { body: { priceId: gold.planId, prorate: "now" } });
    expectError(same, 400, "VALIDATION_FAILED");
    expect(same.body.error.details).toEqual([expect.stringMatching(/^priceId\b/)]);
    expect(await invoicesOf(id)).toHaveLength(2);
  });

  it("schedules a change at the period's end, refuses bad input with 400 and a cancelled subscription with 409", async () => {
    const basic = await createPlan({ name: "Basic", amount: 499_00 });
    const gold = await createPlan({ name: "Gold", amount: 999_00 });
    const weekly = await createPlan({ name: "Weekly", amount: 299_00, interval: "weekly" });
    const subscription = await subscribe(basic.planId);
    const id = subscription.subscriptionId;
    const scheduled = await api.request("POST", `${subscriptions}/${id}/change-plan`, { body: { priceId: gold.planId, prorate: "at_period_end" } });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toEqual({
      subscription: expect.objectContaining({
        priceId: basic.planId,
        pendingPlanChange: { priceId: gold.planId, amount: 999_00, effectiveAt: subscription.currentPeriodEnd },
      }),
    });
    // Applied when the period closes: the next invoice is on the new plan.
    const advanced = await api.request("POST", `${helpers}/subscriptions/${id}/advance`);
    expect(advanced.body.data.priceId).toBe(gold.planId);
    expect(advanced.body.data.pendingPlanChange).toBeUndefined();
    expect((await invoicesOf(id)).map((invoice) => invoice.amount.amountMinor)).toEqual([499_00, 999_00]);

    for (const [bad, field] of [
      [{ priceId: basic.planId, prorate: "later" }, "prorate"],
      [{ prorate: "now" }, "priceId"],
      [{ priceId: weekly.planId, prorate: "now" }, "priceId"],
      [{ priceId: basic.planId, prorate: "now", prorationDate: "2020-01-01T00:00:00Z" }, "prorationDate"],
    ] as const) {
      const refused = await api.request("POST", `${subscriptions}/${id}/change-plan/preview`, { body: bad });
      expectError(refused, 400, "VALIDATION_FAILED");
      expect(refused.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
    }
    expectError(await api.request("POST", `${subscriptions}/${id}/change-plan`, { body: { priceId: "plan_nope", prorate: "now" } }), 404, "RESOURCE_NOT_FOUND");
    await api.request("POST", `${subscriptions}/${id}/cancel`);
    const refused = await api.request("POST", `${subscriptions}/${id}/change-plan`, { body: { priceId: basic.planId, prorate: "now" } });
    expectError(refused, 409, "INVALID_STATE_TRANSITION");
    expect((await readSubscription(id)).priceId).toBe(gold.planId);
  });
});
