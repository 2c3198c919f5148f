import { describe, expect, it } from "vitest";
import { paymongoFeeOf, paymongoPaymentMethodOf } from "./paymongo-payment-facts.js";
import { linkStateOf, paymentStateOf } from "./paymongo-resources.js";

describe("PayMongo fees", () => {
  it("is the amount less net_amount when PayMongo reports the net, whatever fee and taxes say", () => {
    expect(paymongoFeeOf({ amount: 100_000, net_amount: 96_640, fee: 3_000, taxes: [{ amount: 360 }] })).toBe(3_360);
    expect(paymongoFeeOf({ amount: 100_000, net_amount: 97_000, fee: 2_500 })).toBe(3_000);
  });

  it("is fee plus every tax amount when there is no net", () => {
    expect(paymongoFeeOf({ amount: 50_000, fee: 1_250, taxes: [{ amount: 150, name: "VAT" }, { amount: 10 }] })).toBe(1_410);
    expect(paymongoFeeOf({ amount: 50_000, fee: 1_250 })).toBe(1_250);
    // A tax entry without a readable amount adds nothing.
    expect(paymongoFeeOf({ amount: 50_000, fee: 1_250, taxes: [{ name: "VAT" }, { amount: "150" }] })).toBe(1_250);
  });

  it("is not reported when PayMongo gives neither, or something that is no fee", () => {
    expect(paymongoFeeOf({ amount: 50_000 })).toBeUndefined();
    expect(paymongoFeeOf({ amount: 50_000, fee: "1250" })).toBeUndefined();
    expect(paymongoFeeOf({ amount: 50_000, net_amount: 50_001 })).toBeUndefined();
    expect(paymongoFeeOf({ amount: 50_000, fee: 60_000 })).toBeUndefined();
    expect(paymongoFeeOf({ amount: 50_000, fee: 12.5 })).toBeUndefined();
  });

  it("is read onto a payment and a link", () => {
    const payment = paymentStateOf({
      id: "pay_1",
      type: "payment",
      attributes: { status: "paid", amount: 20_000, net_amount: 19_500, currency: "PHP", source: { type: "paymaya" } },
    });
    expect(payment).toMatchObject({ fee: 500, method: "paymaya", paymentMethod: "maya" });
    expect(paymentStateOf({ id: "pay_2", type: "payment", attributes: { status: "paid", amount: 20_000 } })).not.toHaveProperty("fee");
    expect(linkStateOf({ id: "link_1", type: "link", attributes: { amount: 20_000, fee: 500, taxes: [{ amount: 60 }] } }).fee).toBe(560);
  });
});

describe("PayMongo method names", () => {
  it("maps PayMongo's PI types and Checkout Session names to Bayad's", () => {
    expect(paymongoPaymentMethodOf("card")).toBe("card");
    expect(paymongoPaymentMethodOf("qrph")).toBe("qrph");
    expect(paymongoPaymentMethodOf("gcash")).toBe("gcash");
    expect(paymongoPaymentMethodOf("paymaya")).toBe("maya");
    expect(paymongoPaymentMethodOf("grab_pay")).toBe("grabpay");
    expect(paymongoPaymentMethodOf("shopeepay")).toBe("shopeepay");
    expect(paymongoPaymentMethodOf("shopee_pay")).toBe("shopeepay");
    for (const bank of ["dob", "dob_bpi", "dob_ubp", "brankas", "brankas_bdo", "brankas_landbank", "brankas_metrobank"]) {
      expect(paymongoPaymentMethodOf(bank)).toBe("online_banking");
    }
  });

  it("leaves a method Bayad has no name for unknown", () => {
    expect(paymongoPaymentMethodOf("billease")).toBeUndefined();
    expect(paymongoPaymentMethodOf(undefined)).toBeUndefined();
    // Bayad's own spelling is not PayMongo's: never guessed.
    expect(paymongoPaymentMethodOf("maya")).toBeUndefined();
  });
});
