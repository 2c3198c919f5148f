import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "@bayad/simulator-kit";
import { XenditSimulatorError } from "./api-error.js";
import { readBody } from "./http-io.js";
import { payInvoice } from "./resources/invoices.js";
import { failPaymentRequest, succeedPaymentRequest } from "./resources/payment-requests.js";
import { failSessionAttempt, paySession } from "./resources/sessions.js";
import type { Simulation } from "./simulation.js";

/**
 * Bare pages behind the URLs the simulator hands out (a request's WEB_URL action, a session's
 * payment_link_url, an invoice's invoice_url), with "pay" and "fail" buttons, so a developer can click through a payment by
 * hand. Tests use the controls instead.
 */
export async function handlePageRequest(sim: Simulation, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, kind, id, action] = url.pathname.split("/");
  try {
    if (kind === "pay" && id) return await requestPage(sim, req, res, id, action);
    if (kind === "checkout" && id) return await sessionPage(sim, req, res, id, action);
    if (kind === "web" && id) return await invoicePage(sim, req, res, id, action);
  } catch (err) {
    if (!(err instanceof XenditSimulatorError)) throw err;
    return sendHtml(res, err.status, page(`<p>${escape(err.message)}</p>`));
  }
  sendJson(res, 404, { error_code: "DATA_NOT_FOUND", message: `Nothing at ${url.pathname}.` });
}

async function requestPage(sim: Simulation, req: IncomingMessage, res: ServerResponse, id: string, action?: string): Promise<void> {
  const request = sim.state.any(id, "payment_request");
  const properties = request.body["channel_properties"] as Record<string, string | undefined>;
  if (req.method === "POST" && action === "pay") {
    succeedPaymentRequest(sim, request);
    return redirect(res, properties["success_return_url"]);
  }
  if (req.method === "POST" && action === "fail") {
    failPaymentRequest(sim, request);
    return redirect(res, properties["failure_return_url"]);
  }
  const r = request.body;
  sendHtml(
    res,
    200,
    page(
      `<h1>${escape(String(r["channel_code"]))}: ₱${escape(String(r["request_amount"]))}</h1><p>Status: ${escape(String(r["status"]))}</p>` +
        `<form method="post" action="/pay/${id}/pay"><button>Pay</button></form><form method="post" action="/pay/${id}/fail"><button>Fail</button></form>`,
    ),
  );
}

async function sessionPage(sim: Simulation, req: IncomingMessage, res: ServerResponse, id: string, action?: string): Promise<void> {
  const session = sim.state.any(id, "session");
  if (req.method === "POST" && (action === "pay" || action === "fail")) {
    const channel = new URLSearchParams(await readBody(req)).get("channel_code") ?? undefined;
    if (action === "pay") {
      paySession(sim, session, channel);
      return redirect(res, session.body["success_return_url"] as string | null);
    }
    failSessionAttempt(sim, session, channel);
    return redirect(res, `/checkout/${id}`);
  }
  const s = session.body;
  const channels = (s["allowed_payment_channels"] as string[])
    .map((c) => `<button name="channel_code" value="${escape(c)}">Pay with ${escape(c)}</button> `)
    .join("");
  sendHtml(
    res,
    200,
    page(
      `<h1>${escape(String(s["description"] ?? s["reference_id"]))}: ₱${escape(String(s["amount"]))}</h1><p>Status: ${escape(String(s["status"]))}</p>` +
        `<form method="post" action="/checkout/${id}/pay">${channels}</form>` +
        `<form method="post" action="/checkout/${id}/fail"><button>Fail an attempt</button></form>`,
    ),
  );
}

/**
 * An invoice's page: a button per channel it offers. Paying sends the payer to
 * success_redirect_url; a failed attempt changes nothing (an invoice has no failed status [O]: it
 * stays PENDING for another try) and sends them to failure_redirect_url.
 */
async function invoicePage(sim: Simulation, req: IncomingMessage, res: ServerResponse, id: string, action?: string): Promise<void> {
  const invoice = sim.state.any(id, "invoice");
  const i = invoice.body;
  if (req.method === "POST" && action === "pay") {
    const channel = new URLSearchParams(await readBody(req)).get("channel_code") ?? undefined;
    payInvoice(sim, invoice, channel);
    return redirect(res, i["success_redirect_url"] as string | null);
  }
  if (req.method === "POST" && action === "fail") {
    if (i["status"] !== "PENDING") throw new XenditSimulatorError(400, "INACTIVE_PAYMENT_REQUEST", `The invoice is ${String(i["status"])}.`);
    return redirect(res, (i["failure_redirect_url"] as string | null) ?? `/web/${id}`);
  }
  const channels = (invoice.internal["channels"] as string[]).map((c) => `<button name="channel_code" value="${escape(c)}">Pay with ${escape(c)}</button> `).join("");
  sendHtml(
    res,
    200,
    page(
      `<h1>${escape(String(i["description"] ?? i["external_id"]))}: ₱${escape(String(i["amount"]))}</h1><p>Status: ${escape(String(i["status"]))}</p>` +
        `<form method="post" action="/web/${id}/pay">${channels}</form>` +
        `<form method="post" action="/web/${id}/fail"><button>Fail an attempt</button></form>`,
    ),
  );
}

function redirect(res: ServerResponse, location: string | null | undefined): void {
  if (!location) return sendHtml(res, 200, page("<p>Done.</p>"));
  res.writeHead(303, { location });
  res.end();
}

function page(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Xendit simulator</title></head><body><p><strong>TEST MODE</strong> — Xendit simulator</p>${body}</body></html>`;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "content-length": String(Buffer.byteLength(html)) });
  res.end(html);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
