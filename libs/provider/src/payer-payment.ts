import type { Money } from "@bayad/kit";
import type { PaymentMethodName } from "./payment-methods.js";
import type { PaymentProvider } from "./port.js";

/**
 * The method and fee of a payment that `provider.decidePayment` made paid (the sandbox's pages
 * and test helpers), as the paid resource keeps them: the fee from the provider's own table
 * (`payerPaymentFee`), and nothing from a provider without one. The sandbox's hosted pages for
 * checkouts, links and invoices take a card payment (they offer no method to choose), hence the
 * default.
 */
export function payerPaymentFacts(
  provider: Pick<PaymentProvider, "payerPaymentFee">,
  amount: Money,
  method: PaymentMethodName = "card",
): { paymentMethod?: PaymentMethodName; feeMinor?: number } {
  const fee = provider.payerPaymentFee?.(amount, method);
  return fee === undefined ? {} : { paymentMethod: method, feeMinor: fee };
}
