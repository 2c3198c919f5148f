import { describe, expect, it } from "vitest";
import type { PaymongoClient } from "./paymongo-client.js";
import { PaymongoRejectedError } from "./paymongo-errors.js";
import type { PaymongoDocument } from "./paymongo-http.js";
import { createPaymongoProvider } from "./paymongo-provider.js";

// The simulator declines only after attach (failPaymentIntent), so how the adapter reads a
// decline *at* attach, in either of PayMongo's two forms, is checked here with scripted answers.
function scriptedClient(attachAnswer: () => PaymongoDocument): PaymongoClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    keyHint: "…abcd",
    livemode: true,
    async get() {
      throw new Error("no reads expected");
    },
    async post(path) {
      calls.push(path);
      if (path === "/v1/payment_intents") return { data: { id: "pi_1", type: "payment_intent", attributes: { status: "awaiting_payment_method" } } };
      if (path === "/v1/payment_methods") return { data: { id: "pm_1", type: "payment_method", attributes: { type: "gcash" } } };
      if (path === "/v1/payment_intents/pi_1/attach") return attachAnswer();
      throw new Error(`unexpected POST ${path}`);
    },
    async close() {},
  };
}

const confirm = (client: PaymongoClient) =>
  createPaymongoProvider({ client, paymentMethodTypes: ["card", "gcash"], livemode: true, returnUrl: "https://shop.example/back" }).confirmPaymentIntent(
    { paymentIntentId: "pi_bayad1", referenceId: "order-1", amount: { amountMinor: 5000, currency: "PHP" } },
    { environment: "live", idempotencyKey: "key-0123456789abcdef" },
  );

describe("confirmPaymentIntent at PayMongo: declines", () => {
  it("is declined when attach answers a decline code", async () => {
    const client = scriptedClient(() => {
      throw new PaymongoRejectedError("confirmPaymentIntent", 400, [{ code: "generic_decline", detail: "The payment was declined." }]);
    });
    await expect(confirm(client)).resolves.toEqual({ providerReference: "pi_1", outcome: "declined" });
    expect(client.calls).toEqual(["/v1/payment_intents", "/v1/payment_methods", "/v1/payment_intents/pi_1/attach"]);
  });

  it("is declined when attach leaves the intent awaiting a method with last_payment_error", async () => {
    const client = scriptedClient(() => ({
      data: {
        id: "pi_1",
        type: "payment_intent",
        attributes: { status: "awaiting_payment_method", last_payment_error: { failed_code: "insufficient_funds", failed_message: "Not enough." } },
      },
    }));
    await expect(confirm(client)).resolves.toEqual({ providerReference: "pi_1", outcome: "declined" });
  });

  it("throws PROVIDER_REJECTED with the details when attach refuses the request itself", async () => {
    const client = scriptedClient(() => {
      throw new PaymongoRejectedError("confirmPaymentIntent", 400, [
        { code: "parameter_invalid", detail: "The payment intent does not allow gcash payments.", field: "payment_method" },
      ]);
    });
    await expect(confirm(client)).rejects.toMatchObject({
      code: "PROVIDER_REJECTED",
      details: ["payment_method: The payment intent does not allow gcash payments. (parameter_invalid)"],
    });
  });
});
