import type { Logger, Registry, RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { connectJetStreamBus, createInProcessBus, type EventBus } from "@bayad/events";
import { RECORDS_DURABLE_NAME } from "@bayad/records-service";
import { WEBHOOKS_DURABLE_NAME } from "@bayad/webhooks-service";
import { HOSTED_PAYMENTS_DURABLE_NAME } from "@bayad/payments-service";
import { serviceNames, startService, type ServiceConfigs, type ServiceName } from "./services-mode/components.js";
import { componentStorePath, openEmbeddedStore } from "./data-dir/data-dir.js";

/** The services of the one-process platform, running on the thread that started them. */
export interface LocalServices {
  /** Each service's own embedded store. */
  stores: Record<ServiceName, Store>;
  /** Each service's gRPC server; `transport` calls it in-process. */
  services: Record<ServiceName, RunningServer>;
  /** Where the services' outbox relays publish and the records and webhooks services consume. */
  bus: EventBus;
  /**
   * Tells the services the gateway's URL once it listens, for when PUBLIC_URL is unset: the
   * payments service registers provider webhooks there, and the webhooks service makes the
   * hosted-page URLs of the events it delivers absolute under it.
   */
  useGatewayUrl(url: string): void;
  /** Stops the services (they flush their outboxes), payments and the consumers (records, webhooks) last, then the bus, then the stores. */
  close(): Promise<void>;
}

export interface LocalServicesOptions {
  configs: ServiceConfigs;
  /** NATS JetStream when set; else an in-process bus whose publishes the records and webhooks services hold. */
  natsUrl?: string;
  eventsNamespace?: string;
  /** The platform's DATA_DIR, opened by its launcher: each store in its own directory there. Else temporary stores. */
  dataDir?: string;
  logger: Logger;
  metrics: Registry;
}

/** Starts every service on this thread, each on its own loopback gRPC port with its own embedded store. */
export async function startLocalServices(options: LocalServicesOptions): Promise<LocalServices> {
  const { logger } = options;
  const { dataDir } = options;
  const stores = Object.fromEntries(
    serviceNames.map((name) => [name, openEmbeddedStore(dataDir && componentStorePath(dataDir, name))]),
  ) as Record<ServiceName, Store>;
  // The in-process bus keeps its log in memory: a publish is done once the records service has
  // projected the event and the webhooks service has scheduled its deliveries, so an outbox
  // keeps each event until then and a SIGKILL loses none.
  const bus = options.natsUrl
    ? await connectJetStreamBus({ url: options.natsUrl, namespace: options.eventsNamespace, logger: logger.child({ component: "bus" }) })
    : createInProcessBus({ holdingDurables: [RECORDS_DURABLE_NAME, WEBHOOKS_DURABLE_NAME, HOSTED_PAYMENTS_DURABLE_NAME] });
  const services = {} as Record<ServiceName, RunningServer>;
  let gatewayUrl: string | undefined;
  // The consumers (records, webhooks) consume before the others' relays publish, and stop after their last flush.
  const consumers = ["records", "webhooks"] as const;
  const publishers = serviceNames.filter((name) => !(consumers as readonly string[]).includes(name));
  for (const name of [...consumers, ...publishers]) {
    services[name] = await startService(name, {
      config: options.configs[name],
      store: stores[name],
      bus,
      logger: logger.child({ service: name }),
      metrics: options.metrics,
      publicUrl: () => gatewayUrl,
      // Billing and links resolve projects' provider accounts with the payments service, started before them.
      ...(name === "billing" || name === "links" ? { payments: services.payments.transport } : {}),
    });
  }
  return {
    stores,
    services,
    bus,
    useGatewayUrl(url) {
      gatewayUrl = url;
    },
    async close() {
      // Payments consumes (paid links and invoices) as well as publishing, so it stops after the others' last flush.
      await Promise.all(publishers.filter((name) => name !== "payments").map((name) => services[name].close()));
      await services.payments.close();
      await Promise.all(consumers.map((name) => services[name].close()));
      await bus.close();
      await Promise.all(Object.values(stores).map((store) => store.close()));
    },
  };
}

/** For a platform whose services run on a worker: `useGatewayUrl` there, through `withServices`. */
export function useGatewayUrl(services: LocalServices, url: string): void {
  services.useGatewayUrl(url);
}

/**
 * Runs the function `exportName` of the module at `moduleUrl` with `services` and `args`, for a
 * platform's `withServices` on whichever thread the services run.
 */
export async function runWithServices<T>(services: LocalServices, moduleUrl: string, exportName: string, args: unknown[]): Promise<T> {
  const module = (await import(moduleUrl)) as Record<string, unknown>;
  const run = module[exportName];
  if (typeof run !== "function") throw new Error(`${moduleUrl} exports no function ${exportName}`);
  return (run as (services: LocalServices, ...args: unknown[]) => T | Promise<T>)(services, ...args);
}
