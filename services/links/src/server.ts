import { LinksService } from "@bayad/proto";
import { startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { createIdempotencyKeys, createOutbox, registerOutboxMetrics, startRelayWorker, type EventBus } from "@bayad/events";
import { createSandboxProvider } from "@bayad/provider";
import type { Store } from "@bayad/store";
import type { LinksConfig } from "./config.js";
import { createLinksService } from "./links-service.js";
import { createPaymentLinksRepository } from "./payment-links/payment-links-repository.js";

export interface LinksServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, outbox lag. */
  metrics?: Registry;
  /** Where the outbox relay publishes; without one, events wait in the outbox. */
  bus?: EventBus;
  config: LinksConfig;
  logger: Logger;
  host?: string;
  port?: number;
}

/**
 * Wires the links service to its store and provider and serves it over gRPC with health. Unlike
 * checkouts there is nothing to sweep: a link is written only once the provider has answered.
 */
export async function startLinksServer(options: LinksServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const service = createLinksService({
    paymentLinks: {
      store,
      repository: createPaymentLinksRepository(store),
      outbox: createOutbox(store, "links"),
      providers: { test: createSandboxProvider(config.sandbox) },
      now: () => new Date(),
      keys: createIdempotencyKeys(store, { windowMs: config.idempotencyWindowMs }),
    },
  });
  await store.ensureIndexes();
  if (options.metrics) registerOutboxMetrics(options.metrics, store, "links");
  return startServiceServer({
    serviceName: LinksService.typeName,
    routes: (router) => router.service(LinksService, service),
    isReady: () => store.ping().then(() => true),
    logger,
    host: options.host,
    port: options.port,
    metrics: options.metrics,
    workers: options.bus ? [startRelayWorker({ store, bus: options.bus, logger })] : [],
  });
}
