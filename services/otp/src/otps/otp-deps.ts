import { createRateLimiter, keyedDigest, type Logger, type RateLimiter } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { OtpConfig, OtpLimits } from "../config.js";
import type { OtpChannelName } from "../recipients/recipient.js";
import type { ChannelSenders } from "../senders/channel-senders.js";
import type { DevOutbox } from "../senders/dev-outbox.js";
import type { OtpSender } from "../senders/sender.js";
import { createOtpsRepository, type OtpsRepository } from "./otps-repository.js";

/** What the OTP operations need; tests build it around an embedded store and a fixed clock. */
export interface OtpDeps {
  repository: OtpsRepository;
  limiter: RateLimiter;
  limits: OtpLimits;
  senders: Record<OtpChannelName, OtpSender>;
  /** Present while a channel delivers into the development outbox (ListDevMessages reads it). */
  devOutbox: DevOutbox | undefined;
  /** OTP_HASH_SECRET. */
  secret: string;
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
  config: Pick<OtpConfig, "hashSecret" | "limits" | "sendTimeoutMs">;
  senders: Pick<ChannelSenders, "byChannel" | "devOutbox">;
  logger: Logger;
  now: () => Date;
}): OtpDeps {
  const { store, config, senders, logger, now } = options;
  return {
    repository: createOtpsRepository(store),
    limiter: createRateLimiter(store, { digest: (key) => keyedDigest(config.hashSecret, "rate-limit", key), now }),
    limits: config.limits,
    senders: senders.byChannel,
    devOutbox: senders.devOutbox,
    secret: config.hashSecret,
    sendingLeaseMs: 2 * config.sendTimeoutMs,
    logger,
    now,
  };
}
