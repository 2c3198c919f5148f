import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, setupTracing, startServiceServer, tracingEnabled, type RunningServer } from "@bayad/kit";
import { readGatewayConfig } from "@bayad/gateway";
import { readPaymentsConfig } from "@bayad/payments-service";
import { readBillingConfig } from "@bayad/billing-service";
import { readLinksConfig } from "@bayad/links-service";
import { readRecordsConfig } from "@bayad/records-service";
import { readOtpConfig } from "@bayad/otp-service";
import { readWebhooksConfig } from "@bayad/webhooks-service";
import {
  components,
  readRepoFile,
  repoRoot,
  requiredEnv,
  secretVariables,
  serviceUrlVariable,
  services,
  type Component,
} from "./test-support/conventions.js";
import {
  dependsOn,
  durationMs,
  environmentOf,
  interpolate,
  loadCompose,
  parseComposeFile,
  schemaErrors,
  type ComposeService,
} from "./test-support/compose.js";
import { parseEnvFile } from "./test-support/env-file.js";

// Static checks of deploy/compose.yaml, parsed by the yaml package and validated against the
// Compose Specification's JSON schema (no container runs here), plus its healthcheck commands
// run for real against the gRPC health server the services use and a stand-in HTTP server.
const compose = loadCompose();
const all = Object.entries(compose.services);
const appServices = all.filter(([, service]) => service.build !== undefined);
const componentOf = (service: ComposeService) => service.command?.[0] as Component;
const serviceFor = (component: Component) => appServices.find(([, service]) => componentOf(service) === component)!;
const envFor = (component: Component) => environmentOf(serviceFor(component)[1]);

/** Each component's own configuration reader: what the process checks before it starts. */
const configReaders: Record<Component, (env: Record<string, string>) => unknown> = {
  gateway: readGatewayConfig,
  payments: readPaymentsConfig,
  billing: readBillingConfig,
  links: readLinksConfig,
  records: readRecordsConfig,
  otp: readOtpConfig,
  webhooks: readWebhooksConfig,
};

