import type Router from "@koa/router";
import type { Client } from "@connectrpc/connect";
import { CheckoutStatusSchema, SimulatedOutcome, type Checkout, type PaymentsService } from "@bayad/proto";
import { enumToText, fromConnectError } from "@bayad/kit";

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function peso(amountMinor: bigint): string {
  const value = Number(amountMinor) / 100;
  return `₱${value.toLocaleString("en-PH", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Bayad sandbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
.banner{background:#fff3cd;padding:.5rem;border-radius:.25rem}.amount{font-size:2rem;margin:.5rem 0}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;cursor:pointer}</style></head>
<body><p class="banner">Sandbox — test mode. No real money moves.</p>${body}</body></html>`;
}

function checkoutPage(checkout: Checkout, token: string): string {
  const status = enumToText(CheckoutStatusSchema, checkout.status);
  const action = (verb: string) =>
    `/sandbox/checkouts/${encodeURIComponent(checkout.checkoutId)}/${verb}?token=${encodeURIComponent(token)}`;
  const controls =
    status === "pending"
      ? `<form method="post" action="${escape(action("pay"))}" style="display:inline"><button id="pay" type="submit">Pay ${escape(peso(checkout.amount?.amountMinor ?? 0n))}</button></form>
<form method="post" action="${escape(action("fail"))}" style="display:inline"><button id="fail" type="submit">Fail payment</button></form>`
      : `<p id="status">This checkout is <strong>${escape(status)}</strong>.</p>`;
  return page(
    "Pay",
    `<h1>Checkout</h1>
<p>Reference <code>${escape(checkout.referenceId)}</code></p>
<p class="amount">${escape(peso(checkout.amount?.amountMinor ?? 0n))}</p>
${controls}`,
  );
}

function resultPage(checkout: Checkout): string {
  const status = enumToText(CheckoutStatusSchema, checkout.status);
  const paid = status === "paid";
  const back = paid ? checkout.successUrl : checkout.cancelUrl;
  return page(
    paid ? "Paid" : "Not paid",
    `<h1 id="result">${paid ? "Payment successful" : "Payment failed"}</h1>
<p>Checkout <code>${escape(checkout.checkoutId)}</code> is <strong id="status">${escape(status)}</strong>.</p>
<p><a id="return" href="${escape(back)}">Return to the merchant</a></p>`,
  );
}

/**
 * The sandbox provider's hosted payment page for checkouts, served by the gateway: a payer opens
 * the checkoutUrl, sees the amount and pays or fails the payment. Access is by the page token in
 * the URL (the URL is the capability), never by a project credential.
 */
export function hostedCheckoutRoutes(payments: Client<typeof PaymentsService>) {
  return (router: Router) => {
    router.get("/sandbox/checkouts/:checkoutId", async (ctx) => {
      const token = String(ctx.query.token ?? "");
      ctx.type = "html";
      try {
        const { checkout } = await payments.getHostedCheckout({ checkoutId: ctx.params.checkoutId, pageToken: token });
        ctx.body = checkoutPage(checkout!, token);
      } catch (error) {
        const failure = fromConnectError(error);
        ctx.status = failure.httpStatus;
        ctx.body = page("Not found", `<h1>This payment page does not exist.</h1>`);
      }
    });

    for (const [verb, outcome] of [["pay", SimulatedOutcome.SUCCEED], ["fail", SimulatedOutcome.FAIL]] as const) {
      router.post(`/sandbox/checkouts/:checkoutId/${verb}`, async (ctx) => {
        const token = String(ctx.query.token ?? "");
        ctx.type = "html";
        try {
          const { checkout } = await payments.submitHostedCheckout({ checkoutId: ctx.params.checkoutId, pageToken: token, outcome });
          ctx.body = resultPage(checkout!);
        } catch (error) {
          const failure = fromConnectError(error);
          ctx.status = failure.httpStatus;
          ctx.body = page("Not paid", `<h1 id="result">This payment could not be made.</h1><p>${escape(failure.message)}</p>`);
        }
      });
    }
  };
}
