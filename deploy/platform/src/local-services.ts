import type { Logger, Registry, RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { connectJetStreamBus, createInProcessBus, type EventBus } from "@bayad/events";
import { serviceNames, startService, type ServiceConfigs, type ServiceName } from "./services-mode/components.js";
import { componentStorePath, openEmbeddedStore } from "./data-dir/data-dir.js";

/** The services of the one-process platform, running on the thread that started them. */
export interface LocalServices {
  /** Each service's own embedded store. */
  stores: Record<ServiceName, Store>;
  /** Each service's gRPC server; `transport` calls it in-process. */
  services: Record<ServiceName, RunningServer>;
  /** Where the services' outbox relays publish and the records service consumes. */
  bus: EventBus;
  /** Stops the services (they flush their outboxes), then the bus, then the stores. */
  close(): Promise<void>;
}

export interface LocalServicesOptions {
  configs: ServiceConfigs;
  /** NATS JetStream when set; else an in-process bus with the same guarantees. */
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
  const bus = options.natsUrl
    ? await connectJetStreamBus({ url: options.natsUrl, namespace: options.eventsNamespace, logger: logger.child({ component: "bus" }) })
    : createInProcessBus();
  const services = {} as Record<ServiceName, RunningServer>;
  for (const name of serviceNames) {
    services[name] = await startService(name, {
      config: options.configs[name],
      store: stores[name],
      bus,
      logger: logger.child({ service: name }),
      metrics: options.metrics,
    });
  }
  return {
    stores,
    services,
    bus,
    async close() {
      await Promise.all(Object.values(services).map((service) => service.close()));
      await bus.close();
      await Promise.all(Object.values(stores).map((store) => store.close()));
    },
  };
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
