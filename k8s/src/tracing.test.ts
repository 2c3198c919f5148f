/**
 * Traces (tracing.*): off unless tracing.otlpEndpoint is set, and then every component exports to
 * it under its own name, with the OTLP headers only from a Secret, and the webhooks service's
 * egress policy lets it reach the receiver's port.
 */
import { describe, expect, it } from "vitest";
import { loadChart, renderChart } from "./chart.js";
import { helmAvailable } from "./test-support/helm.js";
import { components, envOf, ofKind, pods, type Obj } from "./test-support/kube.js";
import { productionExample } from "./test-support/scenarios.js";

const chart = loadChart();
const ready = helmAvailable("tracing");
const endpoint = "http://otel-collector.observability.svc.cluster.local:4318";
const render = (...overrides: unknown[]) => renderChart(chart, { overrides });
const envsOf = (r: ReturnType<typeof render>) => pods(r.manifests).map((p) => ({ component: p.component, env: envOf(p.spec.containers[0]) }));
const egressRules = (r: ReturnType<typeof render>) =>
  ofKind(r.manifests, "NetworkPolicy").find((p) => p.spec.policyTypes.includes("Egress"))!.spec.egress as Obj[];
const rulesOnPort = (r: ReturnType<typeof render>, port: number) =>
  egressRules(r).filter((rule) => (rule.ports as Obj[]).some((p) => p.port === port && p.protocol === "TCP"));

describe.runIf(ready)("tracing.otlpEndpoint unset", () => {
  it.each([
    ["the default values", []],
    ["the production example", [productionExample()]],
  ])("gives no component any OTEL_ variable, and opens no port for a receiver, with %s", (_what, overrides) => {
    const r = render(...(overrides as unknown[]));
    const all = envsOf(r);
    expect(all.map((p) => p.component).sort()).toEqual([...components].sort());
    for (const { component, env } of all) expect([...env.keys()].filter((n) => n.startsWith("OTEL_")), component).toEqual([]);
    expect(rulesOnPort(r, 4318)).toEqual([]);
  });

  it("ignores the headers Secret without an endpoint", () => {
    const r = render({ tracing: { otlpHeadersSecret: "otlp-credentials" } });
    for (const { component, env } of envsOf(r)) expect([...env.keys()].filter((n) => n.startsWith("OTEL_")), component).toEqual([]);
  });
});

describe.runIf(ready)("tracing.otlpEndpoint set", () => {
  it("gives every Deployment the endpoint and its own component's name as OTEL_SERVICE_NAME", () => {
    const all = envsOf(render({ tracing: { otlpEndpoint: endpoint } }));
    expect(all.map((p) => p.component).sort()).toEqual([...components].sort());
    for (const { component, env } of all) {
      expect(env.get("OTEL_EXPORTER_OTLP_ENDPOINT"), component).toEqual({ name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: endpoint });
      expect(env.get("OTEL_SERVICE_NAME"), component).toEqual({ name: "OTEL_SERVICE_NAME", value: component });
      expect(env.has("OTEL_EXPORTER_OTLP_HEADERS"), component).toBe(false);
    }
  });

  it("passes OTEL_EXPORTER_OTLP_HEADERS from the Secret named, never as a plain value", () => {
    const r = render({ tracing: { otlpEndpoint: endpoint, otlpHeadersSecret: "otlp-credentials", otlpHeadersSecretKey: "api-headers" } });
    for (const { component, env } of envsOf(r)) {
      expect(env.get("OTEL_EXPORTER_OTLP_HEADERS"), component).toEqual({
        name: "OTEL_EXPORTER_OTLP_HEADERS",
        valueFrom: { secretKeyRef: { name: "otlp-credentials", key: "api-headers" } },
      });
    }
    // The Secret is the user's: the chart's own does not gain a key for it.
    for (const secret of ofKind(r.manifests, "Secret")) expect(Object.keys(secret.data)).not.toContain("api-headers");
  });

  it("lets the webhooks service reach the receiver's port (4318 by default) at any address when no peers are given", () => {
    const r = render({ tracing: { otlpEndpoint: endpoint } });
    const [rule, ...others] = rulesOnPort(r, 4318);
    expect(others).toEqual([]);
    expect(rule).toEqual({ ports: [{ protocol: "TCP", port: 4318 }] });
  });

  it("lets it reach the receiver only at the peers and port given", () => {
    const peers = [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "observability" } }, podSelector: { matchLabels: { app: "otel-collector" } } }];
    const r = render({
      tracing: { otlpEndpoint: "http://otel-collector.observability:14318" },
      networkPolicy: { webhooks: { tracing: { port: 14318, to: peers } } },
    });
    expect(rulesOnPort(r, 4318)).toEqual([]);
    expect(rulesOnPort(r, 14318)).toEqual([{ ports: [{ protocol: "TCP", port: 14318 }], to: peers }]);
  });

  it("renders no network policy for it with networkPolicy.enabled false, and still passes the variables", () => {
    const r = render({ tracing: { otlpEndpoint: endpoint }, networkPolicy: { enabled: false } });
    expect(ofKind(r.manifests, "NetworkPolicy")).toEqual([]);
    for (const { component, env } of envsOf(r)) expect(env.get("OTEL_SERVICE_NAME")?.value, component).toBe(component);
  });
});
