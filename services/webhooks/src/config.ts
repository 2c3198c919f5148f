import { ConfigError, envBool, envDuration, envInt, envString, envUrl, readSecretsKeys, type Env, type KeyRing } from "@bayad/kit";
import { readIdempotencyWindowMs } from "@bayad/idempotency";
import { parseRetrySchedule } from "./retry-schedule.js";

export interface WebhooksConfig {
  /**
   * SECRETS_KEYS, or SECRETS_KEY (every key at least 32 characters): the ring whose newest key
   * seals the endpoints' signing secrets in the store (any of its keys opens them) and whose first
   * key keys the listing cursors. Replicas share it, and it must outlive them: a key drawn per
   * run would leave every stored secret unopenable. `npm start` generates and keeps one.
   */
  secretsKey: KeyRing;
  /**
   * PUBLIC_URL: the gateway's public base URL, which makes the hosted-page URLs inside events'
   * `data` absolute. Optional where the platform hands the server its gateway's URL instead.
   */
  publicUrl?: string;
  /** WEBHOOK_RETRY_SCHEDULE (0s,5s,5m,30m,2h,5h,10h,10h): the delay before each attempt, in ms. */
  retryScheduleMs: number[];
  /** WEBHOOK_TIMEOUT (15s): how long an attempt may take; a 2xx within it is success. */
  timeoutMs: number;
  /** WEBHOOK_DISABLE_AFTER (5d): an endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
  /**
   * WEBHOOKS_ALLOW_PRIVATE_TARGETS (false): lets test-mode endpoints reach loopback and private
   * addresses (a developer's receiver on localhost; `npm start` sets it). Never live ones, and
   * never cloud metadata addresses.
   */
  allowPrivateTargets: boolean;
  /** WEBHOOK_EVENT_RETENTION (30d): how long events and finished attempts are kept. */
  eventRetentionMs: number;
  /** PAYMENTS_IDEMPOTENCY_WINDOW_SECONDS (86400, the gateway's): how long an Idempotency-Key's outcome is kept. */
  idempotencyWindowMs: number;
  /**
   * WEBHOOKS_BATCH_SIZE (default 64, 1–1000): the most events the consumer records (with their
   * first attempts) in one store transaction, so a burst costs one commit (and one disk flush on
   * the embedded store) per batch instead of per event, and deliveries do not wait behind the
   * flushes. A batch never waits to fill up; a larger bound only lets one failing event send more
   * of its neighbours back for redelivery with it.
   */
  batchSize: number;
}

/** WEBHOOKS_BATCH_SIZE when unset. */
export const DEFAULT_BATCH_SIZE = 64;

const DAY_MS = 86_400_000;

export const DEFAULT_RETRY_SCHEDULE = "0s,5s,5m,30m,2h,5h,10h,10h";

/** The webhooks service's environment; a bad value throws a one-line ConfigError. */
export function readWebhooksConfig(env: Env): WebhooksConfig {
  const secretsKey = readSecretsKeys(env);
  if (secretsKey === undefined) throw new ConfigError("SECRETS_KEY", "is required but not set");
  const publicUrl = envUrl(env, "PUBLIC_URL");
  return {
    secretsKey,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    retryScheduleMs: parseRetrySchedule("WEBHOOK_RETRY_SCHEDULE", envString(env, "WEBHOOK_RETRY_SCHEDULE", DEFAULT_RETRY_SCHEDULE)),
    timeoutMs: envDuration(env, "WEBHOOK_TIMEOUT", 15_000, { minMs: 100, maxMs: 120_000 }),
    disableAfterMs: envDuration(env, "WEBHOOK_DISABLE_AFTER", 5 * DAY_MS, { minMs: 1_000, maxMs: 365 * DAY_MS }),
    allowPrivateTargets: envBool(env, "WEBHOOKS_ALLOW_PRIVATE_TARGETS", false),
    eventRetentionMs: envDuration(env, "WEBHOOK_EVENT_RETENTION", 30 * DAY_MS, { minMs: 3_600_000, maxMs: 365 * DAY_MS }),
    idempotencyWindowMs: readIdempotencyWindowMs(env, "payment"),
    batchSize: envInt(env, "WEBHOOKS_BATCH_SIZE", DEFAULT_BATCH_SIZE, { min: 1, max: 1000 }),
  };
}
