/**
 * The chart's Secret: given keys are used, empty ones generated and, on upgrade, kept (lookup
 * returns the Secret the previous release made); an existing Secret replaces it; missing
 * credentials stop the render with a message naming the value.
 */
import { describe, expect, it } from "vitest";
import { loadChart, renderChart } from "./chart.js";
import { helmAvailable } from "./test-support/helm.js";
import { envOf, ofKind, pods, type Obj } from "./test-support/kube.js";

const chart = loadChart();
const ready = helmAvailable("the chart's Secret");
const decode = (s: Obj, key: string) => Buffer.from(s.data[key] as string, "base64").toString("utf8");
const secretOf = (overrides: unknown[] = []) => ofKind(renderChart(chart, { overrides }).manifests, "Secret");

describe.runIf(ready)("the chart's Secret", () => {
  it("generates the keys left empty, long enough for each process, and holds the MongoDB URI", () => {
    const [secret] = secretOf();
    expect(Object.keys(secret!.data).sort()).toEqual(["admin-api-key", "gateway-secret", "mongodb-uri", "otp-hash-secret", "records-cursor-secret", "sandbox-secret", "secrets-key"]);
    expect(decode(secret!, "admin-api-key")).toMatch(/^adm_[A-Za-z0-9]{32}$/);
    for (const key of ["gateway-secret", "sandbox-secret", "secrets-key", "otp-hash-secret", "records-cursor-secret"]) expect(decode(secret!, key).length).toBeGreaterThanOrEqual(32);
    expect(decode(secret!, "mongodb-uri")).toBe((chart.defaults.mongodb as Obj).uri);
    expect(decode(secretOf()[0]!, "admin-api-key")).not.toBe(decode(secret!, "admin-api-key"));
  });

  it("uses the keys given in the values", () => {
    const [secret] = secretOf([{ secrets: { adminApiKey: "adm_given_0123456789" } }]);
    expect(decode(secret!, "admin-api-key")).toBe("adm_given_0123456789");
  });

  it("holds the SMTP password and Semaphore key when those senders are used", () => {
    const [secret] = secretOf([
      {
        otp: { emailSender: "smtp", smsSender: "semaphore", smtp: { host: "smtp.example.ph", user: "u", from: "a@example.ph" } },
        secrets: { smtpPass: "p", semaphoreApiKey: "k" },
      },
    ]);
    expect(decode(secret!, "smtp-pass")).toBe("p");
    expect(decode(secret!, "semaphore-api-key")).toBe("k");
  });

  it("is not made when secrets.existingSecret names one; every reference goes there", () => {
    const r = renderChart(chart, { overrides: [{ secrets: { existingSecret: "my-keys" } }] });
    expect(ofKind(r.manifests, "Secret")).toEqual([]);
    const refs = pods(r.manifests).flatMap((p) => [...envOf(p.spec.containers[0]).values()].map((e) => e.valueFrom?.secretKeyRef).filter(Boolean));
    expect(new Set(refs.map((ref) => ref.name))).toEqual(new Set(["my-keys"]));
    expect(refs.find((ref) => ref.key === "mongodb-uri")).toBeDefined();
  });

  it("gives each component a key ring instead of its single key once the values give one, never both", () => {
    const ring = `legacy:${"a".repeat(40)},k2:${"b".repeat(40)}`;
    const r = renderChart(chart, { overrides: [{ secrets: { secretsKeys: ring, gatewaySecrets: ring, otpHashSecrets: ring } }] });
    expect(decode(ofKind(r.manifests, "Secret")[0]!, "secrets-keys")).toBe(ring);
    const rings: Record<string, [string, string]> = { SECRETS_KEY: ["SECRETS_KEYS", "secrets-keys"], GATEWAY_SECRET: ["GATEWAY_SECRETS", "gateway-secrets"], OTP_HASH_SECRET: ["OTP_HASH_SECRETS", "otp-hash-secrets"] };
    const users = { payments: ["SECRETS_KEY"], billing: ["SECRETS_KEY"], links: ["SECRETS_KEY"], webhooks: ["SECRETS_KEY"], gateway: ["GATEWAY_SECRET"], otp: ["OTP_HASH_SECRET"] };
    for (const p of pods(r.manifests)) {
      const env = envOf(p.spec.containers[0]);
      for (const single of users[p.component as keyof typeof users] ?? []) {
        const [variable, key] = rings[single]!;
        expect(env.has(single), `${p.component} ${single}`).toBe(false);
        expect(env.get(variable)!.valueFrom.secretKeyRef.key).toBe(key);
      }
    }
    const existing = renderChart(chart, { overrides: [{ secrets: { existingSecret: "my-keys", existingSecretKeyRings: ["secrets-keys"] } }] });
    const webhooks = pods(existing.manifests).find((p) => p.component === "webhooks")!;
    expect(envOf(webhooks.spec.containers[0]).get("SECRETS_KEYS")!.valueFrom.secretKeyRef).toEqual({ name: "my-keys", key: "secrets-keys" });
    const gateway = pods(existing.manifests).find((p) => p.component === "gateway")!;
    expect(envOf(gateway.spec.containers[0]).get("GATEWAY_SECRET")!.valueFrom.secretKeyRef).toEqual({ name: "my-keys", key: "gateway-secret" });
  });

  it("leaves the MongoDB URI to mongodb.existingSecret when set", () => {
    const r = renderChart(chart, { overrides: [{ mongodb: { existingSecret: "mongo", existingSecretKey: "uri" } }] });
    expect(Object.keys(ofKind(r.manifests, "Secret")[0]!.data)).not.toContain("mongodb-uri");
    for (const p of pods(r.manifests)) expect(envOf(p.spec.containers[0]).get("MONGODB_URI")!.valueFrom.secretKeyRef).toEqual({ name: "mongo", key: "uri" });
  });

  // helm's messages: its check of values.schema.json stops some before any template runs; the
  // templates' `required` stops the rest ("execution error at (bayad/templates/…): … is required").
  const missing: [string, unknown, RegExp][] = [
    ["the Semaphore API key", { otp: { smsSender: "semaphore" } }, /execution error at \(bayad\/templates\/[^)]+\): secrets\.semaphoreApiKey is required/],
    ["the SMTP password with a user", { otp: { emailSender: "smtp", smtp: { host: "h", from: "f", user: "u" } } }, /execution error at \(bayad\/templates\/[^)]+\): secrets\.smtpPass is required/],
    ["the SMTP host", { otp: { emailSender: "smtp", smtp: { from: "f" } } }, /- otp\.smtp\.host: String length must be greater than or equal to 1/],
    ["the MongoDB URI", { mongodb: { uri: "" } }, /execution error at \(bayad\/templates\/[^)]+\): mongodb\.uri is required/],
    ["the JWT issuer with a JWKS URL", { gateway: { jwt: { jwksUrl: "https://a/jwks" } } }, /- gateway\.jwt\.issuer: String length must be greater than or equal to 1/],
    ["the NATS URL", { nats: { url: "" } }, /- nats\.url: Does not match pattern/],
  ];
  it.each(missing)("stops the render without %s", (_what, change, message) => {
    expect(() => renderChart(chart, { overrides: [change] })).toThrow(message);
  });
});