describe("deploy/compose.yaml", () => {
  it("interpolates like Compose", () => {
    expect(interpolate("${A:-x} ${B-y} ${C} $$D", { B: "" })).toBe("x   $D");
    expect(() => interpolate("${A:?set A}", {})).toThrow(/set A/);
  });

  it("is a Compose file by the Compose Specification's schema, as written and once interpolated", () => {
    expect(schemaErrors(parseComposeFile()), "as written").toEqual([]);
    expect(schemaErrors(loadCompose()), "with nothing set in the shell").toEqual([]);
    // The schema does catch what Compose would refuse: a misspelt key, a duration given as a number.
    const broken = loadCompose() as unknown as { services: Record<string, Record<string, unknown>> };
    broken.services.gateway!.restrat = "always";
    broken.services.mongo!.stop_grace_period = 30;
    expect(schemaErrors(broken).sort()).toEqual([
      expect.stringMatching(/^\/services\/gateway: must NOT have additional properties .*restrat/),
      expect.stringMatching(/^\/services\/mongo\/stop_grace_period: must be string/),
    ]);
  });

  it("runs every component exactly once, from deploy/Dockerfile with the repository root as context", () => {
    expect(appServices.map(([, service]) => componentOf(service)).sort()).toEqual([...components].sort());
    const images = new Set(appServices.map(([, service]) => service.image));
    expect(images.size, "one image for every component").toBe(1);
    for (const [name, service] of appServices) {
      expect(service.command, name).toHaveLength(1);
      expect(resolve(repoRoot, "deploy", service.build!.context), name).toBe(resolve(repoRoot));
      expect(service.build!.dockerfile, name).toBe("deploy/Dockerfile");
      expect(existsSync(join(repoRoot, service.build!.dockerfile!))).toBe(true);
    }
  });

  it("gives each component every variable it requires, all as strings", () => {
    for (const component of components) {
      const [name, service] = serviceFor(component);
      for (const [key, value] of Object.entries(service.environment ?? {})) expect(typeof value, `${name}.${key}`).toBe("string");
      const env = envFor(component);
      for (const variable of requiredEnv[component]) expect(env[variable], `${name}: ${variable}`).toMatch(/\S/);
      expect(env.HOST, name).toBe("0.0.0.0");
      expect(env.PORT, name).toBe(component === "gateway" ? "8080" : "50051");
    }
  });

  it("passes every component's own configuration check with the development defaults", () => {
    for (const component of components) {
      expect(() => configReaders[component](envFor(component)), component).not.toThrow();
    }
  });

  it("marks every required secret's default as development-only, and lets the shell override every secret", () => {
    for (const component of components) {
      const raw = environmentOf(serviceFor(component)[1]);
      const shell = Object.fromEntries(secretVariables.map((v) => [v, `from-shell-${v}`]));
      const overridden = environmentOf(loadCompose(shell).services[serviceFor(component)[0]]!);
      for (const variable of secretVariables.filter((v) => v in raw)) {
        // Optional ones (SMTP_PASS, SEMAPHORE_API_KEY) default to empty, which reads as unset.
        expect(raw[variable], `${component}: ${variable}`).toMatch(requiredEnv[component].includes(variable) ? /^dev-only-/ : /^$/);
        expect(overridden[variable], `${component}: ${variable}`).toBe(`from-shell-${variable}`);
      }
    }
    const sandbox = new Set(["payments", "billing", "links"].map((c) => envFor(c as Component).SANDBOX_SECRET));
    expect(sandbox.size, "one SANDBOX_SECRET shared by payments, billing and links").toBe(1);
    const sealing = new Set(["payments", "billing", "links", "webhooks"].map((c) => envFor(c as Component).SECRETS_KEY));
    expect(sealing.size, "one SECRETS_KEY shared by payments, billing, links and webhooks").toBe(1);
  });

  it("takes the key rings from the shell in place of the single keys, which an empty value leaves out", () => {
    const ring = `k2:${"n".repeat(40)}`;
    const shell = { SECRETS_KEY: "", SECRETS_KEYS: ring, GATEWAY_SECRET: "", GATEWAY_SECRETS: ring, OTP_HASH_SECRET: "", OTP_HASH_SECRETS: ring };
    for (const component of components) {
      const env = environmentOf(loadCompose(shell).services[serviceFor(component)[0]]!);
      for (const [single, rings] of [["SECRETS_KEY", "SECRETS_KEYS"], ["GATEWAY_SECRET", "GATEWAY_SECRETS"], ["OTP_HASH_SECRET", "OTP_HASH_SECRETS"]]) {
        if (!(single! in env)) continue;
        expect(env[single!], `${component}: ${single}`).toBe("");
        expect(env[rings!], `${component}: ${rings}`).toBe(ring);
      }
      expect(() => configReaders[component](env), component).not.toThrow();
    }
  });

  it("gives the webhooks service the gateway's public URL and the service's own delivery defaults, each overridable from the shell", () => {
    const env = envFor("webhooks");
    expect(env.PUBLIC_URL).toBe(envFor("gateway").PUBLIC_URL);
    const withoutSettings = Object.fromEntries(Object.entries(env).filter(([name]) => !/^WEBHOOKS?_/.test(name)));
    expect(Object.keys(env).filter((name) => /^WEBHOOKS?_/.test(name)).length).toBeGreaterThan(0);
    expect(readWebhooksConfig(env)).toEqual(readWebhooksConfig(withoutSettings));
    // Loopback and private targets stay refused unless the shell allows them.
    expect(readWebhooksConfig(env).allowPrivateTargets).toBe(false);
    const shell = { WEBHOOK_RETRY_SCHEDULE: "1s,2s,5s", WEBHOOK_TIMEOUT: "5s", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
    const overridden = readWebhooksConfig(environmentOf(loadCompose(shell).services[serviceFor("webhooks")[0]]!));
    expect(overridden).toMatchObject({ retryScheduleMs: [1_000, 2_000, 5_000], timeoutMs: 5_000, allowPrivateTargets: true });
  });

  it("passes real OTP delivery settings from the shell through to the otp service", () => {
    const shell = {
      OTP_EMAIL_SENDER: "smtp", SMTP_HOST: "smtp.example.ph", SMTP_FROM: "Bayad <no-reply@example.ph>", SMTP_USER: "u", SMTP_PASS: "p",
      OTP_SMS_SENDER: "semaphore", SEMAPHORE_API_KEY: "k", SEMAPHORE_SENDER_NAME: "BAYAD",
    };
    const env = environmentOf(loadCompose(shell).services[serviceFor("otp")[0]]!);
    expect(readOtpConfig(env)).toMatchObject({
      email: { kind: "smtp", smtp: { host: "smtp.example.ph", port: 587, user: "u", pass: "p" } },
      sms: { kind: "semaphore", semaphore: { apiKey: "k", senderName: "BAYAD" } },
    });
  });

  it("leaves traces off unless the shell names a receiver, which every component is then given", async () => {
    for (const component of components) {
      // Empty, as Compose passes an unset ${OTEL_EXPORTER_OTLP_ENDPOINT:-}: kit's setup reads it as unset.
      const env = envFor(component);
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, component).toBe("");
      expect(setupTracing(component, env), component).toBeUndefined();
      expect(tracingEnabled(), component).toBe(false);
    }
    const shell = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318" };
    const overridden = loadCompose(shell);
    for (const component of components) {
      const env = environmentOf(overridden.services[serviceFor(component)[0]]!);
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, component).toBe(shell.OTEL_EXPORTER_OTLP_ENDPOINT);
      // Each component names itself unless OTEL_SERVICE_NAME is set, which would give all one name.
      expect(env.OTEL_SERVICE_NAME, component).toBeUndefined();
    }
    const tracing = setupTracing("gateway", environmentOf(overridden.services[serviceFor("gateway")[0]]!));
    expect(tracingEnabled()).toBe(true);
    await tracing!.shutdown();
    expect(tracingEnabled()).toBe(false);
  });

  it("points the gateway at each service by its compose name on port 50051", () => {
    const gateway = envFor("gateway");
    for (const component of services) {
      const [name] = serviceFor(component);
      expect(gateway[serviceUrlVariable[component]], component).toBe(`http://${name}:50051`);
    }
  });

  it("uses the mongo replica set rs0 with one database per component, and the nats service for events", () => {
    for (const component of components) {
      const env = envFor(component);
      const uri = new URL(env.MONGODB_URI!);
      expect(uri.protocol, component).toBe("mongodb:");
      expect(uri.searchParams.get("replicaSet"), component).toBe("rs0");
      expect(compose.services[uri.hostname], `${component}: ${uri.hostname} is a compose service`).toBeDefined();
      expect(env.MONGODB_DATABASE, component).toBe(`bayad_${component}`);
      if (env.NATS_URL) expect(compose.services[new URL(env.NATS_URL).hostname], component).toBeDefined();
    }
    const mongo = compose.services.mongo!;
    expect(mongo.image).toMatch(/^mongo:7(\.|$)/);
    expect(mongo.command?.join(" ")).toMatch(/--replSet rs0\b/);
    const check = [mongo.healthcheck!.test].flat().join(" ");
    expect(check).toMatch(/rs\.status\(\)/);
    expect(check).toMatch(/rs\.initiate\(\{ _id: 'rs0', members: \[\{ _id: 0, host: 'mongo:27017' \}\] \}\)/);
  });

  it("runs NATS with JetStream on a volume", () => {
    const nats = compose.services.nats!;
    expect(nats.image).toMatch(/^nats:2(\.|-|$)/);
    const command = nats.command!;
    expect(command).toContain("-js");
    const storeDir = command[command.indexOf("-sd") + 1];
    expect(nats.volumes?.some((volume) => (typeof volume === "string" ? volume.split(":")[1] : volume.target) === storeDir)).toBe(true);
  });

  it("has healthchecks on mongo, nats and every component, and depends only on services that exist", () => {
    for (const [name, service] of all) {
      expect(service.healthcheck?.test, `${name} healthcheck`).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
      for (const [target, condition] of Object.entries(dependsOn(service))) {
        expect(compose.services[target], `${name} depends on ${target}`).toBeDefined();
        expect(["service_started", "service_healthy", "service_completed_successfully"], `${name} -> ${target}`).toContain(condition);
      }
    }
    for (const component of services) {
      const deps = dependsOn(serviceFor(component)[1]);
      expect(deps.mongo, component).toBe("service_healthy");
      if (envFor(component).NATS_URL) expect(deps.nats, component).toBe("service_healthy");
    }
    const gatewayDeps = dependsOn(serviceFor("gateway")[1]);
    for (const component of services) expect(gatewayDeps[serviceFor(component)[0]], `gateway -> ${component}`).toBeDefined();
  });

  it("pins every image by tag, never latest", () => {
    for (const [name, service] of all) {
      expect(service.image, name).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(service.image, name).not.toMatch(/:latest$/);
    }
  });

  it("runs no privileged container, and the app containers read-only, as 10001, with /tmp as tmpfs", () => {
    for (const [name, service] of all) {
      expect(service.privileged ?? false, name).toBe(false);
      expect(service.cap_add ?? [], name).toEqual([]);
      expect(service.network_mode, name).not.toBe("host");
      expect(service.pid, name).not.toBe("host");
    }
    for (const [name, service] of appServices) {
      expect(service.read_only, name).toBe(true);
      expect(service.user, name).toBe("10001:10001");
      expect([service.tmpfs].flat(), name).toContain("/tmp");
    }
  });

  it("waits longer than SHUTDOWN_GRACE_MS before killing an app container", () => {
    for (const [name, service] of appServices) {
      const grace = Number(environmentOf(service).SHUTDOWN_GRACE_MS);
      expect(grace, name).toBeGreaterThan(0);
      expect(durationMs(service.stop_grace_period ?? "10s"), name).toBeGreaterThan(grace);
    }
  });

  it("publishes the gateway, and only the gateway, on port 8080", () => {
    for (const [name, service] of all) {
      const ports = (service.ports ?? []).map((port) => (typeof port === "string" ? port : `${port.host_ip ?? ""}:${port.published}:${port.target}`));
      if (name === serviceFor("gateway")[0]) expect(ports.map((port) => port.split(":").slice(-2).join(":"))).toEqual(["8080:8080"]);
      else expect(ports, name).toEqual([]);
    }
  });
});

