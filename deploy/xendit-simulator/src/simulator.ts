import { Faults, startHttpServer, Timers } from "@bayad/simulator-kit";
import { notFound, validationError } from "./api-error.js";
import { accountOf } from "./auth.js";
import { CallbackDeliveries, SCALED_RETRY_DELAYS_MS } from "./callback-deliveries.js";
import { CallbackRegistry } from "./callback-settings.js";
import { checkFault, type Fault } from "./faults.js";
import { IdempotencyStore } from "./idempotency-store.js";
import type { XenditSimulator, XenditSimulatorOptions } from "./index.js";
import { RateLimit, XENDIT_RATE_LIMITS } from "./rate-limit.js";
import { createRequestHandler } from "./request-handler.js";
import { expirePaymentRequest, failPaymentRequest, succeedPaymentRequest } from "./resources/payment-requests.js";
import { expireInvoice, payInvoice, settleInvoice } from "./resources/invoices.js";
import { settleRefund } from "./resources/refunds.js";
import { expireSession, failSessionAttempt, paySession } from "./resources/sessions.js";
import type { Settings, Simulation } from "./simulation.js";
import { SimulatorState } from "./state.js";

const DEFAULT_SETTINGS: Settings = { idempotentPaymentRequests: false, refundSettlementMs: 2000, paymentRequestExpiryMs: null };

/** Starts the simulator on `host:port` (a free port by default) and resolves once it listens. */
export async function startXenditSimulator(options: XenditSimulatorOptions = {}): Promise<XenditSimulator> {
  const { server, url, close } = await startHttpServer(options.host ?? "127.0.0.1", options.port ?? 0);
  const log = options.log ?? (() => undefined);

  const sim: Simulation = { state: new SimulatorState(url), timers: new Timers(), settings: { ...DEFAULT_SETTINGS, ...options.settings } };
  const registry = new CallbackRegistry();
  const deliveries = new CallbackDeliveries(registry, {
    retryDelaysMs: options.callbackRetryDelaysMs ?? SCALED_RETRY_DELAYS_MS,
    timeoutMs: options.callbackTimeoutMs ?? 10_000,
    log,
  });
  sim.state.onEvent((event) => deliveries.accept(event));
  const faults = new Faults<Fault>(checkFault);
  const rateLimit = new RateLimit({ ...XENDIT_RATE_LIMITS, ...options.rateLimit });
  const { state } = sim;

  const simulator: XenditSimulator = {
    url,
    async close() {
      deliveries.close();
      sim.timers.clear();
      await close();
    },
    payPaymentRequest: (id) => ({ paymentId: succeedPaymentRequest(sim, state.any(id, "payment_request")).id }),
    failPaymentRequest: (id, code) => ({ paymentId: failPaymentRequest(sim, state.any(id, "payment_request"), code).id }),
    expirePaymentRequest: (id) => expirePaymentRequest(sim, state.any(id, "payment_request")),
    paySession: (id, channel) => paySession(sim, state.any(id, "session"), channel),
    failSessionAttempt: (id, channel, code) => failSessionAttempt(sim, state.any(id, "session"), channel, code),
    expireSession: (id) => expireSession(sim, state.any(id, "session")),
    payInvoice: (id, channel) => payInvoice(sim, state.any(id, "invoice"), channel),
    expireInvoice(id) {
      expireInvoice(sim, state.any(id, "invoice"));
    },
    settleInvoice: (id) => settleInvoice(sim, state.any(id, "invoice")),
    settleRefund(id, status, code) {
      if (status !== "SUCCEEDED" && status !== "FAILED") throw validationError("status must be SUCCEEDED or FAILED.");
      settleRefund(sim, state.any(id, "refund"), status, code);
    },
    setCallbacks: (settings, secretKey) => registry.set(secretKey === undefined ? undefined : accountOf(secretKey).owner, settings),
    setCallbackDelivery: (mode) => deliveries.setMode(mode),
    setCallbackRetryDelays: (delays) => deliveries.setRetryDelays(delays),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    setRateLimit(limits) {
      const positive = (n: unknown) => n === undefined || (Number.isInteger(n) && (n as number) > 0);
      if (!positive(limits.test) || !positive(limits.live) || !positive(limits.windowMs)) {
        throw validationError("test, live and windowMs must be positive integers.");
      }
      return rateLimit.configure(limits);
    },
    setSettings(settings) {
      const next = { ...sim.settings, ...settings };
      const delayOk = (ms: unknown) => ms === null || (Number.isInteger(ms) && (ms as number) >= 0);
      if (typeof next.idempotentPaymentRequests !== "boolean" || !delayOk(next.refundSettlementMs) || !delayOk(next.paymentRequestExpiryMs)) {
        throw validationError("idempotentPaymentRequests must be a boolean, refundSettlementMs and paymentRequestExpiryMs non-negative integers or null.");
      }
      sim.settings = next;
      return { ...sim.settings };
    },
    deliveries: () => deliveries.records(),
    events: () => state.events.map(({ id, event, body }) => ({ id, event, body })),
    resendEvent(id) {
      const event = state.events.find((e) => e.id === id);
      if (!event) throw notFound(id);
      deliveries.resend(event);
    },
    objects: (kind) => state.all(kind).map((stored) => state.view(stored)),
    find(id) {
      const stored = state.find(id);
      return stored ? state.view(stored) : undefined;
    },
  };
  server.on("request", createRequestHandler({ sim, simulator, faults, rateLimit, idempotency: new IdempotencyStore(options.idempotencyKeyTtlMs), deliveries, log }));
  return simulator;
}
