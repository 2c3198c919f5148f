import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InThreadPlatform } from "@bayad/platform";
import { Bayad, BayadError } from "./index.js";
import { startTestPlatform, unique } from "./test-support/platform.js";

/** The SDK against the whole platform started in this process, as a consumer service would use it. */
describe("@bayad/sdk against the platform", () => {
  let platform: InThreadPlatform;
  let bayad: Bayad;

  beforeAll(async () => {
    platform = await startTestPlatform();
    bayad = new Bayad({ apiKey: platform.testApiKey, baseUrl: platform.gatewayUrl });
  });
  afterAll(() => platform?.close());

  it("creates a checkout, pays it through the test helper and refunds part of it, in ten lines", async () => {
    const checkout = await bayad.checkouts.create({
      referenceId: unique("order"),
      amount: { amountMinor: 1500_00, currency: "PHP" },
      successUrl: "https://shop.example.ph/paid",
      cancelUrl: "https://shop.example.ph/cart",
    });
    const paid = await bayad.testHelpers.checkouts.pay(checkout.checkoutId);
    const refund = await bayad.refunds.create({ paymentId: paid.checkoutId, amount: { amountMinor: 500_00, currency: "PHP" } });

    expect(checkout.status).toBe("pending");
    expect(paid.status).toBe("paid");
    expect(refund).toMatchObject({ paymentId: checkout.checkoutId, status: "pending", amount: { amountMinor: 500_00, currency: "PHP" } });
    expect((await bayad.refunds.get(refund.refundId)).refundId).toBe(refund.refundId);
    expect((await bayad.checkouts.getByReference(checkout.referenceId)).status).toBe("paid");
  });

  it("creates a GCash payment intent paid by redirect, typed with its nextAction, and pays it through the test helper", async () => {
    const intent = await bayad.paymentIntents.create({
      referenceId: unique("wallet"),
      amount: { amountMinor: 900_00, currency: "PHP" },
      paymentMethod: { type: "gcash" },
      returnUrl: "https://shop.example.ph/orders/9",
    });
    expect(intent).toMatchObject({ status: "requires_action", paymentMethod: { type: "gcash" }, nextAction: { type: "redirect" } });
    expect(new URL(intent.nextAction!.url).pathname).toBe(`/sandbox/intents/${intent.paymentIntentId}`);
    expect((await bayad.testHelpers.paymentIntents.succeed(intent.paymentIntentId)).status).toBe("succeeded");
  });

  it("answers a checkout whose provider session is still being confirmed (202) as the checkout itself", async () => {
    const referenceId = unique("late");
    // The sandbox's late provider (1408 centavos) answers 202 with a PendingResource.
    const statuses: number[] = [];
    const watched = new Bayad({
      apiKey: platform.testApiKey,
      baseUrl: platform.gatewayUrl,
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        return response;
      },
    });
    const checkout = await watched.checkouts.create({ referenceId, amount: { amountMinor: 1408, currency: "PHP" }, successUrl: "https://a.ph/ok", cancelUrl: "https://a.ph/no" });
    expect(statuses).toEqual([202, 200]);
    expect(checkout.checkoutId).toMatch(/^chk_/);
    expect(checkout.referenceId).toBe(referenceId);
    expect(["created", "pending"]).toContain(checkout.status);
  });

  it("answers a 400 as a BayadError with its code, status, details and correlation id", async () => {
    const error = await bayad.checkouts
      .create({ referenceId: unique("bad"), amount: { amountMinor: -1, currency: "PHP" }, successUrl: "https://a.ph/ok", cancelUrl: "https://a.ph/no" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BayadError);
    const bayadError = error as BayadError;
    expect(bayadError.code).toBe("VALIDATION_FAILED");
    expect(bayadError.status).toBe(400);
    expect(bayadError.details.some((detail) => detail.includes("amount"))).toBe(true);
    expect(bayadError.correlationId).toMatch(/.+/);
  });

  it("answers a 404 as a BayadError, with the X-Correlation-Id it was sent", async () => {
    const traced = new Bayad({ apiKey: platform.testApiKey, baseUrl: platform.gatewayUrl, headers: { "X-Correlation-Id": "sdk-test-404" } });
    const error = (await traced.checkouts.get("chk_doesnotexist").catch((caught: unknown) => caught)) as BayadError;
    expect(error).toBeInstanceOf(BayadError);
    expect(error).toMatchObject({ code: "RESOURCE_NOT_FOUND", status: 404, correlationId: "sdk-test-404" });
  });

  it("answers a bad credential as a BayadError 401 without retrying it", async () => {
    const stranger = new Bayad({ apiKey: "sk_test_notakey", baseUrl: platform.gatewayUrl, onRetry: () => expect.fail("a 401 is not retried") });
    await expect(stranger.capabilities.get()).rejects.toMatchObject({ code: "INVALID_CREDENTIALS", status: 401 });
  });

  it("iterates the records feed over more than one page", async () => {
    const project = await newProject(platform);
    const scoped = new Bayad({ apiKey: project, baseUrl: platform.gatewayUrl });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const checkout = await scoped.checkouts.create({
        referenceId: unique("feed"),
        amount: { amountMinor: 100_00 + i, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
      });
      made.push(checkout.checkoutId);
    }
    // Records are projected from events: wait until the feed has all five, then walk it two by two.
    const pages = await waitFor(async () => {
      const seen = [];
      for await (const page of scoped.records.list({ type: "checkout", limit: 2 }).pages()) seen.push(page);
      return seen.flatMap((page) => page.items).length === 5 ? seen : undefined;
    });
    expect(pages.length).toBe(3);
    const ids: string[] = [];
    for await (const record of scoped.records.list({ type: "checkout", limit: 2 })) ids.push(record.id);
    expect(ids.sort()).toEqual([...made].sort());
  });

  it("iterates the lists the API does not page as one page", async () => {
    const plan = await bayad.plans.create({ name: unique("Gold"), amount: 499_00, interval: "monthly" });
    const link = await bayad.paymentLinks.create({ referenceId: unique("link"), amount: { amountMinor: 250_00, currency: "PHP" }, description: "Tickets" });
    expect((await bayad.plans.list().toArray()).map((p) => p.planId)).toContain(plan.planId);
    const links = [];
    for await (const each of bayad.paymentLinks.list()) links.push(each.paymentLinkId);
    expect(links).toContain(link.paymentLinkId);
    expect((await bayad.paymentLinks.setArchived(link.paymentLinkId, true)).status).toBe("archived");
  });

  it("takes the caller's own Idempotency-Key: the same key replays the first answer", async () => {
    const body = { customerReference: unique("member"), email: "member@example.ph" };
    const key = `customer-${unique("key")}`;
    const first = await bayad.customers.create(body, { idempotencyKey: key });
    const again = await bayad.customers.create(body, { idempotencyKey: key });
    expect(again.customerId).toBe(first.customerId);
    await expect(bayad.customers.create(body)).rejects.toMatchObject({ code: "RESOURCE_ALREADY_EXISTS", status: 409 });
  });
});

/** A new project's test key, so that a list sees only what the test made. */
async function newProject(platform: InThreadPlatform): Promise<string> {
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${platform.adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { data: Record<string, string> }).data;
  };
  const project = await admin("/admin/v1/projects", { name: unique("sdk") });
  const key = await admin(`/admin/v1/projects/${project.projectId}/api-keys`, { environment: "test" });
  return key.apiKey!;
}

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met before the deadline");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
