import { describe, expect, it } from "vitest";
import { bannerLines, withDevelopmentDefaults } from "./launch-support.js";

const banner = {
  title: "Bayad is running.",
  gatewayUrl: "http://127.0.0.1:8080",
  adminApiKey: "adm_x",
  adminApiKeyGenerated: true,
  projectId: "prj_x",
  testApiKey: "sk_test_x",
};
const outboxLine = (env: NodeJS.ProcessEnv) => bannerLines(banner, env).find((line) => line.includes("development outbox"));

describe("bannerLines", () => {
  it("names the development outbox for the channels whose codes it keeps", () => {
    expect(outboxLine({})).toMatch(/^ {2}OTP codes are kept in the development outbox, not sent: GET http:\/\/127\.0\.0\.1:8080\/admin\/v1\/otp\/messages/);
    expect(outboxLine({ OTP_SMS_SENDER: "semaphore" })).toMatch(/^ {2}OTP codes by e-mail are kept in the development outbox/);
    expect(outboxLine({ OTP_EMAIL_SENDER: "smtp" })).toMatch(/^ {2}OTP codes by SMS are kept in the development outbox/);
  });

  it("names the internal metrics listener when there is one, and no metrics line otherwise", () => {
    const metricsUrl = "http://127.0.0.1:9464/metrics";
    expect(bannerLines({ ...banner, metricsUrl }, {})).toContain(`  Metrics:       ${metricsUrl}   (internal listener, METRICS_PORT; not on the gateway's port)`);
    expect(bannerLines(banner, {}).some((line) => line.includes("Metrics:"))).toBe(false);
  });

  it("says nothing of the outbox when every code is really sent", () => {
    expect(outboxLine({ OTP_EMAIL_SENDER: "smtp", OTP_SMS_SENDER: "semaphore" })).toBeUndefined();
  });
});

describe("withDevelopmentDefaults (npm start)", () => {
  it("lets test-mode webhook endpoints reach private addresses unless the environment says otherwise", () => {
    expect(withDevelopmentDefaults({ PORT: "0" })).toEqual({ PORT: "0", WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
    expect(withDevelopmentDefaults({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: " " }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe("true");
    expect(withDevelopmentDefaults({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: "false" }).WEBHOOKS_ALLOW_PRIVATE_TARGETS).toBe("false");
  });
});
