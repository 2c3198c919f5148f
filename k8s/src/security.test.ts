/**
 * The security rules, checked on the rendered objects of every scenario: the Pod Security
 * Standards "restricted" profile (non-root uid 10001, no privilege escalation, all capabilities
 * dropped, RuntimeDefault seccomp) plus a read-only root filesystem with /tmp on an emptyDir,
 * probes, keys only through Secrets, network policies that let only the gateway reach the
 * services' gRPC port, and an egress policy that keeps the webhooks service's deliveries out of
 * the cluster's and private networks.
 */
import { BlockList, isIPv4 } from "node:net";
import { describe, expect, it } from "vitest";
import { loadChart } from "./chart.js";
import { helmAvailable } from "./test-support/helm.js";
import { components, envOf, ofKind, pods, selects, services, type Obj } from "./test-support/kube.js";
import { renderScenarios } from "./test-support/scenarios.js";

const chart = loadChart();
const ready = helmAvailable("the security rules");
const rendered = ready ? renderScenarios(chart) : [];
const secretVariables = ["MONGODB_URI", "ADMIN_API_KEY", "GATEWAY_SECRET", "GATEWAY_SECRETS", "SANDBOX_SECRET", "SECRETS_KEY", "SECRETS_KEYS", "OTP_HASH_SECRET", "OTP_HASH_SECRETS", "RECORDS_CURSOR_SECRET", "SMTP_PASS", "SEMAPHORE_API_KEY", "OTEL_EXPORTER_OTLP_HEADERS"];

