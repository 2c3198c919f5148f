/**
 * The values the chart's tests render: the defaults, the production example, and two that
 * switch on (and off) everything the others leave alone, so every branch renders at least once.
 */
import { join } from "node:path";
import { chartDir, readYamlFile, renderChart, type Chart, type Rendered } from "../chart.js";
import { components } from "./kube.js";

export interface Scenario {
  name: string;
  releaseName: string;
  namespace: string;
  overrides: unknown[];
}

export const productionExample = () => readYamlFile(join(chartDir, "values-production.example.yaml"));

const component = (extra: Record<string, unknown> = {}) => ({
  autoscaling: { enabled: true, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60, targetMemoryUtilizationPercentage: 80 },
  podAnnotations: { "example.com/team": "payments" },
  nodeSelector: { "kubernetes.io/os": "linux" },
  tolerations: [{ key: "dedicated", operator: "Equal", value: "bayad", effect: "NoSchedule" }],
  affinity: {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 50, preference: { matchExpressions: [{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["m6i.large"] }] } },
      ],
    },
  },
  extraEnv: [{ name: "RPC_TIMEOUT_MS", value: "8000" }],
  ...extra,
});

/** Everything optional switched on, with the chart's own Secret holding given keys. */
const everythingOn = {
  image: { repository: "registry.example.ph/bayad/bayad", digest: `sha256:${"a".repeat(64)}` },
  imagePullSecrets: [{ name: "registry-credentials" }],
  mongodb: { existingSecret: "mongo-credentials", existingSecretKey: "connection-string" },
  nats: { url: "tls://nats.messaging:4222", eventsNamespace: "staging" },
  tracing: { otlpEndpoint: "http://otel-collector.observability:4318", otlpHeadersSecret: "otlp-credentials", otlpHeadersSecretKey: "headers" },
  secrets: {
    adminApiKey: "adm_0123456789abcdefghij",
    sandboxSecret: "sandbox-0123456789abcdef",
    secretsKey: "secrets-key-0123456789abcdefghijklmnopqrstuvwxyz",
    otpHashSecret: "otp-hash-0123456789abcdefghijklmnopqrstuvwxyz",
    recordsCursorSecret: "cursor-0123456789abcdefghijklmnopqrstuvwxyz",
    smtpPass: "smtp password",
    semaphoreApiKey: "semaphore-key",
  },
  gateway: {
    publicUrl: "https://staging.bayad.example.ph",
    // The ingress controller's pods and the load balancer before it, by address.
    trustProxy: "10.42.0.0/16, 192.0.2.10, fd00:42::/64",
    devTokenIssuer: true,
    jwt: { jwksUrl: "https://auth.example.ph/jwks.json", issuer: "https://auth.example.ph/", audience: "bayad" },
    service: { type: "LoadBalancer", port: 443, annotations: { "service.beta.kubernetes.io/aws-load-balancer-internal": "true" } },
    ingress: {
      enabled: true,
      className: "nginx",
      annotations: { "nginx.ingress.kubernetes.io/proxy-body-size": "1m" },
      hosts: [
        { host: "staging.bayad.example.ph", paths: [{ path: "/", pathType: "Prefix" }] },
        {
          host: "api.staging.example.ph",
          paths: [
            { path: "/api", pathType: "Prefix" },
            // The docs page loads its renderer from /docs/assets/ and reads /openapi.json.
            { path: "/docs", pathType: "Prefix" },
            { path: "/openapi.json", pathType: "Exact" },
          ],
        },
      ],
      tls: [{ secretName: "staging-tls", hosts: ["staging.bayad.example.ph", "api.staging.example.ph"] }],
    },
  },
  webhooks: { retrySchedule: "0s,1s,30s,5m", timeout: "10s", disableAfter: "3d", eventRetention: "7d" },
  // 3600000 is where a float64 would print as 3.6e+06 without `int`.
  billing: { clockIntervalMs: 3600000, clockLeaseMs: 1200000 },
  otp: {
    emailSender: "smtp",
    smsSender: "semaphore",
    smtp: { host: "smtp.example.ph", port: 465, tls: "implicit", caCertificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", user: "otp", from: "Bayad <otp@example.ph>" },
    semaphore: { senderName: "BAYAD", baseUrl: "https://api.semaphore.co" },
  },
  networkPolicy: {
    gatewayFrom: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } }],
    webhooks: {
      deliveryPorts: [443, 80, 8443],
      // Cluster DNS through NodeLocal DNSCache's link-local address.
      dnsTo: [{ ipBlock: { cidr: "169.254.20.10/32" } }],
      nats: { port: 4222, to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "messaging" } } }] },
      mongodb: { port: 27018, to: [{ ipBlock: { cidr: "10.20.0.0/16" } }] },
      tracing: { port: 4318, to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "observability" } } }] },
    },
  },
  components: {
    gateway: component({ podDisruptionBudget: { enabled: true, maxUnavailable: "25%" } }),
    payments: component(),
    billing: component(),
    links: component(),
    records: component(),
    otp: component(),
    webhooks: component(),
  },
};

/** Everything optional switched off. */
const everythingOff = {
  preStopSleepSeconds: 0,
  spreadAcrossNodes: false,
  shutdownGraceMs: 0,
  networkPolicy: { enabled: false },
  metrics: { podAnnotations: false },
  components: Object.fromEntries(components.map((name) => [name, { replicas: 1, podDisruptionBudget: { enabled: false } }])),
};

export const scenarios: Scenario[] = [
  { name: "default values", releaseName: "bayad", namespace: "default", overrides: [] },
  { name: "production example", releaseName: "bayad", namespace: "payments", overrides: [productionExample()] },
  { name: "everything on", releaseName: "staging-bayad", namespace: "staging", overrides: [everythingOn] },
  { name: "everything off", releaseName: "b", namespace: "dev", overrides: [everythingOff] },
];

/** Each scenario rendered once per test file. */
export function renderScenarios(chart: Chart): (Scenario & Rendered)[] {
  return scenarios.map((s) => ({ ...s, ...renderChart(chart, { releaseName: s.releaseName, namespace: s.namespace, overrides: s.overrides }) }));
}
