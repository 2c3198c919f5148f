import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Dunning (docs/api/billing.md, "Dunning"): test mode's billing clock run step by step at the
 * default schedule's times sends each reminder once to the development outbox and announces it,
 * the last step marks the subscription unpaid, and a payment stops the schedule.
 */

let api: TestPlatform;
let project: Awaited<ReturnType<TestPlatform["newProject"]>>;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  api = await startTestPlatform({ BILLING_MESSAGES_INTERVAL_MS: "100" });
  project = await api.newProject("Kape ni Juan");
});

afterAll(async () => {
  await api?.close();
});

type Json = Record<string, any>;

const post = (path: string, body: Json = {}) => api.request("POST", path, { body, credential: project.testKey });
const get = (path: string) => api.request("GET", path, { credential: project.testKey });

async function subscribe(email: string) {
  const plan = await post("/api/v1/payments/plans", { name: "Gold", amount: 123_450, interval: "weekly" });
  const customer = await post("/api/v1/payments/customers", { customerReference: unique("member"), email, name: "Juan" });
  const created = await post("/api/v1/payments/subscriptions", {
    customerId: customer.body.data.customerId,
    referenceId: unique("membership"),
    priceId: plan.body.data.planId,
  });
  expect(created.status).toBe(201);
  const invoices = await get(`/api/v1/payments/subscriptions/${created.body.data.subscriptionId}/invoices`);
  return { subscriptionId: created.body.data.subscriptionId as string, invoice: invoices.body.data[0] as Json };
}

const reminders = async (invoiceId: string) => {
  const listed = await api.admin("GET", `/admin/v1/messages?projectId=${project.projectId}&kind=reminder`);
  expect(listed.status).toBe(200);
  return (listed.body.data as Json[]).filter((message) => message.resourceId === invoiceId).reverse();
};

const eventsOf = async (type: string, resourceId: string) => {
  const page = await get(`/api/v1/events?type=${type}&resourceId=${resourceId}&limit=100`);
  expect(page.status).toBe(200);
  return page.body.data.events as Json[];
};