describe.each(rendered)("with $name", (r) => {
  const all = pods(r.manifests);

  it("runs all seven components", () => {
    expect(all.map((p) => p.component).sort()).toEqual([...components].sort());
  });

  it.each(components)("runs %s as uid 10001, non-root, with RuntimeDefault seccomp and no host namespaces or API token", (name) => {
    const { spec } = all.find((p) => p.component === name)!;
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: "RuntimeDefault" } });
    expect(spec.automountServiceAccountToken).toBe(false);
    for (const key of ["hostNetwork", "hostPID", "hostIPC"]) expect(spec[key]).toBeUndefined();
    expect(spec.initContainers).toBeUndefined();
    expect(spec.containers).toHaveLength(1);
  });

  it.each(components)("gives %s a read-only root filesystem, no privilege escalation, no capabilities, /tmp on an emptyDir", (name) => {
    const { spec } = all.find((p) => p.component === name)!;
    const c = spec.containers[0] as Obj;
    expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, runAsNonRoot: true, capabilities: { drop: ["ALL"] } });
    expect(c.securityContext.privileged ?? false).toBe(false);
    expect(c.securityContext.capabilities.add).toBeUndefined();
    expect(c.securityContext.runAsUser ?? 10001).toBe(10001);
    const tmp = (c.volumeMounts as Obj[]).find((m) => m.mountPath === "/tmp")!;
    expect(tmp).toBeDefined();
    const volume = (spec.volumes as Obj[]).find((v) => v.name === tmp.name)!;
    expect(Object.keys(volume).sort()).toEqual(["emptyDir", "name"]);
    expect(volume.emptyDir.sizeLimit).toBeTruthy();
    // Nothing else is mounted: no hostPath, no writable paths besides /tmp; only otp may mount
    // its SMTP authorities' ConfigMap, read-only.
    const others = (c.volumeMounts as Obj[]).filter((m) => m !== tmp);
    expect(others.every((m) => name === "otp" && m.name === "smtp-ca" && m.readOnly === true)).toBe(true);
    const otherVolumes = (spec.volumes as Obj[]).filter((v) => v !== volume);
    expect(otherVolumes.map((v) => Object.keys(v).sort())).toEqual(others.map(() => ["configMap", "name"]));
  });

  it("probes the gateway with /healthz (liveness, startup) and /readyz (readiness)", () => {
    const c = all.find((p) => p.component === "gateway")!.spec.containers[0] as Obj;
    expect(c.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(c.startupProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(c.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect((c.ports as Obj[]).map((p) => p.name)).toContain("http");
  });

  it.each(components)("has Prometheus scrape %s on its metrics port, never on the gateway's public port", (name) => {
    const pod = all.find((p) => p.component === name)!;
    const c = pod.spec.containers[0] as Obj;
    const metricsPort = (c.ports as Obj[]).find((p) => p.name === "metrics")!.containerPort;
    expect(envOf(c).get("METRICS_PORT")!.value).toBe(String(metricsPort));
    const annotations = pod.deployment.spec.template.metadata.annotations as Record<string, string> | undefined;
    if (annotations?.["prometheus.io/scrape"]) expect(annotations["prometheus.io/port"]).toBe(String(metricsPort));
    // The gateway's Service may face the internet (a LoadBalancer): metrics are scraped on the pod.
    const service = ofKind(r.manifests, "Service").find((s) => s.metadata.labels["app.kubernetes.io/component"] === name)!;
    if (name === "gateway") expect((service.spec.ports as Obj[]).map((p) => p.name)).toEqual(["http"]);
  });

  it.each(services)("probes %s's readiness with the native gRPC health check, its liveness without MongoDB", (name) => {
    const c = all.find((p) => p.component === name)!.spec.containers[0] as Obj;
    const grpcPort = (c.ports as Obj[]).find((p) => p.name === "grpc")!.containerPort;
    expect(c.readinessProbe.grpc).toEqual({ port: grpcPort });
    // grpc.health.v1 reports the store's state: a liveness probe on it would restart every pod
    // during a MongoDB outage. The metrics server answers from the process alone.
    for (const probe of ["livenessProbe", "startupProbe"]) expect(c[probe].httpGet).toEqual({ path: "/metrics", port: "metrics" });
    expect((c.ports as Obj[]).map((p) => p.name)).toContain("metrics");
  });

  it.each(components)("gives %s CPU and memory requests and a memory limit", (name) => {
    const c = all.find((p) => p.component === name)!.spec.containers[0] as Obj;
    expect(c.resources.requests.cpu).toBeDefined();
    expect(c.resources.requests.memory).toBeDefined();
    expect(c.resources.limits.memory).toBeDefined();
  });

  it("passes keys and credentials only through Secrets, never as plain values", () => {
    for (const pod of all) {
      for (const [name, e] of envOf(pod.spec.containers[0])) {
        if (secretVariables.includes(name)) {
          expect(e.value, `${pod.component} ${name}`).toBeUndefined();
          expect(e.valueFrom?.secretKeyRef, `${pod.component} ${name}`).toBeDefined();
        }
      }
    }
  });

  it("pins the image by a tag or a digest, never latest", () => {
    for (const pod of all) expect(pod.spec.containers[0].image).toMatch(/^[^:@]+(:(?!latest$)[\w][\w.-]*|@sha256:[a-f0-9]{64})$/);
  });
});

const policyEnabled = (r: (typeof rendered)[number]) => (r.values.networkPolicy as { enabled: boolean }).enabled;

describe.each(rendered.filter(policyEnabled))("the network policies with $name", (r) => {
  const all = pods(r.manifests);
  const policies = ofKind(r.manifests, "NetworkPolicy");
  const selectedBy = (policy: Obj) => all.filter((p) => selects(policy.spec.podSelector, p.labels)).map((p) => p.component).sort();
  const servicePolicy = () => policies.find((p) => selectedBy(p).length > 1 && selectedBy(p).includes("payments"))!;
  const ports = r.values.ports as { http: number; grpc: number; metrics: number };

  it("select every service, and only the services, with the services' policy", () => {
    expect(policies).toHaveLength(4);
    expect(selectedBy(servicePolicy())).toEqual([...services].sort());
    expect(servicePolicy().spec.policyTypes).toEqual(["Ingress"]);
  });

  it("let only the gateway's pods, in the same namespace, reach the services' gRPC port", () => {
    const rules = servicePolicy().spec.ingress as Obj[];
    // A rule without ports or peers would open everything.
    for (const rule of rules) {
      expect(rule.ports?.length).toBeGreaterThan(0);
      expect(rule.from?.length).toBeGreaterThan(0);
    }
    const grpcRules = rules.filter((rule) => (rule.ports as Obj[]).some((p) => p.port === ports.grpc || p.port === "grpc"));
    expect(grpcRules).toHaveLength(1);
    for (const peer of grpcRules[0]!.from as Obj[]) {
      expect(Object.keys(peer)).toEqual(["podSelector"]);
      expect(all.filter((p) => selects(peer.podSelector, p.labels)).map((p) => p.component)).toEqual(["gateway"]);
    }
  });

  it("let billing's and links' pods reach the payments service's gRPC port, and nothing else", () => {
    const paymentsPolicy = policies.find((p) => selectedBy(p).join() === "payments")!;
    expect(paymentsPolicy.spec.policyTypes).toEqual(["Ingress"]);
    const [rule, ...others] = paymentsPolicy.spec.ingress as Obj[];
    expect(others).toEqual([]);
    expect(rule!.ports).toEqual([{ protocol: "TCP", port: ports.grpc }]);
    for (const peer of rule!.from as Obj[]) {
      expect(Object.keys(peer)).toEqual(["podSelector"]);
      expect(all.filter((p) => selects(peer.podSelector, p.labels)).map((p) => p.component).sort()).toEqual(["billing", "links"]);
    }
  });

  it("let the Prometheus pods chosen in the values reach only the metrics port", () => {
    const rules = servicePolicy().spec.ingress as Obj[];
    const metricsRule = rules.find((rule) => (rule.ports as Obj[]).some((p) => p.port === ports.metrics))!;
    expect(metricsRule.ports).toEqual([{ protocol: "TCP", port: ports.metrics }]);
    const prometheus = (r.values.networkPolicy as { prometheus: Obj }).prometheus;
    expect(metricsRule.from).toEqual([{ namespaceSelector: prometheus.namespaceSelector, podSelector: prometheus.podSelector }]);
  });

  it("open the gateway's HTTP port, and its metrics port to Prometheus alone", () => {
    const gatewayPolicy = policies.find((p) => selectedBy(p).includes("gateway"))!;
    expect(selectedBy(gatewayPolicy)).toEqual(["gateway"]);
    const [http, metrics, ...others] = gatewayPolicy.spec.ingress as Obj[];
    expect(others).toEqual([]);
    expect(http!.ports).toEqual([{ protocol: "TCP", port: ports.http }]);
    const from = (r.values.networkPolicy as { gatewayFrom: Obj[] }).gatewayFrom;
    expect(http!.from).toEqual(from.length > 0 ? from : undefined);
    expect(metrics!.ports).toEqual([{ protocol: "TCP", port: ports.metrics }]);
    const prometheus = (r.values.networkPolicy as { prometheus: Obj }).prometheus;
    expect(metrics!.from).toEqual([{ namespaceSelector: prometheus.namespaceSelector, podSelector: prometheus.podSelector }]);
  });
});

/**
 * Whether an egress rule lets a pod open `protocol`/`port` to the address `ip` outside the
 * cluster's pods: a rule without `to` allows every destination; of its peers only ipBlocks
 * name addresses (selectors name pods, which these addresses are not).
 */
function ruleAllows(rule: Obj, ip: string, port: number, protocol = "TCP"): boolean {
  const portMatches = (rule.ports ?? [{}]).some((p: Obj) => (p.protocol ?? "TCP") === protocol && (p.port === undefined || p.port === port));
  if (!portMatches) return false;
  if (rule.to === undefined || rule.to.length === 0) return true;
  const family = isIPv4(ip) ? "ipv4" : "ipv6";
  return (rule.to as Obj[]).some((peer) => {
    if (!peer.ipBlock) return false;
    const within = (cidr: string) => {
      const [network, prefix] = cidr.split("/");
      const list = new BlockList();
      list.addSubnet(network!, Number(prefix), isIPv4(network!) ? "ipv4" : "ipv6");
      return list.check(ip, family);
    };
    return within(peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some(within);
  });
}

describe.each(rendered.filter(policyEnabled))("the webhooks service's egress with $name", (r) => {
  const all = pods(r.manifests);
  const policy = ofKind(r.manifests, "NetworkPolicy").find((p) => p.spec.policyTypes.includes("Egress"))!;
  const settings = (r.values.networkPolicy as Obj).webhooks as Obj;
  const rules = policy.spec.egress as Obj[];
  // The traces' receiver is a destination only while traces are exported.
  const tracing = (r.values.tracing as Obj).otlpEndpoint ? [settings.tracing as Obj] : [];
  const allows = (ip: string, port: number, protocol = "TCP") => rules.some((rule) => ruleAllows(rule, ip, port, protocol));

  it("is the only egress policy, and selects the webhooks pods alone", () => {
    expect(ofKind(r.manifests, "NetworkPolicy").filter((p) => p.spec.policyTypes.includes("Egress"))).toEqual([policy]);
    expect(policy.spec.policyTypes).toEqual(["Egress"]);
    expect(all.filter((p) => selects(policy.spec.podSelector, p.labels)).map((p) => p.component)).toEqual(["webhooks"]);
  });

  it("lets deliveries reach public addresses on the delivery ports, and on no other port", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:2800:220:1:248:1893:25c8:1946"]) {
      for (const port of settings.deliveryPorts as number[]) expect(allows(ip, port), `${ip}:${port}`).toBe(true);
      for (const port of [22, 25, 3306, 6379, 8080]) {
        if (!(settings.deliveryPorts as number[]).includes(port)) expect(allows(ip, port), `${ip}:${port}`).toBe(false);
      }
    }
  });

  it("keeps every private, loopback, link-local and metadata address out of reach but for DNS, NATS, MongoDB and the traces' receiver", () => {
    const storeAndEvents = [settings.nats.port, settings.mongodb.port, ...tracing.map((t) => t.port)];
    const addresses = ["10.0.0.1", "10.96.0.10", "172.16.5.4", "172.31.255.254", "192.168.1.1", "100.64.0.1", "169.254.169.254", "127.0.0.1", "0.0.0.0",
      "fd00:ec2::254", "fc00::1", "fe80::1", "::1", "::ffff:10.0.0.1"];
    for (const ip of addresses) {
      for (const port of [443, 80, 8443, 22, 6443, 9464, 50051, 8080, 10250, 4317, 4318]) {
        if (!storeAndEvents.includes(port)) expect(allows(ip, port), `${ip}:${port}`).toBe(false);
      }
    }
  });

  it("lets the pods resolve names and reach NATS, MongoDB and the traces' receiver, at the peers given or else anywhere on their ports", () => {
    const byPort = (port: number, protocol = "TCP") => rules.filter((rule) => (rule.ports as Obj[]).some((p) => p.port === port && p.protocol === protocol));
    for (const protocol of ["UDP", "TCP"]) {
      const [dns, ...others] = byPort(53, protocol);
      expect(others).toEqual([]);
      expect(dns!.to ?? []).toEqual(settings.dnsTo);
    }
    for (const target of [settings.nats, settings.mongodb, ...tracing]) {
      const [rule, ...others] = byPort(target.port);
      expect(others).toEqual([]);
      expect(rule!.ports).toEqual([{ protocol: "TCP", port: target.port }]);
      expect(rule!.to ?? []).toEqual(target.to);
    }
    // Every rule names its ports: none opens everything.
    for (const rule of rules) expect(rule.ports?.length).toBeGreaterThan(0);
  });
});

describe.runIf(ready)("networkPolicy.enabled false", () => {
  it("renders no network policy", () => {
    const off = rendered.filter((r) => !policyEnabled(r));
    expect(off.length).toBeGreaterThan(0);
    for (const r of off) expect(ofKind(r.manifests, "NetworkPolicy")).toEqual([]);
  });
});

describe.runIf(ready)("the development token issuer", () => {
  const issuer = (name: string) =>
    envOf(pods(rendered.find((r) => r.name === name)!.manifests).find((p) => p.component === "gateway")!.spec.containers[0]).get("DEV_TOKEN_ISSUER")!.value;
  it("is off in the production example", () => {
    expect(issuer("production example")).toBe("off");
  });
  it("is off by default, as the gateway's own default", () => {
    expect(issuer("default values")).toBe("off");
    expect(rendered.find((r) => r.name === "default values")!.notes).not.toMatch(/devTokenIssuer/);
  });
  it("is on when switched on, and NOTES.txt warns of it", () => {
    expect(issuer("everything on")).toBe("on");
    expect(rendered.find((r) => r.name === "everything on")!.notes).toMatch(/WARNING: gateway.devTokenIssuer is on/);
  });
});
