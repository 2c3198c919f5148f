import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePaymongoEvent } from "./paymongo-event.js";
import {
  checkoutSessionStateOf,
  linkStateOf,
  paymentIntentStateOf,
  paymentsOf,
  paymentStateOf,
  refundsOf,
  refundStateOf,
  resourceOf,
} from "./paymongo-resources.js";

/**
 * PayMongo's payloads as its documentation shows them (paymongo.md §3–§8), written by hand into
 * fixtures/, fed to the adapter's parsers: so the adapter cannot come to agree with the simulator
 * on a shape PayMongo does not send.
 */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("PayMongo's documented payloads", () => {
  it("link.payment.paid: a link whose payments[] entries are wrapped in data keeps its pay_ id", () => {
    const event = parsePaymongoEvent(fixture("link-payment-paid.event.json"));
    expect(event).toMatchObject({ id: "evt_9Lk3mQw2Vb7Xr5Tz1Np8Hc4D", type: "link.payment.paid", livemode: true, createdAt: new Date(1_764_205_200_000) });
    const link = linkStateOf(event.data);
    expect(link).toEqual({
      id: "link_Qm4tW8xZ2pLr6Vn1Ks9Bd3Fh",
      status: "paid",
      referenceNumber: "Ab3dE7q",
      checkoutUrl: "https://pm.link/bayad-shop/Ab3dE7q",
      // fee 3750 = amount 150000 − net_amount 146250, on the payment; the link's own fee with no taxes.
      payments: [
        { id: "pay_Xc7vB2nM9qL4kR1tY6wE8uP3", status: "paid", amount: 150_000, currency: "PHP", method: "gcash", paymentMethod: "gcash", fee: 3_750, paidAt: new Date(1_764_205_180_000) },
      ],
      amount: 150_000,
      currency: "PHP",
      fee: 3_750,
    });
  });

  it("reads payments[] entries flat as well, as paymongo-node's Link does", () => {
    const flat = { payments: [{ id: "pay_flat", type: "payment", attributes: { amount: 10_000, status: "paid" } }] };
    const wrapped = { payments: [{ data: flat.payments[0] }] };
    expect(paymentsOf(flat)).toEqual(paymentsOf(wrapped));
    expect(paymentsOf(wrapped)).toEqual([{ id: "pay_flat", status: "paid", amount: 10_000 }]);
  });

  it("payment.refunded: the Payment, paid first, with each of its refunds", () => {
    const event = parsePaymongoEvent(fixture("payment-refunded.event.json"));
    expect(event.type).toBe("payment.refunded");
    expect(event.data.id).toBe("pay_Lm3nB8vC2xZ7aS1dF6gH4jK9");
    expect(paymentStateOf(event.data)).toEqual({
      id: "pay_Lm3nB8vC2xZ7aS1dF6gH4jK9",
      status: "paid",
      amount: 25_000,
      currency: "PHP",
      method: "gcash",
      paymentMethod: "gcash",
      // amount 25000 − net_amount 24375.
      fee: 625,
      paymentIntentId: "pi_Qw2eR7tY1uI6oP3aS8dF4gH9",
      paidAt: new Date(1_764_200_000_000),
    });
    expect(refundsOf(event.data.attributes)).toEqual([
      {
        id: "ref_Nb6mQ1wE8rT3yU7iO2pA5sD9",
        status: "succeeded",
        amount: 10_000,
        currency: "PHP",
        paymentId: "pay_Lm3nB8vC2xZ7aS1dF6gH4jK9",
        metadata: { bayad_resource_id: "re_bayad00000000000000017", bayad_idempotency_key: "order-1042-refund-1" },
      },
      { id: "ref_Zx4cV9bN2mL7kJ1hG6fD3sA8", status: "pending", amount: 5_000, currency: "PHP", paymentId: "pay_Lm3nB8vC2xZ7aS1dF6gH4jK9", metadata: { bayad_resource_id: "re_bayad00000000000000018" } },
    ]);
  });

  it("payment.refund.updated: the Refund itself, with Bayad's id in its metadata", () => {
    const event = parsePaymongoEvent(fixture("payment-refund-updated.event.json"));
    expect(event.type).toBe("payment.refund.updated");
    expect(event.data.type).toBe("refund");
    expect(refundStateOf(event.data)).toEqual({
      id: "ref_Zx4cV9bN2mL7kJ1hG6fD3sA8",
      status: "pending",
      amount: 5_000,
      currency: "PHP",
      paymentId: "pay_Lm3nB8vC2xZ7aS1dF6gH4jK9",
      metadata: { bayad_resource_id: "re_bayad00000000000000018", bayad_idempotency_key: "order-1042-refund-2" },
    });
  });

  it("qrph.expired: a qrph resource with an ISO created_at, under an envelope in unix seconds, naming its intent", () => {
    const event = parsePaymongoEvent(fixture("qrph-expired.event.json"));
    expect(event).toMatchObject({ type: "qrph.expired", livemode: true, createdAt: new Date(1_764_226_800_000) });
    expect(event.data).toMatchObject({
      id: "qrph_Hb7nJ2mK9lP4oI1uY6tR3eW8",
      type: "qrph",
      attributes: { payment_intent_id: "pi_Mn8bV3cX6zL1kJ4hG9fD2sA7", source_status: "expired", created_at: "2026-11-27T14:30:00+08:00" },
    });
  });

  it("checkout_session.payment.paid: a paid session still reads active, its payment paid, its intent processing", () => {
    const event = parsePaymongoEvent(fixture("checkout-session-paid.event.json"));
    const session = checkoutSessionStateOf(event.data);
    expect(session.status).toBe("active");
    expect(session.payments).toEqual([
      {
        id: "pay_Lm3nB8vC2xZ7aS1dF6gH4jK9",
        status: "paid",
        amount: 25_000,
        currency: "PHP",
        method: "gcash",
        paymentMethod: "gcash",
        fee: 625,
        paymentIntentId: "pi_Qw2eR7tY1uI6oP3aS8dF4gH9",
        paidAt: new Date(1_764_200_000_000),
      },
    ]);
    const intent = paymentIntentStateOf(resourceOf({ data: event.data.attributes.payment_intent }, "checkoutSession"));
    expect(intent).toEqual({
      id: "pi_Qw2eR7tY1uI6oP3aS8dF4gH9",
      status: "processing",
      amount: 25_000,
      currency: "PHP",
      metadata: { bayad_resource_id: "chk_bayad0000000000000042" },
      payments: [],
    });
  });

  it("an e-wallet attach answer: awaiting_next_action with the redirect URL and the return URL", () => {
    const intent = paymentIntentStateOf(resourceOf(JSON.parse(fixture("gcash-attach.answer.json")) as { data: unknown }, "attach"));
    expect(intent).toEqual({
      id: "pi_Ew9rT4yU1iO6pA3sD8fG2hJ7",
      status: "awaiting_next_action",
      amount: 45_000,
      currency: "PHP",
      metadata: { bayad_resource_id: "pi_bayad0000000000000077" },
      payments: [],
      nextAction: {
        type: "redirect",
        url: "https://secure-authentication.paymongo.com/sources?id=src_Jk3lZ8xC1vB6nM4q",
        returnUrl: "https://shop.example.ph/orders/2001/return",
      },
    });
  });
});
