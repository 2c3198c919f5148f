import { PaymentsService, ProviderAccountsService, ProviderRoutingService } from "@bayad/proto";
import { randomBase62, startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { createOutbox, registerOutboxMetrics, startRelayWorker, type EventBus } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createPaymongoAccountSetup, createSandboxProvider, createXenditAccountSetup, type XenditAccountSetup } from "@bayad/provider";
import type { Store } from "@bayad/store";
import type { PaymentsConfig } from "./config.js";
import { createCustomersRepository } from "./customers/customers-repository.js";
import { createCheckoutsRepository } from "./checkouts/checkouts-repository.js";
import { reconcileStaleCheckouts } from "./checkouts/checkouts.js";
import { createPaymentIntentsRepository } from "./payment-intents/payment-intents-repository.js";
import { expireDuePaymentIntents } from "./payment-intents/payment-intents.js";
import { createPaymentsService } from "./payments-service.js";
import { createRefundsRepository } from "./refunds/refunds-repository.js";
import { startRefundSweep } from "./refunds/refund-sweep.js";
import { createProviderAccountsRepository, createProviderAccountsService, type ProviderAccountSetup } from "./provider-accounts/index.js";
import type { PaymentProviders } from "@bayad/provider";
import { createAccountProviders } from "./providers/account-providers.js";
import { startProviderReconciler } from "./providers/provider-reconciler.js";
import { createProviderEventsRepository } from "./provider-events/provider-events-repository.js";
import { startProviderEventApplier } from "./provider-events/provider-event-applier.js";
import { createHostedPaymentsRepository } from "./hosted-payments/hosted-payments-repository.js";
import { startHostedPaymentsConsumer } from "./hosted-payments/hosted-payments-consumer.js";
import { registerProviderWebhookMetrics } from "./provider-events/provider-webhook-metrics.js";
import { createProviderRoutingRepository } from "./routing/provider-routing-repository.js";
import { createPaymentRouting } from "./routing/payment-routing.js";
import { createAccountBreakers } from "./routing/account-breakers.js";
import { registerProviderCallMetrics } from "./routing/provider-call-metrics.js";
import { createCreatePins } from "./routing/create-pins.js";
import { createProviderRoutingService } from "./routing/provider-routing-service.js";

export interface PaymentsServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, outbox lag. */
  metrics?: Registry;
  /** Where the outbox relay publishes; without one, events wait in the outbox. */
  bus?: EventBus;
  config: PaymentsConfig;
  logger: Logger;
  /** The providers by environment; the sandbox in test mode unless given (tests wrap it). */
  providers?: PaymentProviders;
  /** The provider calls that put and remove provider accounts; PayMongo's at PAYMONGO_API_BASE unless given. */
  accountSetup?: ProviderAccountSetup;
  /** The Xendit key check of provider-account puts; Xendit's at XENDIT_API_BASE unless given. */
  xenditAccountSetup?: XenditAccountSetup;
  /** The gateway's public URL when PUBLIC_URL is unset (`npm start`: known once the gateway listens). */
  publicUrl?: () => string | undefined;
  host?: string;
  port?: number;
}

