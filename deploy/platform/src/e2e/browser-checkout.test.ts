import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../test-support/harness.js";
import { chromiumAvailable, chromiumPath, launchBrowser, payInBrowser, skipReason, type TestBrowser } from "../test-support/browser.js";

const checkouts = "/api/v1/payments/checkouts";

if (!chromiumAvailable) console.info(`Skipping the browser checkout tests: ${chromiumPath} does not exist (apt-get install chromium).`);

describe.skipIf(!chromiumAvailable)(`hosted checkout in a real browser (${skipReason})`, () => {
  let api: TestPlatform;
  let browser: TestBrowser;
  let counter = 0;

  beforeAll(async () => {
    api = await startTestPlatform();
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  async function createCheckout(amountMinor: number) {
    counter += 1;
    const created = await api.request("POST", checkouts, {
      body: {
        referenceId: `browser-${Date.now()}-${counter}`,
        amount: { amountMinor, currency: "PHP" },
        successUrl: "https://shop.example.ph/thanks",
        cancelUrl: "https://shop.example.ph/cart",
      },
    });
    expect(created.status).toBe(201);
    return created.body.data as { checkoutId: string; checkoutUrl: string };
  }

  it("pays a checkout on the hosted page, and the API reads it paid", async () => {
    const checkout = await createCheckout(2500_00);
    const page = await browser.context.newPage();
    try {
      const outcome = await payInBrowser(page, checkout.checkoutUrl, "₱2,500.00", "checkout-page.png");
      expect(outcome).toEqual({ result: "Payment successful", status: "paid" });
    } finally {
      await page.close();
    }
    const read = await api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("paid");
  }, 30_000);

  it("decline: paying a 1002-centavo checkout on the hosted page fails it", async () => {
    const checkout = await createCheckout(1002);
    const page = await browser.context.newPage();
    try {
      const outcome = await payInBrowser(page, checkout.checkoutUrl, "₱10.02");
      expect(outcome).toEqual({ result: "Payment failed", status: "failed" });
    } finally {
      await page.close();
    }
    const read = await api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("failed");
  }, 30_000);
});
