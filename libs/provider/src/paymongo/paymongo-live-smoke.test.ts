import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createPaymongoAccountSetup } from "./paymongo-account-setup.js";
import { createPaymongoClient } from "./paymongo-client.js";
import { PAYMONGO_API_BASE_DEFAULT } from "./paymongo-http.js";
import { createPaymongoProvider } from "./paymongo-provider.js";

/**
 * The adapter against PayMongo's real test mode, when a test secret key is given
 * (PAYMONGO_TEST_SECRET_KEY=sk_test_…; PAYMONGO_API_BASE to point elsewhere). It makes only
 * objects that move no money (a checkout session, a QR Ph code nobody pays, a link) and registers
 * no webhook. Everywhere else it is skipped, saying why.
 */
const secretKey = process.env.PAYMONGO_TEST_SECRET_KEY;
const apiBase = process.env.PAYMONGO_API_BASE ?? PAYMONGO_API_BASE_DEFAULT;
if (!secretKey) console.info("Skipping the PayMongo live smoke suite: PAYMONGO_TEST_SECRET_KEY is not set (a sk_test_ key of a PayMongo account)");

describe.skipIf(!secretKey)("PayMongo's real test mode (smoke)", () => {
  const client = createPaymongoClient({ apiBase, secretKey: secretKey ?? "sk_test_unset" });
  const provider = createPaymongoProvider({ client, paymentMethodTypes: ["qrph", "gcash"], livemode: false });
  const context = { environment: "test" as const, idempotencyKey: `smoke-${randomBytes(8).toString("hex")}` };
  afterAll(() => client.close());

  it("accepts the key, and refuses a made-up one naming secretKey", async () => {
    const setup = createPaymongoAccountSetup({ apiBase });
    await expect(setup.checkKey(secretKey!)).resolves.toBeUndefined();
    await expect(setup.checkKey(`sk_test_${randomBytes(12).toString("hex")}`)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("makes a checkout session with Bayad's ids in its metadata and reads it back", async () => {
    const checkoutId = `chk_smoke${randomBytes(8).toString("hex")}`;
    const session = await provider.createCheckoutSession(
      {
        checkoutId,
        referenceId: `smoke-${randomBytes(4).toString("hex")}`,
        amount: { amountMinor: 100_00, currency: "PHP" },
        successUrl: "https://example.com/paid",
        cancelUrl: "https://example.com/cart",
        metadata: {},
      },
      context,
    );
    expect(session.providerReference).toMatch(/^cs_/);
    expect(session.checkoutUrl).toMatch(/^https:\/\//);
    const read = await provider.retrieveCheckoutSessionById(session.providerReference);
    expect(read.id).toBe(session.providerReference);
    expect(read.payments).toEqual([]);
  });

  it("makes a QR Ph code with its image", async () => {
    const code = await provider.createQrPh(
      { paymentIntentId: `pi_smoke${randomBytes(8).toString("hex")}`, referenceId: "smoke", amount: { amountMinor: 20_00, currency: "PHP" }, description: "smoke", expirySeconds: 60 },
      context,
    );
    expect(code.providerReference).toMatch(/^pi_/);
    expect(code.imagePngBase64?.length ?? 0).toBeGreaterThan(100);
  });

  it("makes a link and reads it back", async () => {
    const link = await provider.createHostedPayment(
      { kind: "payment_link", resourceId: `pl_smoke${randomBytes(8).toString("hex")}`, referenceId: "smoke", amount: { amountMinor: 100_00, currency: "PHP" }, description: "smoke" },
      context,
    );
    expect(link.referenceNumber).not.toBe("");
    const read = await provider.retrieveLinkById(link.providerReference);
    expect(read.referenceNumber).toBe(link.referenceNumber);
  });
});
