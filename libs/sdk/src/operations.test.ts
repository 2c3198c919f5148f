import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Bayad } from "./index.js";

/**
 * Every public operation of the OpenAPI document (`/api/v1`, not `/admin`) has an SDK method: each
 * method is called against a stand-in fetch that records what it was asked, and the requests made
 * must be exactly the document's operations, mutations with an Idempotency-Key. An operation added
 * to the document without a method fails here.
 */
const document = parse(readFileSync(new URL("../../../gateway/openapi/openapi.yaml", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
const methods = ["get", "post", "put", "patch", "delete"];
const publicOperations = Object.entries(document.paths)
  .filter(([path]) => path.startsWith("/api/v1/"))
  .flatMap(([path, operations]) => methods.filter((method) => operations[method]).map((method) => ({ method: method.toUpperCase(), path })));

interface Recorded {
  method: string;
  path: string;
  idempotencyKey: string | null;
}

function recordingClient(): { bayad: Bayad; recorded: Recorded[] } {
  const recorded: Recorded[] = [];
  const bayad = new Bayad({
    apiKey: "sk_test_stand_in",
    baseUrl: "http://bayad.invalid",
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      recorded.push({ method: request.method, path: pathname, idempotencyKey: request.headers.get("idempotency-key") });
      const unpaged = request.method === "GET" && /\/(plans|payment-links|invoices)$/.test(pathname);
      const data = unpaged ? [] : { checkoutId: "chk_1", records: [], events: [], webhookEndpoints: [], deliveries: [] };
      return Response.json({ success: true, data });
    },
  });
  return { bayad, recorded };
}

function templateOf(recorded: Recorded): string | undefined {
  return publicOperations.find(
    (operation) =>
      operation.method === recorded.method &&
      new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(recorded.path) &&
      // A literal segment wins over a parameter (checkouts/by-reference/… is not checkouts/{checkoutId}).
      !publicOperations.some((other) => other !== operation && other.method === recorded.method && other.path.length > operation.path.length && new RegExp(`^${other.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(recorded.path)),
  )?.path;
}

describe("coverage of the OpenAPI document", () => {
  it("has a method for every public operation, and sends an Idempotency-Key with every mutation", async () => {
    const { bayad, recorded } = recordingClient();
    const money = { amountMinor: 100_00, currency: "PHP" as const };
    const calls: Array<() => Promise<unknown>> = [
      () => bayad.checkouts.create({ referenceId: "r", amount: money, successUrl: "https://a.ph/ok", cancelUrl: "https://a.ph/no" }),
      () => bayad.checkouts.get("chk_1"),
      () => bayad.checkouts.getByReference("order 1/2"),
      () => bayad.checkouts.cancel("chk_1"),
      () => bayad.testHelpers.checkouts.pay("chk_1"),
      () => bayad.testHelpers.checkouts.fail("chk_1"),
      () => bayad.testHelpers.checkouts.expire("chk_1"),
      () => bayad.testHelpers.paymentIntents.succeed("pi_1"),
      () => bayad.testHelpers.paymentIntents.fail("pi_1"),
      () => bayad.testHelpers.refunds.succeed("ref_1"),
      () => bayad.testHelpers.refunds.fail("ref_1"),
      () => bayad.testHelpers.subscriptions.advance("sub_1"),
      () => bayad.testHelpers.billingClock.run(new Date("2027-03-07T04:00:00Z")),
      () => bayad.testHelpers.invoices.pay("inv_1"),
      () => bayad.testHelpers.invoices.fail("inv_1"),
      () => bayad.testHelpers.paymentLinks.pay("link_1"),
      () => bayad.paymentIntents.create({ referenceId: "r", amount: money }),
      () => bayad.paymentIntents.createQrPh({ referenceId: "r", amount: money }),
      () => bayad.paymentIntents.get("pi_1"),
      () => bayad.paymentIntents.confirm("pi_1"),
      () => bayad.paymentIntents.cancel("pi_1"),
      () => bayad.customers.create({ customerReference: "c", email: "c@example.ph" }),
      () => bayad.customers.get("cus_1"),
      () => bayad.refunds.create({ paymentId: "chk_1", amount: money }),
      () => bayad.refunds.get("ref_1"),
      () => bayad.subscriptions.create({ customerId: "cus_1", referenceId: "r", priceId: "plan_1" }),
      () => bayad.subscriptions.get("sub_1"),
      () => bayad.subscriptions.cancel("sub_1"),
      () => bayad.subscriptions.changePlan("sub_1", { priceId: "plan_2", prorate: "now" }),
      () => bayad.subscriptions.previewPlanChange("sub_1", { priceId: "plan_2", prorate: "at_period_end" }),
      () => bayad.subscriptions.listInvoices("sub_1").toArray(),
      () => bayad.invoices.get("inv_1"),
      () => bayad.records.list().toArray(),
      () => bayad.records.export({ customerId: "cus_1" }),
      () => bayad.reports.summary({ from: "2030-01-01", to: "2030-01-31" }),
      () => bayad.capabilities.get(),
      () => bayad.paymentLinks.list().toArray(),
      () => bayad.paymentLinks.create({ referenceId: "r", amount: money, description: "d" }),
      () => bayad.paymentLinks.get("link_1"),
      () => bayad.paymentLinks.setArchived("link_1", true),
      () => bayad.plans.list().toArray(),
      () => bayad.plans.create({ name: "Gold", amount: 100_00, interval: "monthly" }),
      () => bayad.plans.get("plan_1"),
      () => bayad.webhookEndpoints.list().toArray(),
      () => bayad.webhookEndpoints.create({ url: "https://a.ph/hook", enabledEvents: ["*"] }),
      () => bayad.webhookEndpoints.get("we_1"),
      () => bayad.webhookEndpoints.update("we_1", { status: "disabled" }),
      () => bayad.webhookEndpoints.delete("we_1"),
      () => bayad.webhookEndpoints.rotateSecret("we_1"),
      () => bayad.webhookEndpoints.sendTest("we_1"),
      () => bayad.webhookEndpoints.listDeliveries("we_1").toArray(),
      () => bayad.webhookEndpoints.redeliver("we_1", "evt_1"),
      () => bayad.events.list().toArray(),
      () => bayad.events.get("evt_1"),
      () => bayad.otp.generate({ recipient: "+639171234567", channel: "sms" }),
      () => bayad.otp.verify({ otpId: "otp_1", code: "123456" }),
      () => bayad.otp.getStatus("otp_1"),
    ];
    for (const call of calls) await call();

    const reached = recorded.map((each) => `${each.method} ${templateOf(each) ?? `(not in the document) ${each.path}`}`);
    expect(new Set(reached)).toEqual(new Set(publicOperations.map((operation) => `${operation.method} ${operation.path}`)));
    expect(reached).toHaveLength(publicOperations.length);
    for (const each of recorded) {
      if (each.method === "GET") expect(each.idempotencyKey).toBeNull();
      else expect(each.idempotencyKey).toMatch(/^.{16,255}$/);
    }
    expect(new Set(recorded.map((each) => each.idempotencyKey).filter(Boolean)).size).toBe(recorded.filter((each) => each.method !== "GET").length);
    expect(recorded.find((each) => each.path.includes("by-reference"))!.path).toBe("/api/v1/payments/checkouts/by-reference/order%201%2F2");
  });
});
