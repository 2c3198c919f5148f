import { describe, expect, it } from "vitest";
import { unique } from "../test-support/harness.js";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";

const intents = "/api/v1/payments/intents";

/**
 * An e-wallet intent in Chromium: the payer presses Pay on the sandbox's redirect page and lands
 * back on the merchant's returnUrl; the dashboard shows the intent's method and, while the payer
 * has yet to act, the page to send them to.
 */
describe.skipIf(!chromiumReady("the browser e-wallet intent tests"))(`e-wallet intents in a real browser (${skipReason})`, () => {
  const suite = browserSuite();

  async function createIntent(credential?: string) {
    // A page of the gateway itself stands in for the merchant's, so the browser can land on it.
    const returnUrl = `${suite.base}/openapi.json?order=${unique("order")}`;
    const created = await suite.api.request("POST", intents, {
      ...(credential ? { credential } : {}),
      body: { referenceId: unique("wallet"), amount: { amountMinor: 1200_00, currency: "PHP" }, paymentMethod: { type: "gcash" }, returnUrl },
    });
    expect(created.status).toBe(201);
    return { ...(created.body.data as { paymentIntentId: string; nextAction: { url: string } }), returnUrl };
  }

  it("pays on the sandbox's redirect page and returns the payer to returnUrl; the API reads it succeeded", async () => {
    const intent = await createIntent();
    await suite.browser.withPage(async (page) => {
      const opened = await page.goto(intent.nextAction.url);
      expect(opened?.status()).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Authorise with GCash");
      expect(await page.locator(".amount").textContent()).toBe("₱1,200.00");
      await page.locator("#pay").click();
      await page.waitForURL(intent.returnUrl);
    });
    const read = await suite.api.request("GET", `${intents}/${intent.paymentIntentId}`);
    expect(read.body.data.status).toBe("succeeded");
  }, 30_000);

  it("the dashboard's payment page shows the method and the payer's page while the intent requires action", async () => {
    const project = await suite.api.newProject(unique("Wallet shop"));
    const intent = await createIntent(project.testKey);
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, `/payments/${intent.paymentIntentId}`);
      await page.getByRole("heading", { name: "Payment intent" }).waitFor();
      const details = page.getByRole("region", { name: "Details" });
      await details.locator("#payment-method").waitFor();
      expect(await details.locator("#payment-method").textContent()).toBe("gcash");
      expect(await details.locator("#redirect-url").textContent()).toBe(intent.nextAction.url);
    });
  }, 60_000);
});
