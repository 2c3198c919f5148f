import type { IncomingMessage } from "node:http";
import { control, isPlainObject, matchControl, type ControlRoute } from "@bayad/simulator-kit";
import { notFound, PaymongoSimulatorError } from "./api-error.js";
import type { ForgedEvent } from "./forged-events.js";
import { parseBody, readBody } from "./http-io.js";
import type { HandlerDeps } from "./request-handler.js";

type Body = Record<string, unknown>;
type Control = (deps: HandlerDeps, params: string[], body: Body) => unknown;

function optionalString(body: Body, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail: `${name} must be a string.`, source: { pointer: name, attribute: name } }]);
  }
  return value;
}

/** Renders the object after a control changed it, so a curl shows the result. */
function objectOf(deps: HandlerDeps, id: string) {
  return { data: deps.simulator.find(id) };
}

/**
 * The controls for local work, unauthenticated, the HTTP face of the programmatic ones. Bodies
 * are plain JSON (not JSON:API); errors use PayMongo's `errors` shape.
 */
const CONTROLS: ControlRoute<Control>[] = [
  control("POST", "checkout_sessions/:id/pay", (d, [id], b) => d.simulator.payCheckoutSession(id, { method: optionalString(b, "method") })),
  control("POST", "checkout_sessions/:id/expire", async (d, [id]) => {
    await d.simulator.expireCheckoutSession(id);
    return objectOf(d, id);
  }),
  control("POST", "payment_intents/:id/pay", (d, [id], b) => d.simulator.payPaymentIntent(id, { method: optionalString(b, "method") })),
  control("POST", "payment_intents/:id/fail", async (d, [id], b) => {
    await d.simulator.failPaymentIntent(id, { code: optionalString(b, "code"), message: optionalString(b, "message") });
    return objectOf(d, id);
  }),
  control("POST", "payment_intents/:id/expire_qrph", async (d, [id]) => {
    await d.simulator.expireQrPh(id);
    return objectOf(d, id);
  }),
  control("POST", "links/:id/pay", (d, [id], b) => d.simulator.payLink(id, { method: optionalString(b, "method") })),
  control("POST", "refunds/:id/settle", async (d, [id], b) => {
    await d.simulator.settleRefund(id, optionalString(b, "status") as "succeeded" | "failed");
    return objectOf(d, id);
  }),
  control("POST", "payments/:id/paid_at", async (d, [id], b) => {
    await d.simulator.setPaymentPaidAt(id, new Date(Number(b["paid_at"]) * 1000));
    return objectOf(d, id);
  }),
  control("GET", "webhook-delivery", (d) => d.deliveries.currentMode()),
  control("POST", "webhook-delivery", (d, _, b) => {
    d.simulator.setWebhookDelivery(b as { mode: "deliver" });
    return d.deliveries.currentMode();
  }),
  control("GET", "faults", (d) => ({ data: d.faults.list() })),
  control("POST", "faults", (d, _, b) => {
    d.simulator.injectFault(b as { status: number });
    return { data: d.faults.list() };
  }),
  control("DELETE", "faults", (d) => {
    d.simulator.clearFaults();
    return { data: [] };
  }),
  control("GET", "deliveries", (d) => ({ data: d.simulator.deliveries() })),
  control("POST", "deliveries/flush", async (d, _, b) => {
    await d.simulator.flushDeliveries({ untilSettled: b["untilSettled"] === true });
    return { data: d.simulator.deliveries() };
  }),
  control("GET", "events", (d) => ({ data: d.simulator.events() })),
  control("POST", "events/:id/resend", async (d, [id]) => {
    await d.simulator.resendEvent(id);
    return { data: d.simulator.deliveries().filter((a) => a.eventId === id) };
  }),
  // Signs and delivers a body PayMongo never made: {type, data: {id, type?, attributes}, secretKey?}.
  control("POST", "events/forge", (d, _, b) => ({ data: d.simulator.forgeEvent(b as unknown as ForgedEvent) })),
  // Rolls a secret key (the old one answers 401 from then on): {secretKey} → {secretKey: the new one}.
  control("POST", "keys/roll", (d, _, b) => {
    const secretKey = optionalString(b, "secretKey");
    if (secretKey === undefined) {
      throw new PaymongoSimulatorError(400, [{ code: "parameter_required", detail: "secretKey is required.", source: { pointer: "secretKey", attribute: "secretKey" } }]);
    }
    return { secretKey: d.simulator.rollSecretKey(secretKey) };
  }),
  control("GET", "objects/:id", (d, [id]) => {
    const object = d.simulator.find(id);
    if (object === undefined) throw notFound(id);
    return { data: object };
  }),
];

export async function handleControlRequest(deps: HandlerDeps, req: IncomingMessage, url: URL): Promise<unknown> {
  const matched = matchControl(CONTROLS, req.method, url.pathname);
  if (matched) {
    const body = parseBody(await readBody(req)) ?? {};
    if (!isPlainObject(body)) {
      throw new PaymongoSimulatorError(400, [{ code: "parameter_invalid", detail: "The body must be a JSON object." }]);
    }
    return await matched.run(deps, matched.params, body);
  }
  throw new PaymongoSimulatorError(404, [{ code: "resource_not_found", detail: `No simulator control ${req.method} ${url.pathname}.` }]);
}
