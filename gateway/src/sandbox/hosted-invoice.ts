import type { Client } from "@connectrpc/connect";
import { InvoiceStatusSchema, type BillingService, type Invoice } from "@bayad/proto";
import { enumToText } from "@bayad/kit";
import { escapeHtml } from "../html.js";
import { payablePageRoutes, payerButtons, peso } from "./hosted-page.js";

interface HostedInvoice {
  invoice: Invoice;
  planName: string;
}

/** The sandbox provider's hosted invoice page (an invoice's hostedInvoiceUrl), served by the gateway. */
export function hostedInvoiceRoutes(billing: Client<typeof BillingService>) {
  return payablePageRoutes<HostedInvoice>({
    path: "invoices",
    async load(invoiceId, pageToken) {
      const response = await billing.getHostedInvoice({ invoiceId, pageToken });
      return { invoice: response.invoice!, planName: response.planName };
    },
    async submit(invoiceId, pageToken, outcome) {
      const response = await billing.submitHostedInvoice({ invoiceId, pageToken, outcome });
      return { invoice: response.invoice!, planName: "" };
    },
    render({ invoice, planName }, token, base) {
      const status = enumToText(InvoiceStatusSchema, invoice.status);
      const amount = invoice.amount?.amountMinor ?? 0n;
      const payable = status === "open" || status === "past_due";
      return `<h1>Invoice</h1>
<p>${escapeHtml(planName)} · period ${invoice.periodNumber}</p>
<p class="amount">${escapeHtml(peso(amount))}</p>
<p>Status <strong id="status">${escapeHtml(status)}</strong></p>
${payable ? payerButtons(base, token, amount) : ""}`;
    },
    result({ invoice }) {
      const status = enumToText(InvoiceStatusSchema, invoice.status);
      return `<h1 id="result">${status === "paid" ? "Payment successful" : "Payment failed"}</h1>
<p>Invoice <code>${escapeHtml(invoice.invoiceId)}</code> is <strong id="status">${escapeHtml(status)}</strong>.</p>`;
    },
  });
}
