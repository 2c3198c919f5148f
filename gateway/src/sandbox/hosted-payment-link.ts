import type { Client } from "@connectrpc/connect";
import { PaymentLinkStatusSchema, type LinksService, type PaymentLink } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { escapeHtml } from "../html.js";
import { payablePageRoutes, payerButtons, peso } from "./hosted-page.js";

/** The sandbox provider's hosted payment-link page (a link's url), served by the gateway. */
export function hostedPaymentLinkRoutes(links: Client<typeof LinksService>) {
  return payablePageRoutes<PaymentLink>({
    path: "payment-links",
    async load(paymentLinkId, pageToken) {
      return (await links.getHostedPaymentLink({ paymentLinkId, pageToken })).paymentLink!;
    },
    async submit(paymentLinkId, pageToken, outcome) {
      return (await links.submitHostedPaymentLink({ paymentLinkId, pageToken, outcome })).paymentLink!;
    },
    render(link, token, base) {
      const status = enumToText(PaymentLinkStatusSchema, link.status);
      const amount = link.amount?.amountMinor ?? 0n;
      return `<h1>${escapeHtml(link.description)}</h1>
${link.remarks ? `<p>${escapeHtml(link.remarks)}</p>` : ""}
<p>Reference number <code id="reference-number">${escapeHtml(link.referenceNumber)}</code></p>
<p class="amount">${escapeHtml(peso(amount))}</p>
${status === "active" ? payerButtons(base, token, amount) : `<p>This link is <strong id="status">${escapeHtml(status)}</strong> and cannot be paid.</p>`}`;
    },
    result(link) {
      const status = enumToText(PaymentLinkStatusSchema, link.status);
      return `<h1 id="result">${status === "paid" ? "Payment successful" : "Payment failed"}</h1>
<p>Reference number <code>${escapeHtml(link.referenceNumber)}</code>; the link is <strong id="status">${escapeHtml(status)}</strong>.</p>`;
    },
  });
}
