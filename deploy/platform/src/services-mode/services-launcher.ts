import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { ConfigError, envInt, envOptional, envUrl, type Logger } from "@bayad/kit";
import { componentNames, serviceNames, serviceUrlVariable, type ComponentName } from "./components.js";
import { componentStorePath, openDataDir, type DataDir } from "../data-dir/data-dir.js";
import { drawSecrets, secretNames } from "../data-dir/generated-secrets.js";
import type { DefaultProject } from "../data-dir/secrets-file.js";

type Env = Record<string, string | undefined>;

// The built entry point, also when this module runs from src/ under the test runner.
const runService = fileURLToPath(new URL("../../dist/run-service.js", import.meta.url));

/**
 * `count` distinct free ports. Every probe stays open until all have their port, so no two
 * components are handed the same one (a port probed and closed earlier is free again for the
 * next probe while the child it went to has not bound it yet).
 */
async function freePorts(count: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<net.Server>((resolve, reject) => {
        const server = net.createServer();
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve(server));
      }),
    ),
  );
  const ports = probes.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(probes.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface ServicesMode {
  gatewayUrl: string;
  adminApiKey: string;
  adminApiKeyGenerated: boolean;
  /** A project made once the platform was ready on its first start (kept in DATA_DIR), with a ready test-mode API key. */
  projectId: string;
  testApiKey: string;
  /** DATA_DIR, when the launcher was given one. */
  dataDir?: string;
  /** The stores are in MongoDB (MONGODB_URI): DATA_DIR holds only the launcher's secrets. */
  mongodb: boolean;
  /** Each component's Prometheus endpoint, on its METRICS_PORT. */
  metricsUrls: Map<ComponentName, string>;
  /** Each component's process, for operators' scripts and tests (e.g. SIGTERM one of them). */
  processes: Map<ComponentName, ChildProcess>;
  /** Resolves with the exit code once the component's process has exited. */
  exited(name: ComponentName): Promise<number | null>;
  /** SIGTERM to every process; resolves when all have exited. */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  env: Env;
  /** Where each process's output goes, a line at a time, prefixed with its name. */
  output?: (name: ComponentName, line: string) => void;
  /**
   * DATA_DIR (`npm run start:services` passes it), held by the launcher while it runs: it keeps
   * the secrets it generated and its default project there, and each process without
   * MONGODB_URI gets `DATA_DIR/<component>` as its own DATA_DIR, for its store. Without it, the
   * stores are temporary and the secrets drawn for this launch.
   */
  dataDir?: string;
  /** The launcher's own log (e.g. a DATA_DIR taken over from a launcher still exiting); none by default. */
  logger?: Logger;
}

/**
 * Services mode on one machine: every service and the gateway as separate processes, each
 * configured only by environment variables, talking gRPC to each other and events over NATS.
 * Secrets the processes must share (sandbox pages, cursors, OTP hashes, sealed secrets, the gateway's) are drawn once here
 * (and kept in DATA_DIR). The gateway listens on PORT (default 8080; 0 picks a free port), the services on free ports.
 */
export async function launchServicesMode(options: LaunchOptions): Promise<ServicesMode> {
  const base = options.env;
  if (!base.NATS_URL) throw new ConfigError("NATS_URL", "is required for services mode (e.g. nats://127.0.0.1:4222)");
  const mongodb = envUrl(base, "MONGODB_URI") !== undefined;
  const data = options.dataDir === undefined ? undefined : await openDataDir(options.dataDir, mongodb ? [] : componentNames, options.logger);
  try {
    return await launch(options, data, mongodb);
  } catch (error) {
    await data?.close();
    throw error;
  }
}

async function launch(options: LaunchOptions, data: DataDir | undefined, mongodb: boolean): Promise<ServicesMode> {
  const base = options.env;
  const shared: Env = data ? await data.secretsFor(secretNames, base) : drawSecrets(secretNames, base);
  // Drawn together before any process starts: a gRPC port for each service, a metrics port for
  // each component, and the gateway's when PORT is 0.
  const drawn = await freePorts(serviceNames.length * 2 + 2);
  const gatewayPort = envInt(base, "PORT", 8080, { min: 0, max: 65535 }) || drawn.pop()!;
  const ports = new Map<ComponentName, number>([["gateway", gatewayPort]]);
  const metricsPorts = new Map<ComponentName, number>();
  for (const name of serviceNames) ports.set(name, drawn.pop()!);
  for (const name of componentNames) metricsPorts.set(name, drawn.pop()!);
  const urlOf = (name: ComponentName) => `http://127.0.0.1:${ports.get(name)}`;
  const serviceUrls = Object.fromEntries(serviceNames.map((name) => [serviceUrlVariable(name), urlOf(name)]));

  const processes = new Map<ComponentName, ChildProcess>();
  const metricsUrls = new Map<ComponentName, string>();
  const exits = new Map<ComponentName, Promise<number | null>>();
  for (const name of componentNames) {
    const metricsPort = metricsPorts.get(name)!;
    const env: Env = { ...base, ...shared, PORT: String(ports.get(name)), METRICS_PORT: String(metricsPort), ...serviceUrls };
    // The webhooks service needs the gateway's URL for the events it delivers: this one, unless PUBLIC_URL names another.
    if (name === "webhooks" && envOptional(env, "PUBLIC_URL") === undefined) env.PUBLIC_URL = urlOf("gateway");
    // Each embedded store in a directory of its own, which its process holds; none without DATA_DIR (temporary stores).
    delete env.DATA_DIR;
    if (data && !mongodb) env.DATA_DIR = componentStorePath(data.path, name);
    metricsUrls.set(name, `http://127.0.0.1:${metricsPort}/metrics`);
    const child = spawn(process.execPath, [runService, name], { env: env, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) options.output?.(name, line);
      });
    }
    processes.set(name, child);
    exits.set(name, new Promise((resolve) => child.once("exit", (code) => resolve(code))));
  }

  const stop = async () => {
    for (const child of processes.values()) if (child.exitCode === null) child.kill("SIGTERM");
    await Promise.all(exits.values());
    await data?.close();
  };
  const gatewayUrl = urlOf("gateway");
  const adminApiKey = envOptional({ ...base, ...shared }, "ADMIN_API_KEY")!;
  try {
    await waitUntilReady(gatewayUrl, [...exits.entries()]);
    const { projectId, testApiKey } = await defaultProject(gatewayUrl, adminApiKey, data);
    return {
      gatewayUrl,
      adminApiKey,
      adminApiKeyGenerated: envOptional(base, "ADMIN_API_KEY") === undefined,
      projectId,
      testApiKey,
      dataDir: data?.path,
      mongodb,
      metricsUrls,
      processes,
      exited: (name) => exits.get(name)!,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The project and test key kept in DATA_DIR while the key still works, else a new one, kept for the next launch. */
async function defaultProject(gatewayUrl: string, adminApiKey: string, data: DataDir | undefined): Promise<DefaultProject> {
  const kept = data?.defaultProject;
  if (kept) {
    const probe = await fetch(`${gatewayUrl}/api/v1/payments/capabilities`, { headers: { Authorization: `Bearer ${kept.testApiKey}` } });
    await probe.body?.cancel();
    if (probe.status === 200) return kept;
  }
  const made = await createDefaultProject(gatewayUrl, adminApiKey);
  await data?.keepDefaultProject(made);
  return made;
}

/** A project with a test-mode API key, made through the admin API as an operator would. */
async function createDefaultProject(gatewayUrl: string, adminApiKey: string): Promise<DefaultProject> {
  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${adminApiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: Record<string, string> }).data;
  };
  const project = await admin("/admin/v1/projects", { name: "Default project" });
  const key = await admin(`/admin/v1/projects/${project.projectId}/api-keys`, { environment: "test" });
  return { projectId: project.projectId, testApiKey: key.apiKey };
}

/** Polls the gateway's /readyz (which checks every service's gRPC health) until it answers 200. */
async function waitUntilReady(gatewayUrl: string, exits: Array<[ComponentName, Promise<number | null>]>): Promise<void> {
  let failed: string | undefined;
  for (const [name, exit] of exits) void exit.then((code) => (failed ??= `${name} exited with code ${code}`));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (failed) throw new Error(`services mode did not start: ${failed}`);
    const ready = await fetch(`${gatewayUrl}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("services mode did not become ready within 60 s");
}
