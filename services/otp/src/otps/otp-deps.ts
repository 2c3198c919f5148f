import type { Logger } from "@bayad/kit";
import type { OtpLimits } from "../config.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { OtpChannelName } from "../recipients/recipient.js";
import type { DevOutbox } from "../senders/dev-outbox.js";
import type { OtpSender } from "../senders/sender.js";
import type { OtpsRepository } from "./otps-repository.js";

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
