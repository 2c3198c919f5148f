import { BillingService } from "@bayad/proto";
import { randomBase62, startServiceServer, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { registerOutboxMetrics, startRelayWorker, type EventBus } from "@bayad/events";
import { createSandboxProvider } from "@bayad/provider";
import type { Store } from "@bayad/store";
import { createBillingDeps } from "./billing-deps.js";
import { createBillingService } from "./billing-service.js";
import { startBillingClock } from "./clock/billing-clock.js";
import type { BillingConfig } from "./config.js";

export interface BillingServerOptions {
  store: Store;
  /** The process's Prometheus registry: rpc metrics, outbox lag. */
  metrics?: Registry;
  /** Where the outbox relay publishes; without one, events wait in the outbox. */
  bus?: EventBus;
  config: BillingConfig;
  logger: Logger;
  host?: string;
  port?: number;
}

/**
 * Wires the billing service to its store and the sandbox provider, serves it over gRPC with
 * health, and runs the billing clock until closed.
 */
export async function startBillingServer(options: BillingServerOptions): Promise<RunningServer> {
  const { store, config, logger } = options;
  const deps = createBillingDeps({
    store,
    providers: { test: createSandboxProvider(config.sandbox) },
    logger,
    idempotencyWindowMs: config.idempotencyWindowMs,
  });
  const service = createBillingService(deps);
  await store.ensureIndexes();
  const clock = startBillingClock({
    deps,
    intervalMs: config.clockIntervalMs,
    leaseMs: config.clockLeaseMs,
    // Every replica's clock competes for one lease, so each process is its own holder.
    holderId: `billing-${randomBase62(16)}`,
  });
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
    workers: [clock, ...(options.bus ? [startRelayWorker({ store, bus: options.bus, logger })] : [])],
  });
}
