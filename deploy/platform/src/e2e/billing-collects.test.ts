import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Billing that collects, end to end and across a restart (issue 44's story): subscriptions with a
 * trial, their first invoices delivered to the development outbox in Filipino and in English once
 * the trial ends, reminders on schedule while the billing clock runs, the final action taken on
 * the one left unpaid, a late payment stopping the other's schedule, and no message sent twice
 * though the platform was stopped and started again on the same DATA_DIR in between.
 */

type Json = Record<string, any>;
const DAY_MS = 24 * 60 * 60 * 1000;
const dataDir = mkdtempSync(join(tmpdir(), "bayad-billing-collects-"));
// The same keys on both starts: the admin key, and SECRETS_KEY that seals the outbox.
const env = {
  ADMIN_API_KEY: `adm_test_${randomBytes(16).toString("hex")}`,
  SECRETS_KEY: randomBytes(32).toString("hex"),
  BILLING_MESSAGES_INTERVAL_MS: "100",
};
let api: TestPlatform | undefined;

afterAll(async () => {
  await api?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("billing that collects", () => {
  it("trial → invoice in both languages → reminders → final action, a late payment stopping the schedule, nothing sent twice across a restart", async () => {
    api = await startTestPlatform(env, { dataDir });
    const project = await api.newProject("Kape ni Juan");
    const key = project.testKey;
    const post = (path: string, body: Json = {}) => api!.request("POST", path, { body, credential: key });
    const get = (path: string) => api!.request("GET", path, { credential: key });
    const messages = async (kind: string, invoiceId: string) => {
      const listed = await api!.admin("GET", `/admin/v1/messages?projectId=${project.projectId}&kind=${kind}`);
      expect(listed.status).toBe(200);
      return (listed.body.data as Json[]).filter((message) => message.resourceId === invoiceId).reverse();
    };

    const plan = await post("/api/v1/payments/plans", { name: "Kape Club", amount: 499_00, interval: "monthly", trialDays: 14 });
    expect(plan.status).toBe(201);
    async function subscribe(email: string, locale: "fil" | "en") {
      const customer = await post("/api/v1/payments/customers", { customerReference: unique("member"), email, name: "Suki", locale });
      expect(customer.status).toBe(201);
      const created = await post("/api/v1/payments/subscriptions", { customerId: customer.body.data.customerId, referenceId: unique("club"), priceId: plan.body.data.planId });
      expect(created.status).toBe(201);
      expect(created.body.data.status).toBe("trialing");
      const subscriptionId = created.body.data.subscriptionId as string;
      // Nothing billed in the trial; the test helper ends it now, and the first invoice opens.
      expect((await get(`/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data).toEqual([]);
      const advanced = await post(`/api/v1/payments/test-helpers/subscriptions/${subscriptionId}/advance`);
      expect(advanced.status).toBe(200);
      const [invoice] = (await get(`/api/v1/payments/subscriptions/${subscriptionId}/invoices`)).body.data as Json[];
      expect(invoice).toMatchObject({ status: "open", amount: { amountMinor: 499_00 } });
      return { subscriptionId, invoice: invoice! };
    }
    const filipino = await subscribe("maria@example.ph", "fil");
    const english = await subscribe("juan@example.ph", "en");

    const [toMaria] = await eventually(async () => {
      const sent = await messages("invoice", filipino.invoice.invoiceId);
      return sent.length > 0 ? sent : undefined;
    });
    expect(toMaria).toMatchObject({ channel: "email", locale: "fil", recipient: "maria@example.ph" });
    expect(toMaria!.body).toContain(filipino.invoice.hostedInvoiceUrl);
    expect(toMaria!.body).toContain("₱499.00");
    const [toJuan] = await eventually(async () => {
      const sent = await messages("invoice", english.invoice.invoiceId);
      return sent.length > 0 ? sent : undefined;
    });
    expect(toJuan).toMatchObject({ locale: "en", recipient: "juan@example.ph" });
    expect(toJuan!.subject).not.toBe(toMaria!.subject);

    // Stopped and started again on the same data: the events behind those messages may be
    // delivered again, and the messages must not be.
    await api.close();
    api = await startTestPlatform(env, { dataDir });

    // Both invoices are due at their period's end (a few milliseconds apart): the clock runs just after the later one's steps.
    const due = Math.max(Date.parse(english.invoice.periodEnd), Date.parse(filipino.invoice.periodEnd));
    const runAt = async (offsetDays: number) => {
      const run = await post("/api/v1/payments/test-helpers/billing-clock/run", { at: new Date(due + offsetDays * DAY_MS + 1_000).toISOString() });
      expect(run.status).toBe(200);
      return run.body.data as Json;
    };
    expect(await runAt(-3)).toMatchObject({ remindersSent: 2 });
    expect(await runAt(0)).toMatchObject({ remindersSent: 2 });
    expect(await runAt(3)).toMatchObject({ remindersSent: 2, finalActions: 0 });
    // Maria pays late, after her third reminder: her schedule stops there.
    const paid = await post(`/api/v1/payments/test-helpers/invoices/${filipino.invoice.invoiceId}/pay`);
    expect(paid.status).toBe(200);
    expect(await runAt(7)).toMatchObject({ remindersSent: 1, finalActions: 1 });

    const reminded = async (invoiceId: string) => (await messages("reminder", invoiceId)).map((message) => message.locale as string);
    expect(await reminded(filipino.invoice.invoiceId)).toEqual(["fil", "fil", "fil"]);
    expect(await reminded(english.invoice.invoiceId)).toEqual(["en", "en", "en", "en"]);
    const status = async (subscriptionId: string) => (await get(`/api/v1/payments/subscriptions/${subscriptionId}`)).body.data.status as string;
    expect(await status(english.subscriptionId)).toBe("unpaid");
    expect(await status(filipino.subscriptionId)).not.toBe("unpaid");

    // Maria's receipt arrives once; and every invoice was sent exactly once, restart or not.
    await eventually(async () => ((await messages("receipt", filipino.invoice.invoiceId)).length > 0 ? true : undefined));
    expect(await messages("receipt", filipino.invoice.invoiceId)).toHaveLength(1);
    expect(await messages("invoice", filipino.invoice.invoiceId)).toHaveLength(1);
    expect(await messages("invoice", english.invoice.invoiceId)).toHaveLength(1);
  }, 60_000);
});
