import { createMetricsRegistry, envUrl, ConfigError, traceStore, type Logger, type Registry, type RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EventBus } from "@bayad/events";
import { readGatewayConfig, startGateway } from "@bayad/gateway";
import { readPaymentsConfig, startPaymentsServer, type PaymentsConfig } from "@bayad/payments-service";
import { readBillingConfig, startBillingServer, type BillingConfig } from "@bayad/billing-service";
import { readLinksConfig, startLinksServer, type LinksConfig } from "@bayad/links-service";
import { readRecordsConfig, startRecordsServer, type RecordsConfig } from "@bayad/records-service";
import { readOtpConfig, startOtpServer, type OtpConfig } from "@bayad/otp-service";
import { readWebhooksConfig, startWebhooksServer, type WebhooksConfig } from "@bayad/webhooks-service";
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { BillingService, LinksService, OtpService, PaymentsService, RecordsService, WebhooksService } from "@bayad/proto";
import type { RunningComponent } from "./process-lifecycle.js";
import { busFromEnv, dataFromEnv, listenFromEnv, serveMetricsFromEnv } from "./infrastructure.js";
import { componentSecrets, drawSecrets } from "../data-dir/generated-secrets.js";

type Env = Record<string, string | undefined>;

/** The services behind the gateway, in the order they start. */
export const serviceNames = ["payments", "billing", "links", "records", "otp", "webhooks"] as const;
export type ServiceName = (typeof serviceNames)[number];

/** The gRPC service each one serves. */
export const serviceDescriptors: Record<ServiceName, DescService> = {
  payments: PaymentsService,
  billing: BillingService,
  links: LinksService,
  records: RecordsService,
  otp: OtpService,
  webhooks: WebhooksService,
};

export const componentNames = ["gateway", ...serviceNames] as const;
export type ComponentName = (typeof componentNames)[number];

export function isComponentName(name: string | undefined): name is ComponentName {
  return (componentNames as readonly string[]).includes(name ?? "");
}

/** The gateway's variable that addresses a service: PAYMENTS_URL, BILLING_URL, … */
export function serviceUrlVariable(name: ServiceName): string {
  return `${name.toUpperCase()}_URL`;
}

/** Each service's configuration, as its reader returns it. */
export interface ServiceConfigs {
  payments: PaymentsConfig;
  billing: BillingConfig;
  links: LinksConfig;
  records: RecordsConfig;
  otp: OtpConfig;
  webhooks: WebhooksConfig;
}

/** What a service starts with; host and port default to the service's own (loopback, a free port). */
export interface ServiceDeps<N extends ServiceName = ServiceName> {
  config: ServiceConfigs[N];
  store: Store;
  /** Required by the services that publish or consume events; the others ignore it. */
  bus?: EventBus;
  logger: Logger;
  metrics: Registry;
  /** The gateway's URL once it listens, for payments and webhooks when PUBLIC_URL is unset (the one-process platform). */
  publicUrl?: () => string | undefined;
  /**
   * The payments service in this process (the one-process platform), for billing and links, which
   * resolve projects' provider accounts there; in services mode they use PAYMENTS_URL.
   */
  payments?: Transport;
  host?: string;
  port?: number;
}

interface ServiceEntry<N extends ServiceName> {
  /** Whether the service publishes or consumes events, and so cannot run without the bus. */
  bus: boolean;
  readConfig(env: Env): ServiceConfigs[N];
  start(deps: ServiceDeps<N>): Promise<RunningServer>;
}

/** How each service reads its configuration from the environment and starts. */
const services: { [N in ServiceName]: ServiceEntry<N> } = {
  payments: { bus: true, readConfig: readPaymentsConfig, start: startPaymentsServer },
  billing: { bus: true, readConfig: readBillingConfig, start: startBillingServer },
  links: { bus: true, readConfig: readLinksConfig, start: startLinksServer },
  records: {
    bus: true,
    readConfig: readRecordsConfig,
    start: ({ bus, ...deps }) => {
      if (!bus) throw new Error("the records service needs an event bus");
      return startRecordsServer({ ...deps, bus });
    },
  },
  otp: { bus: false, readConfig: readOtpConfig, start: startOtpServer },
  webhooks: {
    bus: true,
    readConfig: readWebhooksConfig,
    start: ({ bus, ...deps }) => {
      if (!bus) throw new Error("the webhooks service needs an event bus");
      return startWebhooksServer({ ...deps, bus });
    },
  },
};

