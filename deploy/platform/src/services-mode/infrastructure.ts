import { resolve } from "node:path";
import { ConfigError, envInt, envOptional, envString, envUrl, serveMetrics, type Logger, type MetricsServer, type Registry } from "@bayad/kit";
import { MongoConfigError, openStore, type Store } from "@bayad/store";
import { connectJetStreamBus, type EventBus } from "@bayad/events";
import { openDataDir, type DataDir } from "../data-dir/data-dir.js";
import { reason } from "../data-dir/data-dir-lock.js";
import { componentSecrets, drawSecrets } from "../data-dir/generated-secrets.js";
import type { ComponentName } from "./components.js";
import { mongoTimeoutsFromEnv } from "./mongo-timeouts-from-env.js";

type Env = Record<string, string | undefined>;

/** Where a component's process keeps what it must find again after a restart. */
export interface ComponentData {
  store: Store;
  /** Values for the component's secret variables left unset: kept in DATA_DIR, else drawn for this run. */
  secrets: Env;
  /** Closes the store, then lets another process have DATA_DIR. */
  close(): Promise<void>;
}

/**
 * The component's store: MongoDB when MONGODB_URI is set (a replica set or mongos: a standalone
 * server stops the process with a ConfigError naming MONGODB_URI; its waits bounded by the
 * MONGODB_*_TIMEOUT_MS variables, see mongoTimeoutsFromEnv); else an embedded store in DATA_DIR
 * (the directory itself, held by this process alone, with the secrets it generated in its
 * secrets.json); else a temporary embedded store, gone when the process stops.
 */
export async function dataFromEnv(env: Env, component: ComponentName, logger: Logger): Promise<ComponentData> {
  const mongodbUri = envUrl(env, "MONGODB_URI");
  const database = envString(env, "MONGODB_DATABASE", `bayad_${component}`);
  const dataDirSetting = envOptional(env, "DATA_DIR");
  const names = componentSecrets[component];
  if (mongodbUri || dataDirSetting === undefined) {
    // What SECRETS_KEY seals stays in MongoDB for good: a key drawn for this run alone would
    // leave every stored provider or webhook endpoint secret unreadable after a restart, or on
    // another replica.
    if (mongodbUri && names.includes("SECRETS_KEY") && envOptional(env, "SECRETS_KEY") === undefined) {
      throw new ConfigError("SECRETS_KEY", "is required with MONGODB_URI (at least 32 characters, the same for payments, billing, links and webhooks)");
    }
    if (!mongodbUri) logger.warn("neither MONGODB_URI nor DATA_DIR is set: using a temporary embedded store (its data is deleted when the process stops)");
    const mongoTimeouts = mongodbUri ? mongoTimeoutsFromEnv(env) : {};
    const store = await openStore({ mongodbUri, database, mongoTimeouts }).catch((error: unknown) => {
      throw error instanceof MongoConfigError ? new ConfigError(error.setting, error.problem) : error;
    });
    return { store, secrets: drawSecrets(names, env), close: () => store.close() };
  }
  const data: DataDir = await openDataDir(resolve(dataDirSetting), [], logger);
  try {
    const secrets = await data.secretsFor(names, env);
    const store = await openStore({ database, dataDir: data.path }).catch((error: unknown) => {
      throw new ConfigError("DATA_DIR", `${data.path} cannot be opened as a store (${reason(error)})`);
    });
    return {
      store,
      secrets,
      async close() {
        await store.close();
        await data.close();
      },
    };
  } catch (error) {
    await data.close();
    throw error;
  }
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
