import { AppError, rateLimitedError, type CallerContext, type Logger, type RateLimitCharge, type RateLimiter } from "@bayad/kit";
import type { Store } from "@bayad/store";
import type { OtpLimits, SuspiciousTrafficSettings } from "../config.js";
import { generateCharges } from "../otps/limit-charges.js";
import type { OtpRecord } from "../otps/otp.js";
import type { OtpChannelName } from "../recipients/recipient.js";
import { numberPrefix } from "./number-prefix.js";
import type { OtpMetrics } from "./otp-metrics.js";
import { createPrefixTallies, type PrefixTallies } from "./prefix-tallies.js";

type Tenant = Pick<CallerContext, "projectId" | "environment">;

export interface GenerateAdmission {
  channel: OtpChannelName;
  /** Normalised: E.164 for SMS. */
  recipient: string;
  recipientHash: string;
  /** The end user's address the caller gave (clientIp); empty when not given (not limited then). */
  clientAddress: string;
  /**
   * A later entry of a channel list, after a provider failed the message to an earlier one: the
   * request-wide limits (per project, per client) were charged for that one and are not again.
   */
  fallback?: boolean;
}

/**
 * Against SMS pumping (bots requesting codes to premium or foreign ranges, docs/api/otp.md):
 * limits per number prefix and per client address on top of the per-recipient and per-project
 * ones, and a suspicious-traffic state per prefix whose SMS codes go unverified.
 */
export interface FraudSignals {
  /**
   * Before a code is made: refuses SMS to a suspicious prefix (429 SUSPICIOUS_TRAFFIC), then
   * charges every generate limit at once (429 RATE_LIMITED naming a prefix or client limit that
   * refused). A refused call counts against nothing.
   */
  admitGenerate(caller: Tenant, request: GenerateAdmission): Promise<void>;
  /** A code was stored: counts it (metrics, and the prefix tally for SMS). */
  generated(record: OtpRecord): Promise<void>;
  /** A code was verified: counts it likewise. */
  verified(record: OtpRecord): Promise<void>;
}

/**
 * A refusal by a limit of the whole request (per project, per client address), not of the entry
 * it was asked for: another entry of a channel list would be refused alike.
 */
export class RequestLimitRefusal extends AppError {}

/** The fields a new record carries for the fraud signals: an SMS code's number prefix, which verify tallies under. */
export function fraudFields(request: { channel: OtpChannelName; recipient: string }): { numberPrefix?: string } {
  return request.channel === "sms" ? { numberPrefix: numberPrefix(request.recipient) } : {};
}

