import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";

/**
 * Invoices delivered to customers (docs/api/billing.md): a test-mode subscription's invoice goes
 * to the development outbox in the customer's language, paying it sends a receipt, and each step
 * is sent once.
 */

let api: TestPlatform;
let project: Awaited<ReturnType<TestPlatform["newProject"]>>;

beforeAll(async () => {
  api = await startTestPlatform({ BILLING_MESSAGES_INTERVAL_MS: "100" });
  project = await api.newProject("Kape ni Juan");
});

afterAll(async () => {
  await api?.close();
});

type DevMessage = Record<string, string>;

const outbox = async (kind?: string) => {
  const query = new URLSearchParams({ projectId: project.projectId, ...(kind ? { kind } : {}) });
  const listed = await api.admin("GET", `/admin/v1/messages?${query}`);
  expect(listed.status).toBe(200);
  return listed.body.data as DevMessage[];
};

async function subscribe(customer: Record<string, unknown>) {
  const credential = project.testKey;
  const plan = await api.request("POST", "/api/v1/payments/plans", { body: { name: "Gold", amount: 123_450, interval: "monthly" }, credential });
  const customerId = (
    await api.request("POST", "/api/v1/payments/customers", { body: { customerReference: unique("member"), ...customer }, credential })
  ).body.data.customerId as string;
  const created = await api.request("POST", "/api/v1/payments/subscriptions", {
    body: { customerId, referenceId: unique("membership"), priceId: plan.body.data.planId },
    credential,
  });
  expect(created.status).toBe(201);
  const invoices = await api.request("GET", `/api/v1/payments/subscriptions/${created.body.data.subscriptionId}/invoices`, { credential });
  return invoices.body.data[0] as Record<string, any> & { invoiceId: string; hostedInvoiceUrl: string };
}

describe("invoices delivered to customers", () => {
  it("sends the first invoice to the development outbox in English and in Filipino, and a receipt once it is paid, each once", async () => {
    const settings = await api.admin("PUT", `/admin/v1/projects/${project.projectId}/billing-settings`, {
      smsEnabled: false,
      supportContact: "help@kape.ph",
    });
    expect(settings.status).toBe(200);
    expect(settings.body.data).toEqual({
      projectId: project.projectId,
      smsEnabled: false,
      defaultLocale: "en",
      supportContact: "help@kape.ph",
      dunning: { steps: [{ offsetDays: -3 }, { offsetDays: 0 }, { offsetDays: 3 }, { offsetDays: 7 }], finalAction: "mark_unpaid" },
    });

    const english = await subscribe({ email: "juan@example.ph", name: "Juan" });
    const filipino = await subscribe({ email: "maria@example.ph", locale: "fil", phone: "0918 123 4567" });

    const invoices = await eventually(async () => {
      const held = await outbox("invoice");
      return held.length >= 2 ? held : undefined;
    });
    const toJuan = invoices.find((message) => message.resourceId === english.invoiceId)!;
    expect(toJuan).toMatchObject({ kind: "invoice", channel: "email", locale: "en", projectId: project.projectId, recipient: "juan@example.ph" });
    expect(toJuan.subject).toMatch(/^Invoice from Kape ni Juan: ₱1,234\.50 due /);
    expect(toJuan.body).toContain("Amount due: ₱1,234.50");
    expect(toJuan.body).toContain(`Pay your invoice: ${english.hostedInvoiceUrl}`);
    expect(toJuan.body).toContain("Questions? Contact Kape ni Juan at help@kape.ph.");
    expect(toJuan.html).toContain(`href="${english.hostedInvoiceUrl}"`);

    const toMaria = invoices.find((message) => message.resourceId === filipino.invoiceId)!;
    expect(toMaria).toMatchObject({ kind: "invoice", channel: "email", locale: "fil", recipient: "maria@example.ph" });
    expect(toMaria.subject).toMatch(/^Singil mula sa Kape ni Juan: ₱1,234\.50, bayaran bago ang /);
    expect(toMaria.body).toContain(`Bayaran ang singil: ${filipino.hostedInvoiceUrl}`);
    // SMS is off for this project: Maria's phone gets nothing.
    expect(invoices.filter((message) => message.channel === "sms")).toEqual([]);

    const paid = await api.request("POST", `/api/v1/payments/test-helpers/invoices/${english.invoiceId}/pay`, { credential: project.testKey });
    expect(paid.status).toBe(200);
    const [receipt] = await eventually(async () => {
      const held = await outbox("receipt");
      return held.length > 0 ? held : undefined;
    });
    expect(receipt).toMatchObject({ kind: "receipt", channel: "email", locale: "en", resourceId: english.invoiceId, recipient: "juan@example.ph" });
    expect(receipt!.subject).toBe("Receipt from Kape ni Juan: ₱1,234.50 paid");

    // The retry worker has run many rounds meanwhile: one message per invoice step, no more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = await outbox();
    const steps = all.map((message) => `${message.resourceId}:${message.kind}:${message.channel}`).sort();
    expect(steps).toEqual(
      [`${english.invoiceId}:invoice:email`, `${english.invoiceId}:receipt:email`, `${filipino.invoiceId}:invoice:email`].sort(),
    );
    // The OTP outbox's listing of a recipient is as it was: codes only.
    expect((await api.admin("GET", "/admin/v1/otp/messages?recipient=juan@example.ph")).body.data).toEqual([]);
  });

  it("refuses bad billing settings with 400 naming the field, and an unknown project with 404", async () => {
    const bad = await api.admin("PUT", `/admin/v1/projects/${project.projectId}/billing-settings`, { smsEnabled: true, defaultLocale: "es" });
    expectError(bad, 400, "VALIDATION_FAILED");
    expect(JSON.stringify(bad.body)).toContain("defaultLocale");
    expect((await api.admin("GET", `/admin/v1/projects/${project.projectId}/billing-settings`)).body.data.defaultLocale).toBe("en");
    expectError(await api.admin("GET", "/admin/v1/projects/prj_nosuchproject/billing-settings"), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.admin("GET", `/admin/v1/messages?projectId=${project.projectId}&kind=fax`), 400, "VALIDATION_FAILED");
  });
});
