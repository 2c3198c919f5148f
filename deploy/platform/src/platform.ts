import { createLogger, createMetricsRegistry, envEnum, envOptional, type Logger } from "@bayad/kit";
import type { Store } from "@bayad/store";
import { readGatewayConfig, startGateway, type GatewayConfig, type GatewayOptions, type RunningGateway, type ServiceAddress } from "@bayad/gateway";
import { checkServiceConfigs, componentNames, readServiceConfigs, serviceNames, type ServiceName } from "./services-mode/components.js";
import { componentStorePath, openDataDir, openEmbeddedStore, type DataDir } from "./data-dir/data-dir.js";
import { drawSecrets, secretNames } from "./data-dir/generated-secrets.js";
import type { DefaultProject } from "./data-dir/secrets-file.js";
import { runWithServices, startLocalServices, type LocalServices } from "./local-services.js";
import { startServicesWorker } from "./services-thread/services-worker.js";

/** Where the services run: a worker thread of their own (the default), or the gateway's thread. */
export type ServicesThread = "worker" | "main";

export interface PlatformOptions {
  /** Configuration as environment variables (PORT, ADMIN_API_KEY, …); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /**
   * DATA_DIR (`npm start` passes it): where the platform keeps every component's store, the
   * secrets it generated and its default project, so that a restart finds them again; held by
   * this process alone while it runs. Without it, the stores are temporary (removed when they
   * close) and the secrets drawn for this run: tests and benchmarks.
   */
  dataDir?: string;
  logger?: Logger;
  /** Overrides PLATFORM_SERVICES_THREAD. */
  servicesThread?: ServicesThread;
  /** Fault injection for tests, passed to the gateway. */
  afterOutcome?: (operationId: string) => void | Promise<void>;
}

export interface RunningPlatform {
  gatewayUrl: string;
  /**
   * The internal metrics listener (METRICS_HOST, METRICS_PORT): the process's, the gateway's and
   * the services' metrics together, never on the gateway's public port.
   */
  metricsUrl: string;
  adminApiKey: string;
  /** True when ADMIN_API_KEY was unset: the key was generated (and, with a DATA_DIR, kept there). */
  adminApiKeyGenerated: boolean;
  /** A project made at the first start (kept in DATA_DIR for the next), with a ready test-mode API key. */
  projectId: string;
  testApiKey: string;
  /** DATA_DIR, when the platform has one. */
  dataDir?: string;
  config: GatewayConfig;
  servicesThread: ServicesThread;
  /** The gateway's own store (projects, API keys, signing keys, idempotency records), on the main thread. */
  gatewayStore: Store;
  /**
   * Runs the function `exportName` of the module at `moduleUrl` where the services run, with
   * their LocalServices (stores, servers, bus) and `args`, and resolves with what it returns
   * (cloned when it comes from the worker). For tools that inspect or maintain the stores.
   */
  withServices<T>(moduleUrl: string, exportName: string, ...args: unknown[]): Promise<T>;
  close(): Promise<void>;
}

/** The platform with its services on the caller's thread: their stores, servers and bus at hand (tests). */
export interface InThreadPlatform extends RunningPlatform, Omit<LocalServices, "stores" | "close" | "useGatewayUrl"> {
  servicesThread: "main";
  /** Each component's own store, the gateway's included. */
  stores: Record<ServiceName | "gateway", Store>;
  /** The records service's cursor secret, for a records server restarted by a test. */
  recordsCursorSecret: string;
}

/**
 * The whole platform in one process on embedded defaults: every service on its own loopback gRPC
 * port with its own embedded store, and the gateway in front.
 *
 * By default the services run on a worker thread and the gateway on the main thread, so that the
 * two halves of a request (HTTP, authentication and idempotency; the services' store writes,
 * outbox and records feed) use two cores, as separate processes would when deployed. The gateway
 * calls them over kit's port transport (messages cross as structured clones, no encoding).
 * PLATFORM_SERVICES_THREAD=main keeps them on the gateway's thread, where the gateway calls them
 * through kit's direct transport and tests can reach their stores.
 * PLATFORM_RPC=http2 makes the gateway use gRPC over HTTP/2 on the services' loopback ports, the
 * deployed path. Events travel on NATS JetStream when NATS_URL is set, else on an in-process bus.
 */
export async function startPlatform(options: PlatformOptions & { servicesThread: "main" }): Promise<InThreadPlatform>;
export async function startPlatform(options?: PlatformOptions): Promise<RunningPlatform>;
export async function startPlatform(options: PlatformOptions = {}): Promise<RunningPlatform> {
  const env = options.env ?? process.env;
  // The one-process platform is the development setup, so its token issuer is on unless
  // DEV_TOKEN_ISSUER says otherwise; everywhere else the gateway's default (off) holds.
  const gatewayEnv = { DEV_TOKEN_ISSUER: "on", ...env };
  // Every setting is checked before DATA_DIR is touched, so that a bad one is reported as itself.
  readGatewayConfig(gatewayEnv);
  checkServiceConfigs(env);
  const logger = options.logger ?? createLogger("bayad", env.LOG_LEVEL ?? "warn");
  const data = options.dataDir === undefined ? undefined : await openDataDir(options.dataDir, componentNames, logger);
  try {
    return await startOn(data, env, gatewayEnv, options, logger);
  } catch (error) {
    await data?.close();
    throw error;
  }
}

