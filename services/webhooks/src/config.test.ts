import { describe, expect, it } from "vitest";
import { ConfigError, singleKeyRing } from "@bayad/kit";
import { readWebhooksConfig } from "./config.js";
import { parseRetrySchedule } from "./retry-schedule.js";

const SECRETS_KEY = "k".repeat(32);

describe("readWebhooksConfig", () => {
  it("defaults to eight attempts over about a day and a half, 15 s, 5 days, 30 days, no private targets, 64 events per transaction", () => {
    expect(readWebhooksConfig({ SECRETS_KEY })).toEqual({
      secretsKey: singleKeyRing(SECRETS_KEY),
      retryScheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      timeoutMs: 15_000,
      disableAfterMs: 5 * 86_400_000,
      allowPrivateTargets: false,
      eventRetentionMs: 30 * 86_400_000,
      idempotencyWindowMs: 86_400_000,
      batchSize: 64,
    });
  });

  it("reads every variable", () => {
    const config = readWebhooksConfig({
      SECRETS_KEY,
      PUBLIC_URL: "https://pay.example.ph",
      WEBHOOK_RETRY_SCHEDULE: " 0s, 1s ,500ms,2m ",
      WEBHOOK_TIMEOUT: "2s",
      WEBHOOK_DISABLE_AFTER: "12h",
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_EVENT_RETENTION: "7d",
      PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS: "60",
      WEBHOOKS_BATCH_SIZE: "1",
    });
    expect(config).toEqual({
      secretsKey: singleKeyRing(SECRETS_KEY),
      publicUrl: "https://pay.example.ph",
      retryScheduleMs: [0, 1_000, 500, 120_000],
      timeoutMs: 2_000,
      disableAfterMs: 43_200_000,
      allowPrivateTargets: true,
      eventRetentionMs: 7 * 86_400_000,
      idempotencyWindowMs: 60_000,
      batchSize: 1,
    });
  });

  it("requires SECRETS_KEY of at least 32 characters: the endpoints' secrets are sealed with it", () => {
    expect(() => readWebhooksConfig({})).toThrow(/^SECRETS_KEY is required but not set$/);
    expect(() => readWebhooksConfig({ SECRETS_KEY: "short" })).toThrow(/^SECRETS_KEY must be at least 32 characters$/);
  });

  it("takes the SECRETS_KEYS ring instead, oldest first: its newest key seals, its first keys cursors", () => {
    const next = "n".repeat(32);
    expect(readWebhooksConfig({ SECRETS_KEYS: `legacy:${SECRETS_KEY},k2:${next}` }).secretsKey).toEqual({
      keys: [
        { id: "legacy", key: SECRETS_KEY },
        { id: "k2", key: next },
      ],
    });
    expect(() => readWebhooksConfig({ SECRETS_KEYS: "k2:short" })).toThrow(/^SECRETS_KEYS key "k2" must be at least 32 characters$/);
  });

  it.each([
    ["WEBHOOK_RETRY_SCHEDULE", "soon"],
    ["WEBHOOK_RETRY_SCHEDULE", "0s,,5s"],
    ["WEBHOOK_RETRY_SCHEDULE", "0s;5s"],
    ["WEBHOOK_RETRY_SCHEDULE", "5"],
    ["WEBHOOK_RETRY_SCHEDULE", "0s,8d"],
    ["WEBHOOK_RETRY_SCHEDULE", Array.from({ length: 21 }, () => "1s").join(",")],
    ["WEBHOOK_TIMEOUT", "15"],
    ["WEBHOOK_TIMEOUT", "1h"],
    ["WEBHOOK_DISABLE_AFTER", "forever"],
    ["WEBHOOKS_ALLOW_PRIVATE_TARGETS", "sometimes"],
    ["WEBHOOK_EVENT_RETENTION", "1m"],
    ["PUBLIC_URL", "not a url"],
    ["WEBHOOKS_BATCH_SIZE", "0"],
    ["WEBHOOKS_BATCH_SIZE", "1001"],
  ])("refuses %s=%s in one line naming it", (name, value) => {
    const read = () => readWebhooksConfig({ SECRETS_KEY, [name]: value });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(new RegExp(`^${name} `));
  });
});

describe("parseRetrySchedule", () => {
  it("is the delay before each attempt, the first one's too", () => {
    expect(parseRetrySchedule("X", "0s,1s,1s")).toEqual([0, 1_000, 1_000]);
    expect(parseRetrySchedule("X", "10s")).toEqual([10_000]);
  });

  it("says what it wants", () => {
    expect(() => parseRetrySchedule("WEBHOOK_RETRY_SCHEDULE", "1x")).toThrow(
      'WEBHOOK_RETRY_SCHEDULE must be a comma list of 1 to 20 durations such as 0s,5s,5m,2h (each at most 7d), got "1x"',
    );
  });
});
