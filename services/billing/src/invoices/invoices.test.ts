import { describe, expect, it } from "vitest";
import { scenarioMetadataKey } from "@bayad/provider";
import {
  billingFixture,
  caller,
  mutating,
  eventTypes,
  expectOneEventPerChange,
  plan,
  subscribe,
  type BillingFixture,
} from "../test-support/billing-fixture.js";
import { advanceSubscription, cancelSubscription, getSubscription, listSubscriptionInvoices } from "../subscriptions/subscriptions.js";
import { getHostedInvoice, getInvoice, simulateInvoiceOutcome, submitHostedInvoice } from "./invoices.js";

async function subscribed(fixture: BillingFixture, metadata?: Record<string, string>) {
  const subscription = await subscribe(fixture.deps, (await plan(fixture.deps, { metadata }))._id);
  const [invoice] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
  return { subscription, invoice: invoice! };
}

const statusOf = async (fixture: BillingFixture, subscriptionId: string) =>
  (await getSubscription(fixture.deps, caller(), subscriptionId)).status;

describe("paying invoices", () => {
  it("makes the subscription active when its invoice is paid", async () => {
    const fixture = await billingFixture();
    const { subscription, invoice } = await subscribed(fixture);
    expect(await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "pay")).toMatchObject({ status: "paid" });
    expect(await statusOf(fixture, subscription._id)).toBe("active");
    expect(await eventTypes(fixture, subscription._id)).toEqual(["billing.subscription.created", "billing.subscription.active"]);
    await expectOneEventPerChange(fixture);
  });

  it("makes an unpaid closed period's invoice past due, and the subscription with it; paying late makes it active", async () => {
    const fixture = await billingFixture();
    const { subscription, invoice } = await subscribed(fixture);
    await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "pay");
    await advanceSubscription(fixture.deps, mutating(), subscription._id);
    const [, second] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    await advanceSubscription(fixture.deps, mutating(), subscription._id);

    expect(await getInvoice(fixture.deps, caller(), second!._id)).toMatchObject({ status: "past_due" });
    expect(await statusOf(fixture, subscription._id)).toBe("past_due");
    expect(await simulateInvoiceOutcome(fixture.deps, mutating(), second!._id, "pay")).toMatchObject({ status: "paid" });
    expect(await statusOf(fixture, subscription._id)).toBe("active");
    await expectOneEventPerChange(fixture);
  });

  it("makes an open invoice past due on a failed payment and announces every failed attempt as invoice.payment_failed", async () => {
    const fixture = await billingFixture();
    const { subscription, invoice } = await subscribed(fixture);
    const failed = await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "fail");
    expect(failed).toMatchObject({ status: "past_due" });
    expect(await statusOf(fixture, subscription._id)).toBe("past_due");
    const again = await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "fail");
    expect(again).toMatchObject({ status: "past_due", aggregateVersion: failed.aggregateVersion + 1 });
    expect(await eventTypes(fixture, invoice._id)).toEqual([
      "billing.invoice.draft",
      "billing.invoice.open",
      "billing.invoice.payment_failed",
      "billing.invoice.payment_failed",
    ]);
    expect(await statusOf(fixture, subscription._id)).toBe("past_due");
    await expectOneEventPerChange(fixture);
  });

  it("lets the sandbox decline a plan's invoices through the plan's scenario metadata", async () => {
    const fixture = await billingFixture();
    const { invoice } = await subscribed(fixture, { [scenarioMetadataKey]: "decline" });
    expect(await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "pay")).toMatchObject({ status: "past_due" });
  });

  it("answers 409 for paying a paid or void invoice", async () => {
    const fixture = await billingFixture();
    const { subscription, invoice } = await subscribed(fixture);
    await simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "pay");
    await expect(simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
    await expect(simulateInvoiceOutcome(fixture.deps, mutating(), invoice._id, "fail")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });

    await advanceSubscription(fixture.deps, mutating(), subscription._id);
    await cancelSubscription(fixture.deps, mutating(), subscription._id);
    await advanceSubscription(fixture.deps, mutating(), subscription._id);
    const [, voided] = await listSubscriptionInvoices(fixture.deps, caller(), subscription._id);
    expect(voided).toMatchObject({ status: "void" });
    await expect(simulateInvoiceOutcome(fixture.deps, mutating(), voided!._id, "pay")).rejects.toMatchObject({ code: "INVALID_STATE_TRANSITION" });
  });

  it("answers 404 for another project's invoice and TEST_MODE_ONLY in live mode", async () => {
    const fixture = await billingFixture();
    const { invoice } = await subscribed(fixture);
    await expect(getInvoice(fixture.deps, caller("prj_b"), invoice._id)).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(simulateInvoiceOutcome(fixture.deps, mutating("prj_b"), invoice._id, "pay")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    await expect(simulateInvoiceOutcome(fixture.deps, mutating("prj_a", "live"), invoice._id, "pay")).rejects.toMatchObject({ code: "TEST_MODE_ONLY" });
  });
});

describe("the hosted invoice page", () => {
  const tokenOf = (url: string | undefined) => new URL(url!, "http://x").searchParams.get("token")!;

  it("shows the invoice with its plan's name and takes the payer's payment", async () => {
    const fixture = await billingFixture();
    const { subscription, invoice } = await subscribed(fixture);
    const token = tokenOf(invoice.hostedInvoiceUrl);
    const page = await getHostedInvoice(fixture.deps, invoice._id, token);
    expect(page).toMatchObject({ planName: "Gold", invoice: { _id: invoice._id, status: "open", environment: "test" } });
    expect(await submitHostedInvoice(fixture.deps, invoice._id, token, "pay")).toMatchObject({ status: "paid" });
    expect(await statusOf(fixture, subscription._id)).toBe("active");
  });

  it("answers 'No such payment page.' for a wrong token or an unknown invoice", async () => {
    const fixture = await billingFixture();
    const { invoice } = await subscribed(fixture);
    const refusal = { code: "RESOURCE_NOT_FOUND", message: "No such payment page." };
    await expect(getHostedInvoice(fixture.deps, invoice._id, "wrong")).rejects.toMatchObject(refusal);
    await expect(submitHostedInvoice(fixture.deps, invoice._id, "wrong", "pay")).rejects.toMatchObject(refusal);
    await expect(getHostedInvoice(fixture.deps, "inv_unknown", tokenOf(invoice.hostedInvoiceUrl))).rejects.toMatchObject(refusal);
  });
});