async function startOn(
  data: DataDir | undefined,
  env: Record<string, string | undefined>,
  gatewayEnv: Record<string, string | undefined>,
  options: PlatformOptions,
  logger: Logger,
): Promise<RunningPlatform> {
  // Secrets left unset are the ones kept in DATA_DIR (drawn there on the first start), so that
  // the admin key, and whatever the secrets key or seal, are the same after a restart.
  const secrets = data ? await data.secretsFor(secretNames, env) : drawSecrets(secretNames, env);
  const config = readGatewayConfig({ ...gatewayEnv, ...secrets });
  const configs = readServiceConfigs({ ...env, ...secrets });
  const rpc = envEnum(env, "PLATFORM_RPC", ["in-process", "http2"], "in-process");
  const servicesThread = options.servicesThread ?? envEnum<ServicesThread>(env, "PLATFORM_SERVICES_THREAD", ["worker", "main"], "worker");
  const events = { natsUrl: env.NATS_URL || undefined, eventsNamespace: env.EVENTS_NAMESPACE };
  // The process metrics and the gateway's, served on the gateway's metrics listener with the services'.
  const metrics = createMetricsRegistry();
  const gatewayStore = openEmbeddedStore(data && componentStorePath(data.path, "gateway"));

  const startFront = async (services: Record<ServiceName, ServiceAddress>, moreMetrics?: GatewayOptions["moreMetrics"]) => {
    const gateway = await startGateway({
      config,
      store: gatewayStore,
      services,
      logger: logger.child({ service: "gateway" }),
      metrics,
      moreMetrics,
      afterOutcome: options.afterOutcome,
    });
    const project = await defaultProject(gateway, data);
    const front = {
      gatewayUrl: gateway.url,
      metricsUrl: gateway.metricsUrl!,
      adminApiKey: config.adminApiKey,
      adminApiKeyGenerated: envOptional(env, "ADMIN_API_KEY") === undefined,
      ...project,
      dataDir: data?.path,
      config,
      gatewayStore,
    };
    return { gateway, front };
  };
  const addresses = (of: (name: ServiceName) => ServiceAddress) =>
    Object.fromEntries(serviceNames.map((name) => [name, of(name)])) as Record<ServiceName, ServiceAddress>;

  if (servicesThread === "main") {
    const local = await startLocalServices({ configs, ...events, dataDir: data?.path, logger, metrics });
    const { gateway, front } = await startFront(
      addresses((name) => (rpc === "http2" ? local.services[name].url : local.services[name].transport)),
    ).catch(async (error: unknown) => {
      await local.close();
      throw error;
    });
    local.useGatewayUrl(gateway.url);
    const platform: InThreadPlatform = {
      ...front,
      servicesThread,
      stores: { gateway: gatewayStore, ...local.stores },
      services: local.services,
      bus: local.bus,
      recordsCursorSecret: configs.records.cursorSecret,
      withServices: (moduleUrl, exportName, ...args) => runWithServices(local, moduleUrl, exportName, args),
      async close() {
        await gateway.close();
        // Services flush their outboxes as they stop, so the bus closes after them.
        await local.close();
        await gatewayStore.close();
        await data?.close();
      },
    };
    return platform;
  }

  const worker = await startServicesWorker({ configs, ...events, dataDir: data?.path, logLevel: logger.level, logger });
  const started = await startFront(
    addresses((name) => (rpc === "http2" ? worker.urls[name] : worker.transport)),
    () => worker.metrics(),
  ).catch(async (error: unknown) => {
    await worker.close();
    throw error;
  });
  // From src/ or dist/ alike, the built module the worker runs.
  await worker.run(new URL("../dist/local-services.js", import.meta.url).href, "useGatewayUrl", [started.gateway.url]);
  return {
    ...started.front,
    servicesThread,
    withServices: (moduleUrl, exportName, ...args) => worker.run(moduleUrl, exportName, args),
    async close() {
      await started.gateway.close();
      await worker.close();
      await gatewayStore.close();
      await data?.close();
    },
  };
}

/**
 * The project and test key the banner prints: those kept in DATA_DIR while the key still works
 * (its store was not deleted, the key not revoked), else a new project, kept for the next start.
 */
async function defaultProject(gateway: RunningGateway, data: DataDir | undefined): Promise<DefaultProject> {
  const kept = data?.defaultProject;
  if (kept && (await gateway.admin.apiKeys.verify(kept.testApiKey))?.projectId === kept.projectId) return kept;
  const project = await gateway.admin.projects.create("Default project");
  const key = await gateway.admin.apiKeys.issue(project.projectId, "test");
  const made = { projectId: project.projectId, testApiKey: key.apiKey };
  await data?.keepDefaultProject(made);
  return made;
}

export type { LocalServices } from "./local-services.js";
