import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** Each component's process refuses a bad configuration before it listens: one line, exit 1. */

const runService = fileURLToPath(new URL("../../dist/run-service.js", import.meta.url));

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runService, ...args], {
      // Only what the case sets, so nothing from the test runner's environment leaks in.
      env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("run-service configuration", () => {
  const cases: Array<[string, string, Record<string, string>, string]> = [
    ["a port that is not a number", "payments", { PORT: "abc", NATS_URL: "nats://127.0.0.1:4222" }, "PORT"],
    ["no NATS_URL for a service that publishes events", "billing", {}, "NATS_URL"],
    ["a NATS_URL that is not a URL", "records", { NATS_URL: "not a url" }, "NATS_URL"],
    ["no service address for the gateway", "gateway", { ADMIN_API_KEY: "adm_0123456789abcdef" }, "PAYMENTS_URL"],
    ["an admin key that is too short", "gateway", { ADMIN_API_KEY: "short" }, "ADMIN_API_KEY"],
    ["an unknown OTP sender", "otp", { OTP_SMS_SENDER: "carrier-pigeon" }, "OTP_SMS_SENDER"],
    [
      "no SECRETS_KEY for payments on MongoDB",
      "payments",
      { MONGODB_URI: "mongodb://127.0.0.1:1/?replicaSet=rs0", NATS_URL: "nats://127.0.0.1:4222" },
      "SECRETS_KEY",
    ],
    ["a SECRETS_KEY that is too short", "payments", { SECRETS_KEY: "short", NATS_URL: "nats://127.0.0.1:4222" }, "SECRETS_KEY"],
    ["a PUBLIC_URL that is not a URL", "payments", { PUBLIC_URL: "pay dot example", NATS_URL: "nats://127.0.0.1:4222" }, "PUBLIC_URL"],
    ["a grace period out of range", "links", { SHUTDOWN_GRACE_MS: "-5", NATS_URL: "nats://127.0.0.1:4222" }, "SHUTDOWN_GRACE_MS"],
    ["no webhooks address for the gateway", "gateway", {
      ADMIN_API_KEY: "adm_0123456789abcdef",
      ...Object.fromEntries(["PAYMENTS", "BILLING", "LINKS", "RECORDS", "OTP"].map((name) => [`${name}_URL`, "http://127.0.0.1:1"])),
    }, "WEBHOOKS_URL"],
    // It cannot learn the gateway's URL on its own, and what it seals must open after a restart.
    ["no PUBLIC_URL for the webhooks service", "webhooks", { NATS_URL: "nats://127.0.0.1:4222" }, "PUBLIC_URL"],
    [
      "no SECRETS_KEY for the webhooks service on MongoDB",
      "webhooks",
      { MONGODB_URI: "mongodb://127.0.0.1:1/?replicaSet=rs0", NATS_URL: "nats://127.0.0.1:4222", PUBLIC_URL: "https://pay.example.ph" },
      "SECRETS_KEY",
    ],
    ["a SECRETS_KEY that is too short for the webhooks service", "webhooks", { SECRETS_KEY: "short", PUBLIC_URL: "https://pay.example.ph" }, "SECRETS_KEY"],
    ["a retry schedule that is not durations", "webhooks", { WEBHOOK_RETRY_SCHEDULE: "soon, later", PUBLIC_URL: "https://pay.example.ph" }, "WEBHOOK_RETRY_SCHEDULE"],
  ];
  it.each(cases)("stops on %s with one line naming the variable", async (_name, component, env, variable) => {
    const { code, stderr } = await run([component], env);
    expect(code).toBe(1);
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${variable}\\b`));
  });

  it("refuses an unknown component", async () => {
    const { code, stderr } = await run(["ledger"], {});
    expect(code).toBe(2);
    expect(stderr).toContain("gateway|payments|billing|links|records|otp|webhooks");
  });
});
