import { createMetricsRegistry, envUrl, ConfigError, type Logger, type RunningServer } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { EventBus } from "@bayad/events";
import { readGatewayConfig, startGateway } from "@bayad/gateway";
import { readPaymentsConfig, startPaymentsServer } from "@bayad/payments-service";
import { readBillingConfig, startBillingServer } from "@bayad/billing-service";
import { readLinksConfig, startLinksServer } from "@bayad/links-service";
import { readRecordsConfig, startRecordsServer } from "@bayad/records-service";
import { readOtpConfig, startOtpServer } from "@bayad/otp-service";
import type { RunningComponent } from "./process-lifecycle.js";
import { busFromEnv, listenFromEnv, serveMetricsFromEnv, storeFromEnv } from "./infrastructure.js";

type Env = Record<string, string | undefined>;

export const componentNames = ["gateway", "payments", "billing", "links", "records", "otp"] as const;
export type ComponentName = (typeof componentNames)[number];

export function isComponentName(name: string | undefined): name is ComponentName {
  return (componentNames as readonly string[]).includes(name ?? "");
}

interface ServiceDeps {
  env: Env;
  store: Store;
  bus?: EventBus;
  logger: Logger;
  metrics: ReturnType<typeof createMetricsRegistry>;
  host: string;
  port: number;
}

/** How each service starts from its environment; `bus` marks the ones that need NATS. */
const services: Record<Exclude<ComponentName, "gateway">, { bus: boolean; start(deps: ServiceDeps): Promise<RunningServer> }> = {
  payments: { bus: true, start: (d) => startPaymentsServer({ ...d, config: readPaymentsConfig(d.env) }) },
  billing: { bus: true, start: (d) => startBillingServer({ ...d, config: readBillingConfig(d.env) }) },
  links: { bus: true, start: (d) => startLinksServer({ ...d, config: readLinksConfig(d.env) }) },
  records: {
    bus: true,
    start: (d) => startRecordsServer({ ...d, bus: d.bus!, config: readRecordsConfig(d.env) }),
  },
  otp: { bus: false, start: (d) => startOtpServer({ ...d, config: readOtpConfig(d.env) }) },
};

function requiredUrl(env: Env, name: string): string {
  const url = envUrl(env, name);
  if (!url) throw new ConfigError(name, "is required but not set (e.g. http://payments:50051)");
  return url;
}

/**
 * Starts one component from its environment only. Everything that can be checked before
 * listening is (configuration first, then the store and the bus), so a bad setting stops the
 * process before it accepts anything.
 */
export async function startComponent(name: ComponentName, env: Env, logger: Logger): Promise<RunningComponent> {
  const metrics = createMetricsRegistry();
  if (name === "gateway") {
    const config = readGatewayConfig(env);
    const addresses = {
      payments: requiredUrl(env, "PAYMENTS_URL"),
      billing: requiredUrl(env, "BILLING_URL"),
      links: requiredUrl(env, "LINKS_URL"),
      records: requiredUrl(env, "RECORDS_URL"),
      otp: requiredUrl(env, "OTP_URL"),
    };
    const store = await storeFromEnv(env, name, logger);
    const gateway = await startGateway({ config, store, services: addresses, logger, metrics });
    return {
      async close() {
        await gateway.close();
        await store.close();
      },
    };
  }

  const service = services[name];
  const listen = listenFromEnv(env, 50051);
  const store = await storeFromEnv(env, name, logger);
  const bus = service.bus ? await busFromEnv(env, logger) : undefined;
  const server = await service.start({ env, store, bus, logger, metrics, host: listen.host, port: listen.port });
  const metricsServer = await serveMetricsFromEnv(env, metrics, listen.host);
  logger.info({ url: server.url, metrics: metricsServer.url }, `${name} listening`);
  return {
    async close() {
      // The server drains in-flight calls and then stops its workers (the relay flushes the
      // outbox), so the bus and the store close only after the last write went out.
      await server.close();
      await metricsServer.close();
      await bus?.close();
      await store.close();
    },
  };
}
