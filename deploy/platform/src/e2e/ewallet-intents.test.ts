import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONLINE_BANKING_BANK_CODES, REDIRECT_INTENT_METHODS } from "@bayad/provider";
import { expectError, startTestPlatform, unique, type TestPlatform } from "../test-support/harness.js";
import { pressOnRedirectPage } from "../test-support/redirect-page.js";

const intents = "/api/v1/payments/intents";
const returnUrl = "https://shop.example.ph/orders/1004";

/**
 * E-wallet and online-banking payment intents in test mode: made at the sandbox at once, paid by
 * the payer on the sandbox's redirect page (an HTML form, as a browser would post it), settled,
 * and refundable like any paid intent.
 */
describe("e-wallet and online-banking payment intents (test mode)", () => {
  let api: TestPlatform;

  beforeAll(async () => {
    api = await startTestPlatform();
  });
  afterAll(() => api.close());

  const body = (paymentMethod: Record<string, string>, amountMinor = 1500_00, extra: Record<string, unknown> = { returnUrl }) => ({
    referenceId: unique("order"),
    amount: { amountMinor, currency: "PHP" },
    paymentMethod,
    ...extra,
  });

  async function create(paymentMethod: Record<string, string> = { type: "gcash" }, amountMinor?: number) {
    const created = await api.request("POST", intents, { body: body(paymentMethod, amountMinor) });
    expect(created.status).toBe(201);
    return created.body.data as { paymentIntentId: string; status: string; nextAction: { type: string; url: string } };
  }

  const status = async (id: string) => (await api.request("GET", `${intents}/${id}`)).body.data.status as string;

  it("creates a GCash intent requiring the payer's action, with the redirect page; pay on it → 303 to returnUrl, succeeded, refundable", async () => {
    const created = await create();
    expect(created).toMatchObject({ status: "requires_action", paymentMethod: { type: "gcash" }, returnUrl, nextAction: { type: "redirect" } });
    const pageUrl = new URL(created.nextAction.url);
    expect(pageUrl.origin).toBe(new URL(api.platform.gatewayUrl).origin);
    expect(pageUrl.pathname).toBe(`/sandbox/intents/${created.paymentIntentId}`);

    const read = await api.request("GET", `${intents}/${created.paymentIntentId}`);
    expect(read.body.data).toEqual(created);

    const page = await fetch(created.nextAction.url);
    expect(await page.text()).toContain("Authorise with GCash");

    const paid = await pressOnRedirectPage(created.nextAction.url, "pay");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(returnUrl);

    const after = await api.request("GET", `${intents}/${created.paymentIntentId}`);
    expect(after.body.data.status).toBe("succeeded");
    expect(after.body.data.nextAction).toBeUndefined();

    const refund = await api.request("POST", "/api/v1/payments/refunds", {
      body: { paymentId: created.paymentIntentId, amount: { amountMinor: 500_00, currency: "PHP" }, reason: "customer request" },
    });
    expect(refund.status).toBe(201);
    expect(refund.body.data.status).toBe("pending");
  });

  it("an online-banking intent names its bank; fail on the page → 303 to returnUrl, failed", async () => {
    const created = await create({ type: "online_banking", bankCode: "bpi" });
    expect(created).toMatchObject({ paymentMethod: { type: "online_banking", bankCode: "bpi" } });
    expect(await (await fetch(created.nextAction.url)).text()).toContain("Online banking (BPI)");
    const failed = await pressOnRedirectPage(created.nextAction.url, "fail");
    expect(failed.status).toBe(303);
    expect(failed.headers.get("location")).toBe(returnUrl);
    expect(await status(created.paymentIntentId)).toBe("failed");
    // The page now only shows the outcome.
    expect(await (await fetch(created.nextAction.url)).text()).toMatch(/This payment is <strong>failed<\/strong>/);
  });

  it("the decline scenario (1002 centavos) fails when the payer pays", async () => {
    const created = await create({ type: "maya" }, 1002);
    expect((await pressOnRedirectPage(created.nextAction.url, "pay")).status).toBe(303);
    expect(await status(created.paymentIntentId)).toBe("failed");
  });

  it("refuses a redirect method without returnUrl with 400 naming it, and writes nothing", async () => {
    const response = await api.request("POST", intents, { body: body({ type: "gcash" }, 1500_00, {}) });
    expectError(response, 400, "VALIDATION_FAILED");
    expect(response.body.error.details).toEqual(["returnUrl: is required"]);
    const banks = await api.request("POST", intents, { body: body({ type: "online_banking" }) });
    expectError(banks, 400, "VALIDATION_FAILED");
    expect(banks.body.error.details).toEqual(["paymentMethod.bankCode: is required"]);
    const checkoutName = await api.request("POST", intents, { body: body({ type: "brankas_bdo" }) });
    expectError(checkoutName, 400, "VALIDATION_FAILED");
    expect(checkoutName.body.error.details[0]).toMatch(/^paymentMethod\.type: must be one of gcash, maya, grabpay, shopeepay, online_banking/);
  });

  it("is never confirmed through the API (409), can be cancelled before the payer pays, and its page then refuses to pay", async () => {
    const created = await create({ type: "shopeepay" });
    expectError(await api.request("POST", `${intents}/${created.paymentIntentId}/confirm`), 409, "INVALID_STATE_TRANSITION");
    const cancelled = await api.request("POST", `${intents}/${created.paymentIntentId}/cancel`);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(cancelled.body.data.nextAction).toBeUndefined();
    const pay = await fetch(new URL(`${new URL(created.nextAction.url).pathname}/pay${new URL(created.nextAction.url).search}`, created.nextAction.url), {
      method: "POST",
      redirect: "manual",
    });
    expect(pay.status).toBe(409);
  });

  it("is settled by the test helpers too", async () => {
    const created = await create({ type: "grabpay" });
    const succeeded = await api.request("POST", `/api/v1/payments/test-helpers/intents/${created.paymentIntentId}/succeed`);
    expect(succeeded.body.data.status).toBe("succeeded");
  });

  it("a wrong page token shows no page", async () => {
    const created = await create();
    const url = new URL(created.nextAction.url);
    url.searchParams.set("token", "x".repeat(32));
    expect((await fetch(url)).status).toBe(404);
  });

  it("the contract names exactly the methods and banks of the code's one list", async () => {
    const document = (await (await fetch(`${api.platform.gatewayUrl}/openapi.json`)).json()) as {
      components: { schemas: { PaymentIntentMethod: { properties: { type: { enum: string[] }; bankCode: { enum: string[] } } } } };
    };
    const { properties } = document.components.schemas.PaymentIntentMethod;
    expect(properties.type.enum).toEqual([...REDIRECT_INTENT_METHODS]);
    expect(properties.bankCode.enum).toEqual([...ONLINE_BANKING_BANK_CODES]);
  });

  it("capabilities list every intent method in test mode, banks one by one", async () => {
    const capabilities = await api.request("GET", "/api/v1/payments/capabilities");
    expect(capabilities.body.data.paymentIntentMethods).toEqual([
      { type: "gcash" },
      { type: "maya" },
      { type: "grabpay" },
      { type: "shopeepay" },
      { type: "online_banking", bankCode: "bpi" },
      { type: "online_banking", bankCode: "ubp" },
      { type: "online_banking", bankCode: "bdo" },
      { type: "online_banking", bankCode: "landbank" },
      { type: "online_banking", bankCode: "metrobank" },
    ]);
  });
});
