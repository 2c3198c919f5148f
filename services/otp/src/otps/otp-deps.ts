import { createRateLimiter, keyedDigest, singleKeyRing, type KeyRing, type Logger, type RateLimiter, type Registry } from "@bayad/kit";
import { createIdempotencyKeys, defaultIdempotencyWindowSeconds, type IdempotencyKeys } from "@bayad/idempotency";
import type { Store } from "@bayad/store";
import type { OtpConfig, OtpLimits } from "../config.js";
import type { OtpChannelName } from "../recipients/recipient.js";
import type { ChannelSenders, DevOutbox, MessageSender } from "@bayad/messaging";
import { createOtpsRepository, type OtpsRepository } from "./otps-repository.js";
import { createFraudSignals, type FraudSignals } from "../fraud/fraud-signals.js";
import { createOtpSettingsRepository, type OtpSettingsRepository } from "../settings/otp-settings.js";
import { registerOtpMetrics, type OtpMetrics } from "../fraud/otp-metrics.js";

/** What the OTP operations need; tests build it around an embedded store and a fixed clock. */
export interface OtpDeps {
  store: Store;
  repository: OtpsRepository;
  /** Per project and environment: the countries SMS may go to, the app's name, the templates. */
  settings: OtpSettingsRepository;
  metrics: OtpMetrics;
  /** What each Idempotency-Key generated, for its window (7 days, as at the gateway). */
  keys: IdempotencyKeys;
  limiter: RateLimiter;
  limits: OtpLimits;
  /** Prefix and client limits, the suspicious-prefix state and the generated/verified counts. */
  fraud: FraudSignals;
  senders: Record<OtpChannelName, MessageSender>;
  /** Present while a channel delivers into the development outbox (ListDevMessages reads it). */
  devOutbox: DevOutbox | undefined;
  /** OTP_HASH_SECRET (the ring's first key): keys the code and recipient hashes. */
  secret: string;
  /** The OTP_HASH_SECRETS ring: seals messages awaiting a resend. */
  sealingKeys: KeyRing;
  /**
   * How long a send may be under way before a retry may presume its process died and
   * reconcile it (twice OTP_SEND_TIMEOUT_MS).
   */
  sendingLeaseMs: number;
  logger: Logger;
  now: () => Date;
}

/** The OTP deps over `store`, as `config` (secret, limits, send timeout) sets them. */
export function createOtpDeps(options: {
  store: Store;
  config: Pick<OtpConfig, "hashSecret" | "limits" | "suspicious" | "sendTimeoutMs"> & Partial<Pick<OtpConfig, "hashSecrets" | "idempotencyWindowMs">>;
  senders: Pick<ChannelSenders, "byChannel" | "devOutbox">;
  logger: Logger;
  now: () => Date;
  /** The process's Prometheus registry: codes generated and verified, SMS refused; absent: no OTP metrics. */
  metrics?: Registry;
}): OtpDeps {
  const { store, config, senders, logger, now } = options;
  const limiter = createRateLimiter(store, { digest: (key) => keyedDigest(config.hashSecret, "rate-limit", key), now });
  const metrics = registerOtpMetrics(options.metrics);
  return {
    store,
    repository: createOtpsRepository(store),
    settings: createOtpSettingsRepository(store),
    metrics,
    keys: createIdempotencyKeys(store, { windowMs: config.idempotencyWindowMs ?? defaultIdempotencyWindowSeconds.otp * 1000, now }),
    limiter,
    limits: config.limits,
    fraud: createFraudSignals({ store, limiter, limits: config.limits, suspicious: config.suspicious, metrics, logger, now }),
    senders: senders.byChannel,
    devOutbox: senders.devOutbox,
    secret: config.hashSecret,
    sealingKeys: config.hashSecrets ?? singleKeyRing(config.hashSecret),
    sendingLeaseMs: 2 * config.sendTimeoutMs,
    logger,
    now,
  };
}
