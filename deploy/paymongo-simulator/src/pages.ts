import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "@bayad/simulator-kit";
import { PaymongoSimulatorError } from "./api-error.js";
import { readBody } from "./http-io.js";
import { paySession } from "./resources/checkout-sessions.js";
import { findLinkByReference, payLink } from "./resources/links.js";
import { failIntent, payIntent } from "./resources/payment-intents.js";
import type { Simulation } from "./simulation.js";
import type { StoredObject } from "./state.js";

/**
 * Bare pages behind the URLs the simulator hands out (checkout_url, next_action.redirect.url, a
 * link's checkout_url), so a developer can click through a payment by hand. Tests use the
 * controls instead.
 */
export async function handlePageRequest(sim: Simulation, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, kind, key, action] = url.pathname.split("/");
  try {
    if (kind === "checkout" && key) return await checkoutPage(sim, req, res, sim.state.any(key, "checkout_session"), action);
    if (kind === "redirect" && key) return await redirectPage(sim, req, res, sim.state.any(key, "payment_intent"), action);
    if (kind === "pm.link" && key) return await linkPage(sim, req, res, key, action);
  } catch (err) {
    if (!(err instanceof PaymongoSimulatorError)) throw err;
    return sendHtml(res, err.status, page("PayMongo simulator", `<p>${escape(err.message)}</p>`));
  }
  sendJson(res, 404, { errors: [{ code: "resource_not_found", detail: `Nothing at ${url.pathname}.` }] });
}

async function checkoutPage(sim: Simulation, req: IncomingMessage, res: ServerResponse, session: StoredObject, action?: string) {
  const a = session.attributes;
  if (req.method === "POST" && action === "pay") {
    const method = new URLSearchParams(await readBody(req)).get("method") ?? undefined;
    paySession(sim, session, method);
    return redirect(res, a["success_url"] as string);
  }
  const items = (a["line_items"] as Array<{ name: string; amount: number; quantity: number }>)
    .map((i) => `<li>${escape(i.name)} × ${i.quantity}: ${peso(i.amount * i.quantity)}</li>`)
    .join("");
  const buttons = (a["payment_method_types"] as string[])
    .map((m) => `<button name="method" value="${escape(m)}">Pay with ${escape(m)}</button> `)
    .join("");
  const body =
    `<p>Status: <b>${escape(String(a["status"]))}</b></p><ul>${items}</ul>` +
    (a["status"] === "active" && a["paid_at"] === null
      ? `<form method="post" action="/checkout/${session.id}/pay">${buttons}</form><p><a href="${escape(String(a["cancel_url"]))}">Cancel</a></p>`
      : "");
  sendHtml(res, 200, page(`Checkout ${String(a["reference_number"])}`, body));
}

async function redirectPage(sim: Simulation, req: IncomingMessage, res: ServerResponse, intent: StoredObject, action?: string) {
  const next = intent.attributes["next_action"] as { redirect?: { return_url: string } } | null;
  const returnUrl = next?.redirect?.return_url;
  // The payer pays or gives up on the wallet's or bank's page, then PayMongo sends them to return_url [O].
  if (req.method === "POST" && (action === "pay" || action === "fail")) {
    if (action === "pay") payIntent(sim, intent);
    else failIntent(sim, intent);
    return returnUrl ? redirect(res, returnUrl) : sendHtml(res, 200, page("Done", `<p>${action === "pay" ? "paid" : "failed"}</p>`));
  }
  const body =
    `<p>${peso(intent.attributes["amount"] as number)}, status <b>${escape(String(intent.attributes["status"]))}</b></p>` +
    (returnUrl
      ? `<form method="post" action="/redirect/${intent.id}/pay"><button>Pay</button></form>` +
        `<form method="post" action="/redirect/${intent.id}/fail"><button>Fail</button></form>`
      : "");
  sendHtml(res, 200, page("Authorize the payment", body));
}

async function linkPage(sim: Simulation, req: IncomingMessage, res: ServerResponse, reference: string, action?: string) {
  const link = findLinkByReference(sim, reference);
  if (!link) throw new PaymongoSimulatorError(404, [{ code: "resource_not_found", detail: `No link ${reference}.` }]);
  if (req.method === "POST" && action === "pay") payLink(sim, link);
  const a = link.attributes;
  const body =
    `<p>${escape(String(a["description"]))}: ${peso(a["amount"] as number)}, status <b>${escape(String(a["status"]))}</b></p>` +
    (a["status"] === "unpaid" ? `<form method="post" action="/pm.link/${escape(reference)}/pay"><button>Pay</button></form>` : "");
  sendHtml(res, 200, page(`Link ${reference}`, body));
}

function peso(centavos: number): string {
  return `PHP ${(centavos / 100).toFixed(2)}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><h1>${escape(title)}</h1><p><i>PayMongo simulator</i></p>${body}`;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location });
  res.end();
}