/** Wires the payments service to its store and provider and serves it over gRPC with health. */
export async function startPaymentsServer(options: PaymentsServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const outbox = createOutbox(store, "payments");
  const providerAccountsRepository = createProviderAccountsRepository(store);
  const accountProviders = createAccountProviders({
    accounts: providerAccountsRepository,
    secretsKey: config.secretsKey,
    paymongoApiBase: config.paymongoApiBase,
    xenditApiBase: config.xenditApiBase,
  });
  // The sandbox serves test mode by default; a project's own provider account wins for its environment.
  const providers: PaymentProviders = { accounts: accountProviders, ...(options.providers ?? { test: createSandboxProvider(config.sandbox) }) };
  const keys = createIdempotencyKeys(store, { windowMs: config.idempotencyWindowMs });
  // New checkouts and intents go to the project's accounts as its routing says, failing over between them.
  const providerRouting = createProviderRoutingRepository(store);
  const routing = createPaymentRouting({
    repository: providerRouting,
    accounts: accountProviders,
    breakers: createAccountBreakers({ threshold: config.providerBreakerThreshold, halfOpenAfterMs: config.providerBreakerHalfOpenAfterMs }),
    metrics: registerProviderCallMetrics(options.metrics),
  });
  const checkouts = {
    store,
    repository: createCheckoutsRepository(store),
    outbox,
    providers,
    providerTimeoutMs: config.providerTimeoutMs,
    logger,
    keys,
    routing,
  };
  const paymentIntents = {
    store,
    repository: createPaymentIntentsRepository(store),
    outbox,
    providers,
    logger,
    now: () => new Date(),
    keys,
    providerLeaseMs: config.providerLeaseMs,
    routing,
    pins: createCreatePins(store, { windowMs: config.idempotencyWindowMs }),
  };
  const hostedPayments = createHostedPaymentsRepository(store);
  const refunds = {
    store,
    repository: createRefundsRepository(store),
    outbox,
    payments: {
      chk: { collection: checkouts.repository.collection, paidStatus: "paid" },
      pi: { collection: paymentIntents.repository.collection, paidStatus: "succeeded" },
      // Links and invoices paid on hosted pages, as the links and billing services announce them.
      link: { collection: hostedPayments.collection, paidStatus: "paid" },
      inv: { collection: hostedPayments.collection, paidStatus: "paid" },
    },
    providers,
    logger,
    keys,
  };
  const providerEvents = createProviderEventsRepository(store);
  const accountStatus = { store, repository: providerAccountsRepository, outbox, logger, now: () => new Date() };
  const applier = startProviderEventApplier({
    deps: { checkouts, paymentIntents, refunds, providers: accountProviders, accountStatus, logger },
    events: providerEvents,
    intervalMs: config.reconcileIntervalMs,
    logger,
    now: () => new Date(),
  });
  const service = createPaymentsService({
    customers: { store, repository: createCustomersRepository(store), outbox, keys },
    checkouts,
    paymentIntents,
    refunds,
    providerEvents: {
      accounts: accountProviders,
      events: providerEvents,
      secretsKey: config.secretsKey,
      logger,
      metrics: registerProviderWebhookMetrics(options.metrics),
      now: () => new Date(),
      received: () => void applier.drain(),
    },
  });
  const providerAccounts = {
    store,
    repository: providerAccountsRepository,
    outbox,
    setup: options.accountSetup ?? createPaymongoAccountSetup({ apiBase: config.paymongoApiBase }),
    xenditSetup: options.xenditAccountSetup ?? createXenditAccountSetup({ apiBase: config.xenditApiBase }),
    secretsKey: config.secretsKey,
    publicUrl: () => config.publicUrl ?? options.publicUrl?.(),
    logger,
  };
  await store.ensureIndexes();

  // Checkouts whose provider answer never arrived (silence, or a crash while waiting) are
  // reconciled here, so they resolve even if no client retries; unpaid QR Ph codes past their
  // expiry expire here, so their intents expire by themselves.
  const sweep = setInterval(() => {
    reconcileStaleCheckouts(checkouts, config.providerTimeoutMs).catch((error: unknown) =>
      logger.error({ err: error }, "checkout reconciliation failed"),
    );
    expireDuePaymentIntents(paymentIntents).catch((error: unknown) =>
      logger.error({ err: error }, "payment intent expiry failed"),
    );
  }, config.reconcileIntervalMs);
  sweep.unref();
  // Refunds whose provider call was lost (the process died between committing the refund and
  // asking the provider) are asked for again, with the same key, by the lease holder.
  const refundSweep = startRefundSweep({
    deps: refunds,
    intervalMs: config.reconcileIntervalMs,
    leaseMs: config.providerLeaseMs,
    holderId: `payments-${randomBase62(16)}`,
  });

  // What PayMongo's webhooks did not tell (a delivery lost, a webhook disabled) is read from PayMongo.
  const reconciler = startProviderReconciler({
    store,
    checkouts,
    paymentIntents,
    refunds,
    accounts: providerAccountsRepository,
    outbox,
    providers: accountProviders,
    setup: providerAccounts.setup,
    xenditSetup: providerAccounts.xenditSetup,
    secretsKey: config.secretsKey,
    afterMs: config.providerReconcileAfterMs,
    intervalMs: config.providerReconcileIntervalMs,
    holderId: `payments-${randomBase62(16)}`,
    logger,
    metrics: options.metrics,
    now: () => new Date(),
  });

  // Paid links and invoices become refundable here as their services' events arrive (before this service's relay publishes).
  const hostedPaymentsConsumer = options.bus ? await startHostedPaymentsConsumer({ bus: options.bus, repository: hostedPayments, logger }) : undefined;

  if (options.metrics) registerOutboxMetrics(options.metrics, store, "payments");
  return startServiceServer({
    serviceName: PaymentsService.typeName,
    routes: (router) => {
      router.service(PaymentsService, service);
      router.service(ProviderAccountsService, createProviderAccountsService(providerAccounts));
      router.service(ProviderRoutingService, createProviderRoutingService({ repository: providerRouting, accounts: providerAccountsRepository, now: () => new Date() }));
    },
    isReady: () => store.ping().then(() => true),
    logger,
    host: options.host,
    port: options.port,
    metrics: options.metrics,
    workers: [
      { stop: async () => clearInterval(sweep) },
      refundSweep,
      applier,
      reconciler,
      ...(hostedPaymentsConsumer ? [hostedPaymentsConsumer] : []),
      ...(options.bus ? [startRelayWorker({ store, bus: options.bus, logger })] : []),
    ],
  });
}
