import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { captureEvents, expectMovesPublished, type EventCapture } from "../test-support/event-capture.js";

/** Plans, subscriptions and invoices over real HTTP, through the gateway to the billing service. */

const plans = "/api/v1/payments/plans";
const subscriptions = "/api/v1/payments/subscriptions";
const helpers = "/api/v1/payments/test-helpers";

let api: TestPlatform;
let captured: EventCapture;

beforeAll(async () => {
  api = await startTestPlatform();
  captured = await captureEvents(api.platform.bus);
});

afterAll(async () => {
  await captured?.stop();
  await api?.close();
});

async function createPlan(overrides: Record<string, unknown> = {}, credential?: string) {
  const created = await api.request("POST", plans, {
    body: { name: "Gold membership", amount: 499_00, interval: "monthly", ...overrides },
    credential,
  });
  expect(created.status).toBe(201);
  return created.body.data as Record<string, any> & { planId: string };
}

async function createCustomer(credential?: string) {
  const created = await api.request("POST", "/api/v1/payments/customers", {
    body: { customerReference: unique("member"), email: "member@example.ph" },
    credential,
  });
  expect(created.status).toBe(201);
  return created.body.data.customerId as string;
}

async function subscribe(planOverrides: Record<string, unknown> = {}, credential?: string) {
  const plan = await createPlan(planOverrides, credential);
  const customerId = await createCustomer(credential);
  const created = await api.request("POST", subscriptions, {
    body: { customerId, referenceId: unique("membership"), priceId: plan.planId },
    credential,
  });
  expect(created.status).toBe(201);
  return { plan, customerId, subscription: created.body.data as Record<string, any> & { subscriptionId: string } };
}

const invoicesOf = async (subscriptionId: string) =>
  (await api.request("GET", `${subscriptions}/${subscriptionId}/invoices`)).body.data as Array<Record<string, any>>;
const readSubscription = async (subscriptionId: string) =>
  (await api.request("GET", `${subscriptions}/${subscriptionId}`)).body.data as Record<string, any>;
const advance = (subscriptionId: string, credential?: string) =>
  api.request("POST", `${helpers}/subscriptions/${subscriptionId}/advance`, { credential });
const payInvoice = (invoiceId: string, credential?: string) => api.request("POST", `${helpers}/invoices/${invoiceId}/pay`, { credential });
const failInvoice = (invoiceId: string) => api.request("POST", `${helpers}/invoices/${invoiceId}/fail`);

const billingStore = () => api.platform.stores.billing;

