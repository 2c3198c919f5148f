import { Counter, metricOnce, rateLimitedError, type Logger, type RateLimiter, type RateLimitSetting, type Registry } from "@bayad/kit";
import { addressGroup } from "../http/client-address.js";

/**
 * Sign-in attempts per client address (all of them, so a correct guess is refused as well once
 * over): plenty for people, nothing for a guesser (an admin key has at least 16 characters).
 * IPv6 addresses count by their /64 (http/client-address.ts).
 */
export const signInLimit: RateLimitSetting = { limit: 20, windowSeconds: 60 };

/** Why a sign-in was refused, as the metric labels it. */
export type SignInRefusal = "invalid_key" | "address_limit" | "global_limit";

export interface SignInLimits {
  /** Counts one attempt from `clientAddress`; throws RATE_LIMITED (429, Retry-After) over either limit. */
  admit(clientAddress: string): Promise<void>;
  /** Records a wrong admin key against the global budget. */
  failed(): Promise<void>;
}

export interface SignInLimitOptions {
  limiter: RateLimiter;
  /** DASHBOARD_SIGN_IN_GLOBAL_FAILURES: wrong keys a minute from all addresses together. */
  globalFailures: RateLimitSetting;
  logger: Logger;
  metrics?: Registry;
}

/**
 * The dashboard's sign-in limits: the per-address one, and beside it one budget of failures
 * counted across every address, so a guesser spread over many addresses (or a proxy the gateway
 * was not told to trust) still meets a limit. While that budget is spent, every sign-in is
 * refused, the right key too: operators keep the admin key itself (Authorization header, `bayad`),
 * which no sign-in limit touches. Refusals are counted by reason in
 * `bayad_dashboard_sign_in_refusals_total`.
 */
export function createSignInLimits(options: SignInLimitOptions): SignInLimits {
  const refusals = options.metrics
    ? metricOnce(
        options.metrics,
        "bayad_dashboard_sign_in_refusals_total",
        () =>
          new Counter({
            name: "bayad_dashboard_sign_in_refusals_total",
            help: "Dashboard sign-ins refused, by reason: invalid_key, address_limit, global_limit.",
            labelNames: ["reason"],
            registers: [options.metrics!],
          }),
      )
    : undefined;
  const refused = (reason: SignInRefusal) => refusals?.inc({ reason });
  const globalBudget = { scope: "dashboard-sign-in-failures", setting: options.globalFailures, key: "all" };

  return {
    async admit(clientAddress) {
      const perAddress = await options.limiter.take([{ scope: "dashboard-sign-in", setting: signInLimit, key: addressGroup(clientAddress) }]);
      if (!perAddress.allowed) {
        refused("address_limit");
        throw rateLimitedError(perAddress.retryAfterSeconds);
      }
      const global = await options.limiter.check([globalBudget]);
      if (!global.allowed) {
        refused("global_limit");
        options.logger.warn({ clientAddress, retryAfterSeconds: global.retryAfterSeconds }, "dashboard sign-in refused: the global failure budget is spent");
        throw rateLimitedError(global.retryAfterSeconds);
      }
    },

    async failed() {
      refused("invalid_key");
      await options.limiter.take([globalBudget]);
    },
  };
}
