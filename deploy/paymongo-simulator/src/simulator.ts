import { Faults, startHttpServer, Timers } from "@bayad/simulator-kit";
import type { PaymongoSimulator, PaymongoSimulatorOptions } from "./index.js";
import { KeyRing } from "./auth.js";
import { checkFault, type Fault } from "./faults.js";
import { forgeEvent } from "./forged-events.js";
import { IdempotencyStore } from "./idempotency-store.js";
import { RateLimit } from "./rate-limit.js";
import { createRequestHandler } from "./request-handler.js";
import { expireSession, paySession } from "./resources/checkout-sessions.js";
import { payLink } from "./resources/links.js";
import { expireQr, failIntent, payIntent } from "./resources/payment-intents.js";
import { settleRefund } from "./resources/refunds.js";
import { setPaidAt } from "./resources/payments.js";
import type { Simulation } from "./simulation.js";
import { SimulatorState } from "./state.js";
import { PAYMONGO_RETRY_SCHEDULE, WebhookDeliveries } from "./webhook-deliveries.js";

/** Starts the simulator on `host:port` (a free port by default) and resolves once it listens. */
export async function startPaymongoSimulator(options: PaymongoSimulatorOptions = {}): Promise<PaymongoSimulator> {
  const { server, url, close } = await startHttpServer(options.host ?? "127.0.0.1", options.port ?? 0);

  const sim: Simulation = { state: new SimulatorState(url), timers: new Timers(), keys: new KeyRing() };
  const log = options.log ?? (() => undefined);
  const deliveries = new WebhookDeliveries(sim, {
    retrySchedule: options.retrySchedule ?? PAYMONGO_RETRY_SCHEDULE,
    timeoutMs: options.deliveryTimeoutMs ?? 30_000,
    disableAfterExhaustedEvents: options.disableAfterExhaustedEvents ?? 3,
    log,
  });
  const faults = new Faults<Fault>(checkFault);
  const { state } = sim;

  const simulator: PaymongoSimulator = {
    url,
    async close() {
      deliveries.close();
      sim.timers.clear();
      await close();
    },
    async payCheckoutSession(id, opts) {
      return paySession(sim, state.any(id, "checkout_session"), opts?.method);
    },
    async expireCheckoutSession(id) {
      expireSession(sim, state.any(id, "checkout_session"));
    },
    async payPaymentIntent(id, opts) {
      return payIntent(sim, state.any(id, "payment_intent"), opts?.method);
    },
    async failPaymentIntent(id, opts) {
      failIntent(sim, state.any(id, "payment_intent"), opts);
    },
    async expireQrPh(paymentIntentId) {
      expireQr(sim, state.any(paymentIntentId, "payment_intent"));
    },
    async payLink(id, opts) {
      return payLink(sim, state.any(id, "link"), opts?.method);
    },
    async settleRefund(id, status) {
      settleRefund(sim, state.any(id, "refund"), status);
    },
    async setPaymentPaidAt(id, paidAt) {
      setPaidAt(state, state.any(id, "payment"), Math.floor(paidAt.getTime() / 1000));
    },
    setWebhookDelivery: (mode) => deliveries.setMode(mode),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    deliveries: () => deliveries.records(),
    events: () => state.events.map(({ id, type, livemode, body }) => ({ id, type, livemode, body })),
    flushDeliveries: (opts) => deliveries.flush(opts),
    resendEvent: (eventId) => deliveries.resend(eventId),
    rollSecretKey: (secretKey) => sim.keys.roll(secretKey),
    forgeEvent: (input) => forgeEvent(sim, input),
    find(id) {
      const object = state.find(id);
      return object ? state.render(object) : undefined;
    },
    objects: (type) => state.all(type).map((object) => state.render(object)),
  };
  const idempotency = new IdempotencyStore(options.idempotencyKeyTtlMs);
  const rateLimit = new RateLimit(options.rateLimitPerSecond);
  server.on("request", createRequestHandler({ sim, simulator, deliveries, faults, idempotency, rateLimit, log }));
  return simulator;
}
