import type { Client } from "@connectrpc/connect";
import { PaymentIntentStatusSchema, PaymentMethodSchema, type PaymentIntent, type PaymentsService } from "@bayad/proto";
import { enumToText, publicPaymentIntentStatus } from "@bayad/kit";
import { escapeHtml, linkableUrl } from "../html.js";
import { payablePageRoutes, payerButtons, peso } from "./hosted-page.js";

/** How the page names the method the payer authorises, as a wallet's or bank's page would. */
const methodNames: Readonly<Record<string, string>> = {
  gcash: "GCash",
  maya: "Maya",
  grabpay: "GrabPay",
  shopeepay: "ShopeePay",
  online_banking: "Online banking",
};

const bankNames: Readonly<Record<string, string>> = { bpi: "BPI", ubp: "UnionBank", bdo: "BDO", landbank: "Landbank", metrobank: "Metrobank" };

function methodLabel(intent: PaymentIntent): string {
  const method = enumToText(PaymentMethodSchema, intent.paymentMethod);
  const name = methodNames[method] ?? method;
  return intent.bankCode ? `${name} (${bankNames[intent.bankCode] ?? intent.bankCode})` : name;
}

/**
 * The sandbox's stand-in for an e-wallet's or bank's authorisation page (an e-wallet or
 * online-banking intent's nextAction.url), served by the gateway: the payer pays or fails, and is
 * sent back (303) to the merchant's returnUrl, where the merchant reads the intent again, as it
 * must after PayMongo's redirect (the return alone proves nothing).
 */
export function hostedPaymentIntentRoutes(payments: Client<typeof PaymentsService>) {
  return payablePageRoutes<PaymentIntent>({
    path: "intents",
    async load(paymentIntentId, pageToken) {
      return (await payments.getHostedPaymentIntent({ paymentIntentId, pageToken })).paymentIntent!;
    },
    async submit(paymentIntentId, pageToken, outcome) {
      return (await payments.submitHostedPaymentIntent({ paymentIntentId, pageToken, outcome })).paymentIntent!;
    },
    render(intent, token, base) {
      const status = publicPaymentIntentStatus(enumToText(PaymentIntentStatusSchema, intent.status));
      const amount = intent.amount?.amountMinor ?? 0n;
      return `<h1>Authorise with ${escapeHtml(methodLabel(intent))}</h1>
<p>Reference <code>${escapeHtml(intent.referenceId)}</code></p>
<p class="amount">${escapeHtml(peso(amount))}</p>
${status === "requires_action" ? payerButtons(base, token, amount) : `<p id="status">This payment is <strong>${escapeHtml(status)}</strong>.</p>`}`;
    },
    result(intent) {
      const status = publicPaymentIntentStatus(enumToText(PaymentIntentStatusSchema, intent.status));
      return `<h1 id="result">${status === "succeeded" ? "Payment successful" : "Payment failed"}</h1>
<p>Payment intent <code>${escapeHtml(intent.paymentIntentId)}</code> is <strong id="status">${escapeHtml(status)}</strong>.</p>
<p><a id="return" href="${escapeHtml(linkableUrl(intent.returnUrl))}">Return to the merchant</a></p>`;
    },
    returnTo: (intent) => intent.returnUrl || undefined,
  });
}
