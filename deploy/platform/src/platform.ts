import { createLogger, createMetricsRegistry, randomBase62, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { connectJetStreamBus, createInProcessBus, type EventBus } from "@bayad/events";
import { readGatewayConfig, startGateway, type GatewayConfig } from "@bayad/gateway";
import { readPaymentsConfig, startPaymentsServer } from "@bayad/payments-service";
import { readBillingConfig, startBillingServer } from "@bayad/billing-service";
import { readLinksConfig, startLinksServer } from "@bayad/links-service";
import { readRecordsConfig, startRecordsServer } from "@bayad/records-service";
import { readOtpConfig, startOtpServer } from "@bayad/otp-service";

export interface PlatformOptions {
  /** Configuration as environment variables (PORT, ADMIN_API_KEY, …); defaults to process.env. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Fault injection for tests, passed to the gateway. */
  afterOutcome?: (operationId: string) => void | Promise<void>;
}

type ServiceName = "payments" | "billing" | "links" | "records" | "otp";

export interface RunningPlatform {
  gatewayUrl: string;
  adminApiKey: string;
  adminApiKeyGenerated: boolean;
  /** A project made at start, with a ready test-mode API key. */
  projectId: string;
  testApiKey: string;
  config: GatewayConfig;
  /** Each service's own store, for operators and tests that inspect what was written. */
  stores: Record<"gateway" | ServiceName, Store>;
  /** Each service's gRPC server (tests may stop one and put a restarted one in its place). */
  services: Record<ServiceName, RunningServer>;
  /** Where the services' outbox relays publish and the records service consumes. */
  bus: EventBus;
  /** Every service's and the gateway's metrics, served at the gateway's /metrics. */
  metrics: Registry;
  /** The records service's cursor secret, for a records server restarted by a test. */
  recordsCursorSecret: string;
  close(): Promise<void>;
}

/**
 * The whole platform in one process on embedded defaults: every service on its own loopback
 * gRPC port with its own embedded store, and the gateway in front reaching them over HTTP/2, so
 * the path that runs here is the path that is deployed. Events travel on NATS JetStream when
 * NATS_URL is set, else on an in-process bus with the same guarantees.
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  const env = options.env ?? process.env;
  const config = readGatewayConfig(env);
  const logger = options.logger ?? createLogger("bayad", env.LOG_LEVEL ?? "warn");
  const stores = {
    gateway: createEmbeddedStore(),
    payments: createEmbeddedStore(),
    billing: createEmbeddedStore(),
    links: createEmbeddedStore(),
    records: createEmbeddedStore(),
    otp: createEmbeddedStore(),
  };
  const bus = env.NATS_URL
    ? await connectJetStreamBus({ url: env.NATS_URL, namespace: env.EVENTS_NAMESPACE, logger: logger.child({ component: "bus" }) })
    : createInProcessBus();
  const recordsCursorSecret = env.RECORDS_CURSOR_SECRET ?? randomBase62(32);
  const metrics = createMetricsRegistry();

  const services: Record<ServiceName, RunningServer> = {
    payments: await startPaymentsServer({
      store: stores.payments,
      bus,
      config: readPaymentsConfig(env),
      logger: logger.child({ service: "payments" }),
      metrics,
    }),
    billing: await startBillingServer({
      store: stores.billing,
      bus,
      config: readBillingConfig(env),
      logger: logger.child({ service: "billing" }),
      metrics,
    }),
    links: await startLinksServer({
      store: stores.links,
      bus,
      config: readLinksConfig(env),
      logger: logger.child({ service: "links" }),
      metrics,
    }),
    records: await startRecordsServer({
      store: stores.records,
      bus,
      config: readRecordsConfig({ ...env, RECORDS_CURSOR_SECRET: recordsCursorSecret }),
      logger: logger.child({ service: "records" }),
      metrics,
    }),
    otp: await startOtpServer({
      store: stores.otp,
      config: readOtpConfig(env),
      logger: logger.child({ service: "otp" }),
      metrics,
    }),
  };
  const gateway = await startGateway({
    config,
    store: stores.gateway,
    services: Object.fromEntries(Object.entries(services).map(([name, service]) => [name, service.url])) as Record<ServiceName, string>,
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
    metrics,
    recordsCursorSecret,
    async close() {
      await gateway.close();
      // Services flush their outboxes as they stop, so the bus closes last.
      await Promise.all(Object.values(services).map((service) => service.close()));
      await bus.close();
      await Promise.all(Object.values(stores).map((store) => store.close()));
    },
  };
}