/** A service's configuration from the environment; a bad value throws a one-line ConfigError. */
export function readServiceConfig<N extends ServiceName>(name: N, env: Env): ServiceConfigs[N] {
  return services[name].readConfig(env);
}

/**
 * Checks a service's configuration before its secrets are known: those left unset stand in as
 * drawn ones, since a launcher keeps or draws them later (DATA_DIR, or for this run alone).
 */
export function checkServiceConfig(name: ServiceName, env: Env): void {
  readServiceConfig(name, { ...env, ...drawSecrets(componentSecrets[name], env) });
}

/** Every service's configuration, read before anything starts. */
export function readServiceConfigs(env: Env): ServiceConfigs {
  return {
    payments: readServiceConfig("payments", env),
    billing: readServiceConfig("billing", env),
    links: readServiceConfig("links", env),
    records: readServiceConfig("records", env),
    otp: readServiceConfig("otp", env),
    webhooks: readServiceConfig("webhooks", env),
  };
}

/** Checks every service's configuration before their secrets are known (see checkServiceConfig). */
export function checkServiceConfigs(env: Env): void {
  for (const name of serviceNames) checkServiceConfig(name, env);
}

/** Starts one service's gRPC server with what it is given (its store calls traced when traces are on). */
export function startService<N extends ServiceName>(name: N, deps: ServiceDeps<N>): Promise<RunningServer> {
  return services[name].start({ ...deps, store: traceStore(deps.store, name) });
}

function requiredUrl(env: Env, name: string): string {
  const url = envUrl(env, name);
  if (!url) throw new ConfigError(name, "is required but not set (e.g. http://payments:50051)");
  return url;
}

/**
 * Starts one component from its environment only. Everything that can be checked before
 * listening is (configuration first, then DATA_DIR and the store, then the bus), so a bad setting
 * stops the process before it accepts anything. Its configuration is read again with the secrets
 * kept in DATA_DIR for the variables left unset.
 */
export async function startComponent(name: ComponentName, env: Env, logger: Logger): Promise<RunningComponent> {
  const metrics = createMetricsRegistry();
  if (name === "gateway") {
    readGatewayConfig(env);
    const addresses = Object.fromEntries(serviceNames.map((service) => [service, requiredUrl(env, serviceUrlVariable(service))])) as Record<
      ServiceName,
      string
    >;
    const data = await dataFromEnv(env, name, logger);
    const config = readGatewayConfig({ ...env, ...data.secrets });
    const gateway = await startGateway({ config, store: data.store, services: addresses, logger, metrics }).catch(async (error: unknown) => {
      await data.close();
      throw error;
    });
    return {
      async close() {
        await gateway.close();
        await data.close();
      },
    };
  }

  checkServiceConfig(name, env);
  // Delivered events carry absolute hosted-page URLs: a process of its own cannot learn the
  // gateway's URL, so it must be told (the one-process platform hands it over instead).
  if (name === "webhooks" && envUrl(env, "PUBLIC_URL") === undefined) {
    throw new ConfigError("PUBLIC_URL", "is required for the webhooks service (the gateway's public URL, e.g. https://pay.example.ph)");
  }
  const listen = listenFromEnv(env, 50051);
  const data = await dataFromEnv(env, name, logger);
  const config = readServiceConfig(name, { ...env, ...data.secrets });
  const store = data.store;
  const bus = services[name].bus ? await busFromEnv(env, logger) : undefined;
  const server = await startService(name, { config, store, bus, logger, metrics, host: listen.host, port: listen.port });
  const metricsServer = await serveMetricsFromEnv(env, metrics, listen.host);
  logger.info({ url: server.url, metrics: metricsServer.url }, `${name} listening`);
  return {
    async close() {
      // The server drains in-flight calls and then stops its workers (the relay flushes the
      // outbox), so the bus and the store close only after the last write went out.
      await server.close();
      await metricsServer.close();
      await bus?.close();
      await data.close();
    },
  };
}