describe("deploy/env/*.example", () => {
  it("has one example per component, each with every required variable, passing the component's configuration check", () => {
    for (const component of components) {
      const env = parseEnvFile(readRepoFile(`deploy/env/${component}.env.example`));
      for (const variable of requiredEnv[component]) expect(env[variable], `${component}: ${variable}`).toMatch(/\S/);
      expect(() => configReaders[component](env), component).not.toThrow();
      for (const variable of secretVariables.filter((v) => v in env)) expect(env[variable], `${component}: ${variable}`).toMatch(/^CHANGE-ME/);
      expect(env.MONGODB_DATABASE, component).toBe(`bayad_${component}`);
      expect(new URL(env.MONGODB_URI!).searchParams.get("replicaSet"), component).toBe("rs0");
      // Traces are optional: shown commented out, so the example leaves them off.
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT, component).toBeUndefined();
      expect(readRepoFile(`deploy/env/${component}.env.example`), component).toMatch(/^# OTEL_EXPORTER_OTLP_ENDPOINT=https?:\/\/\S+$/m);
    }
  });
});

describe("the compose healthcheck commands, run for real", () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  /** Runs a healthcheck's test (["CMD", "node", …]) with this Node, as Docker would in the container. */
  function runCheck(test: string[] | string, env: Record<string, string>): Promise<number | null> {
    expect(Array.isArray(test) && test[0] === "CMD" && test[1] === "node").toBe(true);
    const child = spawn(process.execPath, (test as string[]).slice(2), { cwd: repoRoot, env: { PATH: process.env.PATH ?? "", ...env }, stdio: "ignore" });
    return new Promise((done) => child.on("exit", (code) => done(code)));
  }

  it("passes a service only while grpc.health.v1 answers SERVING", async () => {
    const test = serviceFor("payments")[1].healthcheck!.test;
    for (const component of services) expect(serviceFor(component)[1].healthcheck!.test, component).toEqual(test);
    let ready = true;
    const server: RunningServer = await startServiceServer({
      serviceName: "bayad.test.v1.TestService",
      routes: () => {},
      isReady: async () => ready,
      logger: createLogger("healthcheck-test", "silent"),
      port: 0,
    });
    closers.push(() => server.close());
    expect(await runCheck(test, { PORT: String(server.port) })).toBe(0);
    ready = false;
    expect(await runCheck(test, { PORT: String(server.port) })).toBe(1);
    await closers.pop()!();
    expect(await runCheck(test, { PORT: String(server.port) }), "nothing listening").toBe(1);
  });

  it("passes the gateway only while /readyz answers 2xx", async () => {
    let status = 200;
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url ?? "");
      response.writeHead(status).end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    closers.push(() => new Promise((done) => server.close(() => done())));
    const port = String((server.address() as AddressInfo).port);
    const test = serviceFor("gateway")[1].healthcheck!.test;
    expect(await runCheck(test, { PORT: port })).toBe(0);
    status = 503;
    expect(await runCheck(test, { PORT: port })).toBe(1);
    expect(paths).toEqual(["/readyz", "/readyz"]);
  });
});

it("keeps deploy/compose.yaml free of tabs and stray $ (Compose would interpolate them)", () => {
  const text = readRepoFile("deploy/compose.yaml");
  expect(text).not.toMatch(/\t/);
  expect(text.replace(/\$\{[A-Z_]+(:?-[^}]*)?\}/g, "")).not.toMatch(/\$/);
});
