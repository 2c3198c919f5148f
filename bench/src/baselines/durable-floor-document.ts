/**
 * What the durable floor's client POSTs and its server stores, once per request: a JSON document
 * of about 1 KB, shaped like a stored checkout (amounts, URLs, line items, metadata), so the
 * write costs what a real record costs to parse, encode and commit rather than a few bytes'.
 */
export const durableFloorDocument = {
  referenceId: "order-2026-000000000001",
  status: "pending",
  amount: { amountMinor: 150_000, currency: "PHP" },
  successUrl: "https://shop.example.com/paid",
  cancelUrl: "https://shop.example.com/cart",
  customer: { name: "Juan dela Cruz", email: "juan.delacruz@example.com", phone: "+639171234567" },
  lineItems: [
    { name: "Barako coffee beans, 500 g", quantity: 2, amountMinor: 45_000 },
    { name: "Ceramic pour-over dripper", quantity: 1, amountMinor: 35_000 },
    { name: "Paper filters, pack of 100", quantity: 3, amountMinor: 8_000 },
    { name: "Stainless steel kettle, 1 L", quantity: 1, amountMinor: 13_000 },
  ],
  paymentMethods: ["card", "gcash", "paymaya", "qrph"],
  metadata: { channel: "web", campaign: "holiday-2026", cartId: "cart_7f3a9c2e51d84b06", affiliate: "none" },
  session: {
    provider: "sandbox",
    token: "cs_sandbox_4f8e2a6c9b1d7e3f5a0c8b6d2e4f1a3c",
    pageUrl: "https://sandbox.example.com/checkout/cs_sandbox_4f8e2a6c9b1d7e3f5a0c8b6d2e4f1a3c",
    expiresAt: "2026-11-28T09:00:00.000Z",
  },
  createdAt: "2026-11-28T08:00:00.000Z",
  updatedAt: "2026-11-28T08:00:00.000Z",
} as const;

/** The path the durable floor answers POSTs at. */
export const durableFloorPath = "/documents";
