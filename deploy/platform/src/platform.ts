import { createLogger, createMetricsRegistry, envEnum, type Logger, type RunningServer } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { connectJetStreamBus, createInProcessBus, type EventBus } from "@bayad/events";
import { readGatewayConfig, startGateway, type GatewayConfig, type ServiceAddress } from "@bayad/gateway";
import { componentNames, readServiceConfigs, serviceNames, startService, type ComponentName, type ServiceName } from "./services-mode/components.js";

export interface PlatformOptions {
  /** Configuration as environment variables (PORT, ADMIN_API_KEY, …); defaults to process.env. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Fault injection for tests, passed to the gateway. */
  afterOutcome?: (operationId: string) => void | Promise<void>;
}

export interface RunningPlatform {
  gatewayUrl: string;
  adminApiKey: string;
  adminApiKeyGenerated: boolean;
  /** A project made at start, with a ready test-mode API key. */
  projectId: string;
  testApiKey: string;
  config: GatewayConfig;
  /** Each service's own store, for operators and tests that inspect what was written. */
  stores: Record<ComponentName, Store>;
  /** Each service's gRPC server (tests may stop one and put a restarted one in its place). */
  services: Record<ServiceName, RunningServer>;
  /** Where the services' outbox relays publish and the records service consumes. */
  bus: EventBus;
  /** The records service's cursor secret, for a records server restarted by a test. */
  recordsCursorSecret: string;
  close(): Promise<void>;
}

/**
 * The whole platform in one process on embedded defaults: every service on its own loopback
 * gRPC port with its own embedded store, and the gateway in front. The gateway calls the services
 * through a direct in-process transport (same routes, interceptors and deadlines, messages
 * copied per call, no socket; kit's createDirectTransport): on one event loop a loopback HTTP/2
 * hop costs several times the rest of a request (bench/README.md). PLATFORM_RPC=http2 makes it
 * use gRPC over HTTP/2, the deployed path.
 * Events travel on NATS JetStream when NATS_URL is set, else on an in-process bus with the same
 * guarantees.
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  const env = options.env ?? process.env;
  const config = readGatewayConfig(env);
  const serviceConfigs = readServiceConfigs(env);
  const rpc = envEnum(env, "PLATFORM_RPC", ["in-process", "http2"], "in-process");
  const logger = options.logger ?? createLogger("bayad", env.LOG_LEVEL ?? "warn");
  const stores = Object.fromEntries(componentNames.map((name) => [name, createEmbeddedStore()])) as Record<ComponentName, Store>;
  const bus = env.NATS_URL
    ? await connectJetStreamBus({ url: env.NATS_URL, namespace: env.EVENTS_NAMESPACE, logger: logger.child({ component: "bus" }) })
    : createInProcessBus();
  // Every service's and the gateway's metrics, served at the gateway's /metrics.
  const metrics = createMetricsRegistry();

  const services = {} as Record<ServiceName, RunningServer>;
  for (const name of serviceNames) {
    services[name] = await startService(name, {
      config: serviceConfigs[name],
      store: stores[name],
      bus,
      logger: logger.child({ service: name }),
      metrics,
    });
  }
  const gateway = await startGateway({
    config,
    store: stores.gateway,
    // Every service also listens on its loopback port (health checks, other clients); the gateway
    // calls it in-process unless PLATFORM_RPC=http2 asks for the deployed path.
    services: Object.fromEntries(
      serviceNames.map((name) => [name, rpc === "http2" ? services[name].url : services[name].transport]),
    ) as Record<ServiceName, ServiceAddress>,
    logger: logger.child({ service: "gateway" }),
    metrics,
    afterOutcome: options.afterOutcome,
  });

  const project = await gateway.admin.projects.create("Default project");
  const key = await gateway.admin.apiKeys.issue(project.projectId, "test");

  return {
    gatewayUrl: gateway.url,
    adminApiKey: config.adminApiKey,
    adminApiKeyGenerated: config.adminApiKeyGenerated,
    projectId: project.projectId,
    testApiKey: key.apiKey,
    config,
    stores,
    services,
    bus,
    recordsCursorSecret: serviceConfigs.records.cursorSecret,
    async close() {
      await gateway.close();
      // Services flush their outboxes as they stop, so the bus closes last.
      await Promise.all(Object.values(services).map((service) => service.close()));
      await bus.close();
      await Promise.all(Object.values(stores).map((store) => store.close()));
    },
  };
}
