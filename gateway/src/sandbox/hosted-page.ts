import type Router from "@koa/router";
import { SimulatedOutcome } from "@bayad/proto";
import { fromConnectError } from "@bayad/kit";
import { contentSecurityPolicy, escapeHtml, linkableUrl, styleHash } from "../html.js";
import { setSandboxResponseHeaders } from "./sandbox-headers.js";

/** What the payer's pay and fail buttons ask the sandbox provider to report. */
const payerOutcomes = { pay: SimulatedOutcome.SUCCEED, fail: SimulatedOutcome.FAIL } as const;

export function peso(amountMinor: bigint): string {
  const value = Number(amountMinor) / 100;
  return `₱${value.toLocaleString("en-PH", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/**
 * The pages' only styles, in one <style> element that the Content-Security-Policy allows by its
 * hash: no style attributes, no scripts, so the policy needs no 'unsafe-inline' of any kind.
 */
const stylesheet = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
.banner{background:#fff3cd;padding:.5rem;border-radius:.25rem}.amount{font-size:2rem;margin:.5rem 0}
form.payer{display:inline}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;cursor:pointer}`;

/**
 * What a hosted page may do: show its own stylesheet and post its own forms; nothing may load,
 * run, or frame it (clickjacking a pay button).
 */
export const hostedPagePolicy = contentSecurityPolicy({
  "default-src": ["'none'"],
  "style-src": [styleHash(stylesheet)],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "base-uri": ["'none'"],
});

/** The frame of every sandbox page, with the banner saying no real money moves. */
export function sandboxPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Bayad sandbox</title>
<style>${stylesheet}</style></head>
<body><p class="banner">Sandbox — test mode. No real money moves.</p>${body}</body></html>`;
}

/** The pay and fail buttons of a payable page, posting to `<base>/pay` and `<base>/fail`. */
export function payerButtons(base: string, token: string, amountMinor: bigint): string {
  const action = (verb: string) => escapeHtml(`${base}/${verb}?token=${encodeURIComponent(token)}`);
  return `<form class="payer" method="post" action="${action("pay")}"><button id="pay" type="submit">Pay ${escapeHtml(peso(amountMinor))}</button></form>
<form class="payer" method="post" action="${action("fail")}"><button id="fail" type="submit">Fail payment</button></form>`;
}

/** What a payable resource's hosted page needs: how to show it and how the payer acts on it. */
export interface PayablePage<R> {
  /** The path under /sandbox, e.g. "invoices"; the id is the `:id` route parameter. */
  path: string;
  load(id: string, token: string): Promise<R>;
  /** Acts as the payer: `outcome` is what the pay (SUCCEED) or fail (FAIL) button asks for. */
  submit(id: string, token: string, outcome: SimulatedOutcome): Promise<R>;
  /** The page's body while the payer may still act (and after, with the status). */
  render(resource: R, token: string, base: string): string;
  /** The result page after the payer acted. */
  result(resource: R): string;
  /**
   * Where the payer goes once they acted, instead of the result page (a 303): a redirect intent
   * sends them back to the merchant's returnUrl, as the wallet's or bank's page would.
   */
  returnTo?(resource: R): string | undefined;
}

/**
 * Serves a sandbox hosted payment page: GET shows it, POST …/pay and …/fail act as the payer.
 * Access is by the page token in the URL (the URL is the capability), never by a project
 * credential; a wrong token reads as a page that does not exist.
 */
export function payablePageRoutes<R>(page: PayablePage<R>) {
  return (router: Router) => {
    router.get(`/sandbox/${page.path}/:id`, async (ctx) => {
      const token = String(ctx.query.token ?? "");
      setSandboxResponseHeaders(ctx, hostedPagePolicy);
      ctx.type = "html";
      try {
        const resource = await page.load(ctx.params.id, token);
        ctx.body = sandboxPage("Pay", page.render(resource, token, `/sandbox/${page.path}/${encodeURIComponent(ctx.params.id)}`));
      } catch (error) {
        ctx.status = fromConnectError(error).httpStatus;
        ctx.body = sandboxPage("Not found", `<h1>This payment page does not exist.</h1>`);
      }
    });

    for (const action of ["pay", "fail"] as const) {
      router.post(`/sandbox/${page.path}/:id/${action}`, async (ctx) => {
        const token = String(ctx.query.token ?? "");
        setSandboxResponseHeaders(ctx, hostedPagePolicy);
        ctx.type = "html";
        try {
          const resource = await page.submit(ctx.params.id, token, payerOutcomes[action]);
          const returnTo = page.returnTo?.(resource);
          if (returnTo !== undefined && linkableUrl(returnTo) !== "#") {
            ctx.status = 303;
            ctx.redirect(returnTo);
            ctx.body = sandboxPage("Result", page.result(resource));
            return;
          }
          ctx.body = sandboxPage("Result", page.result(resource));
        } catch (error) {
          const failure = fromConnectError(error);
          ctx.status = failure.httpStatus;
          ctx.body = sandboxPage(
            "Not paid",
            `<h1 id="result">This payment could not be made.</h1><p id="reason">${escapeHtml(failure.message)}</p>`,
          );
        }
      });
    }
  };
}