describe("dunning in test mode", () => {
  it("reminds on schedule, each reminder once and announced, marks the subscription unpaid after the last, and stops once paid", async () => {
    const late = await subscribe("juan@example.ph");
    const payer = await subscribe("maria@example.ph");
    expect(late.invoice).toMatchObject({ status: "open", dunningStep: 0 });
    // Both invoices are due at their period's end; the clock runs just after the later one's steps.
    const due = Math.max(Date.parse(late.invoice.periodEnd), Date.parse(payer.invoice.periodEnd));
    expect(Date.parse(late.invoice.nextDunningAt)).toBe(Date.parse(late.invoice.periodEnd) - 3 * DAY_MS);
    const runAt = async (offsetDays: number) => {
      const run = await post("/api/v1/payments/test-helpers/billing-clock/run", { at: new Date(due + offsetDays * DAY_MS + 1_000).toISOString() });
      expect(run.status).toBe(200);
      return run.body.data as Json;
    };

    expect(await runAt(-3)).toMatchObject({ periodsClosed: 0, remindersSent: 2, finalActions: 0 });
    const [first] = await reminders(late.invoice.invoiceId);
    expect(first).toMatchObject({ kind: "reminder", channel: "email", locale: "en", recipient: "juan@example.ph" });
    expect(first!.subject).toBe("Reminder from Kape ni Juan: ₱1,234.50 due in 3 days");
    expect(first!.body).toContain(`Pay your invoice: ${late.invoice.hostedInvoiceUrl}`);
    // Run again at the same time: nothing more.
    expect(await runAt(-3)).toMatchObject({ remindersSent: 0 });

    expect(await runAt(0)).toMatchObject({ periodsClosed: 2, remindersSent: 2 });
    const paid = await post(`/api/v1/payments/test-helpers/invoices/${payer.invoice.invoiceId}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body.data.nextDunningAt).toBeUndefined();

    expect(await runAt(3)).toMatchObject({ remindersSent: 1, finalActions: 0 });
    expect(await runAt(7)).toMatchObject({ periodsClosed: 2, finalActions: 1 });

    const subjects = (await reminders(late.invoice.invoiceId)).map((message) => message.subject.replace("Reminder from Kape ni Juan: ₱1,234.50 ", ""));
    expect(subjects).toEqual(["due in 3 days", "due today", "overdue by 3 days", "overdue by 7 days"]);
    expect((await reminders(payer.invoice.invoiceId)).map((message) => message.subject)).toEqual([
      "Reminder from Kape ni Juan: ₱1,234.50 due in 3 days",
      "Reminder from Kape ni Juan: ₱1,234.50 due today",
    ]);

    const announced = await eventually(async () => {
      const found = await eventsOf("invoice.reminder_sent", late.invoice.invoiceId);
      return found.length >= 4 ? found : undefined;
    });
    expect(announced.map((event) => event.data.dunningStep).sort()).toEqual([1, 2, 3, 4]);
    expect(await eventsOf("invoice.reminder_sent", payer.invoice.invoiceId)).toHaveLength(2);

    expect((await get(`/api/v1/payments/subscriptions/${late.subscriptionId}`)).body.data.status).toBe("unpaid");
    const [unpaidEvent] = await eventually(async () => {
      const found = await eventsOf("subscription.unpaid", late.subscriptionId);
      return found.length > 0 ? found : undefined;
    });
    expect(unpaidEvent!.data).toMatchObject({ subscriptionId: late.subscriptionId, status: "unpaid" });
    expect((await get(`/api/v1/payments/subscriptions/${payer.subscriptionId}`)).body.data.status).not.toBe("unpaid");

    // Unpaid: no new period is billed (periods 2 and 3 were, at days 0 and 7), and the advance helper refuses.
    const invoicesOf = async () => (await get(`/api/v1/payments/subscriptions/${late.subscriptionId}/invoices`)).body.data as Json[];
    expect((await invoicesOf()).map((invoice) => invoice.status)).toEqual(["past_due", "past_due", "open"]);
    await runAt(30);
    expect(await invoicesOf()).toHaveLength(3);
    expectError(await post(`/api/v1/payments/test-helpers/subscriptions/${late.subscriptionId}/advance`), 409, "INVALID_STATE_TRANSITION");
  });

  it("takes a project's own schedule, refuses a bad one naming the field, and runs the clock in test mode only", async () => {
    const settings = `/admin/v1/projects/${project.projectId}/billing-settings`;
    const bad = await api.admin("PUT", settings, { smsEnabled: false, dunning: { steps: [{ offsetDays: 3 }, { offsetDays: 1 }] } });
    expectError(bad, 400, "VALIDATION_FAILED");
    expect(JSON.stringify(bad.body)).toContain("dunning.steps[1].offsetDays");
    expectError(await api.admin("PUT", settings, { smsEnabled: false, dunning: { steps: [{ offsetDays: 61 }] } }), 400, "VALIDATION_FAILED");
    expect((await api.admin("GET", settings)).body.data.dunning.finalAction).toBe("mark_unpaid");

    const put = await api.admin("PUT", settings, { smsEnabled: false, dunning: { steps: [{ offsetDays: 1 }], finalAction: "cancel" } });
    expect(put.status).toBe(200);
    expect(put.body.data.dunning).toEqual({ steps: [{ offsetDays: 1 }], finalAction: "cancel" });
    const { subscriptionId, invoice } = await subscribe("pedro@example.ph");
    expect(Date.parse(invoice.nextDunningAt)).toBe(Date.parse(invoice.periodEnd) + DAY_MS);
    // Its one step, a day after the due date, is the last: the subscription is cancelled, what is unpaid void.
    const run = await post("/api/v1/payments/test-helpers/billing-clock/run", { at: new Date(Date.parse(invoice.nextDunningAt) + 1_000).toISOString() });
    expect(run.status).toBe(200);
    expect(run.body.data.finalActions).toBeGreaterThanOrEqual(1);
    expect((await get(`/api/v1/payments/subscriptions/${subscriptionId}`)).body.data.status).toBe("cancelled");
    const voided = (await get(`/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as Json[];
    expect(voided.map((each) => each.status)).toEqual(["void", "void"]);
    expect((await reminders(invoice.invoiceId)).map((message) => message.subject)).toEqual(["Reminder from Kape ni Juan: ₱1,234.50 overdue by 1 day"]);

    const live = await api.request("POST", "/api/v1/payments/test-helpers/billing-clock/run", { body: {}, credential: project.liveKey });
    expectError(live, 403, "TEST_MODE_ONLY");
    const tooFar = await post("/api/v1/payments/test-helpers/billing-clock/run", { at: new Date(Date.now() + 800 * DAY_MS).toISOString() });
    expectError(tooFar, 400, "VALIDATION_FAILED");
  });
});
