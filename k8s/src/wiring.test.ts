/**
 * The rendered objects fit together, as the API server and the processes would need them to:
 * selectors, ports and names line up across Deployments, Services, PDBs, HPAs and the Ingress;
 * secret references point at keys that exist; each component gets exactly the environment the
 * platform's conventions list, with numbers a process can parse; drains finish before SIGKILL.
 */
import { describe, expect, it } from "vitest";
import { loadChart } from "./chart.js";
import { helmAvailable } from "./test-support/helm.js";
import { byName, components, envOf, ofKind, pods, quantity, selects, services, type Obj } from "./test-support/kube.js";
import { renderScenarios } from "./test-support/scenarios.js";

const chart = loadChart();
const ready = helmAvailable("the wiring");
const rendered = ready ? renderScenarios(chart) : [];

/** The environment each component must have, and may have, per the platform's conventions. */
function expectedEnv(component: string, values: Obj): { required: string[]; optional: string[] } {
  // METRICS_PORT on every component: the gateway's metrics are not on its public port either.
  const required = ["PORT", "HOST", "METRICS_PORT", "LOG_LEVEL", "SHUTDOWN_GRACE_MS", "MONGODB_URI", "MONGODB_DATABASE"];
  const optional: string[] = [];
  // Traces, when exported: every component, named after itself (checked in tracing.test.ts).
  if (values.tracing.otlpEndpoint) {
    required.push("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME");
    if (values.tracing.otlpHeadersSecret) required.push("OTEL_EXPORTER_OTLP_HEADERS");
  }
  if (component === "gateway") {
    required.push("ADMIN_API_KEY", "GATEWAY_SECRET", "DEV_TOKEN_ISSUER", "PAYMENTS_URL", "BILLING_URL", "LINKS_URL", "RECORDS_URL", "OTP_URL", "WEBHOOKS_URL");
    optional.push("PUBLIC_URL", "JWKS_URL", "JWT_ISSUER", "JWT_AUDIENCE");
    if (values.gateway.ingress.enabled || values.gateway.trustProxy) required.push("TRUST_PROXY");
    return { required, optional };
  }
  if (component !== "otp") {
    required.push("NATS_URL");
    optional.push("EVENTS_NAMESPACE");
  }
  if (["payments", "billing", "links"].includes(component)) required.push("SANDBOX_SECRET", "SECRETS_KEY", "PAYMONGO_API_BASE", "XENDIT_API_BASE");
  if (["billing", "links"].includes(component)) required.push("PAYMENTS_URL");
  if (component === "payments") optional.push("PUBLIC_URL");
  if (component === "billing") required.push("BILLING_CLOCK_INTERVAL_MS", "BILLING_CLOCK_LEASE_MS");
  if (component === "records") required.push("RECORDS_CURSOR_SECRET");
  // The webhooks service refuses to start without SECRETS_KEY and PUBLIC_URL.
  if (component === "webhooks") {
    required.push("SECRETS_KEY", "PUBLIC_URL", "WEBHOOK_RETRY_SCHEDULE", "WEBHOOK_TIMEOUT", "WEBHOOK_DISABLE_AFTER", "WEBHOOK_EVENT_RETENTION");
  }
  if (component === "otp") {
    required.push("OTP_HASH_SECRET", "OTP_EMAIL_SENDER", "OTP_SMS_SENDER");
    if (values.otp.emailSender === "smtp") {
      required.push("SMTP_HOST", "SMTP_PORT", "SMTP_TLS", "SMTP_TLS_VERIFY", "SMTP_FROM");
      optional.push("SMTP_USER", "SMTP_PASS");
      if (values.otp.smtp.caCertificate) required.push("SMTP_CA_FILE");
    }
    if (values.otp.smsSender === "semaphore") {
      required.push("SEMAPHORE_API_KEY", "SEMAPHORE_BASE_URL");
      optional.push("SEMAPHORE_SENDER_NAME");
    }
  }
  return { required, optional };
}

const integerVariables = ["PORT", "METRICS_PORT", "SHUTDOWN_GRACE_MS", "BILLING_CLOCK_INTERVAL_MS", "BILLING_CLOCK_LEASE_MS", "SMTP_PORT"];

