import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { eventually, unique } from "../test-support/harness.js";
import { chooseProject, dashboardUrl, openDashboardPath, signIn } from "../test-support/dashboard.js";

/**
 * Every main page of the dashboard with data in it, at a desk's width and a phone's: each shows
 * its heading and no error, nothing on it breaks the Content-Security-Policy (a library that
 * injects a <style> or runs inline code would), and at 390 px the page does not scroll sideways
 * (wide tables scroll inside their own box). With SCREENSHOTS_DIR set, each page is saved there
 * as a PNG: `SCREENSHOTS_DIR=$PWD/../../gateway/dashboard/screenshots npx vitest run
 * src/dashboard/page-tour.test.ts` from deploy/platform renews the README's pictures.
 */

const screenshotsDir = process.env.SCREENSHOTS_DIR;

describe.skipIf(!chromiumReady("the dashboard page tour"))(`the dashboard's pages in a real browser (${skipReason})`, () => {
  const suite = browserSuite();
  let projectId: string;
  let checkoutId: string;
  let otpId: string;

  beforeAll(async () => {
    const project = await suite.api.newProject("Sari-sari Online");
    projectId = project.projectId;
    const credential = project.testKey;
    const as = (method: string, route: string, body?: unknown) => suite.api.request(method, route, { body, credential });

    for (const amountMinor of [1250_00, 899_50, 2400_00]) await suite.api.paidCheckout(credential, amountMinor);
    checkoutId = (await suite.api.paidCheckout(credential, 1500_00)).checkoutId;
    expect((await as("POST", "/api/v1/payments/refunds", { paymentId: checkoutId, amount: { amountMinor: 300_00, currency: "PHP" }, reason: "requested_by_customer" })).status).toBe(201);
    expect(
      (await as("POST", "/api/v1/payments/payment-links", { referenceId: unique("link"), amount: { amountMinor: 1500_00, currency: "PHP" }, description: "Catering deposit" }))
        .status,
    ).toBe(201);
    const plan = await as("POST", "/api/v1/payments/plans", { name: "Gold membership", amount: 499_00, interval: "monthly" });
    const customer = await as("POST", "/api/v1/payments/customers", { customerReference: unique("member"), email: "member@example.ph" });
    expect(
      (await as("POST", "/api/v1/payments/subscriptions", { customerId: customer.body.data.customerId, referenceId: unique("membership"), priceId: plan.body.data.planId }))
        .status,
    ).toBe(201);
    expect((await as("POST", "/api/v1/webhook-endpoints", { url: "https://shop.example.ph/webhooks", enabledEvents: ["checkout.paid", "refund.succeeded"] })).status).toBe(201);
    // The OTP settings page and the outbox show a Filipino template and the message made from it.
    const otpSettings = { smsCountries: ["PH", "SG"], appName: "Sari-sari Online", templates: { fil: "Ang {app} code mo ay {code}. {minutes} minuto lang ito. Huwag itong ibahagi." } };
    expect((await suite.api.admin("PUT", `/admin/v1/projects/${projectId}/otp-settings/test`, otpSettings)).status).toBe(200);
    const token = await suite.api.serviceToken(projectId, ["otp:generate"]);
    const generated = await suite.api.request("POST", "/api/v1/shared/otp/generate", {
      credential: token,
      body: { recipient: "maria@example.ph", channel: "email", locale: "fil" },
    });
    expect(generated.status).toBe(201);
    otpId = generated.body.data.otpId;
    // The records feed follows the calls by moments.
    await eventually(async () => {
      const page = await as("GET", `/api/v1/payments/records?relatedResourceId=${checkoutId}`);
      return page.body.data.records.length > 0 ? true : undefined;
    });
  });


  const pages = () => [
    { name: "overview", path: "/" },
    { name: "payments", path: "/payments" },
    { name: "payment", path: `/payments/${checkoutId}` },
    { name: "payment-links", path: "/payment-links" },
    { name: "plans", path: "/plans" },
    { name: "subscriptions", path: "/subscriptions" },
    { name: "webhooks", path: "/webhooks" },
    { name: "projects", path: "/projects" },
    { name: "otp-settings", path: "/otp-settings" },
    { name: "outbox", path: "/outbox?recipient=maria%40example.ph" },
  ];

  /** Opens a page and waits until it has loaded (its heading shown, no "Loading …" left). */
  async function open(page: Page, route: string) {
    await openDashboardPath(page, suite.api.platform.gatewayUrl, route);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await expect.poll(() => page.getByText(/^Loading .*…$/).count(), { timeout: 15_000 }).toBe(0);
  }

  it("keeps the admin key nowhere in the browser, and refuses a change sent without the session's CSRF token", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.api.platform.gatewayUrl, suite.api.platform.adminApiKey);
      const kept = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href }));
      expect(kept).not.toContain(suite.api.platform.adminApiKey);
      // The session cookie is HttpOnly: the page's script cannot read it.
      expect(await page.evaluate(() => document.cookie)).not.toContain("bayad_dashboard_session");
      const cookies = JSON.stringify(await suite.browser.context.cookies());
      expect(cookies).not.toContain(suite.api.platform.adminApiKey);
      // What a script of another origin could at best make the browser send: the cookie, no token.
      const attempt = (token?: string) =>
        page.evaluate(
          async ({ projectId, token }) => {
            const response = await fetch("/api/v1/payments/customers", {
              method: "POST",
              headers: {
                "Content-Type": "application/json",
                "Idempotency-Key": crypto.randomUUID(),
                "Bayad-Project": projectId,
                "Bayad-Environment": "test",
                ...(token ? { "X-CSRF-Token": token } : {}),
              },
              body: JSON.stringify({ customerReference: crypto.randomUUID(), email: "csrf@example.ph" }),
            });
            return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
          },
          { projectId, token },
        );
      const refused = await attempt();
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe("CSRF_TOKEN_INVALID");
      // The same request with the token the page reads from its session is accepted.
      const token = await page.evaluate(async () => ((await (await fetch("/dashboard/api/session")).json()) as { data: { csrfToken: string } }).data.csrfToken);
      expect((await attempt(token)).status).toBe(201);
    });
  });

  it("shows a developer the OTP code in the development outbox, and the code verifies", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.api.platform.gatewayUrl, suite.api.platform.adminApiKey);
      await chooseProject(page, projectId);
      await open(page, "/outbox");
      await page.getByLabel("Recipient").fill("maria@example.ph");
      await page.getByRole("button", { name: "Show messages" }).click();
      const message = page.getByRole("article", { name: "Message to maria@example.ph" });
      await message.waitFor();
      const code = (await message.locator(".outbox-code code").textContent()) ?? "";
      expect(code).toMatch(/^\d{4,10}$/);
      const verifier = await suite.api.serviceToken(projectId, ["otp:verify"]);
      const verified = await suite.api.request("POST", "/api/v1/shared/otp/verify", { credential: verifier, body: { otpId, code } });
      expect(verified.status).toBe(200);
      expect(verified.body.data.verified).toBe(true);
    });
  });

  for (const width of [1280, 390]) {
    it(`shows every page without errors or CSP violations at ${width} px`, async () => {
      await suite.browser.withPage(async (page) => {
        const violations: string[] = [];
        page.on("console", (message) => {
          if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
        });
        page.on("pageerror", (error) => violations.push(`page error: ${error.message}`));
        await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
        await signIn(page, suite.api.platform.gatewayUrl, suite.api.platform.adminApiKey);
        await chooseProject(page, projectId);

        for (const { name, path: route } of pages()) {
          await open(page, route);
          expect(await page.getByRole("alert").count(), `${name}: an error is shown`).toBe(0);
          if (width < 600) {
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
          }
          if (screenshotsDir) {
            fs.mkdirSync(screenshotsDir, { recursive: true });
            await page.screenshot({ path: path.join(screenshotsDir, `${name}${width < 600 ? "-phone" : ""}.png`), fullPage: width > 600 });
          }
        }
        expect(violations).toEqual([]);
        expect(page.url().startsWith(dashboardUrl(suite.api.platform.gatewayUrl, "/"))).toBe(true);
      });
    });
  }
});
