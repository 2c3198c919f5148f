import type { Transport } from "@connectrpc/connect";
import { BillingService } from "@bayad/proto";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { clientTracingInterceptors, randomBase62, startServiceServer, withClientInterceptors, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { registerOutboxMetrics, startRelayWorker, type EventBus } from "@bayad/events";
import { createSandboxProvider, providerAccountsOf, startHostedPaymentReconciler } from "@bayad/provider";
import { createLease, type Store } from "@bayad/store";
import { createBillingDeps } from "./billing-deps.js";
import { createBillingService } from "./billing-service.js";
import { startBillingClock } from "./clock/billing-clock.js";
import type { BillingConfig } from "./config.js";
import { applyProviderInvoicePayment } from "./invoices/invoices.js";
import { closeVoidedInvoicesAtProvider } from "./invoices/voided-at-provider.js";
import { paymentsCustomerDirectory } from "./messages/customers.js";
import { startInvoiceMessagesConsumer, startInvoiceMessagesWorker } from "./messages/invoice-messages-consumer.js";
import { createInvoiceMessaging } from "./messages/invoice-messages-deps.js";

export interface BillingServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, outbox lag. */
  metrics?: Registry;
  /** Where the outbox relay publishes; without one, events wait in the outbox. */
  bus?: EventBus;
  config: BillingConfig;
  /**
   * The payments service in this process (the one-process platform), which resolves projects'
   * provider accounts; else PAYMENTS_URL. Without either, invoices use the sandbox only.
   */
  payments?: Transport;
  logger: Logger;
  /** The gateway's URL once it listens, when PUBLIC_URL is unset (the one-process platform): links in messages. */
  publicUrl?: () => string | undefined;
  host?: string;
  port?: number;
}

/**
 * Wires the billing service to its store and providers (the sandbox, and the projects' own
 * accounts through the payments service), serves it over gRPC with health, and runs the billing
 * clock until closed. Invoices whose hosted payment was made at a project's provider account (a
 * PayMongo link, a Xendit invoice) are found paid by the provider reconciler (the provider tells
 * its webhook, the payments service's, which cannot move invoices); the hosted payments of
 * voided invoices are closed there by the same lease holder.
 */
export async function startBillingServer(options: BillingServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const accounts = providerAccountsOf(config.providerAccounts, { payments: options.payments, paymentsUrl: config.paymentsUrl });
  const deps = createBillingDeps({
    store,
    providers: { test: createSandboxProvider(config.sandbox), ...(accounts ? { accounts } : {}) },
    logger,
    idempotencyWindowMs: config.idempotencyWindowMs,
  });
  // Customers (their addresses and language) are the payments service's: asked for over its rpc.
  const paymentsTransport = options.payments
    ? withClientInterceptors(options.payments, clientTracingInterceptors())
    : config.paymentsUrl !== undefined
      ? createGrpcTransport({ baseUrl: config.paymentsUrl, interceptors: clientTracingInterceptors() })
      : undefined;
  const messaging = paymentsTransport
    ? createInvoiceMessaging({
        billing: deps,
        config: config.messages,
        customers: paymentsCustomerDirectory(paymentsTransport),
        ...(config.providerAccounts.secretsKey ? { sealingKeys: config.providerAccounts.secretsKey } : {}),
        ...(options.publicUrl ? { platformUrl: options.publicUrl } : {}),
      })
    : undefined;
  if (!messaging) logger.warn("PAYMENTS_URL is not set: invoices and receipts are not sent to customers");
  if (messaging && !config.providerAccounts.secretsKey) logger.warn("SECRETS_KEY is not set: the development outbox's messages do not outlive this process");
  const service = createBillingService(deps, messaging);
  await store.ensureIndexes();
  const clock = startBillingClock({
    deps,
    intervalMs: config.clockIntervalMs,
    leaseMs: config.clockLeaseMs,
    // Every replica's clock competes for one lease, so each process is its own holder.
    holderId: `billing-${randomBase62(16)}`,
    ...(messaging ? { messaging: messaging.deps } : {}),
  });
  const reconciler = accounts
    ? startHostedPaymentReconciler({
        kind: "invoice",
        lease: createLease(store, "billing-provider-reconciler"),
        holderId: `billing-${randomBase62(16)}`,
        unsettled: async (before, afterId, limit) =>
          // providerAccountId and providerReference are recorded together, when the invoice is finalized.
          (await deps.invoices.findUnpaidAtProviders(before, afterId, limit)).map((invoice) => ({
            id: invoice._id,
            providerAccountId: invoice.providerAccountId!,
            providerReference: invoice.providerReference!,
          })),
        settle: (invoice, _providerPaymentId, payment) => applyProviderInvoicePayment(deps, invoice.providerAccountId, invoice.id, payment),
        alsoEachRound: () => closeVoidedInvoicesAtProvider(deps, accounts),
        accounts,
        afterMs: config.providerAccounts.reconcileAfterMs,
        intervalMs: config.providerAccounts.reconcileIntervalMs,
        logger,
        metrics: options.metrics,
        now: () => new Date(),
      })
    : undefined;
  const messagesConsumer = messaging && options.bus ? await startInvoiceMessagesConsumer({ bus: options.bus, deps: messaging.deps }) : undefined;
  const messagesWorker = messaging ? startInvoiceMessagesWorker({ deps: messaging.deps, intervalMs: config.messages.intervalMs }) : undefined;
  if (options.metrics) registerOutboxMetrics(options.metrics, store, "billing");
  return startServiceServer({
    serviceName: BillingService.typeName,
    routes: (router) => router.service(BillingService, service),
    isReady: () => store.ping().then(() => true),
    logger,
    host: options.host,
    port: options.port,
    metrics: options.metrics,
    // The relay stops last, so the clock's last writes are still published.
    workers: [
      ...(messagesConsumer ? [messagesConsumer] : []),
      ...(messagesWorker && messaging ? [messagesWorker, { stop: () => messaging.close() }] : []),
      clock,
      ...(reconciler && accounts ? [reconciler, { stop: () => accounts.close() }] : []),
      ...(options.bus ? [startRelayWorker({ store, bus: options.bus, logger })] : []),
    ],
  });
}