export function createFraudSignals(options: {
  store: Store;
  limiter: RateLimiter;
  limits: OtpLimits;
  suspicious: SuspiciousTrafficSettings;
  metrics: OtpMetrics;
  logger: Logger;
  now: () => Date;
}): FraudSignals {
  const { limiter, limits, suspicious, logger, now } = options;
  const windowMs = suspicious.windowSeconds * 1000;
  const tallies: PrefixTallies = createPrefixTallies(options.store, windowMs);
  const { metrics } = options;
  const tenantKey = (caller: Tenant) => `${caller.projectId}:${caller.environment}`;

  /** Refuses SMS to `prefix` while it cools down, and starts a cool-down when its codes go unverified. */
  async function checkSuspicious(caller: Tenant, prefix: string): Promise<void> {
    const at = now();
    const cooldown = await tallies.cooldownOf(caller, prefix);
    if (cooldown && cooldown.until > at) throw suspiciousTraffic(prefix, cooldown.until, at);
    // Codes generated before a cool-down ended are not held against the prefix again.
    const since = new Date(Math.max(at.getTime() - windowMs, cooldown?.until.getTime() ?? 0));
    const { generated, verified } = await tallies.countsSince(caller, prefix, since);
    if (generated < suspicious.minGenerated || verified * 100 >= suspicious.minVerifiedPercent * generated) return;
    const until = new Date(at.getTime() + suspicious.cooldownSeconds * 1000);
    await tallies.startCooldown(caller, prefix, at, until);
    logger.warn({ projectId: caller.projectId, environment: caller.environment, numberPrefix: prefix, generated, verified, until }, "otp suspicious traffic: SMS to the prefix paused");
    throw suspiciousTraffic(prefix, until, at);
  }

  async function counted(what: "generated" | "verified", record: OtpRecord): Promise<void> {
    const labels = { project: record.projectId, environment: record.environment, channel: record.channel };
    if (what === "generated") metrics.generated(labels);
    else metrics.verified(labels);
    if (!record.numberPrefix) return;
    try {
      await tallies.count(record, record.numberPrefix, record.createdAt, what);
    } catch (error) {
      // The code is made (or verified) whatever the tally says; a lost count only blurs the signal.
      logger.warn({ err: error, otpId: record._id }, `otp prefix tally not counted (${what})`);
    }
  }

  return {
    async admitGenerate(caller, request) {
      const prefix = request.channel === "sms" ? numberPrefix(request.recipient) : undefined;
      const refused = (reason: "prefix" | "client" | "suspicious") =>
        metrics.refused({ project: caller.projectId, environment: caller.environment, channel: request.channel, reason });
      if (prefix !== undefined) {
        try {
          await checkSuspicious(caller, prefix);
        } catch (error) {
          if (error instanceof AppError && error.code === "SUSPICIOUS_TRAFFIC") refused("suspicious");
          throw error;
        }
      }
      const fraudCharges: RateLimitCharge[] = [];
      if (prefix !== undefined) {
        fraudCharges.push({ scope: "generate-prefix", setting: limits.generatePerPrefix, key: `${tenantKey(caller)}:${prefix}` });
      }
      if (request.clientAddress !== "" && !request.fallback) {
        fraudCharges.push({ scope: "generate-client", setting: limits.generatePerClient, key: `${tenantKey(caller)}:${request.clientAddress}` });
      }
      const recipientCharges = generateCharges(limits, caller, request.recipientHash).filter((charge) => !request.fallback || charge.scope !== "generate-caller");
      const outcome = await limiter.take([...recipientCharges, ...fraudCharges]);
      if (outcome.allowed) return;
      const full = new Set(outcome.limits.filter((limit) => limit.remaining === 0).map((limit) => limit.scope));
      const details: string[] = [];
      if (prefix !== undefined && full.has("generate-prefix")) {
        refused("prefix");
        const { limit, windowSeconds } = limits.generatePerPrefix;
        details.push(`prefix: at most ${limit} codes in ${windowSeconds} s to numbers starting ${prefix}`);
      }
      if (full.has("generate-client")) {
        refused("client");
        const { limit, windowSeconds } = limits.generatePerClient;
        details.push(`client: at most ${limit} codes in ${windowSeconds} s from one client address`);
      }
      const error = rateLimitedError(outcome.retryAfterSeconds);
      const options = { headers: error.headers, ...(details.length > 0 ? { details } : {}) };
      throw full.has("generate-caller") || full.has("generate-client") ? new RequestLimitRefusal("RATE_LIMITED", error.message, options) : new AppError("RATE_LIMITED", error.message, options);
    },
    generated: (record) => counted("generated", record),
    verified: (record) => counted("verified", record),
  };
}

function suspiciousTraffic(prefix: string, until: Date, at: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));
  return new AppError(
    "SUSPICIOUS_TRAFFIC",
    `SMS codes to numbers starting ${prefix} are paused until ${until.toISOString()}: most codes recently sent to them were never verified, which looks like SMS pumping. E-mail codes are not affected.`,
    { headers: { "Retry-After": String(retryAfterSeconds) }, details: [`recipient: numbers starting ${prefix} are paused for suspicious traffic`] },
  );
}
