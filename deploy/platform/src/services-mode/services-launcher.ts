import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { ConfigError, envInt, randomBase62 } from "@bayad/kit";
import { componentNames, serviceNames, serviceUrlVariable, type ComponentName } from "./components.js";

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
  /** A project made once the platform was ready, with a ready test-mode API key. */
  projectId: string;
  testApiKey: string;
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
}

/**
 * Services mode on one machine: every service and the gateway as separate processes, each
 * configured only by environment variables, talking gRPC to each other and events over NATS.
 * Secrets the processes must share (sandbox pages, cursors, OTP hashes, the gateway's) are drawn once here.
 * The gateway listens on PORT (default 8080; 0 picks a free port), the services on free ports.
 */
export async function launchServicesMode(options: LaunchOptions): Promise<ServicesMode> {
  const base = options.env;
  if (!base.NATS_URL) throw new ConfigError("NATS_URL", "is required for services mode (e.g. nats://127.0.0.1:4222)");
  const shared: Env = {
    SANDBOX_SECRET: base.SANDBOX_SECRET ?? randomBase62(32),
    RECORDS_CURSOR_SECRET: base.RECORDS_CURSOR_SECRET ?? randomBase62(40),
    OTP_HASH_SECRET: base.OTP_HASH_SECRET ?? randomBase62(40),
    ADMIN_API_KEY: base.ADMIN_API_KEY ?? `adm_${randomBase62(32)}`,
    GATEWAY_SECRET: base.GATEWAY_SECRET ?? randomBase62(43),
  };
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
    metricsUrls.set(name, `http://127.0.0.1:${metricsPort}/metrics`);
    const child = spawn(process.execPath, [runService, name], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
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
  };
  const gatewayUrl = urlOf("gateway");
  const adminApiKey = shared.ADMIN_API_KEY!;
  try {
    await waitUntilReady(gatewayUrl, [...exits.entries()]);
    const { projectId, testApiKey } = await createDefaultProject(gatewayUrl, adminApiKey);
    return {
      gatewayUrl,
      adminApiKey,
      adminApiKeyGenerated: base.ADMIN_API_KEY === undefined,
      projectId,
      testApiKey,
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

/** A project with a test-mode API key, made through the admin API as an operator would. */
async function createDefaultProject(gatewayUrl: string, adminApiKey: string): Promise<{ projectId: string; testApiKey: string }> {
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
  return { projectId: project.projectId!, testApiKey: key.apiKey! };
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