describe("plans", () => {
  it("creates a plan with the documented defaults and reads it back", async () => {
    const created = await api.request("POST", plans, {
      body: { name: "Basic", amount: 2000, interval: "weekly", metadata: { tier: "basic" } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      planId: expect.stringMatching(/^plan_[A-Za-z0-9]{24}$/),
      name: "Basic",
      amount: 2000,
      currency: "PHP",
      interval: "weekly",
      intervalCount: 1,
      metadata: { tier: "basic" },
    });
    const read = await api.request("GET", `${plans}/${created.body.data.planId}`);
    expect(read.body.data).toEqual(created.body.data);
  });

  it("keeps every field it was given", async () => {
    const plan = await createPlan({ description: "Twelve months", interval: "yearly", intervalCount: 2, cycleCount: 12, currency: "PHP" });
    expect(plan).toMatchObject({ description: "Twelve months", interval: "yearly", intervalCount: 2, cycleCount: 12, currency: "PHP" });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["an amount below 2000", { amount: 1999 }, "amount"],
    ["an amount that is a Money object", { amount: { amountMinor: 5000, currency: "PHP" } }, "amount"],
    ["a fractional amount", { amount: 2000.5 }, "amount"],
    ["an amount given as text", { amount: "5000" }, "amount"],
    ["no name", { name: undefined }, "name"],
    ["an empty name", { name: "" }, "name"],
    ["a 256-character name", { name: "n".repeat(256) }, "name"],
    ["a 1001-character description", { description: "d".repeat(1001) }, "description"],
    ["a USD currency", { currency: "USD" }, "currency"],
    ["no interval", { interval: undefined }, "interval"],
    ["a daily interval", { interval: "daily" }, "interval"],
    ["intervalCount 0", { intervalCount: 0 }, "intervalCount"],
    ["intervalCount 11", { intervalCount: 11 }, "intervalCount"],
    ["cycleCount 1", { cycleCount: 1 }, "cycleCount"],
    ["a metadata value that is a number", { metadata: { tier: 1 } }, "metadata"],
  ];
  it.each(invalid)("refuses %s with a 400 naming the field, writing nothing", async (_name, overrides, field) => {
    const before = await billingStore().collection({ name: "plans" }).count({});
    const response = await api.request("POST", plans, { body: { name: "Plan", amount: 5000, interval: "monthly", ...overrides } });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
    expect(await billingStore().collection({ name: "plans" }).count({})).toBe(before);
  });

  it("lists only the caller's own plans, newest first, and hides other projects' plans", async () => {
    const project = await api.newProject();
    const first = await createPlan({ name: "First" }, project.testKey);
    const second = await createPlan({ name: "Second" }, project.testKey);
    const listed = await api.request("GET", plans, { credential: project.testKey });
    expect(listed.body.data.map((plan: { planId: string }) => plan.planId)).toEqual([second.planId, first.planId]);
    expectError(await api.request("GET", `${plans}/${first.planId}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.request("GET", `${plans}/plan_doesnotexist`), 404, "RESOURCE_NOT_FOUND");
  });

  it("replays createPlan for the same Idempotency-Key", async () => {
    const body = { name: unique("plan"), amount: 3000, interval: "monthly" };
    const first = await api.request("POST", plans, { body, idempotencyKey: "plan-replay-key-00001" });
    const again = await api.request("POST", plans, { body, idempotencyKey: "plan-replay-key-00001" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(await billingStore().collection({ name: "plans" }).count({ name: body.name })).toBe(1);
  });

  it("answers createPlan's 409 for a reused Idempotency-Key with another body, writing nothing", async () => {
    const name = unique("plan");
    await api.request("POST", plans, { body: { name, amount: 3000, interval: "monthly" }, idempotencyKey: "plan-mismatch-key-0001" });
    const other = await api.request("POST", plans, {
      body: { name, amount: 4000, interval: "monthly" },
      idempotencyKey: "plan-mismatch-key-0001",
    });
    expectError(other, 409, "IDEMPOTENCY_KEY_PAYLOAD_MISMATCH");
    expect(await billingStore().collection({ name: "plans" }).count({ name })).toBe(1);
  });
});

describe("createSubscription", () => {
  it("starts pending with its first period billed: one open invoice with a hosted page", async () => {
    const { plan, customerId, subscription } = await subscribe({ amount: 799_00 });
    expect(subscription).toMatchObject({ customerId, status: "pending", priceId: plan.planId, cancelAtPeriodEnd: false });
    expect(subscription.subscriptionId).toMatch(/^sub_[A-Za-z0-9]{24}$/);
    const start = Date.parse(subscription.currentPeriodStart);
    const end = new Date(subscription.currentPeriodEnd);
    expect(end.getTime()).toBeGreaterThan(start);
    // Monthly: one calendar month later in Philippine time (28 to 31 days).
    expect((end.getTime() - start) / 86_400_000).toBeGreaterThanOrEqual(28);
    expect((end.getTime() - start) / 86_400_000).toBeLessThanOrEqual(31);

    const invoices = await invoicesOf(subscription.subscriptionId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: "open",
      amount: { amountMinor: 799_00, currency: "PHP" },
      subscriptionId: subscription.subscriptionId,
      periodStart: subscription.currentPeriodStart,
      periodEnd: subscription.currentPeriodEnd,
    });
    expect(invoices[0]!.invoiceId).toMatch(/^inv_[A-Za-z0-9]{24}$/);
    expect(new URL(invoices[0]!.hostedInvoiceUrl).origin).toBe(api.platform.gatewayUrl);
    expect((await fetch(invoices[0]!.hostedInvoiceUrl)).status).toBe(200);
    expect((await api.request("GET", `/api/v1/payments/invoices/${invoices[0]!.invoiceId}`)).body.data).toEqual(invoices[0]);
  });

  it("answers 404 naming customerId for an unknown customer or another project's", async () => {
    const plan = await createPlan();
    const other = await api.newProject();
    const theirs = await createCustomer(other.testKey);
    for (const customerId of ["cus_doesnotexist", theirs]) {
      const response = await api.request("POST", subscriptions, { body: { customerId, referenceId: unique("sub"), priceId: plan.planId } });
      expectError(response, 404, "RESOURCE_NOT_FOUND");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^customerId\b/)]);
    }
    expect(await billingStore().collection({ name: "subscriptions" }).count({ planId: plan.planId })).toBe(0);
  });

  it("answers 404 naming priceId for an unknown plan or another project's", async () => {
    const customerId = await createCustomer();
    const other = await api.newProject();
    const theirs = await createPlan({}, other.testKey);
    for (const priceId of ["plan_doesnotexist", theirs.planId]) {
      const response = await api.request("POST", subscriptions, { body: { customerId, referenceId: unique("sub"), priceId } });
      expectError(response, 404, "RESOURCE_NOT_FOUND");
      expect(response.body.error.details).toEqual([expect.stringMatching(/^priceId\b/)]);
    }
    expect(await billingStore().collection({ name: "subscriptions" }).count({ customerId })).toBe(0);
  });

  it("refuses a second subscription with the same referenceId: 409", async () => {
    const { subscription, customerId, plan } = await subscribe();
    const again = await api.request("POST", subscriptions, {
      body: { customerId, referenceId: subscription.referenceId, priceId: plan.planId },
    });
    expectError(again, 409, "RESOURCE_ALREADY_EXISTS");
    expect(again.body.error.details).toEqual([expect.stringMatching(/^referenceId\b/)]);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["a customerId without the cus_ prefix", { customerId: "42" }, "customerId"],
    ["no priceId", { priceId: undefined }, "priceId"],
    ["no referenceId", { referenceId: undefined }, "referenceId"],
    ["a 256-character referenceId", { referenceId: "r".repeat(256) }, "referenceId"],
  ];
  it.each(invalid)("refuses %s with a 400 naming the field", async (_name, overrides, field) => {
    const body = { customerId: "cus_abc", referenceId: unique("sub"), priceId: "plan_abc", ...overrides };
    const response = await api.request("POST", subscriptions, { body });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
  });

  it("answers 409 PROVIDER_NOT_CONFIGURED in live mode and writes nothing", async () => {
    const project = await api.newProject();
    const plan = await createPlan({}, project.liveKey);
    const customerId = await createCustomer(project.liveKey);
    const response = await api.request("POST", subscriptions, {
      body: { customerId, referenceId: unique("sub"), priceId: plan.planId },
      credential: project.liveKey,
    });
    expectError(response, 409, "PROVIDER_NOT_CONFIGURED");
    expect(await billingStore().collection({ name: "subscriptions" }).count({ customerId })).toBe(0);
  });
});

describe("a subscription's status follows its invoices", () => {
  it("pending → active when paid; past_due when a period closes unpaid; active again once paid", async () => {
    const { subscription } = await subscribe();
    const id = subscription.subscriptionId;
    const [first] = await invoicesOf(id);
    expect((await payInvoice(first!.invoiceId)).body.data.status).toBe("paid");
    expect((await readSubscription(id)).status).toBe("active");

    const advanced = await advance(id);
    expect(advanced.status).toBe(200);
    expect(advanced.body.data.status).toBe("active");
    expect(Date.parse(advanced.body.data.currentPeriodEnd)).toBeGreaterThan(Date.parse(subscription.currentPeriodEnd) - 60_000);
    const afterOne = await invoicesOf(id);
    expect(afterOne.map((invoice) => invoice.status)).toEqual(["paid", "open"]);

    // The second period closes unpaid: its invoice is overdue and the subscription past_due.
    expect((await advance(id)).body.data.status).toBe("past_due");
    const afterTwo = await invoicesOf(id);
    expect(afterTwo.map((invoice) => invoice.status)).toEqual(["paid", "past_due", "open"]);

    expect((await payInvoice(afterTwo[1]!.invoiceId)).body.data.status).toBe("paid");
    expect((await readSubscription(id)).status).toBe("active");
  });

  it("a failed payment attempt makes the invoice and the subscription past_due", async () => {
    const { subscription } = await subscribe();
    const [first] = await invoicesOf(subscription.subscriptionId);
    const failed = await failInvoice(first!.invoiceId);
    expect(failed.status).toBe(200);
    expect(failed.body.data.status).toBe("past_due");
    expect((await readSubscription(subscription.subscriptionId)).status).toBe("past_due");
    expect((await payInvoice(first!.invoiceId)).body.data.status).toBe("paid");
    expect((await readSubscription(subscription.subscriptionId)).status).toBe("active");
    expectError(await payInvoice(first!.invoiceId), 409, "INVALID_STATE_TRANSITION");
  });

  it("decline scenario: a plan with metadata bayad_sandbox_scenario=decline has its invoice payments declined", async () => {
    // Plans cost at least 2000 centavos, so the sandbox's decline amount (1002) cannot occur on
    // an invoice; the metadata key chooses the scenario instead.
    const { subscription } = await subscribe({ metadata: { bayad_sandbox_scenario: "decline" } });
    const [first] = await invoicesOf(subscription.subscriptionId);
    const declined = await payInvoice(first!.invoiceId);
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe("past_due");
    expect((await readSubscription(subscription.subscriptionId)).status).toBe("past_due");
  });

  it("publishes every change with its event through the billing outbox", async () => {
    const { subscription } = await subscribe();
    const [first] = await invoicesOf(subscription.subscriptionId);
    await payInvoice(first!.invoiceId);
    await expectMovesPublished(captured, subscription.subscriptionId, [
      ["bayad.events.billing.subscription.created", 1],
      ["bayad.events.billing.subscription.active", 2],
    ]);
    await expectMovesPublished(captured, first!.invoiceId, [
      ["bayad.events.billing.invoice.draft", 1],
      ["bayad.events.billing.invoice.open", 2],
      ["bayad.events.billing.invoice.paid", 3],
    ]);
  });
});

describe("cycleCount and cancellation", () => {
  it("a plan with cycleCount 3 advanced through its cycles bills exactly three invoices and ends", async () => {
    const { subscription } = await subscribe({ cycleCount: 3 });
    const id = subscription.subscriptionId;
    for (const invoice of await invoicesOf(id)) await payInvoice(invoice.invoiceId);
    expect((await advance(id)).body.data.status).toBe("active");
    await payInvoice((await invoicesOf(id))[1]!.invoiceId);
    expect((await advance(id)).body.data.status).toBe("active");
    expect(await invoicesOf(id)).toHaveLength(3);

    const ended = await advance(id);
    expect(ended.status).toBe(200);
    expect(ended.body.data.status).toBe("cancelled");
    const invoices = await invoicesOf(id);
    expect(invoices).toHaveLength(3);
    // The third period's invoice was never paid: the ended subscription voids it.
    expect(invoices.map((invoice) => invoice.status)).toEqual(["paid", "paid", "void"]);
    expectError(await advance(id), 409, "INVALID_STATE_TRANSITION");
    expect(await invoicesOf(id)).toHaveLength(3);
  });

  it("schedules a cancellation for the period end: nothing changes before, cancelled at the end", async () => {
    const { subscription } = await subscribe();
    const id = subscription.subscriptionId;
    await payInvoice((await invoicesOf(id))[0]!.invoiceId);

    const scheduled = await api.request("POST", `${subscriptions}/${id}/cancel`);
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: "active", cancelAtPeriodEnd: true, currentPeriodEnd: subscription.currentPeriodEnd });

    // Scheduling again is a no-op; before the period ends the subscription stays active.
    const again = await api.request("POST", `${subscriptions}/${id}/cancel`);
    expect(again.body.data).toEqual(scheduled.body.data);
    expect(await readSubscription(id)).toEqual(scheduled.body.data);
    expect(await invoicesOf(id)).toHaveLength(1);

    const ended = await advance(id);
    expect(ended.body.data.status).toBe("cancelled");
    expect(await invoicesOf(id)).toHaveLength(1);
    expectError(await api.request("POST", `${subscriptions}/${id}/cancel`), 409, "INVALID_STATE_TRANSITION");
  });

  it("voids unpaid invoices when a scheduled cancellation takes effect", async () => {
    const { subscription } = await subscribe();
    await api.request("POST", `${subscriptions}/${subscription.subscriptionId}/cancel`);
    expect((await advance(subscription.subscriptionId)).body.data.status).toBe("cancelled");
    const [invoice] = await invoicesOf(subscription.subscriptionId);
    expect(invoice!.status).toBe("void");
    expectError(await payInvoice(invoice!.invoiceId), 409, "INVALID_STATE_TRANSITION");
  });
});

describe("reads, scoping and test-mode rules", () => {
  it("answers 404 for unknown ids and another project's subscription and invoice", async () => {
    const other = await api.newProject();
    const theirs = await subscribe({}, other.testKey);
    const [theirInvoice] = (await api.request("GET", `${subscriptions}/${theirs.subscription.subscriptionId}/invoices`, { credential: other.testKey })).body.data;
    for (const path of [
      `${subscriptions}/sub_doesnotexist`,
      `${subscriptions}/${theirs.subscription.subscriptionId}`,
      `${subscriptions}/${theirs.subscription.subscriptionId}/invoices`,
      `/api/v1/payments/invoices/inv_doesnotexist`,
      `/api/v1/payments/invoices/${theirInvoice.invoiceId}`,
    ]) {
      expectError(await api.request("GET", path), 404, "RESOURCE_NOT_FOUND");
    }
    expectError(await api.request("POST", `${subscriptions}/${theirs.subscription.subscriptionId}/cancel`), 404, "RESOURCE_NOT_FOUND");
    expectError(await advance(theirs.subscription.subscriptionId), 404, "RESOURCE_NOT_FOUND");
    expectError(await payInvoice(theirInvoice.invoiceId), 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses malformed ids with a 400 naming the parameter", async () => {
    const response = await api.request("GET", `${subscriptions}/not-a-subscription`);
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual([expect.stringMatching(/^subscriptionId\b/)]);
    expectError(await api.request("GET", "/api/v1/payments/invoices/nope"), 400, "VALIDATION_FAILED");
  });

  it("test helpers are test mode only", async () => {
    const project = await api.newProject();
    const { subscription } = await subscribe();
    const [invoice] = await invoicesOf(subscription.subscriptionId);
    expectError(await advance(subscription.subscriptionId, project.liveKey), 403, "TEST_MODE_ONLY");
    expectError(await payInvoice(invoice!.invoiceId, project.liveKey), 403, "TEST_MODE_ONLY");
  });

  it("the hosted invoice page needs the invoice's page token", async () => {
    const { subscription } = await subscribe();
    const [invoice] = await invoicesOf(subscription.subscriptionId);
    const url = new URL(invoice!.hostedInvoiceUrl);
    url.searchParams.set("token", "wrong");
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(`${url.origin}${url.pathname}/pay?token=wrong`, { method: "POST" })).status).toBe(404);
    expect((await api.request("GET", `/api/v1/payments/invoices/${invoice!.invoiceId}`)).body.data.status).toBe("open");
  });
});
