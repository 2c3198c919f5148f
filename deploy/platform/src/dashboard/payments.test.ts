import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "@bayad/webhooks-service/testing";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseEnvironment, chooseProject, dashboardUrl, openDashboardPath, sessionCookie, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's sign-in and payments pages in Chromium, against a started platform: the admin
 * key exchanged for the session cookie, a paid checkout found by its reference and refunded from
 * its page, the over-refund refused, its consumer events' delivery attempts and a redelivery.
 * The overview, the search and the export: reports.test.ts.
 */

interface FeedRecord {
  type: string;
  id: string;
  referenceId: string | null;
  relatedResourceId: string | null;
  amountMinor: string | null;
  currency: string | null;
  status: string | null;
  createdAt: string;
  environment: string;
  projectId: string;
}

describe.skipIf(!chromiumReady("the dashboard payments tests"))(`dashboard: sign-in and payments in Chromium (${skipReason})`, () => {
  const suite = browserSuite(() => ({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" }));
  let project: { projectId: string; testKey: string; liveKey: string };
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    project = await suite.api.newProject(unique("Dashboard payments"));
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
  });

  /** Every record of the project's test feed with `query`, newest first, as the API answers them. */
  async function feed(query: Record<string, string> = {}): Promise<FeedRecord[]> {
    const records: FeedRecord[] = [];
    let cursor: string | undefined;
    do {
      const search = new URLSearchParams({ ...query, limit: "200", ...(cursor ? { cursor } : {}) });
      const page = await suite.api.request("GET", `/api/v1/payments/records?${search}`, { credential: project.testKey });
      expect(page.status).toBe(200);
      records.push(...(page.body.data.records as FeedRecord[]));
      cursor = page.body.data.nextCursor as string | undefined;
    } while (cursor);
    return records;
  }

  /** Waits until the feed (projected a moment behind) shows `id`, with `status` when given. */
  const projected = (id: string, status?: string) =>
    eventually(async () => (await feed()).find((record) => record.id === id && (status === undefined || record.status === status)));

  it("refuses a wrong admin key: the gateway's error shows, the field is emptied, no session cookie", async () => {
    await suite.browser.context.clearCookies();
    await suite.browser.withPage(async (page) => {
      await page.goto(dashboardUrl(suite.base));
      await page.getByLabel("Admin key", { exact: true }).fill("adm_not_the_key_0123456789");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "INVALID_CREDENTIALS" }).waitFor();
      expect(await page.getByLabel("Admin key", { exact: true }).inputValue()).toBe("");
      expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    });
    expect(await sessionCookie(suite.browser.context, suite.base)).toBeUndefined();
  });

  it("signs in with the admin key: an HttpOnly, SameSite=Strict session cookie with an expiry; the key is kept nowhere", async () => {
    await suite.browser.context.clearCookies();
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      const cookie = await sessionCookie(suite.browser.context, suite.base);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
      expect(cookie?.expires).toBeGreaterThan(Date.now() / 1000);
      const kept = await page.evaluate(() =>
        JSON.stringify([{ ...localStorage }, { ...sessionStorage }, location.href, document.cookie, history.state]),
      );
      expect(kept).not.toContain(suite.api.platform.adminApiKey);
      expect(await page.getByLabel("Admin key", { exact: true }).count()).toBe(0);
    });
  });

  it("finds a paid checkout by its reference, refunds part of it, sees the refund in its refunds and timeline; an over-refund is refused", async () => {
    const checkout = await suite.api.paidCheckout(project.testKey, 1250_00);
    await projected(checkout.checkoutId, "paid");

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await chooseEnvironment(page, "test");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" }).click();
      await page.getByLabel("Reference or id").fill(checkout.referenceId);
      await page.getByRole("button", { name: "Search" }).click();
      const row = page.getByRole("row").filter({ hasText: checkout.checkoutId });
      await row.waitFor();
      expect(await page.getByRole("row").count()).toBe(2); // the header and the checkout
      expect(page.url()).toContain(`reference=${checkout.referenceId}`);
      await row.click();

      await page.getByRole("heading", { name: "Checkout" }).waitFor();
      const details = page.getByRole("region", { name: "Details" });
      await details.getByText("₱1,250.00").waitFor();
      await details.getByText("paid", { exact: true }).waitFor();

      // Amounts the form refuses before asking the gateway.
      const form = page.getByRole("form", { name: "Refund" });
      await page.getByLabel("Amount to refund (₱)").fill("12.345");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await form.getByRole("alert").filter({ hasText: "at most two decimals" }).waitFor();
      await page.getByLabel("Amount to refund (₱)").fill("0.00");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await form.getByRole("alert").filter({ hasText: "more than ₱0.00" }).waitFor();

      await page.getByLabel("Amount to refund (₱)").fill("300.50");
      await page.getByLabel("Reason (optional)").fill("Damaged item");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      const done = page.getByRole("status").filter({ hasText: "Refund ref_" });
      await done.waitFor();
      const refundId = /ref_[A-Za-z0-9_]+/.exec((await done.textContent()) ?? "")?.[0] ?? "";
      expect(await done.textContent()).toContain("₱300.50");

      const refunds = page.getByRole("table", { name: "Refunds" });
      await refunds.getByRole("row").filter({ hasText: refundId }).filter({ hasText: "−₱300.50" }).waitFor();
      await page.getByRole("list", { name: "Timeline" }).getByRole("listitem").filter({ hasText: refundId }).filter({ hasText: "refund requested" }).waitFor();

      const stored = await suite.api.request("GET", `/api/v1/payments/refunds/${refundId}`, { credential: project.testKey });
      expect(stored.body.data).toMatchObject({ paymentId: checkout.checkoutId, amount: { amountMinor: 300_50 }, reason: "Damaged item" });

      // ₱949.50 is left: ₱1,000.00 is more than that.
      await page.getByLabel("Amount to refund (₱)").fill("1000.00");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await form.getByRole("alert").filter({ hasText: "REFUND_EXCEEDS_REFUNDABLE" }).waitFor();
      const refundsNow = await eventually(async () => {
        const list = await feed({ relatedResourceId: checkout.checkoutId, type: "refund" });
        return list.length > 0 ? list : undefined;
      });
      expect(refundsNow.map((refund) => refund.id)).toEqual([refundId]);

      // The sandbox settles the refund: the open page, watching its pending refund, shows the
      // outcome by itself, in the refunds and in the timeline, with no reload.
      const settled = await suite.api.request("POST", `/api/v1/payments/test-helpers/refunds/${refundId}/succeed`, { credential: project.testKey });
      expect(settled.status).toBe(200);
      await refunds.getByRole("row").filter({ hasText: refundId }).filter({ hasText: "succeeded" }).waitFor();
      await page.getByRole("list", { name: "Timeline" }).getByRole("listitem").filter({ hasText: "refund.succeeded" }).waitFor();
      await page.getByRole("list", { name: "Timeline" }).getByRole("listitem").filter({ hasText: "checkout.paid" }).waitFor();
    });
  }, 60_000);

  it("refunds a succeeded payment intent from its page, and opens the refund's own page", async () => {
    const created = await suite.api.request("POST", "/api/v1/payments/intents", {
      credential: project.testKey,
      body: { referenceId: unique("intent"), amount: { amountMinor: 640_00, currency: "PHP" } },
    });
    expect(created.status).toBe(201);
    const intentId = created.body.data.paymentIntentId as string;
    const confirmed = await suite.api.request("POST", `/api/v1/payments/intents/${intentId}/confirm`, { credential: project.testKey });
    expect(confirmed.status).toBe(200);
    const succeeded = await suite.api.request("POST", `/api/v1/payments/test-helpers/intents/${intentId}/succeed`, { credential: project.testKey });
    expect(succeeded.status).toBe(200);

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, `/payments/${intentId}`);
      await page.getByRole("heading", { name: "Payment intent" }).waitFor();
      await page.getByRole("region", { name: "Details" }).getByText("₱640.00").waitFor();
      await page.getByLabel("Amount to refund (₱)").fill("40");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      const done = page.getByRole("status").filter({ hasText: "Refund ref_" });
      await done.waitFor();
      expect(await done.textContent()).toContain("₱40.00");
      const refundId = /ref_[A-Za-z0-9_]+/.exec((await done.textContent()) ?? "")?.[0] ?? "";

      await projected(refundId);
      await page.getByRole("table", { name: "Refunds" }).getByRole("row").filter({ hasText: refundId }).getByRole("link", { name: "Open" }).click();
      await page.getByRole("heading", { name: "Refund" }).waitFor();
      const details = page.getByRole("region", { name: "Details" });
      await details.getByText("−₱40.00").waitFor();
      await details.getByText(intentId).waitFor();
      await page.getByRole("list", { name: "Timeline" }).getByText("Refund created").waitFor();
      expect(await page.getByRole("form", { name: "Refund" }).count()).toBe(0);
    });
  }, 60_000);

  it("retries a refund whose answer was lost with the same Idempotency-Key, so it refunds once; the next refund gets a new key", async () => {
    const checkout = await suite.api.paidCheckout(project.testKey, 200_00);
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, `/payments/${checkout.checkoutId}`);
      const keys: string[] = [];
      let answers = 0;
      // The first refund reaches the gateway, but its answer never reaches the page.
      await page.route("**/api/v1/payments/refunds", async (route) => {
        keys.push((await route.request().headerValue("Idempotency-Key")) ?? "");
        if (answers++ === 0) {
          await route.fetch();
          await route.abort("connectionreset");
        } else await route.continue();
      });

      await page.getByLabel("Amount to refund (₱)").fill("20.00");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await page.getByRole("form", { name: "Refund" }).getByRole("alert").filter({ hasText: "NETWORK_ERROR" }).waitFor();
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      const done = page.getByRole("status").filter({ hasText: "Refund ref_" });
      await done.waitFor();
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);

      await page.getByLabel("Amount to refund (₱)").fill("20.00");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await page.getByRole("table", { name: "Refunds" }).getByRole("row").filter({ hasText: "−₱20.00" }).nth(1).waitFor();
      expect(keys).toHaveLength(3);
      expect(keys[2]).not.toBe(keys[0]);
    });
    const refunds = await eventually(async () => {
      const list = await feed({ relatedResourceId: checkout.checkoutId, type: "refund" });
      return list.length >= 2 ? list : undefined;
    });
    expect(refunds.map((refund) => refund.amountMinor)).toEqual(["-2000", "-2000"]);
  }, 60_000);

  it("shows the events sent about a checkout with every delivery attempt, a failed one's HTTP status too, and redelivers one", async () => {
    const endpoint = await suite.api.request("POST", "/api/v1/webhook-endpoints", {
      credential: project.testKey,
      body: { url: receiver.url, enabledEvents: ["checkout.paid"] },
    });
    expect(endpoint.status).toBe(201);
    receiver.answers.push(500);
    const checkout = await suite.api.paidCheckout(project.testKey, 75_00);
    // The first attempt is answered 500, the immediate retry 200.
    const eventId = await eventually(async () => {
      const events = await suite.api.request("GET", `/api/v1/events?resourceId=${checkout.checkoutId}`, { credential: project.testKey });
      const id = events.body.data.events[0]?.id as string | undefined;
      return id && receiver.deliveriesOf(id).length === 2 ? id : undefined;
    });
    await eventually(async () => {
      const attempts = await suite.api.request("GET", `/api/v1/webhook-endpoints/${endpoint.body.data.webhookEndpointId}/deliveries?eventId=${eventId}`, {
        credential: project.testKey,
      });
      return attempts.body.data.deliveries.every((attempt: { status: string }) => attempt.status !== "pending") ? true : undefined;
    });

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, `/payments/${checkout.checkoutId}`);
      const event = page.getByRole("region", { name: "Event checkout.paid" });
      await event.getByText(eventId, { exact: true }).waitFor();
      const attempts = event.getByRole("table", { name: `Delivery attempts of ${eventId}` });
      await attempts.getByRole("row").filter({ hasText: "HTTP 500" }).filter({ hasText: "failed" }).waitFor();
      await attempts.getByRole("row").filter({ hasText: "HTTP 200" }).filter({ hasText: "succeeded" }).waitFor();

      await event.getByRole("button", { name: `Redeliver to ${receiver.url}` }).click();
      await event.getByRole("status").filter({ hasText: "Redelivery scheduled" }).waitFor();
      await attempts.getByRole("row").filter({ hasText: "(redelivery)" }).waitFor();
      await eventually(async () => (receiver.deliveriesOf(eventId).length === 3 ? true : undefined));
    });
  }, 60_000);

  it("signs out: the session ends on the server and the sign-in page returns", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      const cookie = await sessionCookie(suite.browser.context, suite.base);
      expect(cookie).toBeDefined();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("Admin key", { exact: true }).waitFor();
      expect(await sessionCookie(suite.browser.context, suite.base)).toBeUndefined();
      const again = await fetch(`${suite.base}/dashboard/api/session`, { headers: { Cookie: `${cookie?.name}=${cookie?.value}` } });
      expect(again.status).toBe(401);
    });
  });
});