describe.each(rendered)("with $name", (r) => {
  const values = r.values as Obj;
  const all = pods(r.manifests);
  const podsSelectedBy = (selector: Obj) => all.filter((p) => selects(selector, p.labels)).map((p) => p.component);

  it("names each component's objects <release>-<component>, running that component", () => {
    for (const pod of all) {
      expect(pod.deployment.metadata.name).toBe(`${r.releaseName}-${pod.component}`);
      expect(pod.spec.containers[0].name).toBe(pod.component);
      expect(pod.spec.containers[0].args).toEqual([pod.component]);
      expect(byName(r.manifests, "Service", `${r.releaseName}-${pod.component}`)).toBeDefined();
    }
  });

  it("gives each Deployment a selector that matches its own pods and no other component's", () => {
    for (const pod of all) expect(podsSelectedBy(pod.deployment.spec.selector)).toEqual([pod.component]);
  });

  it("lets each Service reach its component's pods on ports the container declares", () => {
    for (const service of ofKind(r.manifests, "Service")) {
      const selected = podsSelectedBy({ matchLabels: service.spec.selector });
      expect(selected).toHaveLength(1);
      const pod = all.find((p) => p.component === selected[0])!;
      const containerPorts = (pod.spec.containers[0].ports as Obj[]).map((p) => p.name);
      for (const port of service.spec.ports as Obj[]) expect(containerPorts).toContain(port.targetPort);
    }
  });

  it("points the gateway at each service's Service name and gRPC port", () => {
    const env = envOf(all.find((p) => p.component === "gateway")!.spec.containers[0]);
    for (const name of services) {
      const url = new URL(env.get(`${name.toUpperCase()}_URL`)!.value);
      expect(url.protocol).toBe("http:");
      const service = byName(r.manifests, "Service", url.hostname);
      expect(podsSelectedBy({ matchLabels: service.spec.selector })).toEqual([name]);
      const port = (service.spec.ports as Obj[]).find((p) => p.port === Number(url.port))!;
      expect(port.name).toBe("grpc");
      expect(port.appProtocol).toBe("kubernetes.io/h2c");
    }
  });

  it("points billing and links at the payments Service's gRPC port, where they resolve provider accounts", () => {
    for (const name of ["billing", "links"]) {
      const env = envOf(all.find((p) => p.component === name)!.spec.containers[0]);
      const url = new URL(env.get("PAYMENTS_URL")!.value);
      const service = byName(r.manifests, "Service", url.hostname);
      expect(podsSelectedBy({ matchLabels: service.spec.selector })).toEqual(["payments"]);
      expect((service.spec.ports as Obj[]).find((p) => p.port === Number(url.port))?.name).toBe("grpc");
    }
  });

  it("gives the webhooks service the key payments seals with, its delivery settings, and an absolute PUBLIC_URL", () => {
    const env = envOf(all.find((p) => p.component === "webhooks")!.spec.containers[0]);
    const payments = envOf(all.find((p) => p.component === "payments")!.spec.containers[0]);
    expect(env.get("SECRETS_KEY")!.valueFrom).toEqual(payments.get("SECRETS_KEY")!.valueFrom);
    expect(env.get("WEBHOOK_RETRY_SCHEDULE")!.value).toBe(values.webhooks.retrySchedule);
    expect(env.get("WEBHOOK_TIMEOUT")!.value).toBe(values.webhooks.timeout);
    expect(env.get("WEBHOOK_DISABLE_AFTER")!.value).toBe(values.webhooks.disableAfter);
    expect(env.get("WEBHOOK_EVENT_RETENTION")!.value).toBe(values.webhooks.eventRetention);
    const publicUrl = env.get("PUBLIC_URL")!.value as string;
    if (values.gateway.publicUrl) {
      expect(publicUrl).toBe(values.gateway.publicUrl);
      expect(envOf(all.find((p) => p.component === "gateway")!.spec.containers[0]).get("PUBLIC_URL")!.value).toBe(publicUrl);
      expect(r.notes).not.toMatch(/gateway.publicUrl is empty/);
    } else {
      // Unset: the gateway's own Service (absolute, if only reachable inside the cluster), and NOTES.txt says so.
      const url = new URL(publicUrl);
      const service = byName(r.manifests, "Service", url.hostname);
      expect(podsSelectedBy({ matchLabels: service.spec.selector })).toEqual(["gateway"]);
      expect((service.spec.ports as Obj[]).find((p) => p.port === Number(url.port || 80))?.name).toBe("http");
      expect(r.notes).toMatch(/gateway.publicUrl is empty/);
      expect(r.notes).toContain(publicUrl);
    }
  });

  it.each(components)("sets exactly the environment the conventions list for %s", (name) => {
    const c = all.find((p) => p.component === name)!.spec.containers[0] as Obj;
    const names = (c.env as Obj[]).map((e) => e.name as string);
    expect(new Set(names).size).toBe(names.length);
    const { required, optional } = expectedEnv(name, values);
    const extra = (values.components[name].extraEnv as Obj[]).map((e) => e.name);
    expect(names.filter((n) => !required.includes(n) && !optional.includes(n) && !extra.includes(n))).toEqual([]);
    expect(required.filter((n) => !names.includes(n))).toEqual([]);
    const env = envOf(c);
    expect(env.get("HOST")!.value).toBe("0.0.0.0");
    expect(env.get("MONGODB_DATABASE")!.value).toBe(values.components[name].database);
    for (const n of integerVariables) if (env.has(n)) expect(env.get(n)!.value, n).toMatch(/^[0-9]+$/);
    expect(Number(env.get("PORT")!.value)).toBe(name === "gateway" ? values.ports.http : values.ports.grpc);
  });

  it("reads every secretKeyRef from the chart's Secret, holding that key, or from a Secret named in the values", () => {
    const secrets = ofKind(r.manifests, "Secret");
    const external = [values.mongodb.existingSecret, values.secrets.existingSecret, values.tracing.otlpHeadersSecret].filter(Boolean);
    for (const pod of all) {
      for (const e of pod.spec.containers[0].env as Obj[]) {
        const ref = e.valueFrom?.secretKeyRef;
        if (!ref) continue;
        const own = secrets.find((s) => s.metadata.name === ref.name);
        if (own) expect(Object.keys(own.data), `${pod.component} ${e.name}`).toContain(ref.key);
        else expect(external, `${pod.component} ${e.name}`).toContain(ref.name);
      }
    }
    for (const s of secrets) for (const v of Object.values(s.data as Record<string, string>)) expect(Buffer.from(v, "base64").toString("base64")).toBe(v);
  });

  it("probes named ports, mounts declared volumes and keeps requests within limits", () => {
    for (const pod of all) {
      const c = pod.spec.containers[0] as Obj;
      const portNames = (c.ports as Obj[]).map((p) => p.name);
      for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) {
        const port = c[probe].httpGet?.port;
        if (typeof port === "string") expect(portNames, `${pod.component} ${probe}`).toContain(port);
      }
      const volumes = (pod.spec.volumes as Obj[]).map((v) => v.name);
      for (const m of c.volumeMounts as Obj[]) expect(volumes).toContain(m.name);
      for (const [resource, limit] of Object.entries((c.resources.limits ?? {}) as Record<string, string>)) {
        const request = c.resources.requests?.[resource];
        if (request !== undefined) expect(quantity(request)).toBeLessThanOrEqual(quantity(limit));
      }
    }
  });

  it("mounts the SMTP authorities' ConfigMap, read-only, where SMTP_CA_FILE points, and only there", () => {
    for (const pod of all) {
      const c = pod.spec.containers[0] as Obj;
      const caFile = envOf(c).get("SMTP_CA_FILE")?.value as string | undefined;
      const mount = (c.volumeMounts as Obj[]).find((m) => m.name === "smtp-ca");
      if (caFile === undefined) {
        expect(mount, pod.component).toBeUndefined();
        continue;
      }
      expect(caFile.startsWith(`${mount!.mountPath}/`)).toBe(true);
      expect(mount!.readOnly).toBe(true);
      const volume = (pod.spec.volumes as Obj[]).find((v) => v.name === "smtp-ca")!;
      const configMap = byName(r.manifests, "ConfigMap", volume.configMap.name);
      expect(configMap.data[caFile.slice(mount!.mountPath.length + 1)]).toBe(values.otp.smtp.caCertificate);
    }
  });

  it("gives a drain time to finish before SIGKILL: grace period > preStop sleep + SHUTDOWN_GRACE_MS", () => {
    for (const pod of all) {
      const c = pod.spec.containers[0] as Obj;
      const sleep = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(sleep).toBe(values.preStopSleepSeconds);
      const graceMs = Number(envOf(c).get("SHUTDOWN_GRACE_MS")!.value);
      expect(pod.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(sleep * 1000 + graceMs);
    }
  });

  it("spreads pods over nodes with a constraint that selects the pod itself", () => {
    for (const pod of all) {
      for (const t of (pod.spec.topologySpreadConstraints ?? []) as Obj[]) expect(selects(t.labelSelector, pod.labels)).toBe(true);
      expect((pod.spec.topologySpreadConstraints ?? []).length).toBe(values.spreadAcrossNodes ? 1 : 0);
    }
  });

  it("scales with an HPA that targets its Deployment, which then leaves replicas to it", () => {
    const hpas = ofKind(r.manifests, "HorizontalPodAutoscaler");
    for (const pod of all) {
      const settings = values.components[pod.component];
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === pod.deployment.metadata.name);
      expect(Boolean(hpa)).toBe(settings.autoscaling.enabled);
      if (hpa) {
        expect(hpa.spec.scaleTargetRef).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment" });
        expect(pod.deployment.spec.replicas).toBeUndefined();
        expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
        expect(pod.spec.containers[0].resources.requests.cpu).toBeDefined();
        const memory = (hpa.spec.metrics as Obj[]).some((m) => m.resource.name === "memory");
        expect(memory).toBe(settings.autoscaling.targetMemoryUtilizationPercentage > 0);
      } else {
        expect(pod.deployment.spec.replicas).toBe(settings.replicas);
      }
    }
  });

  it("guards each component with a PDB over its own pods, when enabled", () => {
    const pdbs = ofKind(r.manifests, "PodDisruptionBudget");
    for (const pod of all) {
      const pdb = pdbs.find((p) => p.metadata.name === pod.deployment.metadata.name);
      expect(Boolean(pdb)).toBe(values.components[pod.component].podDisruptionBudget.enabled);
      if (pdb) {
        expect(podsSelectedBy(pdb.spec.selector)).toEqual([pod.component]);
        expect(pdb.spec.minAvailable).toBeUndefined();
      }
    }
  });

  it("routes the Ingress, when enabled, to the gateway's Service and port", () => {
    const ingresses = ofKind(r.manifests, "Ingress");
    expect(ingresses.length).toBe(values.gateway.ingress.enabled ? 1 : 0);
    for (const ingress of ingresses) {
      for (const rule of ingress.spec.rules as Obj[]) {
        for (const path of rule.http.paths as Obj[]) {
          const service = byName(r.manifests, "Service", path.backend.service.name);
          expect(podsSelectedBy({ matchLabels: service.spec.selector })).toEqual(["gateway"]);
          expect((service.spec.ports as Obj[]).map((p) => p.name)).toContain(path.backend.service.port.name);
        }
      }
    }
  });

  it("renders NOTES.txt completely", () => {
    expect(r.notes).toContain(`release ${r.releaseName}`);
    expect(r.notes).not.toMatch(/<no value>|\{\{/);
  });
});

describe.runIf(ready)("the client address behind the ingress (TRUST_PROXY)", () => {
  const trustProxy = (name: string) =>
    envOf(pods(rendered.find((r) => r.name === name)!.manifests).find((p) => p.component === "gateway")!.spec.containers[0]).get("TRUST_PROXY")?.value;
  it("believes X-Forwarded-For from one hop, the ingress controller, when the chart's ingress is on", () => {
    expect(trustProxy("production example")).toBe("1");
  });
  it("believes no X-Forwarded-For without the ingress, as the gateway's own default", () => {
    expect(trustProxy("default values")).toBeUndefined();
    expect(trustProxy("everything off")).toBeUndefined();
  });
  it("passes the proxies' CIDRs on as given", () => {
    expect(trustProxy("everything on")).toBe("10.42.0.0/16, 192.0.2.10, fd00:42::/64");
  });
});
