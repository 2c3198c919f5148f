import { describe, expect, it } from "vitest";
import type { PaymongoClient } from "./paymongo-client.js";
import type { PaymongoDocument } from "./paymongo-http.js";
import { createPaymongoProvider } from "./paymongo-provider.js";

// PayMongo's documented answer to an e-wallet attach (docs/payment-acceptance-e-wallets [O]),
// fed to the adapter as PayMongo would send it, so the adapter cannot follow the simulator into a
// shape PayMongo does not send.
const documentedAttach = (returnUrl: string): PaymongoDocument => ({
  data: {
    id: "pi_1",
    type: "payment_intent",
    attributes: {
      amount: 150000,
      currency: "PHP",
      status: "awaiting_next_action",
      payment_method_allowed: ["gcash"],
      next_action: { type: "redirect", redirect: { url: "https://secure-authentication.paymongo.com/sources?id=src_1", return_url: returnUrl } },
      last_payment_error: null,
      payments: [],
    },
  },
});

function scriptedClient(attachAnswer: (body: Record<string, unknown>) => PaymongoDocument) {
  const posts: Array<{ path: string; body: Record<string, unknown> }> = [];
  const client: PaymongoClient = {
    keyHint: "…abcd",
    livemode: true,
    async get() {
      throw new Error("no reads expected");
    },
    async post(path, _operation, body) {
      posts.push({ path, body: body as Record<string, unknown> });
      if (path === "/v1/payment_intents") return { data: { id: "pi_1", type: "payment_intent", attributes: { status: "awaiting_payment_method" } } };
      if (path === "/v1/payment_methods") return { data: { id: "pm_1", type: "payment_method", attributes: {} } };
      if (path === "/v1/payment_intents/pi_1/attach") return attachAnswer(body as Record<string, unknown>);
      throw new Error(`unexpected POST ${path}`);
    },
    async close() {},
  };
  return { client, posts };
}

const request = (method: { type: "gcash" | "online_banking"; bankCode?: "bpi" | "landbank" }) => ({
  paymentIntentId: "pi_bayad1",
  referenceId: "order-1",
  amount: { amountMinor: 150000, currency: "PHP" as const },
  method,
  returnUrl: "https://shop.example/return",
});
const context = { environment: "live" as const, idempotencyKey: "key-0123456789abcdef" };

describe("createRedirectPaymentIntent against PayMongo's documented answers", () => {
  it("reads next_action.redirect.url from the documented attach answer", async () => {
    const { client, posts } = scriptedClient((body) => documentedAttach(String(body.return_url)));
    const provider = createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
    await expect(provider.createRedirectPaymentIntent(request({ type: "gcash" }), context)).resolves.toEqual({
      providerReference: "pi_1",
      outcome: "awaiting_payer",
      redirectUrl: "https://secure-authentication.paymongo.com/sources?id=src_1",
      pageToken: "",
    });
    expect(posts.map((post) => post.path)).toEqual(["/v1/payment_intents", "/v1/payment_methods", "/v1/payment_intents/pi_1/attach"]);
    expect(posts[2]!.body).toEqual({ payment_method: "pm_1", return_url: "https://shop.example/return" });
  });

  it("sends a bank as its PI type with details.bank_code", async () => {
    const { client, posts } = scriptedClient((body) => documentedAttach(String(body.return_url)));
    const provider = createPaymongoProvider({ client, paymentMethodTypes: ["brankas_landbank"], livemode: true });
    await provider.createRedirectPaymentIntent(request({ type: "online_banking", bankCode: "landbank" }), context);
    expect(posts[0]!.body).toMatchObject({ payment_method_allowed: ["brankas"] });
    expect(posts[1]!.body).toMatchObject({ type: "brankas", details: { bank_code: "landbank" } });
  });

  it("an attach answered without a redirect URL is PROVIDER_UNAVAILABLE: nobody has a page to pay on", async () => {
    const { client } = scriptedClient(() => ({ data: { id: "pi_1", type: "payment_intent", attributes: { status: "awaiting_next_action", next_action: null } } }));
    const provider = createPaymongoProvider({ client, paymentMethodTypes: ["gcash"], livemode: true });
    await expect(provider.createRedirectPaymentIntent(request({ type: "gcash" }), context)).rejects.toMatchObject({ code: "PROVIDER_UNAVAILABLE" });
  });
});
