import { ConfigError, envInt, envOptional, envString, envUrl, serveMetrics, type Logger, type MetricsServer, type Registry } from "@bayad/kit";
import { openStore, type Store } from "@bayad/store";
import { connectJetStreamBus, type EventBus } from "@bayad/events";

type Env = Record<string, string | undefined>;

/** The component's store: MongoDB when MONGODB_URI is set, else an embedded one (data in memory). */
export async function storeFromEnv(env: Env, component: string, logger: Logger): Promise<Store> {
  const mongodbUri = envUrl(env, "MONGODB_URI");
  const database = envString(env, "MONGODB_DATABASE", `bayad_${component}`);
  if (!mongodbUri) logger.warn("MONGODB_URI is not set: using an embedded store (data lasts until the process stops)");
  return openStore({ mongodbUri, database });
}

/** NATS JetStream; services that publish or consume events cannot run without it. */
export async function busFromEnv(env: Env, logger: Logger): Promise<EventBus> {
  const url = envUrl(env, "NATS_URL");
  if (!url) throw new ConfigError("NATS_URL", "is required but not set (e.g. nats://127.0.0.1:4222)");
  return connectJetStreamBus({ url, namespace: envOptional(env, "EVENTS_NAMESPACE"), logger: logger.child({ component: "bus" }) });
}

export interface Listen {
  host: string;
  port: number;
}

/** Where the component serves: HOST (default 127.0.0.1; 0.0.0.0 in containers) and PORT. */
export function listenFromEnv(env: Env, defaultPort: number): Listen {
  return { host: envString(env, "HOST", "127.0.0.1"), port: envInt(env, "PORT", defaultPort, { min: 0, max: 65535 }) };
}

/** A service's Prometheus endpoint, on METRICS_PORT beside its gRPC port (on METRICS_HOST, default its HOST). */
export function serveMetricsFromEnv(env: Env, registry: Registry, host: string): Promise<MetricsServer> {
  return serveMetrics(registry, { host: envString(env, "METRICS_HOST", host), port: envInt(env, "METRICS_PORT", 9464, { min: 0, max: 65535 }) });
}
