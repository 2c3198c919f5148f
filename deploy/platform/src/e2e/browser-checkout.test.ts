import { describe, expect, it } from "vitest";
import { unique } from "../test-support/harness.js";
import { browserSuite, chromiumReady, payInBrowser, skipReason } from "../test-support/browser.js";

const checkouts = "/api/v1/payments/checkouts";

describe.skipIf(!chromiumReady("the browser checkout tests"))(`hosted checkout in a real browser (${skipReason})`, () => {
  const suite = browserSuite();

  async function createCheckout(amountMinor: number) {
    const created = await suite.api.request("POST", checkouts, {
      body: {
        referenceId: unique("browser"),
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
    const outcome = await suite.browser.withPage((page) => payInBrowser(page, checkout.checkoutUrl, "₱2,500.00", "checkout-page.png"));
    expect(outcome).toEqual({ result: "Payment successful", status: "paid" });
    const read = await suite.api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("paid");
  }, 30_000);

  it("decline: paying a 1002-centavo checkout on the hosted page fails it", async () => {
    const checkout = await createCheckout(1002);
    const outcome = await suite.browser.withPage((page) => payInBrowser(page, checkout.checkoutUrl, "₱10.02"));
    expect(outcome).toEqual({ result: "Payment failed", status: "failed" });
    const read = await suite.api.request("GET", `${checkouts}/${checkout.checkoutId}`);
    expect(read.body.data.status).toBe("failed");
  }, 30_000);
});
