import type { Client } from "@connectrpc/connect";
import { CheckoutStatusSchema, type Checkout, type PaymentsService } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { escapeHtml, linkableUrl } from "../html.js";
import { payablePageRoutes, payerButtons, peso } from "./hosted-page.js";

/**
 * The sandbox provider's hosted payment page for checkouts (a checkout's checkoutUrl), served by
 * the gateway: a payer sees the amount and pays or fails the payment, then returns to the
 * merchant's successUrl or cancelUrl.
 */
export function hostedCheckoutRoutes(payments: Client<typeof PaymentsService>) {
  return payablePageRoutes<Checkout>({
    path: "checkouts",
    async load(checkoutId, pageToken) {
      return (await payments.getHostedCheckout({ checkoutId, pageToken })).checkout!;
    },
    async submit(checkoutId, pageToken, outcome) {
      return (await payments.submitHostedCheckout({ checkoutId, pageToken, outcome })).checkout!;
    },
    render(checkout, token, base) {
      const status = enumToText(CheckoutStatusSchema, checkout.status);
      const amount = checkout.amount?.amountMinor ?? 0n;
      return `<h1>Checkout</h1>
<p>Reference <code>${escapeHtml(checkout.referenceId)}</code></p>
<p class="amount">${escapeHtml(peso(amount))}</p>
${status === "pending" ? payerButtons(base, token, amount) : `<p id="status">This checkout is <strong>${escapeHtml(status)}</strong>.</p>`}`;
    },
    result(checkout) {
      const status = enumToText(CheckoutStatusSchema, checkout.status);
      const paid = status === "paid";
      return `<h1 id="result">${paid ? "Payment successful" : "Payment failed"}</h1>
<p>Checkout <code>${escapeHtml(checkout.checkoutId)}</code> is <strong id="status">${escapeHtml(status)}</strong>.</p>
<p><a id="return" href="${escapeHtml(linkableUrl(paid ? checkout.successUrl : checkout.cancelUrl))}">Return to the merchant</a></p>`;
    },
  });
}
