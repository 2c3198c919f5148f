import { XenditSimulatorError } from "./api-error.js";
import type { Account } from "./auth.js";
import { cancelPaymentRequest, createPaymentRequest, simulatePayment } from "./resources/payment-requests.js";
import { createInvoice, expireInvoice, listInvoices } from "./resources/invoices.js";
import { createRefund } from "./resources/refunds.js";
import { createSession } from "./resources/sessions.js";
import type { Simulation } from "./simulation.js";
import type { Kind } from "./state.js";

export interface ApiContext {
  sim: Simulation;
  account: Account;
  body: Record<string, unknown>;
  params: string[];
  /** The query string (`GET /v2/invoices?external_id=…`). */
  query: URLSearchParams;
}

/** Whether `idempotency-key` is honoured: always (refunds [O SDK]), by the control (v3 requests, UNCONF), or never. */
export type IdempotencyRule = "always" | "by-setting" | "never";

export interface ApiRoute {
  method: string;
  pattern: RegExp;
  /** The endpoint as the rate limit counts it, ids left out: `POST /v3/payment_requests/{id}/cancel`. */
  endpoint: string;
  /** Payments API v3 routes need `api-version: 2024-11-11` [O]. */
  versioned: boolean;
  idempotency: IdempotencyRule;
  /** The success status: 201 for a created payment request, 200 otherwise (a refund is 200 PENDING) [O]. */
  status: number;
  run(ctx: ApiContext): unknown;
}

function route(method: string, path: string, run: ApiRoute["run"], extra: Partial<Pick<ApiRoute, "idempotency" | "status">> = {}): ApiRoute {
  return {
    method,
    pattern: new RegExp(`^${path.replaceAll("{id}", "([^/]+)")}$`),
    endpoint: `${method} ${path}`,
    versioned: path.startsWith("/v3/"),
    idempotency: extra.idempotency ?? "never",
    status: extra.status ?? 200,
    run,
  };
}

const view = (ctx: ApiContext, kind: Kind) =>
  ctx.sim.state.view(ctx.sim.state.owned(ctx.account, ctx.params[0] ?? "", kind));

/** The API the simulator serves, from the facts' endpoint list [O]. */
export const API_ROUTES: ApiRoute[] = [
  route("POST", "/v3/payment_requests", (c) => createPaymentRequest(c.sim, c.account, c.body), { idempotency: "by-setting", status: 201 }),
  route("GET", "/v3/payment_requests/{id}", (c) => view(c, "payment_request")),
  route("POST", "/v3/payment_requests/{id}/cancel", (c) =>
    cancelPaymentRequest(c.sim, c.sim.state.owned(c.account, c.params[0] ?? "", "payment_request")),
  ),
  route("POST", "/v3/payment_requests/{id}/simulate", (c) =>
    simulatePayment(c.sim, c.account, c.sim.state.owned(c.account, c.params[0] ?? "", "payment_request"), c.body),
  ),
  route("GET", "/v3/payments/{id}", (c) => view(c, "payment")),
  route("POST", "/sessions", (c) => createSession(c.sim, c.account, c.body), { status: 201 }),
  route("GET", "/sessions/{id}", (c) => view(c, "session")),
  route("POST", "/refunds", (c) => createRefund(c.sim, c.account, c.body), { idempotency: "always" }),
  route("GET", "/refunds/{id}", (c) => view(c, "refund")),
  route("POST", "/v2/invoices", (c) => createInvoice(c.sim, c.account, c.body)),
  route("GET", "/v2/invoices", (c) => listInvoices(c.sim, c.account, c.query)),
  route("GET", "/v2/invoices/{id}", (c) => view(c, "invoice")),
  // The legacy path has no version and ends in `!` [O].
  route("POST", "/invoices/{id}/expire!", (c) => expireInvoice(c.sim, c.sim.state.owned(c.account, c.params[0] ?? "", "invoice"))),
];

/** The route and its path ids, or 404 DATA_NOT_FOUND for a path the simulator does not serve. */
export function matchApiRoute(method: string, path: string): { route: ApiRoute; params: string[] } {
  for (const candidate of API_ROUTES) {
    const match = candidate.method === method ? candidate.pattern.exec(path) : null;
    if (match) return { route: candidate, params: match.slice(1).map(decodeURIComponent) };
  }
  throw new XenditSimulatorError(404, "DATA_NOT_FOUND", `The simulator serves no ${method} ${path}.`);
}

/** Whether a path is the API's (as opposed to the controls or the hosted pages). */
export function isApiPath(path: string): boolean {
  return (
    path.startsWith("/v3/") ||
    path.startsWith("/v2/") ||
    path === "/sessions" ||
    path === "/refunds" ||
    /^\/(sessions|refunds)\/[^/]+$/.test(path) ||
    /^\/invoices\/[^/]+\/expire!$/.test(path)
  );
}
