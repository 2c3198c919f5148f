import type { Transport } from "@connectrpc/connect";
import { LinksService } from "@bayad/proto";
import { randomBase62, startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { createOutbox, registerOutboxMetrics, startRelayWorker, type EventBus } from "@bayad/events";
import { createIdempotencyKeys } from "@bayad/idempotency";
import { createSandboxProvider, providerAccountsOf, startHostedPaymentReconciler, type PaymentProviders } from "@bayad/provider";
import { createLease, type Store } from "@bayad/store";
import type { LinksConfig } from "./config.js";
import { createLinksService } from "./links-service.js";
import { createPaymentLinksRepository } from "./payment-links/payment-links-repository.js";
import { applyProviderLinkPayment, type PaymentLinksDeps } from "./payment-links/payment-links.js";
import { startLinkRefundsConsumer } from "./refunds-consumer.js";

export interface LinksServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, outbox lag. */
  metrics?: Registry;
  /** Where the outbox relay publishes; without one, events wait in the outbox. */
  bus?: EventBus;
  config: LinksConfig;
  /**
   * The payments service in this process (the one-process platform), which resolves projects'
   * provider accounts; else PAYMENTS_URL. Without either, links use the sandbox only.
   */
  payments?: Transport;
  logger: Logger;
  host?: string;
  port?: number;
}

/**
 * Wires the links service to its store and providers and serves it over gRPC with health. Unlike
 * checkouts there is nothing to sweep: a link is written only once the provider has answered.
 * Links made at a project's provider account (a PayMongo link, a Xendit invoice) are found paid
 * by the provider reconciler (the provider tells its webhook, the payments service's, which
 * cannot move links).
 */
export async function startLinksServer(options: LinksServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const accounts = providerAccountsOf(config.providerAccounts, { payments: options.payments, paymentsUrl: config.paymentsUrl });
  const providers: PaymentProviders = { test: createSandboxProvider(config.sandbox), ...(accounts ? { accounts } : {}) };
  const paymentLinks: PaymentLinksDeps = {
    store,
    repository: createPaymentLinksRepository(store),
    outbox: createOutbox(store, "links"),
    providers,
    now: () => new Date(),
    keys: createIdempotencyKeys(store, { windowMs: config.idempotencyWindowMs }),
  };
  const service = createLinksService({ paymentLinks });
  await store.ensureIndexes();
  const reconciler = accounts
    ? startHostedPaymentReconciler({
        kind: "payment_link",
        lease: createLease(store, "links-provider-reconciler"),
        holderId: `links-${randomBase62(16)}`,
        unsettled: async (before, afterId, limit) =>
          (await paymentLinks.repository.findActiveAtProviders(before, afterId, limit)).map((link) => ({
            id: link._id,
            providerAccountId: link.providerAccountId!,
            providerReference: link.providerReference,
          })),
        settle: (link, _providerPaymentId, payment) => applyProviderLinkPayment(paymentLinks, link.providerAccountId, link.id, payment),
        accounts,
        afterMs: config.providerAccounts.reconcileAfterMs,
        intervalMs: config.providerAccounts.reconcileIntervalMs,
        logger,
        metrics: options.metrics,
        now: () => new Date(),
      })
    : undefined;
  // A refund of a link (made through the payments service) is recorded on the link as it is announced.
  const refundsConsumer = options.bus ? await startLinkRefundsConsumer({ bus: options.bus, paymentLinks, logger }) : undefined;
  if (options.metrics) registerOutboxMetrics(options.metrics, store, "links");
  return startServiceServer({
    serviceName: LinksService.typeName,
    routes: (router) => router.service(LinksService, service),
    isReady: () => store.ping().then(() => true),
    logger,
    host: options.host,
    port: options.port,
    metrics: options.metrics,
    // The relay stops last, so the reconciler's last writes are still published.
    workers: [
      ...(reconciler && accounts ? [reconciler, { stop: () => accounts.close() }] : []),
      ...(refundsConsumer ? [refundsConsumer] : []),
      ...(options.bus ? [startRelayWorker({ store, bus: options.bus, logger })] : []),
    ],
  });
}
