import { createLogger, type Logger, type RunningServer } from "@bayad/kit";
import { createEmbeddedStore, type Store } from "@bayad/store";
import { readGatewayConfig, startGateway, type GatewayConfig } from "@bayad/gateway";
import { readPaymentsConfig, startPaymentsServer } from "@bayad/payments-service";
import { readBillingConfig, startBillingServer } from "@bayad/billing-service";
import { readLinksConfig, startLinksServer } from "@bayad/links-service";

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
  stores: { gateway: Store; payments: Store; billing: Store; links: Store };
  /** Each service's gRPC server. */
  services: { payments: RunningServer; billing: RunningServer; links: RunningServer };
  close(): Promise<void>;
}

/**
 * The whole platform in one process on embedded defaults: every service on its own loopback
 * gRPC port with its own embedded store, and the gateway in front reaching them over HTTP/2, so
 * the path that runs here is the path that is deployed.
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
  };

  const payments = await startPaymentsServer({
    store: stores.payments,
    config: readPaymentsConfig(env),
    logger: logger.child({ service: "payments" }),
  });
  const billing = await startBillingServer({
    store: stores.billing,
    config: readBillingConfig(env),
    logger: logger.child({ service: "billing" }),
  });
  const links = await startLinksServer({
    store: stores.links,
    config: readLinksConfig(env),
    logger: logger.child({ service: "links" }),
  });
  const services = { payments, billing, links };
  const gateway = await startGateway({
    config,
    store: stores.gateway,
    services: { payments: payments.url, billing: billing.url, links: links.url },
    logger: logger.child({ service: "gateway" }),
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
    async close() {
      await gateway.close();
      await Promise.all(Object.values(services).map((service) => service.close()));
      await Promise.all(Object.values(stores).map((store) => store.close()));
    },
  };
}
