/**
 * values.yaml, the production example and the tests' scenarios against values.schema.json, the
 * way helm checks values before rendering (Ajv in strict mode, the schema's draft-07 dialect),
 * and the schema against mistakes it should catch.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { loadChart, mergedValues } from "./chart.js";
import { lookupSchema, valueLeaves } from "./schema-paths.js";
import { productionExample, scenarios } from "./test-support/scenarios.js";

const chart = loadChart();
const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile(chart.schema);

function errorsOf(values: unknown): string[] {
  return validate(values) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
}

describe("values.schema.json", () => {
  it("declares the draft-07 dialect, which helm and Ajv both implement", () => {
    expect(chart.schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
  });

  it("accepts values.yaml", () => {
    expect(errorsOf(chart.defaults)).toEqual([]);
  });

  it("accepts the production example merged over values.yaml", () => {
    expect(errorsOf(mergedValues(chart, [productionExample()]))).toEqual([]);
  });

  it.each(scenarios)("accepts the test scenario $name", ({ overrides }) => {
    expect(errorsOf(mergedValues(chart, overrides))).toEqual([]);
  });

  it("declares every value of values.yaml and of the production example", () => {
    const leaves = [...valueLeaves(chart.defaults), ...valueLeaves(productionExample())];
    expect(leaves.filter((p) => !lookupSchema(chart.schema, p).declared).map((p) => p.join("."))).toEqual([]);
  });

  it("closes every object it lists properties of (additionalProperties false), except extraEnv's free valueFrom", () => {
    const open: string[] = [];
    const visit = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${at}/${i}`));
      if (!node || typeof node !== "object") return;
      const s = node as Record<string, unknown>;
      if (s.properties && s.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(s)) if (k !== "properties") visit(v, `${at}/${k}`);
      if (s.properties) for (const [k, v] of Object.entries(s.properties)) visit(v, `${at}/properties/${k}`);
    };
    visit(chart.schema, "#");
    // allOf/if/then branches only add constraints to closed objects.
    expect(open.filter((p) => !/\/(allOf|if|then)(\/|$)/.test(p))).toEqual([]);
  });

  // Each of these must be refused, at the value named, or the schema would not be checking
  // what it claims to.
  const mistakes: [string, unknown, string][] = [
    ["an unknown top-level key", { replicaCount: 3 }, ""],
    ["a misspelt component", { components: { gatway: {} } }, "/components"],
    ["an unknown component setting", { components: { payments: { replica: 3 } } }, "/components/payments"],
    ["a replica count as a string", { components: { payments: { replicas: "3" } } }, "/components/payments/replicas"],
    ["a fractional replica count", { components: { payments: { replicas: 1.5 } } }, "/components/payments/replicas"],
    ["no CPU request", { components: { gateway: { resources: { requests: { cpu: null } } } } }, "/components/gateway/resources/requests"],
    ["a malformed quantity", { components: { gateway: { resources: { limits: { memory: "512MB" } } } } }, "/components/gateway/resources/limits/memory"],
    ["a PDB percentage above 100", { components: { otp: { podDisruptionBudget: { maxUnavailable: "150%" } } } }, "/components/otp/podDisruptionBudget/maxUnavailable"],
    ["an unknown log level", { logLevel: "verbose" }, "/logLevel"],
    ["a grace period above the process maximum", { shutdownGraceMs: 600001 }, "/shutdownGraceMs"],
    ["a short OTP hash secret", { secrets: { otpHashSecret: "too-short" } }, "/secrets/otpHashSecret"],
    ["a short records cursor secret", { secrets: { recordsCursorSecret: "x".repeat(31) } }, "/secrets/recordsCursorSecret"],
    ["a short admin key", { secrets: { adminApiKey: "adm_short" } }, "/secrets/adminApiKey"],
    ["an unknown e-mail sender", { otp: { emailSender: "sendgrid" } }, "/otp/emailSender"],
    ["smtp without a host", { otp: { emailSender: "smtp", smtp: { from: "a@b.ph" } } }, "/otp/smtp/host"],
    ["a JWKS URL without an issuer", { gateway: { jwt: { jwksUrl: "https://auth.example.ph/jwks" } } }, "/gateway/jwt/issuer"],
    ["a Semaphore sender name over 11 characters", { otp: { semaphore: { senderName: "BAYADPAYMENTS" } } }, "/otp/semaphore/senderName"],
    ["a MongoDB URI of another scheme", { mongodb: { uri: "postgres://db" } }, "/mongodb/uri"],
    ["a NATS URL of another scheme", { nats: { url: "http://nats:4222" } }, "/nats/url"],
    ["extraEnv overriding a variable the chart sets", { components: { gateway: { extraEnv: [{ name: "MONGODB_URI", value: "x" }] } } }, "/components/gateway/extraEnv/0/name"],
    ["an image digest that is not sha256", { image: { digest: "latest" } }, "/image/digest"],
    ["an ingress host with upper case", { gateway: { ingress: { hosts: [{ host: "API.example.ph", paths: [{ path: "/", pathType: "Prefix" }] }] } } }, "/gateway/ingress/hosts/0/host"],
    ["a port out of range", { ports: { grpc: 70000 } }, "/ports/grpc"],
    ["a Prometheus selector with an unknown field", { networkPolicy: { prometheus: { podSelector: { matchLabel: {} } } } }, "/networkPolicy/prometheus/podSelector"],
    ["an empty gateway peer", { networkPolicy: { gatewayFrom: [{}] } }, "/networkPolicy/gatewayFrom/0"],
    ["an OTLP endpoint without a scheme", { tracing: { otlpEndpoint: "otel-collector:4318" } }, "/tracing/otlpEndpoint"],
    ["an OTLP headers Secret that is not a Secret's name", { tracing: { otlpHeadersSecret: "OTLP Headers" } }, "/tracing/otlpHeadersSecret"],
    ["a traces' receiver port out of range", { networkPolicy: { webhooks: { tracing: { port: 0 } } } }, "/networkPolicy/webhooks/tracing/port"],
    ["extraEnv setting a traces variable the chart sets", { components: { otp: { extraEnv: [{ name: "OTEL_SERVICE_NAME", value: "x" }] } } }, "/components/otp/extraEnv/0/name"],
  ];
  it.each(mistakes)("refuses %s", (_what, change, at) => {
    // The defaults with one change, as `--set` or a values file would make it.
    const errors = errorsOf(mergedValues(chart, [change]));
    expect(errors).not.toEqual([]);
    expect(errors.some((e) => e.startsWith(`${at} `))).toBe(true);
  });
});
