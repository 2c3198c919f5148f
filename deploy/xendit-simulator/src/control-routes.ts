import type { IncomingMessage } from "node:http";
import { control, matchControl, type ControlRoute, type Faults } from "@bayad/simulator-kit";
import { notFound, validationError, XenditSimulatorError } from "./api-error.js";
import { BodyReader } from "./body-reader.js";
import type { CallbackDeliveries } from "./callback-deliveries.js";
import { readCallbackSettings } from "./callback-settings.js";
import type { Fault } from "./faults.js";
import { parseObject, readBody } from "./http-io.js";
import type { IdempotencyStore } from "./idempotency-store.js";
import type { XenditSimulator } from "./index.js";
import type { RateLimit } from "./rate-limit.js";
import type { Simulation } from "./simulation.js";

export interface ControlDeps {
  sim: Simulation;
  simulator: XenditSimulator;
  faults: Faults<Fault>;
  rateLimit: RateLimit;
  idempotency: IdempotencyStore;
  deliveries: CallbackDeliveries;
  log: (line: string) => void;
}

type Run = (deps: ControlDeps, params: string[], body: BodyReader, raw: Record<string, unknown>) => unknown;

/** Shows the object after a control changed it, so a curl sees the result. */
const objectOf = (d: ControlDeps, id: string) => ({ data: d.simulator.find(id) });

/**
 * The controls for tests and local work, unauthenticated, the HTTP face of the programmatic ones.
 * Bodies are plain JSON; errors use Xendit's `{error_code, message}`.
 */
const CONTROLS: ControlRoute<Run>[] = [
  control("POST", "payment_requests/:id/pay", (d, [id = ""]) => ({ data: d.simulator.payPaymentRequest(id) })),
  control("POST", "payment_requests/:id/fail", (d, [id = ""], b) => ({ data: d.simulator.failPaymentRequest(id, b.optionalString("failure_code")) })),
  control("POST", "payment_requests/:id/expire", (d, [id = ""]) => {
    d.simulator.expirePaymentRequest(id);
    return objectOf(d, id);
  }),
  control("POST", "sessions/:id/pay", (d, [id = ""], b) => ({ data: d.simulator.paySession(id, b.optionalString("channel_code")) })),
  control("POST", "sessions/:id/fail", (d, [id = ""], b) => ({
    data: d.simulator.failSessionAttempt(id, b.optionalString("channel_code"), b.optionalString("failure_code")),
  })),
  control("POST", "sessions/:id/expire", (d, [id = ""]) => {
    d.simulator.expireSession(id);
    return objectOf(d, id);
  }),
  control("POST", "invoices/:id/pay", (d, [id = ""], b) => ({ data: d.simulator.payInvoice(id, b.optionalString("channel_code")) })),
  control("POST", "invoices/:id/expire", (d, [id = ""]) => {
    d.simulator.expireInvoice(id);
    return objectOf(d, id);
  }),
  control("POST", "invoices/:id/settle", (d, [id = ""]) => {
    d.simulator.settleInvoice(id);
    return objectOf(d, id);
  }),
  control("POST", "refunds/:id/settle", (d, [id = ""], b) => {
    d.simulator.settleRefund(id, b.oneOf("status", ["SUCCEEDED", "FAILED"]), b.optionalString("failure_code"));
    return objectOf(d, id);
  }),
  // {urls, invoiceUrls?, verificationToken, secretKey?}: Xendit sets v3 callback URLs in its dashboard only [O].
  control("PUT", "callbacks", (d, _, b, raw) => {
    d.simulator.setCallbacks(readCallbackSettings(raw), b.optionalString("secretKey"));
    return { urls: raw["urls"] };
  }),
  control("GET", "callback-delivery", (d) => d.deliveries.currentMode()),
  control("POST", "callback-delivery", (d, _, b) => d.simulator.setCallbackDelivery({ mode: b.oneOf("mode", ["deliver", "drop", "delay", "duplicate"]), delayMs: numberOrUndefined(b, "delayMs") })),
  control("POST", "callback-retries", (d, _, b) => ({ retryDelaysMs: d.simulator.setCallbackRetryDelays(b.raw("retryDelaysMs") as number[]) })),
  control("GET", "deliveries", (d) => ({ data: d.simulator.deliveries() })),
  control("GET", "events", (d) => ({ data: d.simulator.events() })),
  control("POST", "events/:id/resend", (d, [id = ""]) => {
    d.simulator.resendEvent(id);
    return { resent: id };
  }),
  control("GET", "faults", (d) => ({ data: d.faults.list() })),
  control("POST", "faults", (d, _, _b, raw) => {
    d.simulator.injectFault(raw);
    return { data: d.faults.list() };
  }),
  control("DELETE", "faults", (d) => {
    d.simulator.clearFaults();
    return { data: [] };
  }),
  control("GET", "rate-limit", (d) => d.rateLimit.current()),
  control("POST", "rate-limit", (d, _, _b, raw) => d.simulator.setRateLimit(raw)),
  control("GET", "settings", (d) => d.sim.settings),
  control("POST", "settings", (d, _, _b, raw) => d.simulator.setSettings(raw)),
  control("GET", "objects/:id", (d, [id = ""]) => {
    const found = d.simulator.find(id);
    if (found === undefined) throw notFound(id);
    return { data: found };
  }),
];

function numberOrUndefined(body: BodyReader, field: string): number | undefined {
  const value = body.raw(field);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number") throw validationError(`${field} must be a number.`);
  return value;
}

export async function handleControlRequest(deps: ControlDeps, req: IncomingMessage, url: URL): Promise<unknown> {
  const matched = matchControl(CONTROLS, req.method, url.pathname);
  if (matched) {
    const raw = parseObject(await readBody(req));
    return await matched.run(deps, matched.params, new BodyReader(raw), raw);
  }
  throw new XenditSimulatorError(404, "DATA_NOT_FOUND", `No simulator control ${req.method} ${url.pathname}.`);
}
