import { describe, expect, it } from "vitest";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * What billing told customers, in the dashboard (Chromium, against a started platform): a
 * test-mode subscription's invoice delivered and reminded by the billing clock shows its messages
 * and reminder steps on the invoice page, the subscription shows `unpaid` and the schedule that
 * applies, and the project's billing settings form saves a schedule and shows the API's refusal
 * beside the field it names.
 */

type Json = Record<string, any>;
const DAY_MS = 24 * 60 * 60 * 1000;

describe.skipIf(!chromiumReady("the dashboard dunning tests"))(`dashboard: customer messages and dunning in Chromium (${skipReason})`, () => {
  const suite = browserSuite(() => ({ BILLING_MESSAGES_INTERVAL_MS: "100" }));

  it("shows an invoice's messages and reminders, an unpaid subscription's schedule, and edits the project's billing settings", async () => {
    const project = await suite.api.newProject(unique("Kape ni Juan"));
    const credential = project.testKey;
    const post = (path: string, body: Json = {}) => suite.api.request("POST", path, { body, credential });
    const plan = await post("/api/v1/payments/plans", { name: "Gold", amount: 1234_50, interval: "monthly" });
    const customer = await post("/api/v1/payments/customers", { customerReference: unique("member"), email: "juan@example.ph", name: "Juan" });
    const created = await post("/api/v1/payments/subscriptions", {
      customerId: customer.body.data.customerId,
      referenceId: unique("membership"),
      priceId: plan.body.data.planId,
    });
    expect(created.status).toBe(201);
    const subscriptionId = created.body.data.subscriptionId as string;
    const invoices = await suite.api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}/invoices`, { credential });
    const invoice = invoices.body.data[0] as Json;
    const messagesOf = async (kind: string) => {
      const listed = await suite.api.admin("GET", `/admin/v1/messages?projectId=${project.projectId}&kind=${kind}`);
      expect(listed.status).toBe(200);
      return (listed.body.data as Json[]).filter((message) => message.resourceId === invoice.invoiceId);
    };
    // The invoice is delivered when it opens; then the clock reminds 3 days before it is due, and 7 days after (the last step: unpaid).
    const [sent] = await eventually(async () => ((await messagesOf("invoice")).length > 0 ? messagesOf("invoice") : undefined));
    const due = Date.parse(invoice.periodEnd);
    for (const offsetDays of [-3, 7]) {
      const run = await post("/api/v1/payments/test-helpers/billing-clock/run", { at: new Date(due + offsetDays * DAY_MS + 1_000).toISOString() });
      expect(run.status).toBe(200);
    }
    const reminders = await messagesOf("reminder");
    expect(reminders).toHaveLength(2);
    await eventually(async () => {
      const page = await suite.api.request("GET", `/api/v1/events?type=invoice.reminder_sent&resourceId=${invoice.invoiceId}`, { credential });
      return page.body.data.events.length === 2 ? true : undefined;
    });
    expect((await suite.api.request("GET", `/api/v1/payments/subscriptions/${subscriptionId}`, { credential })).body.data.status).toBe("unpaid");

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);

      // The subscription: unpaid, and the schedule that applies (the defaults).
      await openDashboardPath(page, suite.base, `/subscriptions/${subscriptionId}`);
      const fields = page.getByLabel("Subscription", { exact: true });
      await fields.getByText("unpaid", { exact: true }).waitFor();
      await fields.getByText("Reminders 3 days before, on the day, 3 and 7 days after; then mark unpaid.").waitFor();

      // The invoice: past due, its timeline with the invoice message and both reminders as the outbox holds them.
      await page.getByRole("table", { name: "Invoices" }).getByRole("row").filter({ hasText: invoice.invoiceId }).click();
      await page.getByRole("heading", { name: "Invoice", exact: true }).waitFor();
      await page.getByLabel("Invoice", { exact: true }).getByText("past due", { exact: true }).waitFor();
      const timeline = page.getByRole("list", { name: "Invoice timeline" });
      const invoiceSent = timeline.getByRole("listitem").filter({ hasText: "Invoice sent" });
      await invoiceSent.filter({ hasText: `by e-mail to ${sent!.recipient}` }).filter({ hasText: "in English" }).waitFor();
      const reminderItems = timeline.getByRole("listitem").filter({ hasText: "Reminder sent" });
      await reminderItems.filter({ hasText: reminders.find((message) => message.subject.endsWith("due in 3 days"))!.subject }).waitFor();
      await reminderItems.filter({ hasText: reminders.find((message) => message.subject.endsWith("overdue by 7 days"))!.subject }).waitFor();
      expect(await reminderItems.count()).toBe(2);
      await timeline.getByRole("listitem").filter({ hasText: "Reminder step 1 taken" }).waitFor();
      await timeline.getByRole("listitem").filter({ hasText: "the last step: the schedule's final action follows" }).waitFor();
      await timeline.getByRole("listitem").filter({ hasText: "not paid by then: past due" }).waitFor();
      // Oldest first: opened, the invoice message, then the reminders in the order sent (the clock's runs here were
      // moments apart in real time, so the due date, a month ahead, comes after them).
      const items = await timeline.getByRole("listitem").allTextContents();
      const at = (text: string) => items.findIndex((item) => item.includes(text));
      expect(items[0]).toContain("Opened");
      expect(at("Invoice sent")).toBeLessThan(at("due in 3 days"));
      expect(at("due in 3 days")).toBeLessThan(at("overdue by 7 days"));

      // The project's billing settings: save a schedule of its own.
      await openDashboardPath(page, suite.base, `/projects/${project.projectId}`);
      const section = page.getByRole("region", { name: "Billing" });
      await section.getByLabel("Billing settings").getByText("Reminders 3 days before, on the day, 3 and 7 days after; then mark unpaid.").waitFor();
      await section.getByRole("button", { name: "Edit billing settings" }).click();
      const form = section.getByRole("form", { name: "Edit billing settings" });
      await form.getByRole("checkbox", { name: /Also send an SMS/ }).check();
      await form.getByLabel(/^Default language/).selectOption("fil");
      await form.getByLabel(/^Support contact/).fill("help@kape.ph");
      await form.getByRole("button", { name: "Remove step 4" }).click();
      await form.getByLabel("Step 1", { exact: true }).fill("-5");
      await form.getByLabel(/^After the last reminder/).selectOption("cancel");
      await form.getByRole("button", { name: "Save billing settings" }).click();
      await section.getByRole("status").filter({ hasText: "Billing settings saved." }).waitFor();
      const shown = section.getByLabel("Billing settings");
      await shown.getByText("Reminders 5 days before, on the day, 3 days after; then cancel the subscription.").waitFor();
      await shown.getByText("Filipino").waitFor();
      await shown.getByText("help@kape.ph").waitFor();
      const settingsPath = `/admin/v1/projects/${project.projectId}/billing-settings`;
      const stored = { smsEnabled: true, defaultLocale: "fil", supportContact: "help@kape.ph", dunning: { steps: [{ offsetDays: -5 }, { offsetDays: 0 }, { offsetDays: 3 }], finalAction: "cancel" } };
      expect((await suite.api.admin("GET", settingsPath)).body.data).toMatchObject(stored);

      // Refusals, beside the field each names; nothing is written. Out of range (the gateway's schema), then out of order (billing's check).
      await section.getByRole("button", { name: "Edit billing settings" }).click();
      await form.getByLabel("Step 3", { exact: true }).fill("61");
      await form.getByRole("button", { name: "Save billing settings" }).click();
      const step3 = form.getByLabel("Step 3", { exact: true });
      await form.locator("#billing-step-2-problem").filter({ hasText: "60" }).waitFor();
      expect(await step3.getAttribute("aria-invalid")).toBe("true");
      expect(await step3.getAttribute("aria-describedby")).toBe("billing-step-2-problem");
      await step3.fill("3");
      await form.getByLabel("Step 2", { exact: true }).fill("-7");
      await form.getByRole("button", { name: "Save billing settings" }).click();
      await form.locator("#billing-step-1-problem").filter({ hasText: "must be later than the step before it" }).waitFor();
      await form.getByRole("alert").filter({ hasText: "VALIDATION_FAILED" }).waitFor();
      expect(await form.getByLabel("Step 2", { exact: true }).getAttribute("aria-invalid")).toBe("true");
      expect(await form.getByLabel("Step 3", { exact: true }).getAttribute("aria-invalid")).toBeNull();
      expect((await suite.api.admin("GET", settingsPath)).body.data).toMatchObject(stored);
      await form.getByRole("button", { name: "Cancel" }).click();
      await shown.getByText("Reminders 5 days before, on the day, 3 days after; then cancel the subscription.").waitFor();
    });
  }, 90_000);
});
