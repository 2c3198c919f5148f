import type { IncomingMessage } from "node:http";
import { PaymongoSimulatorError } from "./api-error.js";
import { attributesOf, readBody } from "./http-io.js";
import { IdempotencyStore, requestFingerprint } from "./idempotency-store.js";
import { createCheckoutSession, expireCheckoutSessionRoute, getCheckoutSession } from "./resources/checkout-sessions.js";
import { createCustomer, getCustomer } from "./resources/customers.js";
import { archiveLink, createLink, getLink, listLinks } from "./resources/links.js";
import { attachPaymentIntent, createPaymentIntent, getPaymentIntent } from "./resources/payment-intents.js";
import { createPaymentMethod, getPaymentMethod } from "./resources/payment-methods.js";
import { createRefund, getRefund, listRefunds } from "./resources/refunds.js";
import {
  createWebhook,
  disableWebhookRoute,
  enableWebhookRoute,
  getWebhook,
  listWebhooks,
  updateWebhook,
} from "./resources/webhooks.js";
import type { ApiHandler, Simulation } from "./simulation.js";

interface Route {
  method: string;
  pattern: RegExp;
  handler: ApiHandler;
}

const ID = "([^/]+)";

function route(method: string, path: string, handler: ApiHandler): Route {
  return { method, pattern: new RegExp(`^/v1/${path.replaceAll(":id", ID)}$`), handler };
}

/** The subset of PayMongo's API the contract names (paymongo-contract.md). */
const ROUTES: Route[] = [
  route("POST", "checkout_sessions", createCheckoutSession),
  route("GET", "checkout_sessions/:id", getCheckoutSession),
  route("POST", "checkout_sessions/:id/expire", expireCheckoutSessionRoute),
  route("POST", "payment_intents", createPaymentIntent),
  route("GET", "payment_intents/:id", getPaymentIntent),
  route("POST", "payment_intents/:id/attach", attachPaymentIntent),
  route("POST", "payment_methods", createPaymentMethod),
  route("GET", "payment_methods/:id", getPaymentMethod),
  route("GET", "payments", (sim, req) => ({
    data: sim.state.list(req.account, "payment").map((o) => sim.state.render(o)),
    has_more: false,
  })),
  route("GET", "payments/:id", (sim, req) => ({ data: sim.state.render(sim.state.owned(req.account, req.params[0], "payment")) })),
  route("POST", "refunds", createRefund),
  route("GET", "refunds", listRefunds),
  route("GET", "refunds/:id", getRefund),
  route("POST", "links", createLink),
  route("GET", "links", listLinks),
  route("GET", "links/:id", getLink),
  route("POST", "links/:id/archive", archiveLink(true)),
  route("POST", "links/:id/unarchive", archiveLink(false)),
  route("POST", "customers", createCustomer),
  route("GET", "customers/:id", getCustomer),
  route("POST", "webhooks", createWebhook),
  route("GET", "webhooks", listWebhooks),
  route("GET", "webhooks/:id", getWebhook),
  route("PUT", "webhooks/:id", updateWebhook),
  route("POST", "webhooks/:id/enable", enableWebhookRoute),
  route("POST", "webhooks/:id/disable", disableWebhookRoute),
];

/**
 * Authenticates and runs one `/v1/…` request; throws PaymongoSimulatorError for every error
 * answer. A POST with an `Idempotency-Key` runs once per account and key (see IdempotencyStore).
 */
export async function handleApiRequest(sim: Simulation, req: IncomingMessage, url: URL, idempotency: IdempotencyStore): Promise<unknown> {
  const account = sim.keys.authenticate(req.headers.authorization);
  const method = req.method ?? "GET";
  for (const candidate of ROUTES) {
    const match = candidate.method === method ? candidate.pattern.exec(url.pathname) : null;
    if (!match) continue;
    const attributes = method === "GET" ? {} : attributesOf(await readBody(req));
    const params = match.slice(1).map((p) => decodeURIComponent(p));
    const handle = async () => candidate.handler(sim, { account, attributes, query: url.searchParams, params });
    // Retrieve, list and delete requests take no key [O]; a key on one is ignored.
    const key = method === "POST" ? IdempotencyStore.keyOf(req.headers["idempotency-key"]) : undefined;
    if (key === undefined) return await handle();
    return await idempotency.run(account.owner, key, requestFingerprint(method, url.pathname, attributes), handle);
  }
  throw new PaymongoSimulatorError(404, [{ code: "resource_not_found", detail: `No route for ${method} ${url.pathname}.` }]);
}
