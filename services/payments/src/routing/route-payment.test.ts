import { describe, expect, it } from "vitest";
import { fakeAccount, type FakeAccount } from "./test-support/fake-accounts.js";
import { routePayment, type PaymentToRoute, type RoutingAccount } from "./route-payment.js";
import { defaultRoutes, type ProviderRoute } from "./provider-routing.js";

const routingAccount = (fake: FakeAccount): RoutingAccount => ({
  providerAccountId: fake.providerAccountId,
  providerName: fake.provider.name,
  paused: fake.account.status === "paused",
  provider: fake.provider,
});

const checkout = (routingKey: string, amountMinor = 500_00): PaymentToRoute => ({
  routingKey,
  flow: "checkout",
  method: "checkout",
  amount: { amountMinor, currency: "PHP" },
});

const paymongo = fakeAccount("pa_paymongo");
const xendit = fakeAccount("pa_xendit", { provider: "xendit", intentMethods: [{ type: "gcash" }, { type: "maya" }], maxAmountMinor: 100_000_00 });
const accounts = [routingAccount(paymongo), routingAccount(xendit)];
const ids = (routes: ProviderRoute[], payment: PaymentToRoute, over = accounts) => routePayment(routes, over, payment).map((c) => c.providerAccountId);

describe("routePayment", () => {
  it("splits 1,000 payments by weight within 4 percentage points, the rest of the matching routes after the pick", () => {
    const routes = [
      { providerAccountId: "pa_paymongo", weight: 700 },
      { providerAccountId: "pa_xendit", weight: 300 },
    ];
    const firsts = Array.from({ length: 1000 }, (_, index) => ids(routes, checkout(`chk_split_${index}`)));
    const toXendit = firsts.filter(([first]) => first === "pa_xendit").length;
    expect(toXendit).toBeGreaterThanOrEqual(260);
    expect(toXendit).toBeLessThanOrEqual(340);
    // Every payment keeps the other account to fail over to.
    for (const order of firsts) expect([...order].sort()).toEqual(["pa_paymongo", "pa_xendit"]);
  });

  it("picks the same account for the same resource id, every time", () => {
    const routes = [
      { providerAccountId: "pa_paymongo", weight: 500 },
      { providerAccountId: "pa_xendit", weight: 500 },
    ];
    for (let index = 0; index < 50; index++) {
      const payment = checkout(`chk_same_${index}`);
      expect(ids(routes, payment)).toEqual(ids(routes, payment));
    }
  });

  it("sends everything to the oldest account by default; the others only by failover", () => {
    const routes = defaultRoutes(["pa_paymongo", "pa_xendit"]);
    for (let index = 0; index < 100; index++) expect(ids(routes, checkout(`chk_default_${index}`))).toEqual(["pa_paymongo", "pa_xendit"]);
  });

  it("keeps to the routes whose methods and amount range match", () => {
    const routes: ProviderRoute[] = [
      { providerAccountId: "pa_paymongo", methods: ["checkout"], maxAmountMinor: 1_000_00, weight: 100 },
      { providerAccountId: "pa_xendit", methods: ["checkout", "gcash"], minAmountMinor: 500_00, weight: 100 },
    ];
    expect(ids(routes, checkout("chk_small", 200_00))).toEqual(["pa_paymongo"]);
    expect(ids(routes, checkout("chk_big", 5_000_00))).toEqual(["pa_xendit"]);
    const gcash: PaymentToRoute = { routingKey: "pi_1", flow: "payment_intent", method: "gcash", amount: { amountMinor: 600_00, currency: "PHP" } };
    expect(ids(routes, gcash)).toEqual(["pa_xendit"]);
  });

  it("leaves out an account whose provider would not take the payment (its methods, its amount limits)", () => {
    const routes = defaultRoutes(["pa_paymongo", "pa_xendit"]);
    const maya: PaymentToRoute = { routingKey: "pi_2", flow: "payment_intent", method: "maya", amount: { amountMinor: 600_00, currency: "PHP" } };
    // PayMongo's fake offers gcash only: the weight-0 Xendit route is the one that matches.
    expect(ids(routes, maya)).toEqual(["pa_xendit"]);
    expect(ids(routes, checkout("chk_huge", 200_000_00))).toEqual(["pa_paymongo"]);
  });

  it("skips a paused account and a removed one", () => {
    const paused = routingAccount(fakeAccount("pa_paymongo", { paused: true }));
    const routes = [
      { providerAccountId: "pa_gone", weight: 900 },
      { providerAccountId: "pa_paymongo", weight: 100 },
      { providerAccountId: "pa_xendit", weight: 0 },
    ];
    expect(ids(routes, checkout("chk_skip"), [paused, routingAccount(xendit)])).toEqual(["pa_xendit"]);
  });

  it("answers why when no account takes the payment", () => {
    const routes: ProviderRoute[] = [{ providerAccountId: "pa_paymongo", methods: ["checkout"], maxAmountMinor: 1_000_00, weight: 100 }];
    const grabpay: PaymentToRoute = { routingKey: "pi_3", flow: "payment_intent", method: "grabpay", amount: { amountMinor: 600_00, currency: "PHP" } };
    expect(() => routePayment(routes, accounts, grabpay)).toThrow(expect.objectContaining({ code: "PAYMENT_METHOD_NOT_OFFERED" }));
    expect(() => routePayment(routes, accounts, checkout("chk_over", 2_000_00))).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
    const paused = routingAccount(fakeAccount("pa_paymongo", { paused: true }));
    expect(() => routePayment(routes, [paused], checkout("chk_paused"))).toThrow(expect.objectContaining({ code: "PROVIDER_NOT_CONFIGURED" }));
  });
});
